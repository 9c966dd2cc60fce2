// PriorityClass (scheduling.k8s.io/v1) as the API server validates it on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/scheduling/validation/validation.go (ValidatePriorityClass) and
// pkg/apis/scheduling/v1/helpers.go (IsKnownSystemPriorityClass).
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import type { Reporter } from "./report.ts";
import { type Obj, asBool, asNum, asObj, asStr } from "./values.ts";

const SYSTEM_PREFIX = "system-";
const HIGHEST_USER_PRIORITY = 1_000_000_000;
const SYSTEM_CLASSES: Readonly<Record<string, number>> = { "system-node-critical": 2_000_001_000, "system-cluster-critical": 2_000_000_000 };

function knownSystemClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const expected = SYSTEM_CLASSES[name];
  if (expected === undefined) return `${name} is not a known system priority class`;
  if (expected !== value) return `value of ${name} PriorityClass must be ${expected}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

function validatePriorityClass(pc: Obj, r: Reporter): void {
  const name = asStr(asObj(pc.metadata)?.name) ?? "";
  const value = asNum(pc.value) ?? 0;
  if (name.startsWith(SYSTEM_PREFIX)) {
    const err = knownSystemClassError(name, value, asBool(pc.globalDefault) === true);
    if (err) r.forbidden(FieldPath.of("metadata", "name"), `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${err}`, "scheduling/priority-class-name");
  } else if (value > HIGHEST_USER_PRIORITY) {
    r.forbidden(FieldPath.of("value"), `maximum allowed value of a user defined priority is ${HIGHEST_USER_PRIORITY}`, "scheduling/priority-class-value");
  }
  // preemptionPolicy: the schema stage reports values outside the enum (PreemptLowerPriority, Never)
}

export const SCHEDULING: NativeGroup = { group: "scheduling.k8s.io", kinds: { PriorityClass: validatePriorityClass } };

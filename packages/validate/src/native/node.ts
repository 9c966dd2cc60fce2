// RuntimeClass (node.k8s.io/v1) as the API server validates it on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/node/validation/validation.go (ValidateRuntimeClass, validateOverhead,
// validateScheduling, validateTolerations).
import { isDns1123Label } from "./names.ts";
import { validateLabels } from "./objectmeta.ts";
import { FieldPath } from "./path.ts";
import { validateTolerations } from "./podspec.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { validateResourceRequirements } from "./resources.ts";
import { type Obj, asObj, asStr, objItems } from "./values.ts";

const CHECK = "node/runtime-class";

/** A toleration as the server prints the internal core.Toleration: Go field names, every field, null for an unset pointer. */
function goToleration(t: Obj): JsonValue {
  const s = (k: string) => asStr(t[k]) ?? "";
  return new JsonValue({ Key: s("key"), Operator: s("operator"), Value: s("value"), Effect: s("effect"), TolerationSeconds: t.tolerationSeconds ?? null });
}

function validateRuntimeClass(rc: Obj, r: Reporter): void {
  const handler = asStr(rc.handler) ?? "";
  if (handler === "") r.required(FieldPath.of("handler"), "", CHECK);
  else r.invalidEach(FieldPath.of("handler"), handler, isDns1123Label(handler), CHECK);
  const overhead = asObj(rc.overhead);
  // the overhead is checked as a container's limits (validateOverhead), under the server's path `overhead.limits`
  if (overhead) validateResourceRequirements({ limits: overhead.podFixed }, FieldPath.of("overhead"), r);
  const scheduling = asObj(rc.scheduling);
  if (!scheduling) return;
  const sp = FieldPath.of("scheduling");
  validateLabels(scheduling.nodeSelector, sp.child("nodeSelector"), r, CHECK);
  validateTolerations(scheduling.tolerations, sp.child("tolerations"), r);
  const seen = new Set<string>();
  for (const [i, t] of objItems(scheduling.tolerations)) {
    const key = JSON.stringify([t.key ?? "", t.operator ?? "", t.value ?? "", t.effect ?? ""]);
    if (seen.has(key)) r.duplicate(sp.child("tolerations").index(i), goToleration(t), CHECK);
    else seen.add(key);
  }
}

export const NODE: NativeGroup = { group: "node.k8s.io", kinds: { RuntimeClass: validateRuntimeClass } };

// PodDisruptionBudget (policy/v1) as the API server validates it on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/policy/validation/validation.go (ValidatePodDisruptionBudgetSpec) and
// pkg/apis/apps/validation/validation.go (ValidatePositiveIntOrPercent, IsNotMoreThan100Percent).
import { validateLabelSelector } from "./labelselector.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { isValidPercent } from "./names.ts";
import { type Obj, asObj } from "./values.ts";

/** An int-or-string that must be a non-negative integer or a percentage ("10%") of at most 100%. */
export function validateIntOrPercent(v: unknown, path: FieldPath, r: Reporter, check: string): void {
  if (typeof v === "string") {
    const errors = isValidPercent(v);
    r.invalidEach(path, v, errors, check);
    if (errors.length === 0 && Number(v.slice(0, -1)) > 100) r.invalid(path, v, "must not be greater than 100%", check);
  } else if (typeof v === "number" && v < 0) r.invalid(path, v, "must be greater than or equal to 0", check);
}

function validatePodDisruptionBudget(pdb: Obj, r: Reporter): void {
  const spec = asObj(pdb.spec) ?? {};
  const path = FieldPath.of("spec");
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    // the value is Go's internal PodDisruptionBudgetSpec (no json tags): its field names and order, unset as null
    const goSpec = { MinAvailable: spec.minAvailable, Selector: spec.selector ?? null, MaxUnavailable: spec.maxUnavailable, UnhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy ?? null };
    r.invalid(path, new JsonValue(goSpec), "minAvailable and maxUnavailable cannot be both set", "policy/pdb-min-max");
  }
  if (spec.minAvailable !== undefined) validateIntOrPercent(spec.minAvailable, path.child("minAvailable"), r, "policy/pdb-min-available");
  if (spec.maxUnavailable !== undefined) validateIntOrPercent(spec.maxUnavailable, path.child("maxUnavailable"), r, "policy/pdb-max-unavailable");
  validateLabelSelector(spec.selector, path.child("selector"), r);
  // unhealthyPodEvictionPolicy: the schema stage reports values outside the enum (the same two values)
}

export const POLICY: NativeGroup = { group: "policy", kinds: { PodDisruptionBudget: validatePodDisruptionBudget } };

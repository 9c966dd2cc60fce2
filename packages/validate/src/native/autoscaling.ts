// The autoscaling API group: HorizontalPodAutoscaler (v2 and v1) as the API server validates it on create, after
// the v2 defaults (minReplicas 1, a CPU 80% utilization metric when none, behavior rules completed from the
// defaults: a rule that is given keeps its own `policies`, an empty list included).
// After k8s.io/kubernetes@v1.36.5/pkg/apis/autoscaling/validation/validation.go and pkg/apis/autoscaling/v2/defaults.go.
import { isDns1123Label, isValidPathSegmentName } from "./names.ts";
import { FieldPath } from "./path.ts";
import { quantitySign, quantityString, readQuantity } from "./quantity.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { validateContainerResourceName } from "./resources.ts";
import { type Obj, asArr, asNum, asObj, asStr, objItems } from "./values.ts";

const SPEC = FieldPath.of("spec");
const A = "autoscaling";
const METRIC_TYPES = ["ContainerResource", "External", "Object", "Pods", "Resource"];
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

const str = (v: unknown): string => asStr(v) ?? "";

/** `allowEmptyGroup`: Object metrics may describe a core object (`apiVersion: v1`); the scale target may not. */
function validateCrossVersionObjectReference(ref: Obj, path: FieldPath, r: Reporter, check: string, allowEmptyGroup = false): void {
  for (const k of ["kind", "name"]) {
    const v = str(ref[k]);
    if (v === "") r.required(path.child(k), "", check);
    else r.invalidEach(path.child(k), v, isValidPathSegmentName(v), check);
  }
  const apiVersion = str(ref.apiVersion);
  const problem = apiVersionProblem(apiVersion, allowEmptyGroup);
  if (problem) r.invalid(path.child("apiVersion"), apiVersion, problem, check);
}

/** schema.ParseGroupVersion, then "must specify API group" unless allowed. */
function apiVersionProblem(apiVersion: string, allowEmptyGroup: boolean): string | undefined {
  const parts = apiVersion.split("/");
  if (parts.length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
  const group = parts.length === 2 && apiVersion !== "/" ? (parts[0] as string) : "";
  if (!allowEmptyGroup && group === "") return "apiVersion must specify API group";
  return undefined;
}

function validateHpa(hpa: Obj, r: Reporter, ctx: { readonly version: string }): void {
  const spec = asObj(hpa.spec) ?? {};
  const check = `${A}/hpa-replicas`;
  const minReplicas = asNum(spec.minReplicas) ?? 1;
  const maxReplicas = asNum(spec.maxReplicas) ?? 0;
  // HPAScaleToZero is alpha (off) in 1.36: the lower bound is 1
  if (minReplicas < 1) r.invalid(SPEC.child("minReplicas"), minReplicas, "must be greater than or equal to 1", check);
  if (maxReplicas === 0) r.required(SPEC.child("maxReplicas"), "must be set and greater than 0", check);
  else if (maxReplicas < 0) r.invalid(SPEC.child("maxReplicas"), maxReplicas, "must be greater than or equal to 1", check);
  if (maxReplicas < minReplicas) r.invalid(SPEC.child("maxReplicas"), maxReplicas, "must be greater than or equal to `minReplicas`", check);
  validateCrossVersionObjectReference(asObj(spec.scaleTargetRef) ?? {}, SPEC.child("scaleTargetRef"), r, `${A}/hpa-scale-target`);
  if (ctx.version === "v1") {
    // v1's target is converted to the internal type's CPU Resource metric first: the server names that path
    const target = asNum(spec.targetCPUUtilizationPercentage);
    if (target !== undefined && target < 1) {
      const internal = SPEC.child("metrics").index(0).child("resource", "target", "averageUtilization");
      r.invalid(internal, target, "must be greater than 0", `${A}/hpa-target`, SPEC.child("targetCPUUtilizationPercentage").pointer());
    }
    return;
  }
  const metrics = objItems(spec.metrics);
  const mp = SPEC.child("metrics");
  let objectOrExternal = false;
  for (const [i, m] of metrics) {
    validateMetricSpec(m, mp.index(i), r);
    const t = str(m.type);
    if (t === "Object" || t === "External") objectOrExternal = true;
  }
  // with no metrics the default (a CPU Resource metric) applies, so scaling to zero still needs one
  if (minReplicas === 0 && !objectOrExternal) {
    r.forbidden(mp, "must specify at least one Object or External metric to support scaling to zero replicas", `${A}/hpa-metric`);
  }
  const behavior = asObj(spec.behavior);
  if (behavior) {
    validateScalingRules(asObj(behavior.scaleUp), SPEC.child("behavior", "scaleUp"), r);
    validateScalingRules(asObj(behavior.scaleDown), SPEC.child("behavior", "scaleDown"), r);
  }
}

const SOURCE_FIELD: Readonly<Record<string, string>> = { Object: "object", Pods: "pods", Resource: "resource", External: "external", ContainerResource: "containerResource" };

function validateMetricSpec(m: Obj, path: FieldPath, r: Reporter): void {
  const check = `${A}/hpa-metric`;
  const type = str(m.type);
  if (type === "") r.required(path.child("type"), "must specify a metric source type", check);
  if (!METRIC_TYPES.includes(type)) r.notSupported(path.child("type"), type, METRIC_TYPES, check);
  const present: string[] = [];
  for (const field of ["object", "external", "pods", "resource", "containerResource"]) {
    const src = asObj(m[field]);
    if (!src) continue;
    present.push(field);
    if (present.length !== 1) continue;
    const p = path.child(field);
    switch (field) {
      case "object":
        validateCrossVersionObjectReference(asObj(src.describedObject) ?? {}, p.child("describedObject"), r, check, true);
        validateMetricIdentifier(asObj(src.metric) ?? {}, p.child("metric"), r);
        validateTarget(src, p, r, "object");
        break;
      case "external":
        validateMetricIdentifier(asObj(src.metric) ?? {}, p.child("metric"), r);
        validateTarget(src, p, r, "external");
        break;
      case "pods":
        validateMetricIdentifier(asObj(src.metric) ?? {}, p.child("metric"), r);
        validateTarget(src, p, r, "pods");
        break;
      case "resource":
        if (str(src.name) === "") r.required(p.child("name"), "must specify a resource name", check);
        validateTarget(src, p, r, "resource");
        break;
      case "containerResource": {
        const name = str(src.name);
        if (name === "") r.required(p.child("name"), "must specify a resource name", check);
        else validateContainerResourceName(name, p.child("name"), r, check);
        const container = str(src.container);
        if (container === "") r.required(p.child("container"), "must specify a container", check);
        else r.invalidEach(p.child("container"), container, isDns1123Label(container), check);
        validateTarget(src, p, r, "resource");
        break;
      }
    }
  }
  const expected = SOURCE_FIELD[type];
  if (expected !== undefined && m[expected] === undefined) r.required(path.child(expected), "must populate information for the given metric source", check);
  // Go's switch reports an unknown type a second time (the server's message shows it once)
  if (expected === undefined) r.notSupported(path.child("type"), type, METRIC_TYPES, check);
  if (present.length !== 1) {
    for (const f of present.filter((f) => f !== expected).sort()) r.forbidden(path.child(f), "must populate the given metric source only", check);
  }
}

function validateMetricIdentifier(id: Obj, path: FieldPath, r: Reporter): void {
  const name = str(id.name);
  if (name === "") r.required(path.child("name"), "must specify a metric name", `${A}/hpa-metric`);
  else r.invalidEach(path.child("name"), name, isValidPathSegmentName(name), `${A}/hpa-metric`);
}

/** validateMetricTarget, then the source's rule on which of value / averageValue / averageUtilization it needs. */
function validateTarget(src: Obj, path: FieldPath, r: Reporter, source: "object" | "external" | "pods" | "resource"): void {
  const check = `${A}/hpa-target`;
  const t = asObj(src.target) ?? {};
  const tp = path.child("target");
  const type = str(t.type);
  if (type === "") r.required(tp.child("type"), "must specify a metric target type", check);
  if (type !== "Utilization" && type !== "Value" && type !== "AverageValue") r.invalid(tp.child("type"), type, "must be either Utilization, Value, or AverageValue", check);
  const value = readQuantity(t.value);
  if (value && quantitySign(value) !== 1) r.invalid(tp.child("value"), new JsonValue(quantityString(value)), "must be positive", check);
  const averageValue = readQuantity(t.averageValue);
  if (averageValue && quantitySign(averageValue) !== 1) r.invalid(tp.child("averageValue"), new JsonValue(quantityString(averageValue)), "must be positive", check);
  const utilization = asNum(t.averageUtilization);
  if (utilization !== undefined && utilization < 1) r.invalid(tp.child("averageUtilization"), utilization, "must be greater than 0", check);
  const has = (k: string) => t[k] !== undefined && t[k] !== null;
  switch (source) {
    case "object":
      if (!has("value") && !has("averageValue")) r.required(tp.child("averageValue"), "must set either a target value or averageValue", check);
      break;
    case "external":
      if (!has("value") && !has("averageValue")) r.required(tp.child("averageValue"), "must set either a target value for metric or a per-pod target", check);
      if (has("value") && has("averageValue")) r.forbidden(tp.child("value"), "may not set both a target value for metric and a per-pod target", check);
      break;
    case "pods":
      if (!has("averageValue")) r.required(tp.child("averageValue"), "must specify a positive target averageValue", check);
      break;
    case "resource":
      if (!has("averageUtilization") && !has("averageValue")) r.required(tp.child("averageUtilization"), "must set either a target raw value or a target utilization", check);
      if (has("averageUtilization") && has("averageValue")) r.forbidden(tp.child("averageValue"), "may not set both a target raw value and a target utilization", check);
      break;
  }
}

function validateScalingRules(rules: Obj | undefined, path: FieldPath, r: Reporter): void {
  // a missing rule set is filled from the defaults (valid); a given one keeps its own fields
  if (!rules) return;
  const check = `${A}/hpa-behavior`;
  const window = asNum(rules.stabilizationWindowSeconds);
  if (window !== undefined && window < 0) r.invalid(path.child("stabilizationWindowSeconds"), window, "must be greater than or equal to zero", check);
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    r.invalid(path.child("stabilizationWindowSeconds"), window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`, check);
  }
  const select = asStr(rules.selectPolicy);
  if (select !== undefined && !["Disabled", "Max", "Min"].includes(select)) r.notSupported(path.child("selectPolicy"), select, ["Disabled", "Max", "Min"], check);
  const policies = asArr(rules.policies);
  const pp = path.child("policies");
  // absent policies come from the defaults; an empty list stays empty
  if (policies !== undefined && policies.length === 0) r.required(pp, "must specify at least one Policy", check);
  for (const [i, p] of objItems(rules.policies)) {
    const ip = pp.index(i);
    const type = str(p.type);
    if (type !== "Pods" && type !== "Percent") r.notSupported(ip.child("type"), type, ["Percent", "Pods"], check);
    const value = asNum(p.value) ?? 0;
    if (value <= 0) r.invalid(ip.child("value"), value, "must be greater than zero", check);
    const period = asNum(p.periodSeconds) ?? 0;
    if (period <= 0) r.invalid(ip.child("periodSeconds"), period, "must be greater than zero", check);
    if (period > MAX_PERIOD_SECONDS) r.invalid(ip.child("periodSeconds"), period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`, check);
  }
  const tolerance = readQuantity(rules.tolerance);
  if (tolerance && quantitySign(tolerance) < 0) r.invalid(path.child("tolerance"), quantityString(tolerance), "must be greater than or equal to 0", check);
}

export const autoscaling: NativeGroup = {
  group: "autoscaling",
  kinds: { HorizontalPodAutoscaler: validateHpa },
};

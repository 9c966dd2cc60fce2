// LimitRange as the API server validates it on create, after the v1 defaults (Container items: default <- max,
// defaultRequest <- default, then <- min; every value rounded up to milli units): limit types, resource names,
// and the order min <= defaultRequest <= default <= max, ratios.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (ValidateLimitRange,
// validateLimitRangeTypeName, validateLimitRangeResourceName) and pkg/apis/core/v1/defaults.go (SetDefaults_LimitRangeItem).
import { isQualifiedName } from "./names.ts";
import { FieldPath } from "./path.ts";
import { compareQuantities, milliValue, type Quantity, quantityString, readQuantity } from "./quantity.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { isNativeResource, roundUpToMilli, validateContainerResourceName, validateResourceName } from "./resources.ts";
import { asObj, asStr, type Obj, objItems } from "./values.ts";

const CHECK = "core/limit-range";
const STANDARD_TYPES = new Set(["Pod", "Container", "PersistentVolumeClaim"]);
const ONE: Quantity = { unscaled: 1n, scale: 0, format: "DecimalSI" };

function readList(v: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  const o = asObj(v);
  if (!o) return out;
  for (const k in o) {
    const q = readQuantity(o[k]);
    if (q) out.set(k, roundUpToMilli(q));
  }
  return out;
}

const q = (x: Quantity) => new JsonValue(quantityString(x));

function validateItem(item: Obj, path: FieldPath, r: Reporter, seenTypes: Set<string>): void {
  const type = asStr(item.type) ?? "";
  const typePath = path.child("type");
  const typeErrors = isQualifiedName(type);
  r.invalidEach(typePath, type, typeErrors, CHECK);
  if (typeErrors.length === 0 && !type.includes("/") && !STANDARD_TYPES.has(type)) r.invalid(typePath, type, "must be a standard limit type or fully qualified", CHECK);
  if (seenTypes.has(type)) r.duplicate(typePath, type, CHECK);
  seenTypes.add(type);

  const max = readList(item.max);
  const min = readList(item.min);
  const defaults = readList(item.default);
  const defaultRequests = readList(item.defaultRequest);
  const ratios = readList(item.maxLimitRequestRatio);
  const nameCheck = (name: string, p: FieldPath) => (type === "Pod" || type === "Container" ? validateContainerResourceName(name, p, r, CHECK) : validateResourceName(name, p, r, CHECK));
  for (const k of max.keys()) nameCheck(k, path.child("max").key(k));
  for (const k of min.keys()) nameCheck(k, path.child("min").key(k));
  if (type === "Container") {
    // SetDefaults_LimitRangeItem
    for (const [k, v] of max) if (!defaults.has(k)) defaults.set(k, v);
    for (const [k, v] of defaults) if (!defaultRequests.has(k)) defaultRequests.set(k, v);
    for (const [k, v] of min) if (!defaultRequests.has(k)) defaultRequests.set(k, v);
  }
  if (type === "Pod") {
    if (asObj(item.default) && Object.keys(asObj(item.default) ?? {}).length > 0) r.forbidden(path.child("default"), "may not be specified when `type` is 'Pod'", CHECK);
    if (asObj(item.defaultRequest) && Object.keys(asObj(item.defaultRequest) ?? {}).length > 0) r.forbidden(path.child("defaultRequest"), "may not be specified when `type` is 'Pod'", CHECK);
  } else {
    for (const k of defaults.keys()) nameCheck(k, path.child("default").key(k));
    for (const k of defaultRequests.keys()) nameCheck(k, path.child("defaultRequest").key(k));
  }
  if (type === "PersistentVolumeClaim" && !min.has("storage") && !max.has("storage")) {
    r.required(path.child("limits"), "either minimum or maximum storage value is required, but neither was provided", CHECK, path.pointer());
  }
  for (const k of ratios.keys()) nameCheck(k, path.child("maxLimitRequestRatio").key(k));
  const keys = new Set([...max.keys(), ...min.keys(), ...(type === "Pod" ? [] : [...defaults.keys(), ...defaultRequests.keys()]), ...ratios.keys()]);
  const s = quantityString;
  for (const k of keys) {
    const mn = min.get(k);
    const mx = max.get(k);
    const df = type === "Pod" ? undefined : defaults.get(k);
    const dr = type === "Pod" ? undefined : defaultRequests.get(k);
    const ratio = ratios.get(k);
    if (mn && mx && compareQuantities(mn, mx) > 0) r.invalid(path.child("min").key(k), q(mn), `min value ${s(mn)} is greater than max value ${s(mx)}`, CHECK);
    if (dr && mn && compareQuantities(mn, dr) > 0) r.invalid(path.child("defaultRequest").key(k), q(dr), `min value ${s(mn)} is greater than default request value ${s(dr)}`, CHECK);
    if (dr && mx && compareQuantities(dr, mx) > 0) r.invalid(path.child("defaultRequest").key(k), q(dr), `default request value ${s(dr)} is greater than max value ${s(mx)}`, CHECK);
    if (dr && df && compareQuantities(dr, df) > 0) r.invalid(path.child("defaultRequest").key(k), q(dr), `default request value ${s(dr)} is greater than default limit value ${s(df)}`, CHECK);
    if (df && mn && compareQuantities(mn, df) > 0) r.invalid(path.child("default").key(k), q(mn), `min value ${s(mn)} is greater than default value ${s(df)}`, CHECK);
    if (df && mx && compareQuantities(df, mx) > 0) r.invalid(path.child("default").key(k), q(mx), `default value ${s(df)} is greater than max value ${s(mx)}`, CHECK);
    if (ratio && compareQuantities(ratio, ONE) < 0) r.invalid(path.child("maxLimitRequestRatio").key(k), q(ratio), `ratio ${s(ratio)} is less than 1`, CHECK);
    if (ratio && mn && mx) {
      // Go compares in milli units (its float64 arithmetic and %f formatting)
      const limit = Number(milliValue(mx)) / Number(milliValue(mn));
      if (Number(milliValue(ratio)) / 1000 > limit) r.invalid(path.child("maxLimitRequestRatio").key(k), q(ratio), `ratio ${s(ratio)} is greater than max/min = ${limit.toFixed(6)}`, CHECK);
    }
    if (!(isNativeResource(k) && !k.startsWith("hugepages-")) && df && dr && compareQuantities(df, dr) !== 0) {
      r.invalid(path.child("defaultRequest").key(k), q(dr), `default value ${s(df)} must equal to defaultRequest value ${s(dr)} in ${k}`, CHECK);
    }
  }
}

export function validateLimitRange(lr: Obj, r: Reporter): void {
  const seen = new Set<string>();
  const path = FieldPath.of("spec", "limits");
  for (const [i, item] of objItems(asObj(lr.spec)?.limits)) validateItem(item, path.index(i), r, seen);
}

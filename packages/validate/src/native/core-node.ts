// Node (core v1) as the API server validates it on create: status may be set on create, so its quantities count.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (ValidateNode, ValidateNodeResources,
// ValidateNodeSpecificAnnotations, ValidateTaintsInNodeAnnotations, ValidateAvoidPodsInNodeAnnotations,
// validateNodeTaints, validateTaintEffect, validateNodeSwapStatus, validateNodeDeclaredFeatures) and
// pkg/registry/core/node/strategy.go (spec.configSource and status.config are dropped on create;
// NodeDeclaredFeatures is beta and on in 1.36).
import { cidrRange, isCidrSloppy, legacyCidrProblems } from "./cidr.ts";
import { isLabelValue, isQualifiedName } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { validateResourceListValues } from "./resources.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr, objItems } from "./values.ts";

const C = "core/node";
const META = FieldPath.of("metadata");
const ANNOTATIONS = META.child("annotations");
const TAINTS_ANNOTATION = "scheduler.alpha.kubernetes.io/taints";
const AVOID_PODS_ANNOTATION = "scheduler.alpha.kubernetes.io/preferAvoidPods";
const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
const FEATURE_NAME = /^[A-Z][a-zA-Z0-9]*(\/[a-zA-Z][a-zA-Z0-9]*)*$/;

interface Taint {
  readonly key: string;
  readonly value: string;
  readonly effect: string;
  readonly timeAdded: string | null;
}

/**
 * validateNodeTaints: key a qualified name, value a label value, a known effect, unique by key and effect.
 * `pointerOf` maps an index to the JSON Pointer of the taint (the server's path is not always where it is written).
 */
function validateNodeTaints(taints: readonly Taint[], path: FieldPath, r: Reporter, pointerOf: (i: number, field?: string) => string): void {
  const seen = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    const p = path.index(i);
    for (const m of isQualifiedName(t.key)) r.invalid(p.child("key"), t.key, m, C, pointerOf(i, "key"));
    const valueErrors = isLabelValue(t.value);
    if (valueErrors.length > 0) r.invalid(p.child("value"), t.value, valueErrors.join(";"), C, pointerOf(i, "value"));
    if (t.effect === "") r.required(p.child("effect"), "", C, pointerOf(i, "effect"));
    else if (!TAINT_EFFECTS.includes(t.effect)) r.notSupported(p.child("effect"), t.effect, TAINT_EFFECTS, C, pointerOf(i, "effect"));
    const keys = seen.get(t.effect) ?? new Set<string>();
    if (keys.has(t.key)) {
      // Go prints the internal Taint struct (no JSON tags) and replaces the detail
      const value = new JsonValue({ Key: t.key, Value: t.value, Effect: t.effect, TimeAdded: t.timeAdded });
      r.duplicateWithDetail(p, value, "taints must be unique by key and effect pair", C, pointerOf(i));
      return;
    }
    keys.add(t.key);
    seen.set(t.effect, keys);
  });
}

/** A taint as Go's json.Unmarshal into core.Taint reads it: field names match case-insensitively. */
function taintFrom(o: Obj): Taint {
  const field = (name: string): unknown => {
    const k = Object.keys(o).find((x) => x.toLowerCase() === name.toLowerCase());
    return k === undefined ? undefined : o[k];
  };
  return { key: asStr(field("key")) ?? "", value: asStr(field("value")) ?? "", effect: asStr(field("effect")) ?? "", timeAdded: asStr(field("timeAdded")) ?? null };
}

/**
 * json.Unmarshal of the taints annotation into []core.Taint: the taints, or Go's error. Syntax errors keep
 * JavaScript's wording (Go names the offending character and offset differently).
 */
function taintsFromAnnotation(text: string): Taint[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return text.trim() === "" ? "unexpected end of JSON input" : `invalid JSON: ${(err as Error).message}`;
  }
  if (value === null) return [];
  if (!Array.isArray(value)) return `json: cannot unmarshal ${goJsonType(value)} into Go value of type []core.Taint`;
  const out: Taint[] = [];
  for (const item of value) {
    if (item === null) {
      out.push({ key: "", value: "", effect: "", timeAdded: null });
      continue;
    }
    const o = asObj(item);
    if (!o) return `json: cannot unmarshal ${goJsonType(item)} into Go value of type core.Taint`;
    for (const [k, v] of Object.entries(o)) {
      const name = ["key", "value", "effect"].find((f) => f === k.toLowerCase());
      if (name && v !== null && typeof v !== "string") return `json: cannot unmarshal ${goJsonType(v)} into Go struct field Taint.${name[0]?.toUpperCase()}${name.slice(1)} of type ${name === "effect" ? "core.TaintEffect" : "string"}`;
    }
    out.push(taintFrom(o));
  }
  return out;
}

const goJsonType = (v: unknown): string => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "boolean" ? "bool" : typeof v);

/** ValidateNodeSpecificAnnotations: the taints and preferAvoidPods annotations, when set and not empty. */
function validateNodeSpecificAnnotations(annotations: Obj, r: Reporter): void {
  const taintsText = asStr(annotations[TAINTS_ANNOTATION]) ?? "";
  const annotationPointer = (key: string) => ANNOTATIONS.key(key).pointer();
  if (taintsText !== "") {
    const taints = taintsFromAnnotation(taintsText);
    if (typeof taints === "string") r.invalid(ANNOTATIONS, TAINTS_ANNOTATION, taints, C, annotationPointer(TAINTS_ANNOTATION));
    else if (taints.length > 0) validateNodeTaints(taints, ANNOTATIONS.child(TAINTS_ANNOTATION), r, () => annotationPointer(TAINTS_ANNOTATION));
  }
  const avoidText = asStr(annotations[AVOID_PODS_ANNOTATION]) ?? "";
  if (avoidText !== "") validateAvoidPods(avoidText, r, annotationPointer(AVOID_PODS_ANNOTATION));
}

/** ValidateAvoidPodsInNodeAnnotations: each preferAvoidPods entry names a controller. */
function validateAvoidPods(text: string, r: Reporter, pointer: string): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    r.invalid(ANNOTATIONS.child("AvoidPods"), AVOID_PODS_ANNOTATION, `invalid JSON: ${(err as Error).message}`, C, pointer);
    return;
  }
  if (value !== null && !asObj(value)) {
    r.invalid(ANNOTATIONS.child("AvoidPods"), AVOID_PODS_ANNOTATION, `json: cannot unmarshal ${goJsonType(value)} into Go value of type v1.AvoidPods`, C, pointer);
    return;
  }
  const entries = asArr(asObj(value)?.preferAvoidPods) ?? [];
  entries.forEach((e, i) => {
    const p = ANNOTATIONS.child(AVOID_PODS_ANNOTATION).index(i).child("PodSignature");
    const controller = asObj(asObj(asObj(e)?.podSignature)?.podController);
    if (!controller) r.required(p, "", C, pointer);
    else if (asBool(controller.controller) === false) r.invalid(p.child("PodController", "Controller"), false, "must point to a controller", C, pointer);
  });
}

/** validateNodeDeclaredFeatures: UpperCamelCase names with '/' segments, sorted, no duplicates. */
function validateDeclaredFeatures(list: unknown, r: Reporter): void {
  const path = FieldPath.of("status", "declaredFeatures");
  const features = (asArr(list) ?? []).map((f) => asStr(f) ?? "");
  features.forEach((f, i) => {
    if (f.length > 253) r.invalid(path.index(i), f, `invalid feature name "${f}": must be no more than 253 characters`, C);
    else if (!FEATURE_NAME.test(f)) {
      r.invalid(path.index(i), f, `invalid feature name "${f}": must start with an UpperCamelCase segment, with subsequent segments separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes`, C);
    }
    const next = features[i + 1];
    if (next === undefined) return;
    if (f === next) r.duplicate(path.index(i + 1), next, C);
    else if (f > next) r.invalid(path.index(i + 1), next, "list must be sorted alphabetically", C);
  });
}

/** Go's net.ParseCIDR (used by IsDualStackCIDRStrings) refuses what the sloppy parser allows: leading zeros in IPv4. */
const goParsesCidr = (c: string): boolean => isCidrSloppy(c) && (c.includes(":") || !(c.split("/")[0] ?? "").split(".").some((o) => o.length > 1 && o.startsWith("0")));

function validatePodCidrs(list: unknown, r: Reporter): void {
  const cidrs = (asArr(list) ?? []).map((c) => asStr(c) ?? "");
  if (cidrs.length === 0) return;
  const path = FieldPath.of("spec", "podCIDRs");
  cidrs.forEach((c, i) => {
    r.invalidEach(path.index(i), c, legacyCidrProblems(c), C);
  });
  if (cidrs.length < 2) return;
  // IsDualStackCIDRStrings: an unparsable CIDR is an internal error, and the list then counts as not dual-stack
  const bad = cidrs.findIndex((c) => !goParsesCidr(c));
  if (bad >= 0) {
    r.internalError(path, `invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[${bad}]: <nil> (invalid CIDR address: ${cidrs[bad]})`, C);
  }
  const dualStack = bad < 0 && new Set(cidrs.map((c) => cidrRange(c).v6)).size === 2;
  if (!dualStack || cidrs.length > 2) r.invalid(path, cidrs, "may specify no more than one CIDR for each IP family", C);
}

/** ValidateNode (ObjectMeta by objectmeta.ts). */
function validateNode(node: Obj, r: Reporter): void {
  const meta = asObj(node.metadata) ?? {};
  validateNodeSpecificAnnotations(asObj(meta.annotations) ?? {}, r);
  const spec = asObj(node.spec) ?? {};
  const taints = objItems(spec.taints);
  // Go names spec.taints under metadata (fldPath is the metadata path there); the pointers name spec.taints
  if (taints.length > 0) {
    validateNodeTaints(
      taints.map(([, t]) => taintFrom({ key: t.key, value: t.value, effect: t.effect, timeAdded: t.timeAdded })),
      META.child("taints"),
      r,
      (i, field) => FieldPath.of("spec", "taints").index(taints[i]?.[0] ?? i).child(field || undefined).pointer(),
    );
  }
  const status = asObj(node.status) ?? {};
  validateResourceListValues(status.capacity, FieldPath.of("status", "capacity"), r, C);
  validateResourceListValues(status.allocatable, FieldPath.of("status", "allocatable"), r, C);
  const swapCapacity = asNum(asObj(asObj(asObj(status.nodeInfo)?.swap))?.capacity);
  // Go names it metadata.nodeSwapStatus.capacity
  if (swapCapacity !== undefined && swapCapacity <= 0) {
    r.invalid(META.child("nodeSwapStatus", "capacity"), swapCapacity, "must be greater than zero", C, "/status/nodeInfo/swap/capacity");
  }
  validateDeclaredFeatures(status.declaredFeatures, r);
  validatePodCidrs(spec.podCIDRs, r);
}

export const CORE_NODE: NativeGroup = { group: "", kinds: { Node: validateNode } };

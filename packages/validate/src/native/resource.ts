// resource.k8s.io/v1 (Dynamic Resource Allocation, GA) as the API server validates it on create: DeviceClass,
// ResourceClaim, ResourceClaimTemplate and ResourceSlice.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/resource/validation/validation.go (ValidateDeviceClass, ValidateResourceClaim,
// ValidateResourceClaimTemplate, ValidateResourceSlice and their helpers, same names in camelCase) and
// pkg/apis/resource/v1/defaults.go (an exact request's allocationMode defaults to ExactCount and its count 0 to 1).
// Fields of features off by default in 1.36 (DRAListTypeAttributes: bools/ints/strings/versions;
// DRANodeAllocatableResources: nodeAllocatableResourceMappings) are dropped by the server before validation, so they
// are not checked. Every list and map limit below is a constant of pkg/apis/resource/types.go.
import { validateCsiDriverName } from "./storage.ts";
import { validateAnnotations, validateLabels } from "./objectmeta.ts";
import { byteLength, isCIdentifier, isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName } from "./names.ts";
import { FieldPath } from "./path.ts";
import { validateNodeSelector } from "./podspec.ts";
import { type Quantity, compareQuantities, quantityString, quantityValue, readQuantity } from "./quantity.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { isExtendedResource } from "./resources.ts";
import { CEL_SELECTOR_MAX_LENGTH, selectorProblem } from "./resource-cel.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr, objItems } from "./values.ts";

const CHECK = "resource";
const DEVICE_REQUESTS_MAX = 32;
const DEVICE_CONSTRAINTS_MAX = 32;
const DEVICE_CONFIG_MAX = 32;
const DEVICE_SELECTORS_MAX = 32;
const FIRST_AVAILABLE_MAX = 8;
const OPAQUE_PARAMETERS_MAX = 10 * 1024;
const SLICE_MAX_DEVICES = 128;
const SLICE_MAX_DEVICES_ADVANCED = 64;
const SLICE_MAX_COUNTER_SETS = 8;
const MAX_COUNTERS_PER_SET = 32;
const MAX_CONSUMPTIONS_PER_DEVICE = 2;
const MAX_COUNTERS_PER_CONSUMPTION = 32;
const MAX_ATTRIBUTES_AND_CAPACITIES = 32;
const MAX_ATTRIBUTE_VALUES = 48;
const DEVICE_MAX_DOMAIN_LENGTH = 63;
const DEVICE_MAX_ID_LENGTH = 32;
const ATTRIBUTE_MAX_VALUE_LENGTH = 64;
const DEVICE_TAINTS_MAX = 16;
const BINDING_CONDITIONS_MAX = 4;
const POOL_NAME_MAX = 253;
const DISCRETE_MAX_OPTIONS = 10;
const TAINT_EFFECTS = ["NoExecute", "NoSchedule", "None"];
const REQUEST_NAME_REF = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

const items = (v: unknown): readonly unknown[] => asArr(v) ?? [];
const text = (v: unknown): string => asStr(v) ?? "";

/** Go's validateSlice/validateSet size check: too many items short-circuits the list (DoS protection). */
function tooMany(list: readonly unknown[], max: number, path: FieldPath, r: Reporter): boolean {
  if (list.length <= max) return false;
  r.tooMany(path, list.length, max, CHECK);
  return true;
}

/** validateSet's uniqueness: a later item with an earlier item's key is a Duplicate at its index. */
function duplicates(keys: readonly string[], path: FieldPath, r: Reporter): void {
  const seen = new Set<string>();
  keys.forEach((k, i) => {
    if (seen.has(k)) r.duplicate(path.index(i), k, CHECK);
    seen.add(k);
  });
}

const label = (name: string, path: FieldPath, r: Reporter) => r.invalidEach(path, name, isDns1123Label(name), CHECK);
const subdomain = (name: string, path: FieldPath, r: Reporter) => r.invalidEach(path, name, isDns1123Subdomain(name), CHECK);

// ---- ResourceClaim / ResourceClaimTemplate ----

/** The names a constraint or config may name: `request` or `request/subrequest`. */
function gatherRequestNames(devices: Obj): Map<string, Set<string> | undefined> {
  const names = new Map<string, Set<string> | undefined>();
  for (const [, request] of objItems(devices.requests)) {
    const sub = objItems(request.firstAvailable);
    names.set(text(request.name), sub.length === 0 ? undefined : new Set(sub.map(([, s]) => text(s.name))));
  }
  return names;
}

function hasRequestName(names: Map<string, Set<string> | undefined>, ref: string): boolean {
  const segments = ref.split("/");
  if (segments.length > 2 || !names.has(segments[0] ?? "")) return false;
  return segments.length === 1 || (names.get(segments[0] ?? "")?.has(segments[1] ?? "") ?? false);
}

function validateResourceClaimSpec(spec: Obj, path: FieldPath, r: Reporter): void {
  const devices = asObj(spec.devices) ?? {};
  const dp = path.child("devices");
  const names = gatherRequestNames(devices);
  const requests = items(devices.requests);
  if (!tooMany(requests, DEVICE_REQUESTS_MAX, dp.child("requests"), r)) {
    for (const [i, request] of objItems(requests)) validateDeviceRequest(request, dp.child("requests").index(i), r);
    duplicates(requests.map((q) => text(asObj(q)?.name)), dp.child("requests"), r);
  }
  const constraints = items(devices.constraints);
  if (!tooMany(constraints, DEVICE_CONSTRAINTS_MAX, dp.child("constraints"), r)) {
    for (const [i, c] of objItems(constraints)) validateDeviceConstraint(c, dp.child("constraints").index(i), names, r);
  }
  const config = items(devices.config);
  if (!tooMany(config, DEVICE_CONFIG_MAX, dp.child("config"), r)) {
    for (const [i, c] of objItems(config)) {
      const p = dp.child("config").index(i);
      validateRequestNameRefs(items(c.requests), p.child("requests"), names, r);
      validateDeviceConfiguration(c, p, r);
    }
  }
}

function validateDeviceRequest(request: Obj, path: FieldPath, r: Reporter): void {
  label(text(request.name), path.child("name"), r);
  const firstAvailable = items(request.firstAvailable);
  const exactly = asObj(request.exactly);
  const kinds = (firstAvailable.length > 0 ? 1 : 0) + (exactly ? 1 : 0);
  if (kinds === 0) r.required(path, "exactly one of `exactly` or `firstAvailable` is required", CHECK);
  else if (kinds > 1) r.invalid(path, null, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set", CHECK);
  else if (firstAvailable.length > 0) {
    const fp = path.child("firstAvailable");
    if (tooMany(firstAvailable, FIRST_AVAILABLE_MAX, fp, r)) return;
    for (const [i, sub] of objItems(firstAvailable)) {
      const p = fp.index(i);
      label(text(sub.name), p.child("name"), r);
      validateExactRequest(sub, p, r);
    }
    duplicates(firstAvailable.map((s) => text(asObj(s)?.name)), fp, r);
  } else if (exactly) validateExactRequest(exactly, path.child("exactly"), r);
}

/** validateExactDeviceRequest / validateDeviceSubRequest after SetDefaults (ExactCount, count 1). */
function validateExactRequest(request: Obj, path: FieldPath, r: Reporter): void {
  const className = text(request.deviceClassName);
  if (className === "") r.required(path.child("deviceClassName"), "", CHECK);
  else subdomain(className, path.child("deviceClassName"), r);
  validateSelectors(items(request.selectors), path.child("selectors"), r);
  const mode = text(request.allocationMode) || "ExactCount";
  const rawCount = asNum(request.count) ?? 0;
  const count = mode === "ExactCount" && rawCount === 0 ? 1 : rawCount;
  if (mode === "All") {
    if (count !== 0) r.invalid(path.child("count"), count, "must not be specified when allocationMode is 'All'", CHECK);
  } else if (mode === "ExactCount") {
    if (count <= 0) r.invalid(path.child("count"), count, "must be greater than zero", CHECK);
  } else r.notSupported(path.child("allocationMode"), mode, ["All", "ExactCount"], CHECK);
  for (const [i, t] of objItems(request.tolerations)) validateDeviceToleration(t, path.child("tolerations").index(i), r);
}

function validateSelectors(selectors: readonly unknown[], path: FieldPath, r: Reporter): void {
  if (tooMany(selectors, DEVICE_SELECTORS_MAX, path, r)) return;
  for (const [i, selector] of objItems(selectors)) {
    const cel = asObj(selector.cel);
    const p = path.index(i).child("cel");
    if (!cel) {
      r.required(p, "", CHECK);
      continue;
    }
    const expression = text(cel.expression);
    if (expression.length > CEL_SELECTOR_MAX_LENGTH) {
      r.tooLong(p.child("expression"), CEL_SELECTOR_MAX_LENGTH, CHECK);
      continue;
    }
    const problem = selectorProblem(expression);
    // an empty expression is a syntax error to cel-go too; the server words it as Invalid like any other
    if (problem) r.invalid(p.child("expression"), expression, problem.detail, `${CHECK}/cel-selector`);
  }
}

function validateDeviceToleration(t: Obj, path: FieldPath, r: Reporter): void {
  const key = text(t.key);
  if (key !== "") r.invalidEach(path.child("key"), key, isQualifiedName(key), CHECK);
  // the operator defaults to Equal (+default="Equal" in k8s.io/api resource/v1)
  const operator = text(t.operator) || "Equal";
  const value = text(t.value);
  if (operator === "Exists") {
    if (value !== "") r.invalid(path.child("value"), value, "must be empty for operator `Exists`", CHECK);
  } else if (operator === "Equal") r.invalidEach(path.child("value"), value, isLabelValue(value), CHECK);
  else r.notSupported(path.child("operator"), operator, ["Equal", "Exists"], CHECK);
  const effect = text(t.effect);
  if (effect !== "" && !TAINT_EFFECTS.includes(effect)) r.notSupported(path.child("effect"), effect, TAINT_EFFECTS, CHECK);
}

function validateDeviceConstraint(c: Obj, path: FieldPath, names: Map<string, Set<string> | undefined>, r: Reporter): void {
  validateRequestNameRefs(items(c.requests), path.child("requests"), names, r);
  const match = asStr(c.matchAttribute);
  const distinct = asStr(c.distinctAttribute);
  if (match !== undefined) validateFullyQualifiedName(match, path.child("matchAttribute"), r);
  else if (distinct !== undefined) validateFullyQualifiedName(distinct, path.child("distinctAttribute"), r);
  // DRAConsumableCapacity is on in 1.36: the server's message for neither (sic)
  else r.required(path, 'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set', CHECK);
}

function validateRequestNameRefs(refs: readonly unknown[], path: FieldPath, names: Map<string, Set<string> | undefined>, r: Reporter): void {
  if (tooMany(refs, DEVICE_REQUESTS_MAX, path, r)) return;
  refs.forEach((raw, i) => {
    if (typeof raw !== "string") return;
    const p = path.index(i);
    const segments = raw.split("/");
    if (segments.length > 2) {
      r.invalid(p, raw, REQUEST_NAME_REF, CHECK);
      return;
    }
    for (const s of segments) label(s, p, r);
    if (!hasRequestName(names, raw)) r.invalid(p, raw, REQUEST_NAME_REF, CHECK);
  });
  duplicates(refs.map((x) => String(x)), path, r);
}

/** validateDeviceConfiguration: an opaque configuration with a driver name and a JSON object as parameters. */
function validateDeviceConfiguration(config: Obj, path: FieldPath, r: Reporter): void {
  const opaque = asObj(config.opaque);
  if (!opaque) {
    r.required(path.child("opaque"), "", CHECK);
    return;
  }
  const op = path.child("opaque");
  validateCsiDriverName(text(opaque.driver), op.child("driver"), r, CHECK);
  const params = opaque.parameters;
  const pp = op.child("parameters");
  if (params === undefined || params === null) r.required(pp, "", CHECK);
  else if (byteLength(JSON.stringify(params)) > OPAQUE_PARAMETERS_MAX) r.tooLong(pp, OPAQUE_PARAMETERS_MAX, CHECK);
  else if (!asObj(params)) r.invalid(pp, "<value omitted>", "must be a valid JSON object", CHECK);
}

/** validateQualifiedName: a C identifier, or `domain/identifier` with the domain a driver name (no third part checked). */
function validateQualifiedName(name: string, path: FieldPath, r: Reporter): void {
  const parts = name.split("/");
  if (parts.length === 1) validateCIdentifier(name, path, r);
  else if (parts.length === 2) {
    const [domain = "", id = ""] = parts;
    if (domain === "") r.invalid(path, "", "the domain must not be empty", CHECK);
    else validateCsiDriverName(domain, path, r, CHECK);
    if (id === "") r.invalid(path, "", "the name must not be empty", CHECK);
    else validateCIdentifier(id, path, r);
  }
}

function validateFullyQualifiedName(name: string, path: FieldPath, r: Reporter): void {
  validateQualifiedName(name, path, r);
  if (!name.includes("/")) r.invalid(path, name, "a fully qualified name must be a domain and a name separated by a slash", CHECK);
}

function validateCIdentifier(id: string, path: FieldPath, r: Reporter): void {
  if (id.length > DEVICE_MAX_ID_LENGTH) r.tooLong(path, DEVICE_MAX_ID_LENGTH, CHECK);
  r.invalidEach(path, id, isCIdentifier(id), CHECK);
}

function validateResourceClaim(claim: Obj, r: Reporter): void {
  validateResourceClaimSpec(asObj(claim.spec) ?? {}, FieldPath.of("spec"), r);
}

function validateResourceClaimTemplate(template: Obj, r: Reporter): void {
  const spec = asObj(template.spec) ?? {};
  const meta = asObj(spec.metadata) ?? {};
  const mp = FieldPath.of("spec", "metadata");
  validateLabels(meta.labels, mp.child("labels"), r);
  validateAnnotations(meta.annotations, mp.child("annotations"), r);
  validateResourceClaimSpec(asObj(spec.spec) ?? {}, FieldPath.of("spec", "spec"), r);
}

// ---- DeviceClass ----

function validateDeviceClass(dc: Obj, r: Reporter): void {
  const spec = asObj(dc.spec) ?? {};
  const path = FieldPath.of("spec");
  validateSelectors(items(spec.selectors), path.child("selectors"), r);
  const config = items(spec.config);
  if (!tooMany(config, DEVICE_CONFIG_MAX, path.child("config"), r)) {
    for (const [i, c] of objItems(config)) validateDeviceConfiguration(c, path.child("config").index(i), r);
  }
  const ext = asStr(spec.extendedResourceName);
  if (ext !== undefined && !isExtendedResource(ext)) r.invalid(path.child("extendedResourceName"), ext, "must be a valid extended resource name", CHECK);
}

// ---- ResourceSlice ----

const EXCLUSIVE_SLICE = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
const EXCLUSIVE_DEVICE = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec";

function validateResourceSlice(slice: Obj, r: Reporter): void {
  const spec = asObj(slice.spec) ?? {};
  const path = FieldPath.of("spec");
  validateCsiDriverName(text(spec.driver), path.child("driver"), r, CHECK);
  validateResourcePool(asObj(spec.pool) ?? {}, path.child("pool"), r);
  const set: string[] = [];
  const nodeName = asStr(spec.nodeName);
  if (nodeName !== undefined) {
    if (nodeName !== "") {
      set.push("`nodeName`");
      subdomain(nodeName, path.child("nodeName"), r);
    } else r.invalid(path.child("nodeName"), nodeName, "must be either unset or set to a non-empty string", CHECK);
  }
  const selector = asObj(spec.nodeSelector);
  if (selector) {
    set.push("`nodeSelector`");
    validateNodeSelector(selector, false, path.child("nodeSelector"), r);
    const terms = items(selector.nodeSelectorTerms);
    if (terms.length !== 1) r.invalid(path.child("nodeSelector", "nodeSelectorTerms"), new JsonValue(terms), "must have exactly one node selector term", CHECK);
  }
  const allNodes = asBool(spec.allNodes);
  if (allNodes === true) set.push("`allNodes`");
  else if (allNodes === false) r.invalid(path.child("allNodes"), false, "must be either unset or set to true", CHECK);
  const perDevice = asBool(spec.perDeviceNodeSelection);
  if (perDevice === true) set.push("`perDeviceNodeSelection`");
  else if (perDevice === false) r.invalid(path.child("perDeviceNodeSelection"), false, "must be either unset or set to true", CHECK);
  if (set.length === 0) r.required(path, EXCLUSIVE_SLICE, CHECK);
  else if (set.length > 1) r.invalid(path, `{${set.join(", ")}}`, `${EXCLUSIVE_SLICE}, but multiple fields are set`, CHECK);
  const devices = asArr(spec.devices);
  const counters = asArr(spec.sharedCounters);
  if (devices && counters) r.invalid(path, "", "only one of `sharedCounters` or `devices` is allowed", CHECK);
  validateDevices(devices ?? [], perDevice === true, path.child("devices"), r);
  const cp = path.child("sharedCounters");
  if (!tooMany(counters ?? [], SLICE_MAX_COUNTER_SETS, cp, r)) {
    for (const [i, cs] of objItems(counters)) validateCounterSet(cs, cp.index(i), r);
    duplicates((counters ?? []).map((c) => text(asObj(c)?.name)), cp, r);
  }
}

function validateResourcePool(pool: Obj, path: FieldPath, r: Reporter): void {
  const name = text(pool.name);
  const np = path.child("name");
  if (name === "") r.required(np, "", CHECK);
  else {
    if (name.length > POOL_NAME_MAX) r.tooLong(np, POOL_NAME_MAX, CHECK);
    for (const part of name.split("/")) subdomain(part, np, r);
  }
  const count = asNum(pool.resourceSliceCount) ?? 0;
  if (count <= 0) r.invalid(path.child("resourceSliceCount"), count, "must be greater than zero", CHECK);
  const generation = asNum(pool.generation) ?? 0;
  if (generation < 0) r.invalid(path.child("generation"), generation, "must be greater than or equal to zero", CHECK);
}

function validateDevices(devices: readonly unknown[], perDevice: boolean, path: FieldPath, r: Reporter): void {
  const list = objItems(devices).map(([, d]) => d);
  const advanced = list.some((d) => items(d.taints).length > 0 || items(d.consumesCounters).length > 0);
  if (tooMany(devices, advanced ? SLICE_MAX_DEVICES_ADVANCED : SLICE_MAX_DEVICES, path, r)) return;
  for (const [i, d] of objItems(devices)) validateDevice(d, perDevice, path.index(i), r);
  duplicates(devices.map((d) => text(asObj(d)?.name)), path, r);
}

function validateDevice(device: Obj, perDevice: boolean, path: FieldPath, r: Reporter): void {
  label(text(device.name), path.child("name"), r);
  const attributes = asObj(device.attributes) ?? {};
  const capacity = asObj(device.capacity) ?? {};
  const total = Object.keys(attributes).length + Object.keys(capacity).length;
  if (total > MAX_ATTRIBUTES_AND_CAPACITIES) {
    r.invalid(path, total, `the total number of attributes and capacities must not exceed ${MAX_ATTRIBUTES_AND_CAPACITIES}`, CHECK);
  }
  // list attributes are dropped (DRAListTypeAttributes is off): each attribute is one value
  if (Object.keys(attributes).length > MAX_ATTRIBUTE_VALUES) {
    r.invalid(path, Object.keys(attributes).length, `the total number of attribute values must not exceed ${MAX_ATTRIBUTE_VALUES}`, CHECK);
  }
  const keyLimit = DEVICE_MAX_DOMAIN_LENGTH + 1 + DEVICE_MAX_ID_LENGTH;
  for (const [key, value] of Object.entries(attributes)) {
    validateQualifiedName(key, path.child("attributes"), r);
    validateDeviceAttribute(asObj(value) ?? {}, path.child("attributes").key(truncate(key, keyLimit)), r);
  }
  const multi = asBool(device.allowMultipleAllocations) === true;
  for (const [key, value] of Object.entries(capacity)) {
    validateQualifiedName(key, path.child("capacity"), r);
    const cap = asObj(value) ?? {};
    const kp = path.child("capacity").key(truncate(key, keyLimit));
    const policy = asObj(cap.requestPolicy);
    if (!policy) continue;
    if (!multi) r.forbidden(kp.child("requestPolicy"), "allowMultipleAllocations must be true", CHECK);
    else validateRequestPolicy(readQuantity(cap.value), policy, kp.child("requestPolicy"), r);
  }
  const taints = items(device.taints);
  if (!tooMany(taints, DEVICE_TAINTS_MAX, path.child("taints"), r)) {
    for (const [i, t] of objItems(taints)) validateDeviceTaint(t, path.child("taints").index(i), r);
  }
  const consumes = items(device.consumesCounters);
  const ccp = path.child("consumesCounters");
  if (!tooMany(consumes, MAX_CONSUMPTIONS_PER_DEVICE, ccp, r)) {
    for (const [i, c] of objItems(consumes)) {
      const p = ccp.index(i);
      const set = text(c.counterSet);
      if (set === "") r.required(p.child("counterSet"), "", CHECK);
      else label(set, p.child("counterSet"), r);
      validateCounters(asObj(c.counters), MAX_COUNTERS_PER_CONSUMPTION, p.child("counters"), r);
    }
    duplicates(consumes.map((c) => text(asObj(c)?.counterSet)), ccp, r);
  }
  validateDeviceNodeSelection(device, perDevice, path, r);
  validateBindingConditions(device, path, r);
}

function validateDeviceNodeSelection(device: Obj, perDevice: boolean, path: FieldPath, r: Reporter): void {
  const nodeName = asStr(device.nodeName);
  const selector = asObj(device.nodeSelector);
  const allNodes = asBool(device.allNodes);
  if (!perDevice) {
    if (nodeName !== undefined || selector || allNodes !== undefined) {
      r.invalid(path, null, "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec", CHECK);
    }
    return;
  }
  const set: string[] = [];
  if (nodeName !== undefined) {
    if (nodeName !== "") {
      set.push("`nodeName`");
      subdomain(nodeName, path.child("nodeName"), r);
    } else r.invalid(path.child("nodeName"), nodeName, "must not be empty", CHECK);
  }
  if (selector) {
    set.push("`nodeSelector`");
    validateNodeSelector(selector, false, path.child("nodeSelector"), r);
  }
  if (allNodes === true) set.push("`allNodes`");
  else if (allNodes === false) r.invalid(path.child("allNodes"), false, "must be either unset or set to true", CHECK);
  if (set.length === 0) r.required(path, EXCLUSIVE_DEVICE, CHECK);
  else if (set.length > 1) r.invalid(path, `{${set.join(", ")}}`, EXCLUSIVE_DEVICE, CHECK);
}

function validateBindingConditions(device: Obj, path: FieldPath, r: Reporter): void {
  const conditions = items(device.bindingConditions).map(String);
  const failures = items(device.bindingFailureConditions).map(String);
  const cp = path.child("bindingConditions");
  const fp = path.child("bindingFailureConditions");
  for (const [list, p] of [
    [conditions, cp],
    [failures, fp],
  ] as const) {
    if (tooMany(list, BINDING_CONDITIONS_MAX, p, r)) continue;
    list.forEach((c, i) => {
      r.invalidEach(p.index(i), c, isQualifiedName(c), CHECK);
    });
  }
  duplicates(conditions, cp, r);
  const seen = new Set<string>();
  failures.forEach((c, i) => {
    if (seen.has(c)) r.duplicate(fp.index(i), c, CHECK);
    seen.add(c);
    if (conditions.includes(c)) r.invalid(fp.index(i), c, "bindingFailureConditions must not overlap with bindingConditions", CHECK);
  });
  if (conditions.length === 0 && failures.length > 0) r.invalid(cp, new JsonValue(conditions), "bindingConditions are required to use bindingFailureConditions", CHECK);
  if (failures.length === 0 && conditions.length > 0) r.invalid(fp, new JsonValue(failures), "bindingFailureConditions are required to use bindingConditions", CHECK);
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;

/** validateDeviceAttribute: exactly one of bool, int, string (at most 64 bytes) and version (semver). */
function validateDeviceAttribute(attribute: Obj, path: FieldPath, r: Reporter): void {
  let fields = 0;
  if (attribute.bool !== undefined) fields++;
  if (attribute.int !== undefined) fields++;
  const s = asStr(attribute.string);
  if (attribute.string !== undefined) {
    fields++;
    if (s !== undefined && byteLength(s) > ATTRIBUTE_MAX_VALUE_LENGTH) r.tooLong(path.child("string"), ATTRIBUTE_MAX_VALUE_LENGTH, CHECK);
  }
  const v = asStr(attribute.version);
  if (attribute.version !== undefined) {
    fields++;
    if (v !== undefined) {
      if (!SEMVER.test(v)) r.invalid(path.child("version"), v, "must be a string compatible with semver.org spec 2.0.0", CHECK);
      if (byteLength(v) > ATTRIBUTE_MAX_VALUE_LENGTH) r.tooLong(path.child("version"), ATTRIBUTE_MAX_VALUE_LENGTH, CHECK);
    }
  }
  if (fields === 0) r.invalid(path, "", "exactly one value must be specified", CHECK);
  else if (fields > 1) r.invalid(path, new JsonValue(internalAttribute(attribute)), "exactly one value must be specified", CHECK);
}

/** The internal resource.DeviceAttribute as json.Marshal prints it: Go field names in declaration order, null when unset. */
const internalAttribute = (a: Obj) => ({
  IntValue: a.int ?? null,
  BoolValue: a.bool ?? null,
  StringValue: a.string ?? null,
  VersionValue: a.version ?? null,
  IntValues: null,
  BoolValues: null,
  StringValues: null,
  VersionValues: null,
});

function validateDeviceTaint(taint: Obj, path: FieldPath, r: Reporter): void {
  const key = text(taint.key);
  r.invalidEach(path.child("key"), key, isQualifiedName(key), CHECK);
  const value = text(taint.value);
  if (value !== "") r.invalidEach(path.child("value"), value, isLabelValue(value), CHECK);
  const effect = text(taint.effect);
  if (effect === "") r.required(path.child("effect"), "", CHECK);
  else if (!TAINT_EFFECTS.includes(effect)) r.notSupported(path.child("effect"), effect, TAINT_EFFECTS, CHECK);
}

function validateCounterSet(cs: Obj, path: FieldPath, r: Reporter): void {
  const name = text(cs.name);
  if (name === "") r.required(path.child("name"), "", CHECK);
  else label(name, path.child("name"), r);
  validateCounters(asObj(cs.counters), MAX_COUNTERS_PER_SET, path.child("counters"), r);
}

/** A counters map: required, at most `max` entries, keys DNS-1123 labels (any parsed quantity is a valid value). */
function validateCounters(counters: Obj | undefined, max: number, path: FieldPath, r: Reporter): void {
  const keys = Object.keys(counters ?? {});
  if (keys.length === 0) {
    r.required(path, "", CHECK);
    return;
  }
  if (keys.length > max) {
    r.tooMany(path, keys.length, max, CHECK);
    return;
  }
  for (const k of keys) label(k, path, r);
}

/** validateRequestPolicy: validValues or validRange (not both), a default within them, everything within the capacity. */
function validateRequestPolicy(capacity: Quantity | undefined, policy: Obj, path: FieldPath, r: Reporter): void {
  if (!capacity) return;
  const values = items(policy.validValues);
  const range = asObj(policy.validRange);
  if (values.length > 0 && range) {
    r.forbidden(path, 'exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time', CHECK);
    return;
  }
  const def = readQuantity(policy.default);
  if (values.length > 0) {
    if (!def) r.required(path.child("default"), "required when validValues is defined", CHECK);
    else validateValidValues(def, capacity, values, path.child("validValues"), r);
  } else if (range) {
    if (!def) r.required(path.child("default"), "required when validRange is defined", CHECK);
    else validateRange(def, capacity, range, path.child("validRange"), r);
  }
}

function validateValidValues(def: Quantity, capacity: Quantity, raw: readonly unknown[], path: FieldPath, r: Reporter): void {
  const values = raw.map(readQuantity);
  for (let i = 0; i + 1 < values.length; i++) {
    const a = values[i];
    const b = values[i + 1];
    if (a && b && compareQuantities(a, b) > 0) r.invalid(path.index(i + 1), quantityString(b), "values must be sorted in ascending order", CHECK);
  }
  if (tooMany(raw, DISCRETE_MAX_OPTIONS, path, r)) return;
  let found = false;
  values.forEach((q, i) => {
    if (!q) return;
    if (compareQuantities(q, capacity) > 0) r.invalid(path.index(i), quantityString(q), `option is larger than capacity value: ${quantityString(capacity)}`, CHECK);
    if (compareQuantities(q, def) === 0) found = true;
  });
  duplicates(values.map((q) => (q ? quantityValue(q).toString() : "")), path, r);
  if (!found) r.invalid(path, quantityString(def), "default value is not valid according to the requestPolicy", CHECK);
}

function validateRange(def: Quantity, capacity: Quantity, range: Obj, path: FieldPath, r: Reporter): void {
  const min = readQuantity(range.min);
  if (!min) {
    r.required(path.child("min"), "required when validRange is defined", CHECK);
    return;
  }
  const cap = quantityString(capacity);
  if (compareQuantities(min, capacity) > 0) r.invalid(path.child("min"), quantityString(min), `min is larger than capacity value: ${cap}`, CHECK);
  if (compareQuantities(def, min) < 0) r.invalid(path.child("min"), quantityString(def), `default is less than min: ${quantityString(min)}`, CHECK);
  const max = readQuantity(range.max);
  if (max) {
    if (compareQuantities(min, max) > 0) r.invalid(path.child("max"), quantityString(min), `min is larger than max: ${quantityString(max)}`, CHECK);
    if (compareQuantities(max, capacity) > 0) r.invalid(path.child("max"), quantityString(max), `max is larger than capacity value: ${cap}`, CHECK);
    if (compareQuantities(def, max) > 0) r.invalid(path.child("max"), quantityString(def), `default is more than max: ${quantityString(max)}`, CHECK);
  }
  const step = readQuantity(range.step);
  if (!step) return;
  const stepValue = quantityValue(step);
  const minValue = quantityValue(min);
  const oneStep = minValue + stepValue;
  if (oneStep > quantityValue(capacity)) {
    r.invalid(path.child("step"), quantityString(step), `one step ${oneStep} is larger than capacity value: ${cap}`, CHECK);
  }
  for (const value of max ? [def, max] : [def]) {
    if (stepValue !== 0n && (quantityValue(value) - minValue) % stepValue !== 0n) {
      r.invalid(path.child("step"), quantityString(value), `value is not a multiple of a given step (${quantityString(step)}) from (${quantityString(min)})`, CHECK);
    }
  }
}

/** truncateIfTooLong: keys longer than the limit are shown with an ellipsis in the middle. */
function truncate(s: string, max: number): string {
  const limit = Math.max(max, 16);
  if (s.length <= limit) return s;
  const remaining = limit - 3;
  return `${s.slice(0, Math.ceil(remaining / 2))}...${s.slice(s.length - Math.floor(remaining / 2))}`;
}

export const RESOURCE: NativeGroup = {
  group: "resource.k8s.io",
  kinds: {
    DeviceClass: validateDeviceClass,
    ResourceClaim: validateResourceClaim,
    ResourceClaimTemplate: validateResourceClaimTemplate,
    ResourceSlice: validateResourceSlice,
  },
};

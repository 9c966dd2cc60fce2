// Resource names and quantities as the API server validates them in a container's (or pod's) `resources`:
// standard and extended resource names, non-negative values, integral extended resources, requests <= limits.
// The v1 defaulting runs first and rounds every value up to milli units (SetDefaults_ResourceList), so the
// checks and the messages see the rounded values.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (validateResourceRequirements,
// validateContainerResourceName, validateResourceName, ValidateResourceQuantityValue),
// pkg/apis/core/helper/helpers.go (resource name classes) and pkg/apis/core/v1/defaults.go (SetDefaults_ResourceList).
import { isQualifiedName } from "./names.ts";
import type { FieldPath } from "./path.ts";
import { compareQuantities, milliValue, type Quantity, quantitySign, quantityString, quantityValue, readQuantity } from "./quantity.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { asObj, asStr, type Obj, objItems } from "./values.ts";

const STANDARD_CONTAINER = new Set(["cpu", "memory", "ephemeral-storage"]);
const STANDARD = new Set([
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "storage",
  "requests.storage",
  "services.nodeports",
  "services.loadbalancers",
]);
const INTEGER = new Set(["pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"]);

const isHugePages = (n: string) => n.startsWith("hugepages-");
const isQuotaHugePages = (n: string) => n.startsWith("hugepages-") || n.startsWith("requests.hugepages-");
export const isNativeResource = (n: string) => !n.includes("/") || n.includes("kubernetes.io/");
export const isExtendedResource = (n: string) => !isNativeResource(n) && !n.startsWith("requests.") && isQualifiedName(`requests.${n}`).length === 0;
const isIntegerResource = (n: string) => INTEGER.has(n) || isExtendedResource(n);
const isOvercommitAllowed = (n: string) => isNativeResource(n) && !isHugePages(n);

/** validateResourceName: a qualified name, standard unless domain-prefixed. */
export function validateResourceName(name: string, path: FieldPath, r: Reporter, check: string): boolean {
  const msgs = isQualifiedName(name);
  for (const m of msgs) r.invalid(path, name, m, check);
  if (msgs.length > 0) return false;
  if (!name.includes("/") && !(STANDARD.has(name) || isQuotaHugePages(name))) {
    r.invalid(path, name, "must be a standard resource type or fully qualified", check);
    return false;
  }
  return true;
}

/** helper.IsStandardQuotaResourceName (pkg/apis/core/helper/helpers.go): the resources quota tracks itself. */
export const STANDARD_QUOTA: ReadonlySet<string> = new Set([
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.storage",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "persistentvolumeclaims",
  "configmaps",
  "services.nodeports",
  "services.loadbalancers",
]);

/** A ResourceQuota's `hard` map: quota resource names (standard or domain-qualified, e.g. `count/deployments.apps`), values. */
export function validateQuotaHard(hard: unknown, path: FieldPath, r: Reporter): void {
  const check = "core/resource-quota";
  for (const [name, q] of readList(hard)) {
    const p = path.key(name);
    validateResourceName(name, p, r, check);
    if (!name.includes("/") && !(STANDARD_QUOTA.has(name) || isQuotaHugePages(name))) {
      r.invalid(p, name, "must be a standard resource for quota", check);
    }
    validateQuantityValue(name, q, p, r, check);
  }
}

/** validateContainerResourceName (also used by HPA container-resource metrics). */
export function validateContainerResourceName(name: string, path: FieldPath, r: Reporter, check: string): void {
  validateResourceName(name, path, r, check);
  if (!name.includes("/")) {
    if (!(STANDARD_CONTAINER.has(name) || isHugePages(name))) r.invalid(path, name, "must be a standard resource for containers", check);
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    r.invalid(path, name, "doesn't follow extended resource name standard", check);
  }
}

/** Pod-level resources (PodLevelResources, on by default in 1.36) accept only these. */
const POD_LEVEL = ["cpu", "hugepages-", "memory"];
function validatePodResourceName(name: string, path: FieldPath, r: Reporter, check: string): void {
  if (!validateResourceName(name, path, r, check)) return;
  if (name !== "cpu" && name !== "memory" && !isHugePages(name)) r.notSupported(path, name, POD_LEVEL, check);
}

/** SetDefaults_ResourceList: values are rounded up to milli units (the kept text is dropped when that changes the scale). */
export function roundUpToMilli(q: Quantity): Quantity {
  if (q.scale <= 3) return q;
  const div = 10n ** BigInt(q.scale - 3);
  const t = q.unscaled / div;
  const unscaled = q.unscaled % div === 0n ? t : q.unscaled < 0n ? t - 1n : t + 1n;
  return { unscaled, scale: 3, format: q.format };
}

/** A resource list (requests or limits) as the validator sees it after decoding and defaulting. */
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

function validateQuantityValue(name: string, q: Quantity, path: FieldPath, r: Reporter, check: string): void {
  if (quantitySign(q) < 0) r.invalid(path, quantityString(q), "must be greater than or equal to 0", check);
  if (isIntegerResource(name) && milliValue(q) % 1000n !== 0n) r.invalid(path, new JsonValue(quantityString(q)), "must be an integer", check);
}

export interface ResourceRequirementsOptions {
  /** Pod-level `spec.resources` (other names allowed) rather than a container's. @default false */
  readonly podLevel?: boolean;
  /** Names of the pod's `resourceClaims`, for `resources.claims`. */
  readonly podClaimNames?: ReadonlySet<string>;
}

/** validateResourceRequirements: names, values, requests <= limits (== for non-overcommitable), hugepages need cpu or memory. */
export function validateResourceRequirements(resources: unknown, path: FieldPath, r: Reporter, options: ResourceRequirementsOptions = {}): void {
  const res = asObj(resources);
  if (!res) return;
  const check = "core/resources";
  const nameCheck = options.podLevel ? validatePodResourceName : validateContainerResourceName;
  const limPath = path.child("limits");
  const reqPath = path.child("requests");
  const limits = readList(res.limits);
  const requests = readList(res.requests);
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, q] of limits) {
    const p = limPath.key(name);
    nameCheck(name, p, r, check);
    validateQuantityValue(name, q, p, r, check);
    if (isHugePages(name)) {
      hugePages = true;
      validateHugePageValue(name, q, p, r, check);
    }
    if (name === "cpu" || name === "memory") cpuOrMemory = true;
  }
  for (const [name, q] of requests) {
    const p = reqPath.key(name);
    nameCheck(name, p, r, check);
    validateQuantityValue(name, q, p, r, check);
    const limit = limits.get(name);
    if (limit) {
      const cmp = compareQuantities(q, limit);
      // the server names the whole requests map here; the pointer names the request
      if (cmp !== 0 && !isOvercommitAllowed(name)) r.invalid(reqPath, quantityString(q), `must be equal to ${name} limit of ${quantityString(limit)}`, check, p.pointer());
      else if (cmp > 0) r.invalid(reqPath, quantityString(q), `must be less than or equal to ${name} limit of ${quantityString(limit)}`, check, p.pointer());
    } else if (!isOvercommitAllowed(name)) {
      r.required(limPath, "Limit must be set for non overcommitable resources", check);
    }
    if (isHugePages(name)) {
      hugePages = true;
      validateHugePageValue(name, q, p, r, check);
    }
    if (name === "cpu" || name === "memory") cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) r.forbidden(path, "HugePages require cpu or memory", check);
  validateClaims(res.claims, path.child("claims"), r, options.podClaimNames ?? new Set());
}

function validateClaims(claims: unknown, path: FieldPath, r: Reporter, podClaimNames: ReadonlySet<string>): void {
  const check = "core/resource-claims";
  const names = new Set<string>();
  for (const [i, claim] of objItems(claims)) {
    const name = typeof claim.name === "string" ? claim.name : "";
    const request = typeof claim.request === "string" ? claim.request : "";
    if (name === "") {
      r.required(path.index(i), "", check);
      continue;
    }
    if (names.has(name)) r.duplicate(path.index(i), name, check);
    else {
      const key = request ? `${name}/${request}` : name;
      if (names.has(key)) r.duplicate(path.index(i), key, check);
      names.add(key);
    }
    if (!podClaimNames.has(name)) {
      const known = [...podClaimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${known.length === 0 ? " which is empty" : `: ${known.join(", ")}`}`;
      r.notFoundWithDetail(path.index(i), name, detail, check);
    }
  }
}

/** validateResourceQuantityHugePageValue: a whole number of pages of the size the name gives (IsHugePageResourceValueDivisible). */
function validateHugePageValue(name: string, q: Quantity, path: FieldPath, r: Reporter, check: string): void {
  const pageSize = readQuantity(name.slice("hugepages-".length));
  const divisible = pageSize !== undefined && quantitySign(pageSize) > 0 && milliValue(pageSize) % 1000n === 0n && quantityValue(q) % quantityValue(pageSize) === 0n;
  if (!divisible) r.invalid(path, quantityString(q), `${quantityString(q)} is not positive integer multiple of ${name}`, check);
}

/** Quantity.Add: the receiver's format, the finer scale, and no kept text. */
function addQuantities(a: Quantity, b: Quantity): Quantity {
  const scale = Math.max(a.scale, b.scale);
  const unscaled = a.unscaled * 10n ** BigInt(scale - a.scale) + b.unscaled * 10n ** BigInt(scale - b.scale);
  return { unscaled, scale, format: a.format };
}

const addList = (into: Map<string, Quantity>, list: ReadonlyMap<string, Quantity>) => {
  for (const [k, q] of list) {
    const have = into.get(k);
    into.set(k, have ? addQuantities(have, q) : q);
  }
};
const maxList = (into: Map<string, Quantity>, list: ReadonlyMap<string, Quantity>) => {
  for (const [k, q] of list) {
    const have = into.get(k);
    if (!have || compareQuantities(q, have) > 0) into.set(k, q);
  }
};

/**
 * resourcehelper.AggregateContainerRequests/Limits (k8s.io/component-helpers@v0.36.5/resource/helpers.go): regular
 * containers and sidecars add up; each other init container counts with the sidecars started before it; the pod needs
 * the larger of the two.
 */
export function aggregateContainerResources(spec: Obj, which: "requests" | "limits"): Map<string, Quantity> {
  const total = new Map<string, Quantity>();
  for (const [, c] of objItems(spec.containers)) addList(total, readList(asObj(c.resources)?.[which]));
  const sidecars = new Map<string, Quantity>();
  const init = new Map<string, Quantity>();
  for (const [, c] of objItems(spec.initContainers)) {
    const own = readList(asObj(c.resources)?.[which]);
    let effective: Map<string, Quantity>;
    if (asStr(c.restartPolicy) === "Always") {
      addList(total, own);
      addList(sidecars, own);
      effective = sidecars;
    } else {
      effective = new Map();
      addList(effective, own);
      addList(effective, sidecars);
    }
    maxList(init, effective);
  }
  maxList(total, init);
  return total;
}

/**
 * validatePodResourceConsistency: pod-level requests cover the containers' aggregate requests, pod-level hugepage limits
 * their aggregate limits, and pod-level limits each container's limits. `specPath` is the pod spec's.
 */
export function validatePodResourceConsistency(spec: Obj, specPath: FieldPath, r: Reporter): void {
  const check = "core/resources";
  const path = specPath.child("resources");
  const pod = asObj(spec.resources) ?? {};
  const podRequests = readList(pod.requests);
  const podLimits = readList(pod.limits);
  const sorted = (m: ReadonlyMap<string, Quantity>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, agg] of sorted(aggregateContainerResources(spec, "requests"))) {
    const own = podRequests.get(name);
    if (own && compareQuantities(agg, own) > 0) {
      r.invalid(path.child("requests").key(name), quantityString(own), `must be greater than or equal to aggregate container requests of ${quantityString(agg)}`, check);
    }
  }
  for (const [name, agg] of sorted(aggregateContainerResources(spec, "limits"))) {
    const own = podLimits.get(name);
    if (isHugePages(name) && own && compareQuantities(agg, own) > 0) {
      r.invalid(path.child("limits").key(name), quantityString(own), `must be greater than or equal to aggregate container limits of ${quantityString(agg)}`, check);
    }
  }
  for (const [i, c] of objItems(spec.containers)) {
    for (const [name, limit] of sorted(readList(asObj(c.resources)?.limits))) {
      const own = podLimits.get(name);
      if (!own || compareQuantities(limit, own) <= 0) continue;
      // Go's path is spec.resources.containers[i][name].limits; the pointer names the container's limit
      const pointer = specPath.child("containers").index(i).child("resources", "limits").key(name).pointer();
      r.invalid(path.child("containers").index(i).key(name).child("limits"), quantityString(limit), `must be less than or equal to pod limits of ${quantityString(own)}`, check, pointer);
    }
  }
}

/** ValidateResourceQuantityValue of every entry of a resource list (a Node's capacity and allocatable). */
export function validateResourceListValues(list: unknown, path: FieldPath, r: Reporter, check: string): void {
  // Go names the entry as a field (`status.capacity.cpu`), not as a map key
  for (const [name, q] of readList(list)) validateQuantityValue(name, q, path.child(name), r, check);
}

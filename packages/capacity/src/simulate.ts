// The simulation: pods onto the existing nodes as kube-scheduler would, then Karpenter's packing of the rest.
// Karpenter's part is rewritten from kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/
// (scheduler.go, nodeclaim.go, nodeclaimtemplate.go, queue.go) and pkg/cloudprovider/types.go.
import {
  type Amounts,
  formatAmounts,
  instanceTypeLabels,
  parseAmounts,
  type ResolvedInstanceType,
  resolveInstanceType,
  TENANCIES,
} from "./instance-types.ts";
import { QuantityError } from "./quantity.ts";
import { Requirement, Requirements } from "./requirements.ts";
import type {
  CapacityType,
  Candidate,
  DaemonSetInput,
  EC2NodeClassInput,
  ExistingNodeResult,
  InstanceTypeInfo,
  InstanceTypeSnapshot,
  NodeClaimResult,
  NodePoolInput,
  NodePoolUsage,
  NodeSelectorTerm,
  Offering,
  PendingPod,
  PendingReason,
  SimulationInput,
  SimulationResult,
  Taint,
  Toleration,
  WorkloadInput,
  WorkloadResult,
} from "./types.ts";

/** A fault in the simulation input (exit code 2): `path` names the field, e.g. `nodePools[0].nodeClass`. */
export class SimulationError extends Error {
  override readonly name = "SimulationError";
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

/** Karpenter sends at most this many instance types, cheapest first, in a NodeClaim (nodeclaimtemplate.go MaxInstanceTypes). */
export const MAX_INSTANCE_TYPES = 600;

/** Pods that no node, node group or NodePool can ever run (too big, nothing matches): the CLI's exit 1. */
export function cannotRun(result: SimulationResult): PendingPod[] {
  return result.pending.filter((p) => p.reason !== "limit-reached");
}

// ---------------------------------------------------------------------------------------------------------------
// Pods

interface PodShape {
  readonly id: number;
  readonly workload: string;
  readonly requests: Amounts; // includes pods: 1
  /** One Requirements per required node affinity term (each with the node selector); tried in order like Karpenter's relaxation. */
  readonly terms: readonly Requirements[];
  readonly selector: Readonly<Record<string, string>>;
  readonly affinity?: readonly NodeSelectorTerm[];
  readonly tolerations: readonly Toleration[];
  readonly onePerNode: boolean;
}

interface Pod {
  readonly name: string;
  readonly shape: PodShape;
  readonly order: number;
}

function podTerms(selector: Readonly<Record<string, string>>, affinity: readonly NodeSelectorTerm[] | undefined, path: string): Requirements[] {
  const base = Requirements.fromLabels(selector);
  if (!affinity || affinity.length === 0) return [base];
  return affinity.map((term, i) => {
    try {
      return base.copy().addAll(Requirements.fromSelectors(term.matchExpressions ?? []));
    } catch (e) {
      throw new SimulationError(`${path}.requiredNodeAffinity[${i}]`, (e as Error).message);
    }
  });
}

function amounts(quantities: WorkloadInput["requests"] | undefined, path: string): Amounts {
  try {
    return parseAmounts(quantities);
  } catch (e) {
    if (e instanceof QuantityError) throw new SimulationError(path, e.message);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Taints and node labels (kube-scheduler semantics: k8s.io/component-helpers/scheduling/corev1 and nodeaffinity)

function tolerates(tolerations: readonly Toleration[], taint: Taint): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === "Exists") return t.key === undefined || t.key === "" || t.key === taint.key;
    return t.key === taint.key && (t.value ?? "") === (taint.value ?? "");
  });
}

/** The first NoSchedule / NoExecute taint the tolerations miss (PreferNoSchedule never blocks). */
function untolerated(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  return taints.find((t) => t.effect !== "PreferNoSchedule" && !tolerates(tolerations, t));
}

function taintText(t: Taint): string {
  return `${t.key}${t.value ? `=${t.value}` : ""}:${t.effect}`;
}

function labelsMatch(labels: ReadonlyMap<string, string>, selector: Readonly<Record<string, string>>, affinity: readonly NodeSelectorTerm[] | undefined): boolean {
  for (const [k, v] of Object.entries(selector)) if (labels.get(k) !== v) return false;
  if (!affinity || affinity.length === 0) return true;
  return affinity.some((term) => {
    const exprs = term.matchExpressions ?? [];
    if (exprs.length === 0) return false;
    return exprs.every((e) => {
      const v = labels.get(e.key);
      const values = e.values ?? [];
      switch (e.operator) {
        case "In":
          return v !== undefined && values.includes(v);
        case "NotIn":
          return v === undefined || !values.includes(v);
        case "Exists":
          return v !== undefined;
        case "DoesNotExist":
          return v === undefined;
        default: {
          if (v === undefined || !/^[+-]?\d+$/.test(v) || !/^[+-]?\d+$/.test(values[0] ?? "")) return false;
          const n = Number(v);
          const bound = Number(values[0]);
          return e.operator === "Gt" ? n > bound : e.operator === "Lt" ? n < bound : e.operator === "Gte" ? n >= bound : n <= bound;
        }
      }
    });
  });
}

function fitsIn(requested: Amounts, add: Amounts, allocatable: Amounts): boolean {
  for (const [name, n] of Object.entries(add)) {
    if ((requested[name] ?? 0) + n > (allocatable[name] ?? 0)) return false;
  }
  return true;
}

function addInto(target: Amounts, add: Amounts): void {
  for (const [name, n] of Object.entries(add)) target[name] = (target[name] ?? 0) + n;
}

// ---------------------------------------------------------------------------------------------------------------
// Existing nodes (managed node groups)

interface ExistingNode {
  readonly name: string;
  readonly group: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly labels: Map<string, string>;
  readonly taints: readonly Taint[];
  readonly allocatable: Amounts;
  readonly requested: Amounts;
  readonly pods: string[];
  readonly daemonSetPods: string[];
  readonly workloads: Set<string>;
}

function daemonSetFitsNode(ds: DaemonSetInput, labels: ReadonlyMap<string, string>, taints: readonly Taint[]): boolean {
  return !untolerated(taints, ds.tolerations ?? []) && labelsMatch(labels, ds.nodeSelector ?? {}, ds.requiredNodeAffinity);
}

function buildExistingNodes(input: SimulationInput, snapshot: InstanceTypeSnapshot, types: ReadonlyMap<string, InstanceTypeInfo>, daemonSets: readonly DaemonSetPods[]): ExistingNode[] {
  const nodes: ExistingNode[] = [];
  input.nodeGroups.forEach((group, gi) => {
    const path = `nodeGroups[${gi}]`;
    const info = types.get(group.instanceType);
    if (!info) throw new SimulationError(`${path}.instanceType`, `${group.instanceType} is not in the ${snapshot.region} instance-type snapshot`);
    if (!Number.isInteger(group.count) || group.count < 0) throw new SimulationError(`${path}.count`, `must be a non-negative integer (got ${group.count})`);
    const zones = group.zones && group.zones.length > 0 ? group.zones : snapshot.zones;
    const resolved = resolveInstanceType(info, group.kubelet ? { name: group.name, kubelet: group.kubelet } : undefined);
    const capacityType = group.capacityType ?? "on-demand";
    for (let i = 0; i < group.count; i++) {
      const name = `${group.name}-${i + 1}`;
      const zone = zones[i % zones.length]!;
      // Labels every EKS managed node carries, then the node group's own.
      const labels = new Map<string, string>([
        ["kubernetes.io/arch", info.architecture],
        ["kubernetes.io/os", "linux"],
        ["kubernetes.io/hostname", name],
        ["node.kubernetes.io/instance-type", info.name],
        ["topology.kubernetes.io/region", snapshot.region],
        ["topology.kubernetes.io/zone", zone],
        ["eks.amazonaws.com/capacityType", capacityType === "spot" ? "SPOT" : "ON_DEMAND"],
        ["eks.amazonaws.com/nodegroup", group.name],
        ...Object.entries(group.labels ?? {}),
      ]);
      const taints = group.taints ?? [];
      const requested: Amounts = {};
      const daemonSetPods: string[] = [];
      for (const ds of daemonSets) {
        if (!daemonSetFitsNode(ds.input, labels, taints)) continue;
        addInto(requested, ds.requests);
        daemonSetPods.push(ds.input.name);
      }
      nodes.push({
        name,
        group: group.name,
        instanceType: info.name,
        zone,
        capacityType,
        labels,
        taints,
        allocatable: resolved.allocatable,
        requested,
        pods: [],
        daemonSetPods,
        workloads: new Set(),
      });
    }
  });
  return nodes;
}

/** kube-scheduler's default scores that matter here: NodeResourcesFit LeastAllocated + NodeResourcesBalancedAllocation (cpu, memory). */
function score(node: ExistingNode, add: Amounts): number {
  const fraction = (name: string) => {
    const alloc = node.allocatable[name] ?? 0;
    return alloc === 0 ? 1 : ((node.requested[name] ?? 0) + (add[name] ?? 0)) / alloc;
  };
  const cpu = fraction("cpu");
  const memory = fraction("memory");
  const leastAllocated = ((1 - cpu) * 100 + (1 - memory) * 100) / 2;
  const balanced = (1 - Math.abs(cpu - memory) / 2) * 100;
  return leastAllocated + balanced;
}

function placeOnExisting(nodes: readonly ExistingNode[], pod: Pod): ExistingNode | undefined {
  let best: ExistingNode | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  const s = pod.shape;
  for (const node of nodes) {
    if (untolerated(node.taints, s.tolerations)) continue;
    if (!labelsMatch(node.labels, s.selector, s.affinity)) continue;
    if (s.onePerNode && node.workloads.has(s.workload)) continue;
    if (!fitsIn(node.requested, s.requests, node.allocatable)) continue;
    const sc = score(node, s.requests);
    if (sc > bestScore) {
      best = node;
      bestScore = sc;
    }
  }
  if (best) {
    addInto(best.requested, s.requests);
    best.pods.push(pod.name);
    best.workloads.add(s.workload);
  }
  return best;
}

// ---------------------------------------------------------------------------------------------------------------
// Karpenter: NodeClaim templates (one per NodePool) and their instance types

interface DaemonSetPods {
  readonly input: DaemonSetInput;
  readonly requests: Amounts;
  readonly terms: readonly Requirements[];
}

interface TemplateType {
  readonly resolved: ResolvedInstanceType;
  readonly name: string;
  readonly labels: ReadonlyMap<string, string | undefined>;
  /** Offerings in the EC2NodeClass's zones. */
  readonly offerings: readonly Offering[];
  readonly zones: ReadonlySet<string>;
  readonly capacityTypes: ReadonlySet<string>;
  /** Requests of the DaemonSet pods that would run on this type under this NodePool. */
  readonly daemonOverhead: Amounts;
  readonly daemonKey: string;
}

interface Template {
  readonly index: number;
  readonly pool: NodePoolInput;
  readonly nodeClass: EC2NodeClassInput;
  readonly weight: number;
  readonly requirements: Requirements;
  readonly taints: readonly Taint[];
  readonly types: readonly TemplateType[];
  readonly limits: Amounts;
  /** limits minus what the NodeClaims so far may use; undefined when the NodePool has no limits. */
  remaining: Amounts | undefined;
  limitsVersion: number;
  claims: number;
}

/** The values of a key an instance type offers (its requirement set in types.go computeRequirements). */
function typeValues(t: TemplateType, key: string): readonly string[] | undefined {
  if (key === "topology.kubernetes.io/zone") return [...t.zones];
  if (key === "karpenter.sh/capacity-type") return [...t.capacityTypes];
  if (key === "karpenter.k8s.aws/instance-tenancy") return TENANCIES;
  if (!t.labels.has(key)) return undefined;
  const v = t.labels.get(key);
  return v === undefined ? [] : [v];
}

/** instanceType.Requirements.Intersects(requirements) (nodeclaim.go compatible). */
function typeCompatible(t: TemplateType, reqs: Requirements): boolean {
  for (const [key, r] of reqs.byKey) {
    const values = typeValues(t, key);
    if (values === undefined) continue;
    if (values.length === 0) {
      // The type defines the key as DoesNotExist: only NotIn / DoesNotExist requirements agree.
      const op = r.operator();
      if (op !== "NotIn" && op !== "DoesNotExist") return false;
      continue;
    }
    if (!values.some((v) => r.has(v))) return false;
  }
  return true;
}

/** An offering whose zone and capacity type the requirements allow (nodeclaim.go fits, offering part). */
function hasOffering(t: TemplateType, reqs: Requirements): boolean {
  const zone = reqs.byKey.get("topology.kubernetes.io/zone");
  const ct = reqs.byKey.get("karpenter.sh/capacity-type");
  return t.offerings.some((o) => (!zone || zone.has(o.zone)) && (!ct || ct.has(o.capacityType)));
}

function compatibleOfferings(t: TemplateType, reqs: Requirements): Offering[] {
  const zone = reqs.byKey.get("topology.kubernetes.io/zone");
  const ct = reqs.byKey.get("karpenter.sh/capacity-type");
  return t.offerings.filter((o) => (!zone || zone.has(o.zone)) && (!ct || ct.has(o.capacityType)));
}

/** isDaemonPodCompatible (scheduler.go): tolerates the NodePool's taints, and one of its terms agrees with the template and the type. */
function daemonSetFitsTemplate(ds: DaemonSetPods, reqs: Requirements, taints: readonly Taint[], t: TemplateType): boolean {
  if (untolerated(taints, ds.input.tolerations ?? [])) return false;
  return ds.terms.some((term) => reqs.compatible(term) === undefined && typeCompatible(t, term));
}

/** Does every key with minValues span enough distinct values over the types? (pkg/cloudprovider/types.go SatisfiesMinValues) */
function minValuesProblem(types: readonly TemplateType[], reqs: Requirements): string | undefined {
  for (const r of reqs.byKey.values()) {
    if (r.minValues === undefined) continue;
    const seen = new Set<string>();
    for (const t of types) for (const v of typeValues(t, r.key) ?? []) seen.add(v);
    if (seen.size < r.minValues) return `minValues requirement is not met for label ${r.key} (${seen.size} of ${r.minValues})`;
  }
  return undefined;
}

function templateRequirements(pool: NodePoolInput, path: string): Requirements {
  let reqs: Requirements;
  try {
    reqs = Requirements.fromSelectors(pool.requirements ?? []);
  } catch (e) {
    throw new SimulationError(`${path}.requirements`, (e as Error).message);
  }
  reqs.addAll(Requirements.fromLabels(pool.labels ?? {}));
  reqs.add(Requirement.of("karpenter.sh/nodepool", "In", [pool.name]));
  reqs.add(Requirement.of("karpenter.k8s.aws/ec2nodeclass", "In", [pool.nodeClass]));
  return reqs;
}

const resolvedCache = new WeakMap<InstanceTypeSnapshot, Map<string, { resolved: ResolvedInstanceType[]; labels: Map<string, string | undefined>[] }>>();

function buildTemplates(input: SimulationInput, snapshot: InstanceTypeSnapshot, daemonSets: readonly DaemonSetPods[]): Template[] {
  const classes = new Map(input.nodeClasses.map((c) => [c.name, c]));
  const resolvedByClass = new Map<string, ResolvedInstanceType[]>();
  const labelsByClass = new Map<string, Map<string, string | undefined>[]>();
  const templates: Template[] = input.nodePools.map((pool, i) => {
    const path = `nodePools[${i}]`;
    const nodeClass = classes.get(pool.nodeClass);
    if (!nodeClass) throw new SimulationError(`${path}.nodeClass`, `EC2NodeClass ${pool.nodeClass} is not declared (nodeClasses: ${[...classes.keys()].join(", ") || "none"})`);
    let resolved = resolvedByClass.get(nodeClass.name);
    let labels = labelsByClass.get(nodeClass.name);
    if (!resolved || !labels) {
      // Resolving ~900 types is most of a small simulation's time; a sweep re-uses it per snapshot and EC2NodeClass.
      let perSnapshot = resolvedCache.get(snapshot);
      if (!perSnapshot) {
        perSnapshot = new Map();
        resolvedCache.set(snapshot, perSnapshot);
      }
      const cacheKey = JSON.stringify([nodeClass.amiFamily, nodeClass.kubelet, nodeClass.rootVolumeSize, nodeClass.instanceStorePolicy]);
      let entry = perSnapshot.get(cacheKey);
      if (!entry) {
        try {
          entry = {
            resolved: snapshot.instanceTypes.map((t) => resolveInstanceType(t, nodeClass)),
            labels: snapshot.instanceTypes.map((t) => instanceTypeLabels(t, snapshot.region, nodeClass.amiFamily)),
          };
        } catch (e) {
          const ci = input.nodeClasses.indexOf(nodeClass);
          throw new SimulationError(`nodeClasses[${ci}]`, (e as Error).message);
        }
        perSnapshot.set(cacheKey, entry);
      }
      resolved = entry.resolved;
      labels = entry.labels;
      resolvedByClass.set(nodeClass.name, resolved);
      labelsByClass.set(nodeClass.name, labels);
    }
    const requirements = templateRequirements(pool, path);
    const taints = pool.taints ?? [];
    const zones = new Set(nodeClass.zones && nodeClass.zones.length > 0 ? nodeClass.zones : snapshot.zones);
    const al2023 = (nodeClass.amiFamily ?? "AL2023") === "AL2023";
    const types: TemplateType[] = [];
    resolved.forEach((r, ti) => {
      // a1 types cannot run AL2023 (aws/karpenter-provider-aws pkg/providers/instancetype/compatibility/compatibility.go).
      if (al2023 && r.info.name.startsWith("a1.")) return;
      const offerings = r.info.offerings.filter((o) => zones.has(o.zone));
      const base = {
        resolved: r,
        name: r.info.name,
        labels: labels![ti]!,
        offerings,
        zones: new Set(offerings.map((o) => o.zone)),
        capacityTypes: new Set(offerings.map((o) => o.capacityType)),
        daemonOverhead: {},
        daemonKey: "",
      };
      if (!typeCompatible(base, requirements) || !hasOffering(base, requirements)) return;
      const overhead: Amounts = {};
      const names: string[] = [];
      for (const ds of daemonSets) {
        if (!daemonSetFitsTemplate(ds, requirements, taints, base)) continue;
        addInto(overhead, ds.requests);
        names.push(ds.input.name);
      }
      types.push({ ...base, daemonOverhead: overhead, daemonKey: names.join(",") });
    });
    if (types.length === 0) {
      throw new SimulationError(
        `${path}.requirements`,
        `NodePool ${pool.name} matches no instance type of the ${snapshot.region} snapshot (requirements: ${[...requirements.byKey.values()].map(String).sort().join(", ")})`,
      );
    }
    const problem = minValuesProblem(types, requirements);
    if (problem) throw new SimulationError(`${path}.requirements`, `NodePool ${pool.name}: ${problem}`);
    const limits = amounts(pool.limits, `${path}.limits`);
    return {
      index: i,
      pool,
      nodeClass,
      weight: pool.weight ?? 0,
      requirements,
      taints,
      types,
      limits,
      remaining: pool.limits && Object.keys(limits).length > 0 ? { ...limits } : undefined,
      limitsVersion: 0,
      claims: 0,
    };
  });
  // Heavier NodePools first; equal weights: the name later in the alphabet first (karpenter pkg/utils/nodepool/nodepool.go OrderByWeight).
  return templates.sort((a, b) => b.weight - a.weight || (a.pool.name < b.pool.name ? 1 : a.pool.name > b.pool.name ? -1 : 0));
}

// ---------------------------------------------------------------------------------------------------------------
// Karpenter: in-flight NodeClaims

interface Claim {
  readonly template: Template;
  readonly created: number;
  requirements: Requirements;
  types: TemplateType[];
  readonly requests: Amounts;
  readonly pods: string[];
  readonly workloads: Set<string>;
  /** Shape+term keys that failed here once: a NodeClaim only tightens, so they fail again. */
  readonly closed: Set<number>;
  /** Shape+term keys whose requirements are already merged into `requirements`. */
  absorbed: Set<number>;
}

interface AddResult {
  requirements: Requirements;
  types: TemplateType[];
  absorbed: boolean;
}

type AddFailure = { kind: "taint"; taint: Taint } | { kind: "requirements"; message: string } | { kind: "resources"; anyCompatible: boolean } | { kind: "minValues"; message: string };

/** NodeClaim.CanAdd (nodeclaim.go): taints, requirements, then instance types that still fit with an offering. */
function canAdd(
  template: Template,
  current: Requirements,
  types: readonly TemplateType[],
  requests: Amounts,
  pod: PodShape,
  term: Requirements,
  absorbed: boolean,
): AddResult | AddFailure {
  const taint = untolerated(template.taints, pod.tolerations);
  if (taint) return { kind: "taint", taint };
  let reqs = current;
  if (!absorbed) {
    const problem = current.compatible(term);
    if (problem) return { kind: "requirements", message: problem };
    reqs = current.copy().addAll(term);
  }
  const remaining: TemplateType[] = [];
  let anyCompatible = false;
  for (const t of types) {
    if (!absorbed && !typeCompatible(t, reqs)) continue;
    if (!hasOffering(t, reqs)) continue;
    anyCompatible = true;
    if (!fitsWithOverhead(requests, pod.requests, t)) continue;
    remaining.push(t);
  }
  if (remaining.length === 0) return { kind: "resources", anyCompatible };
  if (reqs.hasMinValues()) {
    const problem = minValuesProblem(remaining, reqs);
    if (problem) return { kind: "minValues", message: problem };
  }
  return { requirements: reqs, types: remaining, absorbed };
}

function fitsWithOverhead(claimRequests: Amounts, podRequests: Amounts, t: TemplateType): boolean {
  const alloc = t.resolved.allocatable;
  for (const name in podRequests) {
    if ((claimRequests[name] ?? 0) + podRequests[name]! + (t.daemonOverhead[name] ?? 0) > (alloc[name] ?? 0)) return false;
  }
  for (const name in claimRequests) {
    if (name in podRequests) continue;
    if (claimRequests[name]! + (t.daemonOverhead[name] ?? 0) > (alloc[name] ?? 0)) return false;
  }
  for (const name in t.daemonOverhead) {
    if (name in podRequests || name in claimRequests) continue;
    if (t.daemonOverhead[name]! > (alloc[name] ?? 0)) return false;
  }
  return true;
}

/** Instance types whose capacity stays within what the NodePool's limits leave (scheduler.go filterByRemainingResources). */
function withinLimits(types: readonly TemplateType[], remaining: Amounts): TemplateType[] {
  return types.filter((t) => Object.entries(remaining).every(([name, left]) => name === "nodes" || (t.resolved.capacity[name] ?? 0) <= left));
}

/**
 * The type a NodeClaim most likely launches as: the cheapest offering when the snapshot has prices, else the smallest
 * type (CPU, then memory, then name). EC2 Fleet makes the real pick (price-capacity-optimized for spot): not modelled.
 */
function likelyLaunch(claim: Claim): TemplateType {
  let best: TemplateType | undefined;
  let bestPrice = Number.MAX_VALUE;
  for (const t of claim.types) {
    let price = Number.MAX_VALUE;
    for (const o of compatibleOfferings(t, claim.requirements)) if (o.price !== undefined && o.price < price) price = o.price;
    if (
      best === undefined ||
      price < bestPrice ||
      (price === bestPrice && smaller(t, best))
    ) {
      best = t;
      bestPrice = price;
    }
  }
  return best!;
}

function smaller(a: TemplateType, b: TemplateType): boolean {
  const ca = a.resolved.capacity;
  const cb = b.resolved.capacity;
  return ca.cpu! - cb.cpu! < 0 || (ca.cpu === cb.cpu && (ca.memory! - cb.memory! < 0 || (ca.memory === cb.memory && a.name < b.name)));
}

/** Limits minus the capacity of launched NodeClaims (each has one type once launched). */
function subtractLaunched(remaining: Amounts, claims: readonly Claim[]): void {
  for (const name of Object.keys(remaining)) {
    for (const c of claims) remaining[name] = remaining[name]! - (name === "nodes" ? 1 : (c.types[0]!.resolved.capacity[name] ?? 0));
  }
}

/** Pessimistically count the largest capacity any remaining type could bring (scheduler.go subtractMax). */
function subtractMax(remaining: Amounts, types: readonly TemplateType[]): void {
  for (const name of Object.keys(remaining)) {
    if (name === "nodes") {
      remaining.nodes = remaining.nodes! - 1;
      continue;
    }
    let max = 0;
    for (const t of types) max = Math.max(max, t.resolved.capacity[name] ?? 0);
    remaining[name] = remaining[name]! - max;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// simulate

interface Prepared {
  readonly pods: Pod[];
  readonly shapes: PodShape[];
  readonly daemonSets: DaemonSetPods[];
  readonly types: Map<string, InstanceTypeInfo>;
}

function prepare(input: SimulationInput, snapshot: InstanceTypeSnapshot): Prepared {
  if (input.region !== undefined && input.region !== snapshot.region) {
    throw new SimulationError("region", `the cluster is in ${input.region} but the instance-type snapshot is for ${snapshot.region}`);
  }
  const types = new Map(snapshot.instanceTypes.map((t) => [t.name, t]));
  const daemonSets = input.daemonSets.map((ds, i) => ({
    input: ds,
    requests: { ...amounts(ds.requests, `daemonSets[${i}].requests`), pods: 1 },
    terms: podTerms(ds.nodeSelector ?? {}, ds.requiredNodeAffinity, `daemonSets[${i}]`),
  }));
  const shapes: PodShape[] = [];
  const pods: Pod[] = [];
  const ordered = input.workloads.map((w, i) => ({ w, i })).sort((a, b) => (b.w.priority ?? 0) - (a.w.priority ?? 0) || a.i - b.i);
  for (const { w, i } of ordered) {
    const path = `workloads[${i}]`;
    if (!Number.isInteger(w.replicas) || w.replicas < 0) throw new SimulationError(`${path}.replicas`, `must be a non-negative integer (got ${w.replicas})`);
    const workload = `${w.namespace}/${w.name}`;
    const shape: PodShape = {
      id: shapes.length,
      workload,
      requests: { ...amounts(w.requests, `${path}.requests`), pods: 1 },
      terms: podTerms(w.nodeSelector ?? {}, w.requiredNodeAffinity, path),
      selector: w.nodeSelector ?? {},
      ...(w.requiredNodeAffinity ? { affinity: w.requiredNodeAffinity } : {}),
      tolerations: w.tolerations ?? [],
      onePerNode: w.onePerNode === true,
    };
    shapes.push(shape);
    for (let r = 0; r < w.replicas; r++) pods.push({ name: `${workload}-${r + 1}`, shape, order: pods.length });
  }
  return { pods, shapes, daemonSets, types };
}

/** Runs the scenario: every workload at its `replicas`. */
export function simulate(input: SimulationInput, snapshot: InstanceTypeSnapshot): SimulationResult {
  const { pods, daemonSets, types } = prepare(input, snapshot);
  const nodes = buildExistingNodes(input, snapshot, types, daemonSets);
  const templates = buildTemplates(input, snapshot, daemonSets);

  // 1. kube-scheduler: each pod, in creation order, onto the best-scoring existing node it fits.
  const unplaced: Pod[] = [];
  const placedOnExisting = new Map<string, number>();
  for (const pod of pods) {
    if (placeOnExisting(nodes, pod)) placedOnExisting.set(pod.shape.workload, (placedOnExisting.get(pod.shape.workload) ?? 0) + 1);
    else unplaced.push(pod);
  }

  // 2. Karpenter: the rest by CPU then memory, descending (queue.go byCPUAndMemoryDescending).
  unplaced.sort((a, b) => {
    const ra = a.shape.requests;
    const rb = b.shape.requests;
    return (rb.cpu ?? 0) - (ra.cpu ?? 0) || (rb.memory ?? 0) - (ra.memory ?? 0) || a.order - b.order;
  });
  const claims: Claim[] = []; // ordered by pod count, then creation (scheduler.go sorts newNodeClaims by len(Pods) before each add)
  const allClaims: Claim[] = [];
  const pending: PendingPod[] = [];
  const failures = new Map<string, { reason: PendingReason; message: string }>();
  const onClaims = new Map<string, number>();
  let created = 0;

  // Karpenter decides in batches and, inside one, counts each new NodeClaim at its largest candidate against the
  // NodePool's limits (scheduler.go subtractMax: "could cause a batch of pods to take multiple rounds"). Pods refused
  // for limits get another round once the batch's NodeClaims are launched, counted at the type they likely get.
  let queue = unplaced;
  for (;;) {
    const failed: { pod: Pod; failure: { reason: PendingReason; message: string } }[] = [];
    const claimsBefore = allClaims.length;
    for (const pod of queue) place(pod, failed);
    const retry = failed.some((f) => f.failure.reason === "limit-reached") && allClaims.length > claimsBefore;
    if (!retry) {
      for (const { pod, failure } of failed) pending.push({ pod: pod.name, workload: pod.shape.workload, reason: failure.reason, message: failure.message });
      break;
    }
    for (const claim of allClaims.slice(claimsBefore)) claim.types = [likelyLaunch(claim)];
    for (const template of templates) {
      if (!template.remaining) continue;
      const launched = allClaims.filter((c) => c.template === template);
      template.remaining = { ...template.limits };
      subtractLaunched(template.remaining, launched);
      template.limitsVersion++;
    }
    queue = failed.map((f) => f.pod);
  }

  function place(pod: Pod, failed: { pod: Pod; failure: { reason: PendingReason; message: string } }[]): void {
    const shape = pod.shape;
    let placed = false;
    let lastFailure: { reason: PendingReason; message: string } | undefined;
    for (let ti = 0; ti < shape.terms.length && !placed; ti++) {
      const term = shape.terms[ti]!;
      const key = shape.id * 64 + ti;
      // In-flight NodeClaims, fewest pods first.
      for (let ci = 0; ci < claims.length; ci++) {
        const claim = claims[ci]!;
        if (claim.closed.has(key)) continue;
        if (shape.onePerNode && claim.workloads.has(shape.workload)) continue;
        const r = canAdd(claim.template, claim.requirements, claim.types, claim.requests, shape, term, claim.absorbed.has(key));
        if (!("types" in r)) {
          claim.closed.add(key);
          continue;
        }
        commit(claim, r, pod, key);
        claims.splice(ci, 1);
        insertByPods(claims, claim);
        placed = true;
        break;
      }
      if (placed) break;
      // A new NodeClaim from the first NodePool (by weight) that can take the pod.
      const messages: { reason: PendingReason; message: string }[] = [];
      for (const template of templates) {
        const cacheKey = `${key}|${template.index}|${template.limitsVersion}`;
        const cached = failures.get(cacheKey);
        if (cached) {
          messages.push(cached);
          continue;
        }
        const outcome = newClaim(template, shape, term);
        if ("claim" in outcome) {
          const claim = outcome.claim;
          commit(claim, outcome.result, pod, key);
          if (template.remaining) {
            subtractMax(template.remaining, claim.types);
            template.limitsVersion++;
          }
          template.claims++;
          allClaims.push(claim);
          insertByPods(claims, claim);
          placed = true;
          break;
        }
        failures.set(cacheKey, outcome);
        messages.push(outcome);
      }
      if (!placed) lastFailure = combine(messages, templates.length === 0);
    }
    if (placed) onClaims.set(shape.workload, (onClaims.get(shape.workload) ?? 0) + 1);
    else failed.push({ pod, failure: lastFailure ?? { reason: "nothing-matches", message: "no NodePool" } });
  }

  function commit(claim: Claim, r: AddResult, pod: Pod, key: number): void {
    if (!r.absorbed) claim.absorbed = new Set();
    claim.absorbed.add(key);
    claim.requirements = r.requirements;
    claim.types = r.types;
    addInto(claim.requests, pod.shape.requests);
    claim.pods.push(pod.name);
    claim.workloads.add(pod.shape.workload);
  }

  function newClaim(template: Template, shape: PodShape, term: Requirements): { claim: Claim; result: AddResult } | { reason: PendingReason; message: string } {
    const name = template.pool.name;
    let types: readonly TemplateType[] = template.types;
    const remaining = template.remaining;
    if (remaining) {
      if (remaining.nodes !== undefined && remaining.nodes <= 0) return { reason: "limit-reached", message: `NodePool ${name}: node limit reached` };
      types = withinLimits(types, remaining);
      if (types.length === 0) return { reason: "limit-reached", message: `NodePool ${name}: limits reached (${limitText(template)})` };
    }
    const r = canAdd(template, template.requirements, types, {}, shape, term, false);
    if ("types" in r) {
      const claim: Claim = {
        template,
        created: created++,
        requirements: template.requirements,
        types: r.types,
        requests: {},
        pods: [],
        workloads: new Set(),
        closed: new Set(),
        absorbed: new Set(),
      };
      return { claim, result: r };
    }
    if (r.kind === "taint") return { reason: "nothing-matches", message: `NodePool ${name}: taint ${taintText(r.taint)} not tolerated` };
    if (r.kind === "requirements") return { reason: "nothing-matches", message: `NodePool ${name}: incompatible requirements, ${r.message}` };
    if (r.kind === "minValues") return { reason: "nothing-matches", message: `NodePool ${name}: ${r.message}` };
    if (remaining && types.length !== template.types.length) {
      const unlimited = canAdd(template, template.requirements, template.types, {}, shape, term, false);
      if ("types" in unlimited) return { reason: "limit-reached", message: `NodePool ${name}: limits reached (${limitText(template)})` };
    }
    if (r.anyCompatible) {
      return {
        reason: "too-big",
        message: `NodePool ${name}: no instance type has enough allocatable for requests ${resourcesText(shape.requests)} plus DaemonSets`,
      };
    }
    return { reason: "nothing-matches", message: `NodePool ${name}: no instance type meets the requirements and has an offering` };
  }

  // Finalise: add the smallest DaemonSet overhead among the remaining types (nodeclaim.go addDaemonRequests).
  const counters = new Map<Template, number>();
  const nodeClaims: NodeClaimResult[] = allClaims.map((claim) => finalizeClaim(claim, counters));
  return {
    ...(input.cluster !== undefined ? { cluster: input.cluster } : {}),
    region: snapshot.region,
    nodes: nodes.map(
      (n): ExistingNodeResult => ({
        name: n.name,
        nodeGroup: n.group,
        instanceType: n.instanceType,
        zone: n.zone,
        capacityType: n.capacityType,
        allocatable: formatAmounts(n.allocatable, "human"),
        requested: formatAmounts(n.requested),
        pods: n.pods,
        daemonSetPods: n.daemonSetPods,
      }),
    ),
    nodeClaims,
    pending,
    nodePools: [...templates].sort((a, b) => a.index - b.index).map((t) => usage(t, allClaims)),
    workloads: input.workloads.map((w): WorkloadResult => {
      const id = `${w.namespace}/${w.name}`;
      const existing = placedOnExisting.get(id) ?? 0;
      const claimsCount = onClaims.get(id) ?? 0;
      return { workload: id, replicas: w.replicas, onExistingNodes: existing, onNodeClaims: claimsCount, pending: w.replicas - existing - claimsCount };
    }),
  };
}

function insertByPods(claims: Claim[], claim: Claim): void {
  // Keep (pod count, creation) order: binary search for the first claim that sorts after this one.
  let lo = 0;
  let hi = claims.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = claims[mid]!;
    if (c.pods.length < claim.pods.length || (c.pods.length === claim.pods.length && c.created < claim.created)) lo = mid + 1;
    else hi = mid;
  }
  claims.splice(lo, 0, claim);
}

function combine(messages: readonly { reason: PendingReason; message: string }[], noPools: boolean): { reason: PendingReason; message: string } {
  if (noPools || messages.length === 0) return { reason: "nothing-matches", message: "fits no existing node and no NodePool is declared" };
  const reason: PendingReason = messages.some((m) => m.reason === "limit-reached")
    ? "limit-reached"
    : messages.some((m) => m.reason === "too-big")
      ? "too-big"
      : "nothing-matches";
  return { reason, message: `fits no existing node; ${messages.map((m) => m.message).join("; ")}` };
}

function resourcesText(a: Amounts): string {
  return Object.entries(formatAmounts(a))
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
}

function limitText(t: Template): string {
  const used = usedBy(t);
  return Object.keys(t.limits)
    .sort()
    .map((name) => {
      const fmt = (n: number) => formatAmounts({ [name]: n }, "human")[name];
      return `${name} ${fmt(used[name] ?? 0)} of ${fmt(t.limits[name]!)}`;
    })
    .join(", ");
}

function usedBy(t: Template): Amounts {
  const used: Amounts = {};
  if (t.remaining) for (const name of Object.keys(t.limits)) used[name] = t.limits[name]! - t.remaining[name]!;
  return used;
}

function usage(t: Template, claims: readonly Claim[]): NodePoolUsage {
  const mine = claims.filter((c) => c.template === t);
  // A NodeClaim counts with the type it likely launches as (likelyLaunch) and, as Karpenter's scheduler counts it
  // within one batch, at most with its largest candidate (scheduler.go subtractMax).
  const names = [...new Set(["cpu", "memory", ...Object.keys(t.limits)])];
  const used: Amounts = {};
  const atMost: Amounts = {};
  for (const name of names) {
    used[name] = 0;
    atMost[name] = 0;
    for (const c of mine) {
      if (name === "nodes") {
        used[name] += 1;
        atMost[name] += 1;
        continue;
      }
      used[name] += likelyLaunch(c).resolved.capacity[name] ?? 0;
      atMost[name] += Math.max(...c.types.map((x) => x.resolved.capacity[name] ?? 0));
    }
  }
  const headroom: Amounts = {};
  for (const [name, limit] of Object.entries(t.limits)) headroom[name] = limit - (used[name] ?? 0);
  return {
    name: t.pool.name,
    weight: t.weight,
    nodeClaims: mine.length,
    limits: formatAmounts(t.limits, "human"),
    used: formatAmounts(used, "human"),
    usedAtMost: formatAmounts(atMost, "human"),
    headroom: formatAmounts(headroom, "human"),
    consolidationPolicy: t.pool.disruption?.consolidationPolicy ?? "WhenEmptyOrUnderutilized",
    consolidateAfter: t.pool.disruption?.consolidateAfter ?? "0s",
  };
}

function finalizeClaim(claim: Claim, counters: Map<Template, number>): NodeClaimResult {
  const requests: Amounts = { ...claim.requests };
  const groups = new Map<string, Amounts>();
  for (const t of claim.types) groups.set(t.daemonKey, t.daemonOverhead);
  let min: Amounts | undefined;
  for (const overhead of groups.values()) {
    if (!min) min = { ...overhead };
    else {
      // resources.MinResources: per resource, the smaller amount; a resource missing on one side counts as 0.
      const next: Amounts = {};
      for (const name of new Set([...Object.keys(min), ...Object.keys(overhead)])) next[name] = Math.min(min[name] ?? 0, overhead[name] ?? 0);
      min = next;
    }
  }
  if (min) addInto(requests, min);
  for (const name of Object.keys(requests)) if (requests[name] === 0) delete requests[name];

  // Cheapest first, then at most MAX_INSTANCE_TYPES; Karpenter's log prints the requirement's values, sorted by name
  // (provisioner.go instanceTypeList over nodeclaimtemplate.go ToNodeClaim requirements, requirement.go sets.List).
  const priced = claim.types.map((t) => {
    const offers = compatibleOfferings(t, claim.requirements);
    let cheapest: Offering | undefined;
    for (const o of offers) if (o.price !== undefined && (cheapest === undefined || o.price < cheapest.price!)) cheapest = o;
    return { t, offers, cheapest };
  });
  const byPrice = [...priced].sort((a, b) => (a.cheapest?.price ?? Number.MAX_VALUE) - (b.cheapest?.price ?? Number.MAX_VALUE) || cmp(a.t.name, b.t.name));
  const chosen = byPrice.slice(0, MAX_INSTANCE_TYPES);
  const best = chosen[0]?.cheapest ? chosen[0] : undefined;
  const capacityTypes = new Set<CapacityType>();
  const zones = new Set<string>();
  for (const c of chosen) {
    for (const o of c.offers) {
      capacityTypes.add(o.capacityType);
      zones.add(o.zone);
    }
  }
  const n = (counters.get(claim.template) ?? 0) + 1;
  counters.set(claim.template, n);
  const cheapest: Candidate | undefined = best
    ? { instanceType: best.t.name, zone: best.cheapest!.zone, capacityType: best.cheapest!.capacityType, price: best.cheapest!.price! }
    : undefined;
  return {
    name: `${claim.template.pool.name}-${n}`,
    nodePool: claim.template.pool.name,
    nodeClass: claim.template.nodeClass.name,
    requests: formatAmounts(requests),
    pods: claim.pods,
    daemonSetPods: [...new Set(claim.types.flatMap((t) => (t.daemonKey ? t.daemonKey.split(",") : [])))].sort(),
    instanceTypes: chosen.map((c) => c.t.name).sort(cmp),
    capacityTypes: [...capacityTypes].sort(),
    zones: [...zones].sort(),
    ...(cheapest ? { cheapest } : {}),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

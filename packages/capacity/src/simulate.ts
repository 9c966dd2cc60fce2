// The simulation: pods onto the existing nodes as kube-scheduler would, then Karpenter's packing of the rest.
// Karpenter's part is rewritten from kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/
// (scheduler.go, nodeclaim.go, nodeclaimtemplate.go, queue.go) and pkg/cloudprovider/types.go.
import {
  type Amounts,
  formatAmounts,
  instanceTypeLabels,
  type ResolvedInstanceType,
  resolveInstanceType,
  TENANCIES,
} from "./instance-types.ts";
import { amounts, type DaemonSetPods, type Pod, type PodShape, prepare, SimulationError } from "./input.ts";
import { addInto, buildExistingNodes, countZone, placeOnExisting, taintText, untolerated } from "./kube-scheduler.ts";
import { Requirement, Requirements } from "./requirements.ts";
import type {
  CapacityType,
  Candidate,
  EC2NodeClassInput,
  ExistingNodeResult,
  InstanceTypeSnapshot,
  NodeClaimResult,
  NodePoolInput,
  NodePoolUsage,
  Offering,
  PendingPod,
  PendingReason,
  SimulationInput,
  SimulationResult,
  Taint,
  WorkloadResult,
} from "./types.ts";

export { SimulationError };

/** Karpenter sends at most this many instance types, cheapest first, in a NodeClaim (nodeclaimtemplate.go MaxInstanceTypes). */
export const MAX_INSTANCE_TYPES = 600;

/** Pods that no node, node group or NodePool can ever run (too big, nothing matches): the CLI's exit 1. */
export function cannotRun(result: SimulationResult): PendingPod[] {
  return result.pending.filter((p) => p.reason !== "limit-reached");
}

// ---------------------------------------------------------------------------------------------------------------
// Karpenter: NodeClaim templates (one per NodePool) and their instance types

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
  /** allocatable and DaemonSet overhead over the resource space: the fit test is the hot loop of a large simulation. */
  readonly allocVec: Float64Array;
  readonly overheadVec: Float64Array;
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
    let ok: boolean;
    if (key === "topology.kubernetes.io/zone") ok = someHas(r, t.zones);
    else if (key === "karpenter.sh/capacity-type") ok = someHas(r, t.capacityTypes);
    else if (key === "karpenter.k8s.aws/instance-tenancy") ok = someHas(r, TENANCIES);
    else {
      if (!t.labels.has(key)) continue;
      const v = t.labels.get(key);
      if (v === undefined) {
        // The type defines the key as DoesNotExist: only NotIn / DoesNotExist requirements agree.
        const op = r.operator();
        ok = op === "NotIn" || op === "DoesNotExist";
      } else ok = r.has(v);
    }
    if (!ok) return false;
  }
  return true;
}

function someHas(r: Requirement, values: Iterable<string>): boolean {
  let any = false;
  for (const v of values) {
    any = true;
    if (r.has(v)) return true;
  }
  // An empty set is DoesNotExist on the type's side.
  if (!any) {
    const op = r.operator();
    return op === "NotIn" || op === "DoesNotExist";
  }
  return false;
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
    for (const t of types) {
      for (const v of typeValues(t, r.key) ?? []) seen.add(v);
      if (seen.size >= r.minValues) break;
    }
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

const pricedCache = new WeakMap<InstanceTypeSnapshot, Set<string>>();

/** Capacity types for which the snapshot carries prices. */
function pricedCapacityTypes(snapshot: InstanceTypeSnapshot): Set<string> {
  let set = pricedCache.get(snapshot);
  if (!set) {
    set = new Set();
    for (const t of snapshot.instanceTypes) for (const o of t.offerings) if (o.price !== undefined) set.add(o.capacityType);
    pricedCache.set(snapshot, set);
  }
  return set;
}

const templateTypesCache = new WeakMap<InstanceTypeSnapshot, Map<string, TemplateType[]>>();
const resolvedCache = new WeakMap<InstanceTypeSnapshot, Map<string, { resolved: ResolvedInstanceType[]; labels: Map<string, string | undefined>[] }>>();

function buildTemplates(input: SimulationInput, snapshot: InstanceTypeSnapshot, daemonSets: readonly DaemonSetPods[], space: ResourceSpace): Template[] {
  const classes = new Map(input.nodeClasses.map((c) => [c.name, c]));
  const resolvedByClass = new Map<string, ResolvedInstanceType[]>();
  const labelsByClass = new Map<string, Map<string, string | undefined>[]>();
  const templates: Template[] = input.nodePools.map((pool, i) => {
    const path = `nodePools[${i}]`;
    const nodeClass = classes.get(pool.nodeClass);
    if (!nodeClass) throw new SimulationError(`${path}.nodeClass`, `EC2NodeClass ${pool.nodeClass} is not declared (nodeClasses: ${[...classes.keys()].join(", ") || "none"})`);
    nodeClass.zones?.forEach((z, zi) => {
      if (!snapshot.zones.includes(z)) {
        throw new SimulationError(`nodeClasses[${input.nodeClasses.indexOf(nodeClass)}].zones[${zi}]`, `${z} is not a zone of the ${snapshot.region} snapshot (${snapshot.zones.join(", ")})`);
      }
    });
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
    // A sweep runs the same NodePools over and over: their filtered types are kept per snapshot.
    const typesKey = JSON.stringify([pool.name, pool.nodeClass, pool.requirements, pool.labels, taints, nodeClass, input.daemonSets, [...space.index.keys()]]);
    let perSnapshotTypes = templateTypesCache.get(snapshot);
    if (!perSnapshotTypes) {
      perSnapshotTypes = new Map();
      templateTypesCache.set(snapshot, perSnapshotTypes);
    }
    let types = perSnapshotTypes.get(typesKey);
    if (!types) {
      const zones = new Set(nodeClass.zones && nodeClass.zones.length > 0 ? nodeClass.zones : snapshot.zones);
      const priced = pricedCapacityTypes(snapshot);
      const al2023 = (nodeClass.amiFamily ?? "AL2023") === "AL2023";
      const found: TemplateType[] = [];
      resolved.forEach((r, ti) => {
        // a1 types cannot run AL2023 (aws/karpenter-provider-aws pkg/providers/instancetype/compatibility/compatibility.go).
        if (al2023 && r.info.name.startsWith("a1.")) return;
        // Karpenter marks an offering without a price unavailable (offering/base_resolver.go); a snapshot only has
        // prices when they were asked for, so this applies per capacity type that has any price at all.
        const offerings = r.info.offerings.filter((o) => zones.has(o.zone) && (o.price !== undefined || !priced.has(o.capacityType)));
        const base = {
          resolved: r,
          name: r.info.name,
          labels: labels![ti]!,
          offerings,
          zones: new Set(offerings.map((o) => o.zone)),
          capacityTypes: new Set(offerings.map((o) => o.capacityType)),
          daemonOverhead: {},
          daemonKey: "",
          allocVec: space.vector(r.allocatable),
          overheadVec: space.vector({}),
        };
        if (!typeCompatible(base, requirements) || !hasOffering(base, requirements)) return;
        const overhead: Amounts = {};
        const names: string[] = [];
        for (const ds of daemonSets) {
          if (!daemonSetFitsTemplate(ds, requirements, taints, base)) continue;
          addInto(overhead, ds.requests);
          names.push(ds.input.name);
        }
        found.push({ ...base, daemonOverhead: overhead, daemonKey: names.join(","), overheadVec: space.vector(overhead) });
      });
      types = found;
      perSnapshotTypes.set(typesKey, types);
    }
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
  /** The candidates Karpenter logs, kept when a later round counts the NodeClaim as launched (types = the one type). */
  candidates?: TemplateType[];
  readonly requests: Amounts;
  readonly vec: Float64Array;
  readonly pods: string[];
  readonly workloads: Set<string>;
  /** Shape+term keys (with the zone, under a zone spread) that failed here once: a NodeClaim only tightens, so they fail again. */
  readonly closed: Set<number | string>;
  /** Shape+term keys whose requirements are already merged into `requirements`. */
  absorbed: Set<number>;
}

interface AddResult {
  requirements: Requirements;
  types: TemplateType[];
  absorbed: boolean;
  /** The zone a zone spread put the pod in. */
  zone?: string;
}

/** Picks the zone for a pod under a zone spread, given the NodeClaim's zone requirement and the pod's (topologygroup.go nextDomainTopologySpread). */
type ZonePicker = (nodeZones: Requirement, podZones: Requirement) => string | undefined;

type AddFailure = { kind: "taint"; taint: Taint } | { kind: "requirements"; message: string } | { kind: "resources"; anyCompatible: boolean } | { kind: "minValues"; message: string };

/** NodeClaim.CanAdd (nodeclaim.go): taints, requirements, then instance types that still fit with an offering. */
function canAdd(
  template: Template,
  current: Requirements,
  types: readonly TemplateType[],
  requests: Float64Array,
  pod: PodShape,
  term: Requirements,
  absorbed: boolean,
  pickZone?: ZonePicker,
): AddResult | AddFailure {
  const taint = untolerated(template.taints, pod.tolerations);
  if (taint) return { kind: "taint", taint };
  let reqs = current;
  let zone: string | undefined;
  if (!absorbed) {
    const problem = current.compatible(term);
    if (problem) return { kind: "requirements", message: problem };
    reqs = current.copy().addAll(term);
    // Topology comes last, as upstream: it narrows the zone to one domain (nodeclaim.go tryVolumeAlternative).
    if (pickZone) {
      const zoneKey = "topology.kubernetes.io/zone";
      zone = pickZone(reqs.get(zoneKey), term.get(zoneKey));
      if (zone === undefined) return { kind: "requirements", message: `no zone keeps the topology spread within maxSkew ${pod.zoneSpread}` };
      reqs.add(Requirement.of(zoneKey, "In", [zone]));
    }
  }
  const remaining: TemplateType[] = [];
  let anyCompatible = false;
  for (const t of types) {
    // Absorbed: the requirements did not change, so every type here already passed both checks.
    if (!absorbed && (!typeCompatible(t, reqs) || !hasOffering(t, reqs))) continue;
    anyCompatible = true;
    if (!fitsWithOverhead(requests, pod.vec, t)) continue;
    remaining.push(t);
  }
  if (remaining.length === 0) return { kind: "resources", anyCompatible };
  if (reqs.hasMinValues()) {
    const problem = minValuesProblem(remaining, reqs);
    if (problem) return { kind: "minValues", message: problem };
  }
  return { requirements: reqs, types: remaining, absorbed, ...(zone !== undefined ? { zone } : {}) };
}

/** requests + pod + DaemonSet overhead <= allocatable, for every resource (karpenter pkg/utils/resources Fits). */
function fitsWithOverhead(claimRequests: Float64Array, podRequests: Float64Array, t: TemplateType): boolean {
  const alloc = t.allocVec;
  const overhead = t.overheadVec;
  for (let i = 0; i < alloc.length; i++) {
    if (claimRequests[i]! + podRequests[i]! + overhead[i]! > alloc[i]!) return false;
  }
  return true;
}

/** Resource names to vector positions, fixed for one simulation. */
class ResourceSpace {
  readonly index = new Map<string, number>();
  constructor(names: Iterable<string>) {
    for (const n of names) if (!this.index.has(n)) this.index.set(n, this.index.size);
  }
  vector(amounts: Amounts): Float64Array {
    const v = new Float64Array(this.index.size);
    for (const [name, n] of Object.entries(amounts)) {
      const i = this.index.get(name);
      if (i !== undefined) v[i] = n;
    }
    return v;
  }
}

const limitedTypes = new WeakMap<Template, { version: number; types: TemplateType[] }>();

function withinLimitsCached(template: Template): TemplateType[] {
  const cached = limitedTypes.get(template);
  if (cached && cached.version === template.limitsVersion) return cached.types;
  const types = withinLimits(template.types, template.remaining!);
  limitedTypes.set(template, { version: template.limitsVersion, types });
  return types;
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

/** Runs the scenario: every workload at its `replicas`. */
export function simulate(input: SimulationInput, snapshot: InstanceTypeSnapshot): SimulationResult {
  const { pods, shapes, daemonSets, types } = prepare(input, snapshot);
  const space = new ResourceSpace([
    "cpu",
    "memory",
    "pods",
    "ephemeral-storage",
    ...shapes.flatMap((s) => Object.keys(s.requests)),
    ...daemonSets.flatMap((d) => Object.keys(d.requests)),
  ]);
  for (const shape of shapes) shape.vec = space.vector(shape.requests);
  const nodes = buildExistingNodes(input, snapshot, types, daemonSets);
  const templates = buildTemplates(input, snapshot, daemonSets, space);
  const zero = space.vector({});

  // 1. kube-scheduler: each pod, in creation order, onto the best-scoring existing node it fits.
  const unplaced: Pod[] = [];
  const placedOnExisting = new Map<string, number>();
  const zoneCounts = new Map<string, Map<string, number>>();
  for (const pod of pods) {
    if (placeOnExisting(nodes, pod, zoneCounts)) placedOnExisting.set(pod.shape.workload, (placedOnExisting.get(pod.shape.workload) ?? 0) + 1);
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

  // Zone spread domains: the zones of existing nodes and every zone a NodePool can launch into (topology.go).
  const domains = [...new Set([...nodes.map((n) => n.zone), ...templates.flatMap((t) => t.types.flatMap((x) => [...x.zones]))])].sort();
  const pickers = new Map<PodShape, ZonePicker>();
  function pickerFor(shape: PodShape): ZonePicker | undefined {
    if (shape.zoneSpread === undefined) return undefined;
    let picker = pickers.get(shape);
    if (!picker) {
      const skew = shape.zoneSpread;
      picker = (nodeZones, podZones) => {
        const counts = zoneCounts.get(shape.workload);
        const podDomains = domains.filter((d) => podZones.has(d));
        if (podDomains.length === 0) return undefined;
        const min = Math.min(...podDomains.map((d) => counts?.get(d) ?? 0));
        let best: string | undefined;
        let bestCount = Number.POSITIVE_INFINITY;
        for (const d of domains) {
          if (!nodeZones.has(d)) continue;
          const count = (counts?.get(d) ?? 0) + 1;
          if (count - min <= skew && count < bestCount) {
            best = d;
            bestCount = count;
          }
        }
        return best;
      };
      pickers.set(shape, picker);
    }
    return picker;
  }

  /** A cache key for a shape+term under a zone spread: the zone it would go to now (undefined: none qualifies). */
  function spreadKey(key: number, pickZone: ZonePicker, current: Requirements, term: Requirements): string | undefined {
    const zoneLabel = "topology.kubernetes.io/zone";
    const zone = pickZone(current.get(zoneLabel).intersection(term.get(zoneLabel)), term.get(zoneLabel));
    return zone === undefined ? undefined : `${key}|${zone}`;
  }

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
    for (const claim of allClaims.slice(claimsBefore)) {
      claim.candidates = claim.types;
      claim.types = [likelyLaunch(claim)];
    }
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
      // A zone spread depends on counts that change as pods land: such shapes skip the caches below.
      const pickZone = pickerFor(shape);
      // In-flight NodeClaims, fewest pods first.
      for (let ci = 0; ci < claims.length; ci++) {
        const claim = claims[ci]!;
        if (claim.closed.has(key)) continue;
        if (shape.onePerNode && claim.workloads.has(shape.workload)) continue;
        // Under a zone spread a refusal holds for the zone it was tried in: remember it per zone.
        const zoneKey = pickZone ? spreadKey(key, pickZone, claim.requirements, term) : undefined;
        if (pickZone && (zoneKey === undefined || claim.closed.has(zoneKey))) continue;
        const r = canAdd(claim.template, claim.requirements, claim.types, claim.vec, shape, term, !pickZone && claim.absorbed.has(key), pickZone);
        if (!("types" in r)) {
          claim.closed.add(zoneKey ?? key);
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
        const zoneKey = pickZone ? spreadKey(key, pickZone, template.requirements, term) : "";
        const cacheKey = `${key}|${template.index}|${template.limitsVersion}|${zoneKey}`;
        const cached = zoneKey === undefined ? undefined : failures.get(cacheKey);
        if (cached) {
          messages.push(cached);
          continue;
        }
        const outcome = newClaim(template, shape, term, pickZone);
        if ("claim" in outcome) {
          const claim = outcome.claim;
          commit(claim, outcome.result, pod, key);
          if (template.remaining) {
            subtractMax(template.remaining, claim.types);
            template.limitsVersion++;
          }
          allClaims.push(claim);
          insertByPods(claims, claim);
          placed = true;
          break;
        }
        if (zoneKey !== undefined) failures.set(cacheKey, outcome);
        messages.push(outcome);
      }
      if (!placed) lastFailure = combine(messages, templates.length === 0);
    }
    if (placed) onClaims.set(shape.workload, (onClaims.get(shape.workload) ?? 0) + 1);
    else failed.push({ pod, failure: lastFailure ?? { reason: "nothing-matches", message: "no NodePool" } });
  }

  function commit(claim: Claim, r: AddResult, pod: Pod, key: number): void {
    if (r.zone !== undefined) countZone(zoneCounts, pod.shape.workload, r.zone);
    if (!r.absorbed) claim.absorbed = new Set();
    claim.absorbed.add(key);
    claim.requirements = r.requirements;
    claim.types = r.types;
    addInto(claim.requests, pod.shape.requests);
    const v = pod.shape.vec;
    for (let i = 0; i < v.length; i++) claim.vec[i]! += v[i]!;
    claim.pods.push(pod.name);
    claim.workloads.add(pod.shape.workload);
  }

  function newClaim(
    template: Template,
    shape: PodShape,
    term: Requirements,
    pickZone: ZonePicker | undefined,
  ): { claim: Claim; result: AddResult } | { reason: PendingReason; message: string } {
    const name = template.pool.name;
    let types: readonly TemplateType[] = template.types;
    const remaining = template.remaining;
    if (remaining) {
      if (remaining.nodes !== undefined && remaining.nodes <= 0) return { reason: "limit-reached", message: `NodePool ${name}: node limit reached` };
      types = withinLimitsCached(template);
      if (types.length === 0) return { reason: "limit-reached", message: `NodePool ${name}: limits reached (${limitText(template)})` };
    }
    const r = canAdd(template, template.requirements, types, zero, shape, term, false, pickZone);
    if ("types" in r) {
      const claim: Claim = {
        template,
        created: created++,
        requirements: template.requirements,
        types: r.types,
        requests: {},
        vec: space.vector({}),
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
      const unlimited = canAdd(template, template.requirements, template.types, zero, shape, term, false, pickZone);
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
  // A NodeClaim that took more pods in a later round keeps only the logged candidates that still hold them.
  const zero = new Float64Array(claim.vec.length);
  const candidates = claim.candidates ? claim.candidates.filter((t) => fitsWithOverhead(claim.vec, zero, t)) : claim.types;
  const priced = candidates.map((t) => {
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
  const listed = chosen.map((c) => c.t).sort((a, b) => cmp(a.name, b.name));
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
    instanceTypes: listed.map((t) => t.name),
    firstCandidates: listed.slice(0, 5).map((t) => ({ instanceType: t.name, allocatable: formatAmounts(t.resolved.allocatable, "human") })),
    capacityTypes: [...capacityTypes].sort(),
    zones: [...zones].sort(),
    ...(cheapest ? { cheapest } : {}),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// One NodeClaim template per NodePool with the instance types it may launch, and their DaemonSet overhead.
// Rewritten from kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaimtemplate.go
// (NewNodeClaimTemplate) and scheduler.go (NewScheduler's template filter, buildDaemonOverheadGroups).
// Karpenter: NodeClaim templates (one per NodePool) and their instance types

import { amounts, type DaemonSetPods, SimulationError } from "./input.ts";
import { type Amounts, instanceTypeLabels, type ResolvedInstanceType, resolveInstanceType, TENANCIES } from "./instance-types.ts";
import { addInto, untoleratedByKarpenter } from "./kube-scheduler.ts";
import { Requirement, Requirements } from "./requirements.ts";
import type { ResourceSpace } from "./resources.ts";
import type { CapacityReservationInput, EC2NodeClassInput, InstanceTypeSnapshot, NodePoolInput, Offering, SimulationInput, Taint } from "./types.ts";


export interface TemplateType {
  readonly resolved: ResolvedInstanceType;
  readonly name: string;
  readonly labels: ReadonlyMap<string, string | undefined>;
  /** Offerings in the EC2NodeClass's zones, the available `reserved` ones included. */
  readonly offerings: readonly Offering[];
  /**
   * The capacity-reservation labels of a type the EC2NodeClass has reservations for: every reservation's value
   * (types.go computeRequirements); a type without reservations has them as DoesNotExist in `labels`.
   */
  readonly reservationLabels?: ReadonlyMap<string, readonly string[]>;
  readonly zones: ReadonlySet<string>;
  readonly capacityTypes: ReadonlySet<string>;
  /** Requests of the DaemonSet pods that would run on this type under this NodePool. */
  readonly daemonOverhead: Amounts;
  readonly daemonKey: string;
  /** allocatable and DaemonSet overhead over the resource space: the fit test is the hot loop of a large simulation. */
  readonly allocVec: Float64Array;
  readonly overheadVec: Float64Array;
}

export interface Template {
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
  /** Why Karpenter skips this NodePool (no instance type left, minValues unmet); it then takes no pod. */
  readonly skipped?: string;
}

/** The values of a key an instance type offers (its requirement set in types.go computeRequirements). */
export function typeValues(t: TemplateType, key: string): readonly string[] | undefined {
  if (key === "topology.kubernetes.io/zone") return [...t.zones];
  const reserved = t.reservationLabels?.get(key);
  if (reserved) return reserved;
  if (key === "karpenter.sh/capacity-type") return [...t.capacityTypes];
  if (key === "karpenter.k8s.aws/instance-tenancy") return TENANCIES;
  if (!t.labels.has(key)) return undefined;
  const v = t.labels.get(key);
  return v === undefined ? [] : [v];
}

/** instanceType.Requirements.Intersects(requirements) (nodeclaim.go compatible). */
export function typeCompatible(t: TemplateType, reqs: Requirements): boolean {
  for (const [key, r] of reqs.byKey) {
    let ok: boolean;
    if (key === "topology.kubernetes.io/zone") ok = someHas(r, t.zones);
    else if (key === "karpenter.sh/capacity-type") ok = someHas(r, t.capacityTypes);
    else if (key === "karpenter.k8s.aws/instance-tenancy") ok = someHas(r, TENANCIES);
    else if (t.reservationLabels?.has(key)) ok = someHas(r, t.reservationLabels.get(key)!);
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

/** The capacity-reservation labels, the value a reserved offering carries for each (base_resolver.go: DoesNotExist on the others). */
const RESERVATION_KEYS: readonly [string, (r: CapacityReservationInput) => string][] = [
  ["karpenter.k8s.aws/capacity-reservation-id", (r) => r.id],
  ["karpenter.k8s.aws/capacity-reservation-type", (r) => r.reservationType ?? "default"],
  ["karpenter.k8s.aws/capacity-reservation-interruptible", (r) => String(r.interruptible ?? false)],
];

/** An offering's requirements against the NodeClaim's (offering.go Compatible): zone, capacity type, reservation labels. */
export function offeringCompatible(o: Offering, reqs: Requirements): boolean {
  return offeringMatches(o, reqs.byKey.get("topology.kubernetes.io/zone"), reqs.byKey.get("karpenter.sh/capacity-type"), reqs.hasReservationKeys ? reqs : undefined);
}

/** `reservationReqs`: the requirements when they name a reservation label (hot path: looked up once per type). */
function offeringMatches(o: Offering, zone: Requirement | undefined, ct: Requirement | undefined, reservationReqs: Requirements | undefined): boolean {
  if (zone && !zone.has(o.zone)) return false;
  if (ct && !ct.has(o.capacityType)) return false;
  if (!reservationReqs) return true;
  for (const [key, valueFor] of RESERVATION_KEYS) {
    const r = reservationReqs.byKey.get(key);
    if (!r) continue;
    if (o.reservation ? !r.has(valueFor(o.reservation)) : !(r.operator() === "NotIn" || r.operator() === "DoesNotExist")) return false;
  }
  return true;
}

/** An offering whose zone, capacity type and reservation the requirements allow (nodeclaim.go fits, offering part). */
export function hasOffering(t: TemplateType, reqs: Requirements): boolean {
  const zone = reqs.byKey.get("topology.kubernetes.io/zone");
  const ct = reqs.byKey.get("karpenter.sh/capacity-type");
  const reservationReqs = reqs.hasReservationKeys ? reqs : undefined;
  return t.offerings.some((o) => offeringMatches(o, zone, ct, reservationReqs));
}

export function compatibleOfferings(t: TemplateType, reqs: Requirements): Offering[] {
  const zone = reqs.byKey.get("topology.kubernetes.io/zone");
  const ct = reqs.byKey.get("karpenter.sh/capacity-type");
  const reservationReqs = reqs.hasReservationKeys ? reqs : undefined;
  return t.offerings.filter((o) => offeringMatches(o, zone, ct, reservationReqs));
}

/**
 * The `reserved` offerings of one instance type: one per capacity reservation of the EC2NodeClass for the type, priced
 * at the on-demand price / 10,000,000 (0 without one) so a reservation is all but free yet keeps the types' order, and
 * available while it has instances left, is in a zone the type is offered in and is not expiring (aws/karpenter-provider-aws
 * v1.14.1 pkg/providers/instancetype/offering/reserved_capacity_resolver.go ResolveOfferings).
 */
export function reservedOfferings(name: string, typeZones: ReadonlySet<string>, onDemandPrice: number | undefined, reservations: readonly CapacityReservationInput[]): Offering[] {
  const out: Offering[] = [];
  for (const r of reservations) {
    if (r.instanceType !== name) continue;
    if (r.availableInstanceCount === 0 || !typeZones.has(r.zone) || r.state === "expiring") continue;
    out.push({ zone: r.zone, capacityType: "reserved", price: (onDemandPrice ?? 0) / 10_000_000, reservation: r });
  }
  return out;
}

/** The reservation labels of a type with reservations (computeRequirements: In every reservation's value). */
function reservationLabelsOf(name: string, reservations: readonly CapacityReservationInput[]): Map<string, string[]> | undefined {
  const mine = reservations.filter((r) => r.instanceType === name);
  if (mine.length === 0) return undefined;
  return new Map(RESERVATION_KEYS.map(([key, valueFor]) => [key, [...new Set(mine.map(valueFor))]]));
}

/** isDaemonPodCompatible (scheduler.go): tolerates the NodePool's taints, and one of its terms agrees with the template and the type. */
function daemonSetFitsTemplate(ds: DaemonSetPods, reqs: Requirements, taints: readonly Taint[], t: TemplateType): boolean {
  // A DaemonSet pod ignores PreferNoSchedule (scheduler.go isDaemonPodCompatible adds that toleration).
  if (untoleratedByKarpenter(taints, ds.input.tolerations ?? [], true)) return false;
  return ds.terms.some((term) => reqs.compatible(term) === undefined && typeCompatible(t, term));
}

/** Does every key with minValues span enough distinct values over the types? (pkg/cloudprovider/types.go SatisfiesMinValues) */
export function minValuesProblem(types: readonly TemplateType[], reqs: Requirements): string | undefined {
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

/** The EC2NodeClass status fields Karpenter's CRD validates (ec2nodeclass_status.go), and that the snapshot knows the type and zone. */
function checkReservations(nodeClass: EC2NodeClassInput, ci: number, snapshot: InstanceTypeSnapshot): void {
  nodeClass.capacityReservations?.forEach((r, ri) => {
    const path = `nodeClasses[${ci}].capacityReservations[${ri}]`;
    if (!/^cr-[0-9a-z]+$/.test(r.id)) throw new SimulationError(`${path}.id`, `must match ^cr-[0-9a-z]+$ (got ${JSON.stringify(r.id)})`);
    if (!snapshot.instanceTypes.some((t) => t.name === r.instanceType)) throw new SimulationError(`${path}.instanceType`, `${r.instanceType} is not in the ${snapshot.region} instance-type snapshot`);
    if (!snapshot.zones.includes(r.zone)) throw new SimulationError(`${path}.zone`, `${r.zone} is not a zone of the ${snapshot.region} snapshot (${snapshot.zones.join(", ")})`);
    if (!Number.isInteger(r.availableInstanceCount) || r.availableInstanceCount < 0) throw new SimulationError(`${path}.availableInstanceCount`, `must be a non-negative integer (got ${r.availableInstanceCount})`);
    if (r.ownerId !== undefined && !/^[0-9]{12}$/.test(r.ownerId)) throw new SimulationError(`${path}.ownerId`, `must be 12 digits (got ${JSON.stringify(r.ownerId)})`);
    if (r.reservationType !== undefined && r.reservationType !== "default" && r.reservationType !== "capacity-block") {
      throw new SimulationError(`${path}.reservationType`, `must be default or capacity-block (got ${JSON.stringify(r.reservationType)})`);
    }
    if (r.state !== undefined && r.state !== "active" && r.state !== "expiring") throw new SimulationError(`${path}.state`, `must be active or expiring (got ${JSON.stringify(r.state)})`);
  });
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

export function buildTemplates(input: SimulationInput, snapshot: InstanceTypeSnapshot, daemonSets: readonly DaemonSetPods[], space: ResourceSpace): Template[] {
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
    checkReservations(nodeClass, input.nodeClasses.indexOf(nodeClass), snapshot);
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
        const baseOfferings = r.info.offerings.filter((o) => zones.has(o.zone) && (o.price !== undefined || !priced.has(o.capacityType)));
        const reservations = nodeClass.capacityReservations ?? [];
        const typeZones = new Set(r.info.offerings.filter((o) => zones.has(o.zone)).map((o) => o.zone));
        const onDemandPrice = r.info.offerings.find((o) => o.capacityType === "on-demand" && o.price !== undefined)?.price;
        const offerings = reservations.length > 0 ? [...baseOfferings, ...reservedOfferings(r.info.name, typeZones, onDemandPrice, reservations)] : baseOfferings;
        const reservationLabels = reservations.length > 0 ? reservationLabelsOf(r.info.name, reservations) : undefined;
        const capacityTypes = new Set<string>(offerings.map((o) => o.capacityType));
        if (reservationLabels) capacityTypes.add("reserved");
        const base = {
          resolved: r,
          name: r.info.name,
          labels: labels![ti]!,
          offerings,
          ...(reservationLabels ? { reservationLabels } : {}),
          zones: new Set(offerings.map((o) => o.zone)),
          capacityTypes,
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
    // Karpenter skips a NodePool whose requirements leave no instance type, or too few for its minValues, and schedules
    // on the others (scheduler.go NewScheduler: "skipping, nodepool requirements filtered out all instance types").
    let skipped: string | undefined;
    if (types.length === 0) {
      skipped = `NodePool ${pool.name} matches no instance type of the ${snapshot.region} snapshot (requirements: ${[...requirements.byKey.values()].map(String).sort().join(", ")})`;
    } else {
      const problem = minValuesProblem(types, requirements);
      if (problem) skipped = `NodePool ${pool.name}: ${problem}`;
    }
    if (skipped) types = [];
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
      ...(skipped ? { skipped } : {}),
    };
  });
  // Heavier NodePools first; equal weights: the name later in the alphabet first (karpenter pkg/utils/nodepool/nodepool.go OrderByWeight).
  return templates.sort((a, b) => b.weight - a.weight || (a.pool.name < b.pool.name ? 1 : a.pool.name > b.pool.name ? -1 : 0));
}


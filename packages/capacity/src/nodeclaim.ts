// An in-flight NodeClaim: its requirements, remaining instance types and requests as pods are added.
// Rewritten from kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaim.go
// (CanAdd, filterInstanceTypesByRequirements, FinalizeScheduling, addDaemonRequests) and nodeclaimtemplate.go ToNodeClaim.
// Karpenter: in-flight NodeClaims

import type { PodShape } from "./input.ts";
import { type Amounts, formatAmounts } from "./instance-types.ts";
import { addInto, untoleratedByKarpenter } from "./kube-scheduler.ts";
import { compatibleOfferings, hasOffering, minValuesProblem, type Template, type TemplateType, typeCompatible } from "./nodeclaimtemplate.ts";
import { Requirement, type Requirements } from "./requirements.ts";
import type { ZonePicker } from "./topology.ts";
import type { Candidate, CapacityType, NodeClaimResult, Offering, Taint } from "./types.ts";

/** Karpenter sends at most this many instance types, cheapest first, in a NodeClaim (nodeclaimtemplate.go MaxInstanceTypes). */
export const MAX_INSTANCE_TYPES = 600;


export interface Claim {
  readonly template: Template;
  readonly created: number;
  requirements: Requirements;
  types: TemplateType[];
  /** The candidates Karpenter logs, kept when a later round counts the NodeClaim as launched (types = the one type). */
  candidates?: TemplateType[];
  readonly requests: Amounts;
  readonly vec: Float64Array;
  readonly pods: string[];
  /** Workload -> its pods on the NodeClaim. */
  readonly workloads: Map<string, number>;
  /** Shape+term keys (with the zone, under a zone spread) that failed here once: a NodeClaim only tightens, so they fail again. */
  readonly closed: Set<number | string>;
  /** Shape+term keys whose requirements are already merged into `requirements`. */
  absorbed: Set<number>;
}

export interface AddResult {
  requirements: Requirements;
  types: TemplateType[];
  absorbed: boolean;
  /** The zone a zone spread put the pod in. */
  zone?: string;
}


export type AddFailure = { kind: "taint"; taint: Taint } | { kind: "requirements"; message: string } | { kind: "resources"; anyCompatible: boolean } | { kind: "minValues"; message: string };

/** NodeClaim.CanAdd (nodeclaim.go): taints, requirements, then instance types that still fit with an offering. */
export function canAdd(
  template: Template,
  current: Requirements,
  types: readonly TemplateType[],
  requests: Float64Array,
  pod: PodShape,
  term: Requirements,
  absorbed: boolean,
  pickZone?: ZonePicker,
  tolerateSoft = false,
): AddResult | AddFailure {
  // Karpenter checks every taint, PreferNoSchedule included (scheduling/taints.go Tolerates), until the relaxation
  // adds a toleration for PreferNoSchedule (preferences.go toleratePreferNoScheduleTaints).
  const taint = untoleratedByKarpenter(template.taints, pod.tolerations, tolerateSoft);
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
export function fitsWithOverhead(claimRequests: Float64Array, podRequests: Float64Array, t: TemplateType): boolean {
  const alloc = t.allocVec;
  const overhead = t.overheadVec;
  for (let i = 0; i < alloc.length; i++) {
    if (claimRequests[i]! + podRequests[i]! + overhead[i]! > alloc[i]!) return false;
  }
  return true;
}

/** `groupOrder`: the template's DaemonSet overhead groups (by daemonKey) in the order addDaemonRequests folds them (scheduler.ts daemonGroupOrders). */
export function finalizeClaim(claim: Claim, counters: Map<Template, number>, groupOrder?: readonly string[]): NodeClaimResult {
  const requests: Amounts = { ...claim.requests };
  // addDaemonRequests (nodeclaim.go) walks the template's DaemonSet overhead groups in the order of lo.Values over the
  // map buildDaemonOverheadGroups (scheduler.go) filled while walking the template's instance types, skips the groups
  // with no remaining type, takes the first overhead while the running minimum is empty, else resources.MinResources
  // (the keys of the minimum that the group also has, at the smaller amount). A group without DaemonSets has no keys,
  // so it empties the minimum and the NEXT group's overhead replaces it: the result depends on the group order.
  // Go (>= 1.24, swiss tables) stores a map of at most 8 entries in one group, in insertion order, and iterates it from
  // a random one of the 8 slots (internal/runtime/maps/table.go Iter.Next), so with n <= 8 groups insertion order comes
  // out with probability (9 - n) / 8: that, the most likely order, is the default; the tie breaker may pick another
  // (scheduler.ts daemonGroupOrders; README "Ties").
  const remaining = new Set(claim.types.map((t) => t.daemonKey));
  const ordered: Amounts[] = [];
  const seen = new Set<string>();
  const overheadOf = new Map(claim.types.map((t) => [t.daemonKey, t.daemonOverhead]));
  for (const key of groupOrder ?? []) {
    if (seen.has(key) || !remaining.has(key)) continue;
    seen.add(key);
    ordered.push(overheadOf.get(key)!);
  }
  for (const t of [...claim.template.types, ...claim.types]) {
    if (seen.has(t.daemonKey)) continue;
    seen.add(t.daemonKey);
    if (remaining.has(t.daemonKey)) ordered.push(t.daemonOverhead);
  }
  let min: Amounts = {};
  for (const overhead of ordered) {
    if (Object.keys(min).length === 0) min = { ...overhead };
    else {
      const next: Amounts = {};
      for (const name of Object.keys(min)) if (overhead[name] !== undefined) next[name] = Math.min(min[name]!, overhead[name]!);
      min = next;
    }
  }
  addInto(requests, min);
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

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

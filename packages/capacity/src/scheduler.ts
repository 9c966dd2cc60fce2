// The scheduling run: pods onto the existing nodes as kube-scheduler would, then Karpenter's packing of the rest.
// Rewritten from kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go
// (Solve, add, subtractMax, filterByRemainingResources) and queue.go (byCPUAndMemoryDescending).

import { buildExistingNodes, placeOnExisting } from "./existingnode.ts";
import { type Pod, type PodShape, prepare } from "./input.ts";
import { type Amounts, formatAmounts } from "./instance-types.ts";
import { addInto, taintText } from "./kube-scheduler.ts";
import { goSortSlice, isSorted } from "./go-sort.ts";
import { type AddFailure, type AddResult, type Claim, canAdd, finalizeClaim } from "./nodeclaim.ts";
import { buildTemplates, compatibleOfferings, type Template, type TemplateType } from "./nodeclaimtemplate.ts";
import { Requirement, type Requirements } from "./requirements.ts";
import { ReservationManager, type ReservedOfferingError, reservedRequirements } from "./reservationmanager.ts";
import { ResourceSpace } from "./resources.ts";
import { enumerateOutcomes, FIRST_TIE, type Outcomes, type TieBreaker } from "./ties.ts";
import { countZone, fixedZone, Topology, type ZonePicker, type ZoneTies } from "./topology.ts";
import type { ExistingNodeResult, InstanceTypeSnapshot, NodeClaimResult, NodePoolUsage, Offering, PendingPod, PendingReason, SimulationInput, SimulationResult, WorkloadResult } from "./types.ts";

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
    const price = cheapestOffering(t, claim.requirements)?.price ?? Number.MAX_VALUE;
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

function cheapestOffering(t: TemplateType, reqs: Requirements): Offering | undefined {
  let best: Offering | undefined;
  for (const o of compatibleOfferings(t, reqs)) if (o.price !== undefined && (best === undefined || o.price < best.price!)) best = o;
  return best;
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
export interface SimulateOptions {
  /**
   * Stop after Karpenter's first scheduling batch (one `Solve`): pods refused for NodePool limits stay Pending instead of
   * getting another round once the batch's NodeClaims count at the type they likely launch as. The e2e differential
   * compares this with one run of Karpenter's scheduler. @default false
   */
  readonly singleBatch?: boolean;
  /**
   * How ties that Karpenter breaks by Go map order are broken (ties.ts). Default: the first option (the lowest zone
   * name; DaemonSet overhead groups in insertion order). Test mode: simulateOutcomes enumerates them.
   */
  readonly ties?: TieBreaker;
}

/**
 * Test mode (`tieBreaks: "enumerate"`): every distinct result `simulate` can give over the ways Karpenter's map-order
 * ties can break, bounded (ties.ts enumerateOutcomes). `results[0]` is what `simulate` itself returns.
 */
export function simulateOutcomes(
  input: SimulationInput,
  snapshot: InstanceTypeSnapshot,
  options: Omit<SimulateOptions, "ties"> & Parameters<typeof enumerateOutcomes>[1] = {},
): Outcomes {
  const { maxOutcomes, maxRuns, key, until, ...rest } = options;
  return enumerateOutcomes((ties) => simulate(input, snapshot, { ...rest, ties }), {
    ...(maxOutcomes !== undefined ? { maxOutcomes } : {}),
    ...(maxRuns !== undefined ? { maxRuns } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(until !== undefined ? { until } : {}),
  });
}

const ZONE_LABEL = "topology.kubernetes.io/zone";

/**
 * Test helper (e2e differential): the pods kube-scheduler binds to the existing nodes before Karpenter's batch (step 1
 * of `simulate`), per node name, in placement order. Pods `simulate` puts on those nodes later in the batch (a zone
 * spread that the batch's NodeClaims eased) are not among them: Karpenter's addToExistingNode places those itself.
 */
export function kubeSchedulerBindings(input: SimulationInput, snapshot: InstanceTypeSnapshot): Map<string, string[]> {
  const { pods, daemonSets, types } = prepare(input, snapshot);
  const nodes = buildExistingNodes(input, snapshot, types, daemonSets);
  const zoneCounts = new Map<string, Map<string, number>>();
  for (const pod of pods) placeOnExisting(nodes, pod, zoneCounts);
  return new Map(nodes.map((n) => [n.name, [...n.pods]]));
}

export function simulate(input: SimulationInput, snapshot: InstanceTypeSnapshot, options: SimulateOptions = {}): SimulationResult {
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
  const ties = options.ties ?? FIRST_TIE;

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
  // In-flight NodeClaims in Karpenter's order (s.newNodeClaims): new ones are appended (scheduler.go
  // addToNewNodeClaim), and before each pod they are sorted in place by pod count with sort.Slice (scheduler.go add),
  // whose order among NodeClaims with as many pods is Go's pdqsort's: goSortSlice reproduces it (go-sort.ts). A sorted
  // array comes out of sort.Slice unchanged (pdqsort's insertion sort, or its partialInsertionSort on a presorted
  // run), so it is sorted only when a pod or a NodeClaim was added since.
  const claims: Claim[] = [];
  let claimsDirty = false;
  const fewerPods = (a: Claim, b: Claim) => a.pods.length < b.pods.length;
  // Capacity reservations: a new ReservationManager per batch (scheduler.go NewScheduler), counting what earlier batches
  // launched into each reservation (`launchedInto`).
  const allTypes = templates.flatMap((t) => t.types);
  const launchedInto = new Map<string, number>();
  let reservations = new ReservationManager(allTypes);
  const toleratePreferNoSchedule = templates.some((t) => t.taints.some((x) => x.effect === "PreferNoSchedule")); // ordered by pod count, then creation (scheduler.go sorts newNodeClaims by len(Pods) before each add)
  const allClaims: Claim[] = [];
  const pending: PendingPod[] = [];
  const failures = new Map<string, { reason: PendingReason; message: string }>();
  const onClaims = new Map<string, number>();
  let created = 0;

  // Zone spread domains: the zones of existing nodes and every zone a NodePool can launch into (topology.go).
  const topology = new Topology([...new Set(templates.flatMap((t) => t.types.flatMap((x) => [...x.zones])))].sort(), nodes, zoneCounts);
  const pickerFor = (shape: PodShape, group: string) => topology.pickerFor(shape, group);

  // Relaxation starts new spread counts. After each relaxation step Karpenter calls Topology.Update (topology.go), which
  // looks the pod's spread groups up by TopologyGroup.Hash (topologygroup.go): the hash includes the node filter, i.e.
  // the pod's remaining required node-affinity terms and its tolerations, so a relaxed pod (a term dropped, or the
  // PreferNoSchedule toleration added) gets a NEW group, counted by countDomains from the cluster's bound pods only
  // (here: the node-group pods of step 1); pods already placed on this batch's NodeClaims are not in it. From then on
  // Topology.Record counts every placed pod of the workload in it too. Group key: the workload for the unrelaxed pod,
  // `<workload> <attempt>` for attempt `ti` of the relaxation below.
  // A later round is a new Solve with a new Topology (see startRound below): `existingZoneCounts` then holds every pod
  // placed so far and `launched` the NodeClaims of earlier rounds, now nodes whose pods countDomains counts.
  let existingZoneCounts = new Map([...zoneCounts].map(([w, m]) => [w, new Map(m)]));
  const relaxedGroups = new Map<string, string[]>();
  const hostCounts = new Map<Claim, Map<string, number>>();
  let launched: ReadonlySet<Claim> = new Set();
  const relaxedGroupNames = new Set<string>();
  const spreadGroup = (shape: PodShape, ti: number): string => {
    if (ti === 0 || (shape.zoneSpread === undefined && shape.hostnameSpread === undefined)) return shape.workload;
    const group = `${shape.workload} ${ti}`;
    let groups = relaxedGroups.get(shape.workload);
    if (!groups) {
      groups = [];
      relaxedGroups.set(shape.workload, groups);
    }
    if (!groups.includes(group)) {
      groups.push(group);
      relaxedGroupNames.add(group);
      const existing = existingZoneCounts.get(shape.workload);
      zoneCounts.set(group, new Map(existing ?? []));
      // countDomains registers each launched node as a hostname domain holding the workload's pods bound to it.
      for (const claim of launched) setHostCount(claim, group, claim.workloads.get(shape.workload) ?? 0);
    }
    return group;
  };
  const setHostCount = (claim: Claim, group: string, count: number): void => {
    let counts = hostCounts.get(claim);
    if (!counts) {
      counts = new Map();
      hostCounts.set(claim, counts);
    }
    counts.set(group, count);
  };
  /**
   * The next Solve builds a new Topology (provisioner.go Schedule -> NewTopology): the spread groups a relaxed pod
   * opens are created afresh and counted by countDomains (topology.go) from the pods bound in the cluster, which now
   * include the launched NodeClaims' pods (existingnode.go NewExistingNode; each launched node is a hostname domain
   * with its pods, no longer a new NodeClaim's empty one). The unrelaxed group's counts already hold every placed pod.
   */
  const startRound = (): void => {
    existingZoneCounts = new Map([...zoneCounts].filter(([key]) => !relaxedGroupNames.has(key)).map(([w, m]) => [w, new Map(m)]));
    relaxedGroups.clear();
    hostCounts.clear();
    launched = new Set(allClaims);
  };
  const hostCount = (claim: Claim, shape: PodShape, group: string): number =>
    group === shape.workload ? (claim.workloads.get(shape.workload) ?? 0) : (hostCounts.get(claim)?.get(group) ?? 0);
  const tiedZones = (zoneTies: ZoneTies, current: Requirements, term: Requirements) => topology.tiedZones(zoneTies, current, term);
  /**
   * The zone of this attempt among the tied ones: the lowest name (the product's answer). Enumerating (simulateOutcomes),
   * the tie breaker chooses among the zones that lead to different results: each zone where the attempt succeeds, and
   * one zone standing for all those where it fails (a failure is a failure whichever zone it was in). `attempt` runs
   * once per zone tried; the chosen zone's outcome is returned with it.
   */
  const chooseZone = <T>(tied: readonly string[], attempt: (zone: string) => T, fails: (outcome: T) => boolean): { zone: string; outcome: T } => {
    if (tied.length === 1 || !ties.enumerating) return { zone: tied[0]!, outcome: attempt(tied[0]!) };
    const outcomes = tied.map(attempt);
    const options = [0];
    let failing = fails(outcomes[0]!);
    let failingOption = -1;
    for (let zi = 1; zi < tied.length; zi++) {
      if (!fails(outcomes[zi]!)) options.push(zi);
      else if (!failing) {
        failingOption = options.length;
        options.push(zi);
        failing = true;
      }
    }
    const i = options.length === 1 ? 0 : ties.pick(options.length);
    if (i === failingOption) drewFailingZone = true;
    return { zone: tied[options[i]!]!, outcome: outcomes[options[i]!]! };
  };
  /**
   * Enumerating: the pod being placed drew a tied zone where it fails (not the first option, so the first branch stays
   * `simulate`'s own answer). Karpenter's queue tries a failed pod again once others made progress (queue.go Pop/Push),
   * drawing the zone afresh (seed 22086), so such pods get the passes of retryFailed too.
   */
  let drewFailingZone = false;
  const redraw = new Set<Pod>();
  const sortClaims = () => {
    if (!claimsDirty) return;
    if (!isSorted(claims, fewerPods)) goSortSlice(claims, fewerPods);
    claimsDirty = false;
  };

  // Karpenter decides in batches and, inside one, counts each new NodeClaim at its largest candidate against the
  // NodePool's limits (scheduler.go subtractMax: "could cause a batch of pods to take multiple rounds"). Pods refused
  // for limits get another round once the batch's NodeClaims are launched, counted at the type they likely get.
  let queue = unplaced;
  for (;;) {
    const failed: { pod: Pod; failure: { reason: PendingReason; message: string } }[] = [];
    const claimsBefore = allClaims.length;
    for (const pod of queue) place(pod, failed);
    retryFailed(failed);
    const retry = !options.singleBatch && failed.some((f) => f.failure.reason === "limit-reached" || f.failure.reason === "reservation-exhausted") && allClaims.length > claimsBefore;
    if (!retry) {
      for (const { pod, failure } of failed) pending.push({ pod: pod.name, workload: pod.shape.workload, reason: failure.reason, message: failure.message });
      break;
    }
    for (const claim of allClaims.slice(claimsBefore)) {
      claim.requirements = reservedRequirements(claim.requirements, reservations.heldBy(claim), reservations.filled);
      claim.candidates = claim.types;
      claim.types = [likelyLaunch(claim)];
      // The provider counts a launch into a reservation (capacityreservation MarkLaunched) until EC2 reports it.
      const offering = cheapestOffering(claim.types[0]!, claim.requirements);
      if (offering?.reservation) launchedInto.set(offering.reservation.id, (launchedInto.get(offering.reservation.id) ?? 0) + 1);
    }
    reservations = new ReservationManager(allTypes, launchedInto);
    for (const template of templates) {
      if (!template.remaining) continue;
      const launched = allClaims.filter((c) => c.template === template);
      template.remaining = { ...template.limits };
      subtractLaunched(template.remaining, launched);
      template.limitsVersion++;
    }
    queue = failed.map((f) => f.pod);
    startRound();
  }

  /**
   * Karpenter's queue takes a failed pod again after the others until a whole pass places none (scheduler.go Solve,
   * queue.go Push/Pop). A refusal for reserved capacity is the one that a later NodeClaim can lift within the batch (one
   * without reservations the pod fits), so those pods get the passes; so do pods that drew a failing tied zone
   * (`redraw`, enumerating only).
   */
  function retryFailed(failed: { pod: Pod; failure: { reason: PendingReason; message: string } }[]): void {
    for (;;) {
      const retried = (f: { pod: Pod; failure: { reason: PendingReason } }) => f.failure.reason === "reservation-exhausted" || redraw.has(f.pod);
      const again = failed.filter(retried);
      if (again.length === 0) return;
      const rest = failed.filter((f) => !retried(f));
      failed.length = 0;
      failed.push(...rest);
      const before = failed.length;
      for (const { pod } of again) {
        redraw.delete(pod);
        place(pod, failed);
      }
      if (failed.length - before === again.length) return;
    }
  }

  /** Whether Karpenter's topology lets an unrelaxed pod of `shape` into a node of `zone` (first term's zones). */
  function karpenterZoneCheck(shape: PodShape): (zone: string) => boolean {
    const picker = pickerFor(shape, shape.workload);
    if (!picker) return () => true;
    const podZones = shape.terms[0]!.get(ZONE_LABEL);
    // Asked once per existing node; the counts do not change until placeOnExisting has chosen, so once per zone.
    const allowed = new Map<string, boolean>();
    return (zone) => {
      let ok = allowed.get(zone);
      if (ok === undefined) {
        ok = picker(Requirement.of(ZONE_LABEL, "In", [zone]), podZones).length > 0;
        allowed.set(zone, ok);
      }
      return ok;
    };
  }

  function place(pod: Pod, failed: { pod: Pod; failure: { reason: PendingReason; message: string } }[]): void {
    const shape = pod.shape;
    drewFailingZone = false;
    // Karpenter tries the existing nodes first for every pod (scheduler.go add -> addToExistingNode), counting the
    // in-flight NodeClaims in the spread: a pod that a zone spread kept off a node-group node goes there once this
    // batch's NodeClaims fill the emptier zones (kube-scheduler binds it when they join).
    // The zone must pass Karpenter's spread check too (existingnode.go CanAdd -> topology.AddRequirements ->
    // topologygroup.go nextDomainTopologySpread): its minimum runs over every domain the pod may use, the NodePools'
    // zones included, not only the zones of the existing nodes as kube-scheduler's does.
    if (shape.zoneSpread !== undefined && nodes.length > 0 && placeOnExisting(nodes, pod, zoneCounts, karpenterZoneCheck(shape))) {
      placedOnExisting.set(shape.workload, (placedOnExisting.get(shape.workload) ?? 0) + 1);
      return;
    }
    let placed = false;
    let lastFailure: { reason: PendingReason; message: string } | undefined;
    // Karpenter's relaxation (preferences.go Relax): the required node-affinity terms in order, then, when a NodePool
    // has a PreferNoSchedule taint, the last term again with a toleration for every PreferNoSchedule taint.
    const attempts = shape.terms.length + (toleratePreferNoSchedule ? 1 : 0);
    for (let ti = 0; ti < attempts && !placed; ti++) {
      const tolerateSoft = ti >= shape.terms.length;
      const term = shape.terms[Math.min(ti, shape.terms.length - 1)]!;
      const key = shape.id * 64 + ti;
      // A zone spread depends on counts that change as pods land: such shapes skip the caches below.
      const group = spreadGroup(shape, ti);
      const pickZone = pickerFor(shape, group);
      // In-flight NodeClaims, fewest pods first.
      sortClaims();
      for (let ci = 0; ci < claims.length; ci++) {
        const claim = claims[ci]!;
        if (claim.closed.has(key)) continue;
        if (shape.onePerNode && claim.workloads.has(shape.workload)) continue;
        // A new NodeClaim is a hostname domain with 0 pods, so the global minimum is 0 (topologygroup.go nextDomainTopologySpread).
        if (shape.hostnameSpread !== undefined && hostCount(claim, shape, group) + 1 > shape.hostnameSpread) continue;
        // Under a zone spread a refusal holds for the zone it was tried in: remember it per zone.
        let zoneKey: string | undefined;
        let r: AddResult | AddFailure | undefined;
        if (pickZone) {
          const tied = tiedZones(pickZone, claim.requirements, term);
          if (tied.length === 0) continue;
          // The product takes the first tied zone; only a walk over the ties (simulateOutcomes) tries the others.
          const chosen = chooseZone(tied, (z) => tryOnClaim(claim, z, key, shape, term, tolerateSoft), (t) => !("types" in (t ?? {})));
          zoneKey = `${key}|${chosen.zone}`;
          r = chosen.outcome;
          if (r === undefined) continue;
        } else r = canAdd(claim.template, claim.requirements, claim.types, claim.vec, shape, term, claim.absorbed.has(key), undefined, tolerateSoft);
        if (!("types" in r)) {
          claim.closed.add(zoneKey ?? key);
          continue;
        }
        // A launched NodeClaim is a node by now (existingnode.go): no reservation to make.
        const held = reservations.any && !launched.has(claim) ? reservations.offeringsToReserve(claim, r.types, r.requirements) : undefined;
        if (held && "kind" in held) continue;
        commit(claim, r, pod, key);
        if (held) reservations.commit(claim, held);
        claimsDirty = true;
        placed = true;
        break;
      }
      if (placed) break;
      // A new NodeClaim from the first NodePool (by weight) that can take the pod.
      const messages: { reason: PendingReason; message: string }[] = [];
      let reservedError: ReservedOfferingError | undefined;
      for (const template of templates) {
        if (template.skipped) {
          messages.push({ reason: "nothing-matches", message: `${template.skipped} (Karpenter skips the NodePool)` });
          continue;
        }
        let zone: string | undefined;
        let outcome: ReturnType<typeof newClaim>;
        if (pickZone) {
          const tied = tiedZones(pickZone, template.requirements, term);
          if (tied.length === 0) outcome = newClaim(template, shape, term, fixedZone(undefined), tolerateSoft);
          else ({ zone, outcome } = chooseZone(tied, (z) => tryNewClaim(template, z, key, shape, term, tolerateSoft), (t) => !("claim" in t)));
        } else outcome = failures.get(newCacheKey(template, key, undefined)) ?? newClaim(template, shape, term, undefined, tolerateSoft);
        if ("claim" in outcome) {
          const claim = outcome.claim;
          const held = reservations.any ? reservations.offeringsToReserve(claim, outcome.result.types, outcome.result.requirements) : undefined;
          // No fallback to a lighter NodePool while this one has a compatible reservation (scheduler.go addToNewNodeClaim).
          if (held && "kind" in held) {
            reservedError = held;
            messages.push({ reason: "reservation-exhausted", message: `NodePool ${template.pool.name}: ${held.message} (Karpenter retries in its next batch)` });
            break;
          }
          commit(claim, outcome.result, pod, key);
          if (held) reservations.commit(claim, held);
          if (template.remaining) {
            subtractMax(template.remaining, claim.types);
            template.limitsVersion++;
          }
          allClaims.push(claim);
          claims.push(claim);
          claimsDirty = true;
          placed = true;
          break;
        }
        if (!pickZone || zone !== undefined) failures.set(newCacheKey(template, key, zone), outcome);
        messages.push(outcome);
      }
      if (!placed) lastFailure = combine(messages, templates.length === 0);
      // A reserved-offering error is not relaxed (scheduler.go trySchedule): the pod may fit a reservation later.
      if (reservedError) break;
    }
    if (placed) onClaims.set(shape.workload, (onClaims.get(shape.workload) ?? 0) + 1);
    else {
      if (drewFailingZone) redraw.add(pod);
      failed.push({ pod, failure: lastFailure ?? { reason: "nothing-matches", message: "no NodePool" } });
    }
  }

  /** A shape+term on an in-flight NodeClaim in `zone` (undefined: it failed there before, and a NodeClaim only tightens). */
  function tryOnClaim(claim: Claim, zone: string, key: number, shape: PodShape, term: Requirements, tolerateSoft: boolean): AddResult | AddFailure | undefined {
    if (claim.closed.has(`${key}|${zone}`)) return undefined;
    return canAdd(claim.template, claim.requirements, claim.types, claim.vec, shape, term, false, fixedZone(zone), tolerateSoft);
  }

  function newCacheKey(template: Template, key: number, zone: string | undefined): string {
    return `${key}|${template.index}|${template.limitsVersion}|${zone === undefined ? "" : `${key}|${zone}`}`;
  }

  /** A new NodeClaim from `template` for a shape+term in `zone`, or the failure cached for it. */
  function tryNewClaim(template: Template, zone: string, key: number, shape: PodShape, term: Requirements, tolerateSoft: boolean): ReturnType<typeof newClaim> {
    return failures.get(newCacheKey(template, key, zone)) ?? newClaim(template, shape, term, fixedZone(zone), tolerateSoft);
  }

  function commit(claim: Claim, r: AddResult, pod: Pod, key: number): void {
    if (r.zone !== undefined) countZone(zoneCounts, pod.shape.workload, r.zone);
    for (const group of relaxedGroups.get(pod.shape.workload) ?? []) {
      if (r.zone !== undefined) countZone(zoneCounts, group, r.zone);
      setHostCount(claim, group, (hostCounts.get(claim)?.get(group) ?? 0) + 1);
    }
    if (!r.absorbed) claim.absorbed = new Set();
    claim.absorbed.add(key);
    claim.requirements = r.requirements;
    claim.types = r.types;
    addInto(claim.requests, pod.shape.requests);
    const v = pod.shape.vec;
    for (let i = 0; i < v.length; i++) claim.vec[i]! += v[i]!;
    claim.pods.push(pod.name);
    claim.workloads.set(pod.shape.workload, (claim.workloads.get(pod.shape.workload) ?? 0) + 1);
  }

  function newClaim(
    template: Template,
    shape: PodShape,
    term: Requirements,
    pickZone: ZonePicker | undefined,
    tolerateSoft: boolean,
  ): { claim: Claim; result: AddResult } | { reason: PendingReason; message: string } {
    const name = template.pool.name;
    let types: readonly TemplateType[] = template.types;
    const remaining = template.remaining;
    if (remaining) {
      if (remaining.nodes !== undefined && remaining.nodes <= 0) return { reason: "limit-reached", message: `NodePool ${name}: node limit reached` };
      types = withinLimitsCached(template);
      if (types.length === 0) return { reason: "limit-reached", message: `NodePool ${name}: limits reached (${limitText(template)})` };
    }
    const r = canAdd(template, template.requirements, types, zero, shape, term, false, pickZone, tolerateSoft);
    if ("types" in r) {
      const claim: Claim = {
        template,
        created: created++,
        requirements: template.requirements,
        types: r.types,
        requests: {},
        vec: space.vector({}),
        pods: [],
        workloads: new Map(),
        closed: new Set(),
        absorbed: new Set(),
      };
      return { claim, result: r };
    }
    if (r.kind === "taint") return { reason: "nothing-matches", message: `NodePool ${name}: taint ${taintText(r.taint)} not tolerated` };
    if (r.kind === "requirements") return { reason: "nothing-matches", message: `NodePool ${name}: incompatible requirements, ${r.message}` };
    if (r.kind === "minValues") return { reason: "nothing-matches", message: `NodePool ${name}: ${r.message}` };
    if (remaining && types.length !== template.types.length) {
      const unlimited = canAdd(template, template.requirements, template.types, zero, shape, term, false, pickZone, tolerateSoft);
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
  for (const claim of allClaims) if (!launched.has(claim)) claim.requirements = reservedRequirements(claim.requirements, reservations.heldBy(claim), reservations.filled);
  const groupOrders = daemonGroupOrders(templates, allClaims, ties);
  const nodeClaims: NodeClaimResult[] = allClaims.map((claim) => finalizeClaim(claim, counters, groupOrders.get(claim.template)));
  const unmodelled = input.nodeClasses.flatMap((c) => (c.unmodelled ?? []).map((u) => `EC2NodeClass ${c.name} ${u}`));
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
      return {
        workload: id,
        replicas: w.replicas,
        onExistingNodes: existing,
        onNodeClaims: claimsCount,
        pending: w.replicas - existing - claimsCount,
        ...(w.unmodelled && w.unmodelled.length > 0 ? { unmodelled: [...w.unmodelled] } : {}),
      };
    }),
    ...(unmodelled.length > 0 ? { unmodelled } : {}),
  };
}

/**
 * The order of each template's DaemonSet overhead groups for addDaemonRequests (nodeclaim.go), by their daemonKey.
 * Karpenter's is lo.Values of a map (scheduler.go buildDaemonOverheadGroups), random per Solve; ours is insertion
 * order (the groups as the template's instance types first meet them) unless the tie breaker picks another. Only the
 * groups that some NodeClaim of the template still has a type of take part (the others are skipped by every claim),
 * and only when a NodeClaim has two or more of them does the order matter (else no tie is offered).
 */
function daemonGroupOrders(templates: readonly Template[], claims: readonly Claim[], ties: TieBreaker): Map<Template, string[]> {
  const orders = new Map<Template, string[]>();
  for (const template of templates) {
    const mine = claims.filter((c) => c.template === template);
    if (mine.length === 0) continue;
    const used = new Set<string>();
    let matters = false;
    for (const c of mine) {
      const keys = new Set(c.types.map((t) => t.daemonKey));
      if (keys.size > 1) matters = true;
      for (const k of keys) used.add(k);
    }
    // No NodeClaim has two groups: finalizeClaim's own insertion order is the only one.
    if (!matters) continue;
    const inserted: string[] = [];
    for (const t of [...template.types, ...mine.flatMap((c) => c.types)]) if (used.has(t.daemonKey) && !inserted.includes(t.daemonKey)) inserted.push(t.daemonKey);
    const order: string[] = [];
    const left = [...inserted];
    while (left.length > 1) order.push(left.splice(ties.pick(left.length), 1)[0]!);
    order.push(...left);
    orders.set(template, order);
  }
  return orders;
}

function combine(messages: readonly { reason: PendingReason; message: string }[], noPools: boolean): { reason: PendingReason; message: string } {
  if (noPools || messages.length === 0) return { reason: "nothing-matches", message: "fits no existing node and no NodePool is declared" };
  const reason: PendingReason = messages.some((m) => m.reason === "reservation-exhausted")
    ? "reservation-exhausted"
    : messages.some((m) => m.reason === "limit-reached")
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

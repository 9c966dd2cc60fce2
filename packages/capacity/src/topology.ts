// Topology spread domains and counts, and the domain a pod under a spread constraint goes to.
// Rewritten from kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/topology.go (domains of
// existing nodes and NodePools) and topologygroup.go (nextDomainTopologySpread).
import type { PodShape } from "./input.ts";
import { labelsMatch } from "./kube-scheduler.ts";
import type { Requirement, Requirements } from "./requirements.ts";
import { FIRST_TIE, type TieBreaker } from "./ties.ts";

/** Picks the zone for a pod under a zone spread, given the NodeClaim's zone requirement and the pod's (topologygroup.go nextDomainTopologySpread). */
export type ZonePicker = (nodeZones: Requirement, podZones: Requirement) => string | undefined;

export function countZone(zoneCounts: Map<string, Map<string, number>>, workload: string, zone: string): void {
  let counts = zoneCounts.get(workload);
  if (!counts) {
    counts = new Map();
    zoneCounts.set(workload, counts);
  }
  counts.set(zone, (counts.get(zone) ?? 0) + 1);
}

export class Topology {
  private readonly pickers = new Map<PodShape, Map<string, ZonePicker>>();

  /**
   * `poolZones`: the zones the NodePools' instance types offer (buildDomainGroups: every pod counts them);
   * `nodes`: the existing nodes, whose zones count for a pod whose node selector and required affinity they match
   * (topologynodefilter.go, nodeAffinityPolicy Honor); `zoneCounts`: workload -> zone -> pods placed so far.
   */
  constructor(
    private readonly poolZones: readonly string[],
    private readonly nodes: readonly { readonly zone: string; readonly labels: ReadonlyMap<string, string> }[],
    readonly zoneCounts: Map<string, Map<string, number>>,
    private readonly ties: TieBreaker = FIRST_TIE,
  ) {}

  /** The zone domains of a pod's spread, sorted. */
  domainsFor(shape: PodShape): string[] {
    const zones = new Set(this.poolZones);
    for (const n of this.nodes) if (labelsMatch(n.labels, shape.selector, shape.affinity)) zones.add(n.zone);
    return [...zones].sort();
  }

  /** `group`: the key of the spread's counts in `zoneCounts` (the workload, or a relaxed pod's group: see scheduler.ts). */
  pickerFor(shape: PodShape, group: string = shape.workload): ZonePicker | undefined {
    if (shape.zoneSpread === undefined) return undefined;
    let byGroup = this.pickers.get(shape);
    if (!byGroup) {
      byGroup = new Map();
      this.pickers.set(shape, byGroup);
    }
    let picker = byGroup.get(group);
    if (!picker) {
      const skew = shape.zoneSpread;
      const domains = this.domainsFor(shape);
      picker = (nodeZones, podZones) => {
        const counts = this.zoneCounts.get(group);
        const podDomains = domains.filter((d) => podZones.has(d));
        if (podDomains.length === 0) return undefined;
        const min = Math.min(...podDomains.map((d) => counts?.get(d) ?? 0));
        // Karpenter keeps the first domain of a Go map (or set) range whose count is below the running minimum, so
        // among the zones tied at the lowest count its pick is random per call. Ours: the tie breaker's pick among
        // them in name order, by default the lowest zone name (ties.ts; README "Ties").
        let tied: string[] = [];
        let bestCount = Number.POSITIVE_INFINITY;
        for (const d of domains) {
          if (!nodeZones.has(d)) continue;
          const count = (counts?.get(d) ?? 0) + 1;
          if (count - min > skew) continue;
          if (count < bestCount) {
            tied = [d];
            bestCount = count;
          } else if (count === bestCount) tied.push(d);
        }
        return tied.length <= 1 ? tied[0] : tied[this.ties.pick(tied.length)];
      };
      byGroup.set(group, picker);
    }
    return picker;
  }

  /**
   * The zone a shape+term under a zone spread goes to now on a NodeClaim (or template) with `current` requirements,
   * and a cache key for it (undefined: no zone qualifies). One pick per attempt: canAdd then gets `fixedZone(zone)`,
   * so a tie is broken once, as Karpenter's nextDomainTopologySpread runs once per CanAdd.
   */
  spreadKey(key: number, pickZone: ZonePicker, current: Requirements, term: Requirements): { key: string; zone: string } | undefined {
    const zoneLabel = "topology.kubernetes.io/zone";
    const zone = pickZone(current.get(zoneLabel).intersection(term.get(zoneLabel)), term.get(zoneLabel));
    return zone === undefined ? undefined : { key: `${key}|${zone}`, zone };
  }
}

/** A picker that returns the zone already picked for this attempt (see Topology.spreadKey). */
export function fixedZone(zone: string | undefined): ZonePicker {
  return () => zone;
}

// Topology spread domains and counts, and the domain a pod under a spread constraint goes to.
// Rewritten from kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/topology.go (domains of
// existing nodes and NodePools) and topologygroup.go (nextDomainTopologySpread).
import type { PodShape } from "./input.ts";
import { labelsMatch } from "./kube-scheduler.ts";
import type { Requirement, Requirements } from "./requirements.ts";

/** The zone for a pod under a zone spread, given the NodeClaim's zone requirement and the pod's (canAdd's view of it). */
export type ZonePicker = (nodeZones: Requirement, podZones: Requirement) => string | undefined;

/**
 * The zones a pod under a zone spread may go to next, given the NodeClaim's zone requirement and the pod's: those at
 * the lowest count within maxSkew, in name order (topologygroup.go nextDomainTopologySpread). Karpenter keeps the first
 * of them its Go map (or set) range meets, so its pick among two or more is random per call; the scheduler breaks the
 * tie (scheduler.ts chooseZone; README "Ties"). Empty: no zone qualifies.
 */
export type ZoneTies = (nodeZones: Requirement, podZones: Requirement) => string[];

export function countZone(zoneCounts: Map<string, Map<string, number>>, workload: string, zone: string): void {
  let counts = zoneCounts.get(workload);
  if (!counts) {
    counts = new Map();
    zoneCounts.set(workload, counts);
  }
  counts.set(zone, (counts.get(zone) ?? 0) + 1);
}

export class Topology {
  private readonly pickers = new Map<PodShape, Map<string, ZoneTies>>();

  /**
   * `poolZones`: the zones the NodePools' instance types offer (buildDomainGroups: every pod counts them);
   * `nodes`: the existing nodes, whose zones count for a pod whose node selector and required affinity they match
   * (topologynodefilter.go, nodeAffinityPolicy Honor); `zoneCounts`: workload -> zone -> pods placed so far.
   */
  constructor(
    private readonly poolZones: readonly string[],
    private readonly nodes: readonly { readonly zone: string; readonly labels: ReadonlyMap<string, string> }[],
    readonly zoneCounts: Map<string, Map<string, number>>,
  ) {}

  /** The zone domains of a pod's spread, sorted. */
  domainsFor(shape: PodShape): string[] {
    const zones = new Set(this.poolZones);
    for (const n of this.nodes) if (labelsMatch(n.labels, shape.selector, shape.affinity)) zones.add(n.zone);
    return [...zones].sort();
  }

  /** `group`: the key of the spread's counts in `zoneCounts` (the workload, or a relaxed pod's group: see scheduler.ts). */
  pickerFor(shape: PodShape, group: string = shape.workload): ZoneTies | undefined {
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
        if (podDomains.length === 0) return [];
        const min = Math.min(...podDomains.map((d) => counts?.get(d) ?? 0));
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
        return tied;
      };
      byGroup.set(group, picker);
    }
    return picker;
  }

  /** The tied zones a shape+term under a zone spread may go to on a NodeClaim (or template) with `current` requirements. */
  tiedZones(ties: ZoneTies, current: Requirements, term: Requirements): string[] {
    const zoneLabel = "topology.kubernetes.io/zone";
    return ties(current.get(zoneLabel).intersection(term.get(zoneLabel)), term.get(zoneLabel));
  }
}

/** canAdd's picker for the zone already chosen for this attempt (scheduler.ts chooseZone): one choice per CanAdd, as Karpenter's. */
export function fixedZone(zone: string | undefined): ZonePicker {
  return () => zone;
}

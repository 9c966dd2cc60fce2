// The nodes of managed node groups as the scheduler sees them: labels, taints, allocatable, DaemonSet pods.
// Karpenter's counterpart is kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/existingnode.go
// (NewExistingNode: the node's taints, the DaemonSet requests it already carries); placement onto these nodes follows
// kube-scheduler (kube-scheduler.ts), which binds pods before Karpenter sees them.

import { type DaemonSetPods, type Pod, SimulationError } from "./input.ts";
import { type Amounts, resolveInstanceType } from "./instance-types.ts";
import { addInto, fitsIn, labelsMatch, untolerated } from "./kube-scheduler.ts";
import { countZone } from "./topology.ts";
import type { CapacityType, DaemonSetInput, InstanceTypeInfo, InstanceTypeSnapshot, SimulationInput, Taint } from "./types.ts";

// ---------------------------------------------------------------------------------------------------------------
// Existing nodes (managed node groups)

export interface ExistingNode {
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
  /** Workload -> its pods on the node. */
  readonly workloads: Map<string, number>;
}

function daemonSetFitsNode(ds: DaemonSetInput, labels: ReadonlyMap<string, string>, taints: readonly Taint[]): boolean {
  return !untolerated(taints, ds.tolerations ?? []) && labelsMatch(labels, ds.nodeSelector ?? {}, ds.requiredNodeAffinity);
}

export function buildExistingNodes(input: SimulationInput, snapshot: InstanceTypeSnapshot, types: ReadonlyMap<string, InstanceTypeInfo>, daemonSets: readonly DaemonSetPods[]): ExistingNode[] {
  const nodes: ExistingNode[] = [];
  input.nodeGroups.forEach((group, gi) => {
    const path = `nodeGroups[${gi}]`;
    const info = types.get(group.instanceType);
    if (!info) throw new SimulationError(`${path}.instanceType`, `${group.instanceType} is not in the ${snapshot.region} instance-type snapshot`);
    if (!Number.isInteger(group.count) || group.count < 0) throw new SimulationError(`${path}.count`, `must be a non-negative integer (got ${group.count})`);
    const zones = group.zones && group.zones.length > 0 ? group.zones : snapshot.zones;
    group.zones?.forEach((z, zi) => {
      if (!snapshot.zones.includes(z)) throw new SimulationError(`${path}.zones[${zi}]`, `${z} is not a zone of the ${snapshot.region} snapshot (${snapshot.zones.join(", ")})`);
    });
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
        workloads: new Map(),
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

/**
 * The best node for a pod, placed there. `zoneCounts` holds the pods of each workload per zone, for a zone spread:
 * a node's zone qualifies when its count + 1 - the smallest count over the zones of the nodes the pod may use is at
 * most maxSkew (kube-scheduler PodTopologySpread filter; nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore).
 * `zoneAllowed`: a further check of the node's zone (Karpenter's own topology, when its addToExistingNode places a pod
 * during the batch: see scheduler.ts place).
 */
export function placeOnExisting(
  nodes: readonly ExistingNode[],
  pod: Pod,
  zoneCounts: Map<string, Map<string, number>>,
  zoneAllowed?: (zone: string) => boolean,
): ExistingNode | undefined {
  let best: ExistingNode | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  const s = pod.shape;
  let allowedZone: ((zone: string) => boolean) | undefined;
  if (s.zoneSpread !== undefined) {
    const counts = zoneCounts.get(s.workload) ?? new Map<string, number>();
    const eligible = new Set(nodes.filter((n) => labelsMatch(n.labels, s.selector, s.affinity)).map((n) => n.zone));
    const min = Math.min(...[...eligible].map((z) => counts.get(z) ?? 0));
    const skew = s.zoneSpread;
    allowedZone = (zone) => (counts.get(zone) ?? 0) + 1 - min <= skew;
  }
  // A hostname spread counts the workload's pods per node over the nodes the pod's node affinity allows
  // (kube-scheduler PodTopologySpread: nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore).
  let hostMin: number | undefined;
  if (s.hostnameSpread !== undefined) {
    const eligible = nodes.filter((n) => labelsMatch(n.labels, s.selector, s.affinity));
    hostMin = eligible.length === 0 ? 0 : Math.min(...eligible.map((n) => n.workloads.get(s.workload) ?? 0));
  }
  for (const node of nodes) {
    if (untolerated(node.taints, s.tolerations)) continue;
    if (!labelsMatch(node.labels, s.selector, s.affinity)) continue;
    if (s.onePerNode && node.workloads.has(s.workload)) continue;
    if (hostMin !== undefined && (node.workloads.get(s.workload) ?? 0) + 1 - hostMin > s.hostnameSpread!) continue;
    if (allowedZone && !allowedZone(node.zone)) continue;
    if (zoneAllowed && !zoneAllowed(node.zone)) continue;
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
    best.workloads.set(s.workload, (best.workloads.get(s.workload) ?? 0) + 1);
    countZone(zoneCounts, s.workload, best.zone);
  }
  return best;
}

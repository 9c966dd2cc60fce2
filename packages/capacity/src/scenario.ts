// Scenarios over one input: a replica sweep (min..max of an HPA) and what consolidation does after a scale-down.
import { nodeClaimCount, pendingCount, simulate } from "./scale.ts";
import { SimulationError } from "./simulate.ts";
import type { ConsolidationNote, InstanceTypeSnapshot, NodeClaimResult, SimulationInput, SimulationResult, SweepPoint, SweepResult, WorkloadInput } from "./types.ts";

function findWorkload(input: SimulationInput, workload: string): number {
  const i = input.workloads.findIndex((w) => `${w.namespace}/${w.name}` === workload);
  if (i < 0) {
    const known = input.workloads.map((w) => `${w.namespace}/${w.name}`).join(", ");
    throw new SimulationError("workloads", `no workload ${workload} (workloads: ${known || "none"})`);
  }
  return i;
}

/** The same input with one workload at `replicas`. */
export function withReplicas(input: SimulationInput, workload: string, replicas: number): SimulationInput {
  const i = findWorkload(input, workload);
  const workloads = input.workloads.map((w, j): WorkloadInput => (j === i ? { ...w, replicas } : w));
  return { ...input, workloads };
}

export interface SweepOptions {
  /** `namespace/name` of the workload to sweep. */
  readonly workload: string;
  /** @default the workload's hpa.minReplicas (else its replicas) */
  readonly from?: number;
  /** @default the workload's hpa.maxReplicas (else its replicas) */
  readonly to?: number;
}

/** At most this many replica counts are simulated by a sweep (the minimum, the maximum and the change points). */
export const MAX_SWEEP_POINTS = 40;

/**
 * Nodes and Pending pods from `from` to `to` replicas: every count of a range shorter than MAX_SWEEP_POINTS; else
 * sampled: the minimum, the maximum and, found by bisection, every
 * count where the node count (node groups + NodeClaims) or the count of pods that stay Pending changes (the last count
 * before the change and the first after), as long as MAX_SWEEP_POINTS allows; the widest ranges are split first.
 */
export function sweep(input: SimulationInput, snapshot: InstanceTypeSnapshot, options: SweepOptions): SweepResult {
  const w = input.workloads[findWorkload(input, options.workload)]!;
  const from = options.from ?? w.hpa?.minReplicas ?? w.replicas;
  const to = options.to ?? w.hpa?.maxReplicas ?? w.replicas;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) {
    throw new SimulationError("sweep", `replica range ${from}..${to} must be whole numbers with 0 <= from <= to`);
  }
  const points = new Map<number, SweepPoint>();
  /** Replicas of the swept workload that run (node groups or NodeClaims), per simulated count. */
  const running = new Map<number, number>();
  const at = (n: number): SweepPoint => {
    let p = points.get(n);
    if (!p) {
      const r = simulate(withReplicas(input, options.workload, n), snapshot);
      const wr = r.workloads.find((x) => x.workload === options.workload)!;
      p = { replicas: n, existingNodes: r.nodes.length, nodeClaims: nodeClaimCount(r), pendingBeforeKarpenter: wr.onNodeClaims + wr.pending, pending: pendingCount(r) };
      points.set(n, p);
      running.set(n, wr.onExistingNodes + wr.onNodeClaims);
    }
    return p;
  };
  // Past saturation every replica adds one Pending pod: that is a straight line, not a change; whether pods stay Pending
  // at all is.
  const same = (a: SweepPoint, b: SweepPoint) => a.existingNodes + a.nodeClaims === b.existingNodes + b.nodeClaims && a.pending > 0 === b.pending > 0 && (a.pending === 0 || b.replicas - a.replicas === b.pending - a.pending);
  // A short range is walked count by count; a long one sampled at its ends and bisected where the ends differ, widest
  // range first, until each change sits between neighbouring counts or the budget is spent.
  if (to - from < MAX_SWEEP_POINTS) for (let n = from; n <= to; n++) at(n);
  at(from);
  const top = at(to);
  // Where the swept workload saturates at `to`: replicas past the ones placed there stay Pending, so [placed + 1, to]
  // is one straight line; sampling its start spares the bisection ~log2(to) points.
  const placed = running.get(to)!;
  const ranges: [number, number][] = [];
  if (top.pending > 0 && placed + 1 > from && placed + 1 < to) {
    at(placed);
    at(placed + 1);
    ranges.push([from, placed], [placed, placed + 1], [placed + 1, to]);
  } else if (from < to) ranges.push([from, to]);
  while (ranges.length > 0 && points.size < MAX_SWEEP_POINTS) {
    ranges.sort((a, b) => b[1] - b[0] - (a[1] - a[0]) || a[0] - b[0]);
    const [a, b] = ranges.shift()!;
    if (b - a <= 1 || same(at(a), at(b))) continue;
    const mid = a + Math.floor((b - a) / 2);
    at(mid);
    ranges.push([a, mid], [mid, b]);
  }
  const sorted = [...points.values()].sort((a, b) => a.replicas - b.replicas);
  return { ...(input.cluster !== undefined ? { cluster: input.cluster } : {}), workload: options.workload, points: sorted };
}

export interface ScaleDownOptions {
  readonly workload: string;
  readonly from: number;
  readonly to: number;
}

/**
 * What Karpenter's disruption controller does after `workload` scales from `from` down to `to`. The ReplicaSet
 * deletes the newest pods first (k8s.io/kubernetes pkg/controller/replicaset ActivePodsWithRanks: equal rank, newer
 * first), so the replicas left are the oldest ones. A NodeClaim with no workload pod left is Empty (DaemonSet pods do
 * not count); one whose pods fit elsewhere is Underutilized (kubernetes-sigs/karpenter pkg/controllers/disruption).
 */
export function scaleDown(input: SimulationInput, snapshot: InstanceTypeSnapshot, options: ScaleDownOptions): ConsolidationNote[] {
  if (!(options.to < options.from)) throw new SimulationError("scaleDown", `to (${options.to}) must be less than from (${options.from})`);
  const before = simulate(withReplicas(input, options.workload, options.from), snapshot);
  const after = simulate(withReplicas(input, options.workload, options.to), snapshot);
  // The pods the scale-down deletes: `<workload>-<k>` with k above `to` (a number test: `from` can be 2147483647).
  const prefix = `${options.workload}-`;
  const removed = { has: (p: string) => p.startsWith(prefix) && /^\d+$/.test(p.slice(prefix.length)) && Number(p.slice(prefix.length)) > options.to };
  // A group of identical NodeClaims (a workload counted past the pod-by-pod bound, scale.ts) holds only that
  // workload's pods, copy k the first one's numbers plus k x q: its first copies keep pods, the rest are empty.
  const claims = before.nodeClaims.flatMap((c): NodeClaimResult[] => {
    if (!c.count) return [c];
    const q = c.pods.length;
    const first = Number(c.pods[0]!.slice(c.pods[0]!.lastIndexOf("-") + 1));
    const keeping = Math.max(0, Math.min(c.count, Math.floor((options.to - first) / q) + 1));
    const [pool, from] = [c.nodePool, Number(c.name.slice(c.name.lastIndexOf("-") + 1))];
    const part = (k: number, n: number): NodeClaimResult => {
      const pods = c.pods.map((p) => `${p.slice(0, p.lastIndexOf("-"))}-${Number(p.slice(p.lastIndexOf("-") + 1)) + k * q}`);
      return n === 1 ? { ...c, name: `${pool}-${from + k}`, pods, count: undefined } : { ...c, name: `${pool}-${from + k}..${pool}-${from + k + n - 1}`, pods, count: n };
    };
    return [...(keeping > 0 ? [part(0, keeping)] : []), ...(keeping < c.count ? [part(keeping, c.count - keeping)] : [])];
  });
  const left = claims.reduce((n, c) => n + (c.pods.some((p) => !removed.has(p)) ? (c.count ?? 1) : 0), 0);
  // Consolidation packs what is left onto as few nodes as a fresh simulation needs.
  let spare = Math.max(0, left - nodeClaimCount(after));
  const change = `${options.workload} ${options.from} -> ${options.to}`;
  return claims.map((claim): ConsolidationNote => {
    const pool = before.nodePools.find((p) => p.name === claim.nodePool)!;
    const policy = pool.consolidationPolicy;
    const after_ = pool.consolidateAfter;
    const remaining = claim.pods.filter((p) => !removed.has(p));
    const base = { nodeClaim: claim.name, nodePool: claim.nodePool, consolidationPolicy: policy, consolidateAfter: after_ };
    const never = after_ === "Never";
    if (remaining.length === 0) {
      return {
        ...base,
        state: "empty",
        message: never
          ? `${claim.name} is empty after ${change}, but consolidateAfter is Never: it stays until it expires`
          : `${claim.name} is empty after ${change}: ${policy} deletes it after ${after_} (consolidateAfter; decision delete, reason Empty)`,
      };
    }
    if (spare > 0 && policy === "WhenEmptyOrUnderutilized" && !never) {
      spare--;
      return {
        ...base,
        state: "underutilized",
        message: `${claim.name} keeps ${remaining.length} pod(s) after ${change} that fit elsewhere: ${policy} consolidates it after ${after_} (reason Underutilized)`,
      };
    }
    return { ...base, state: "kept", message: `${claim.name} keeps ${remaining.length} pod(s) after ${change}: it stays` };
  });
}

/** The result of the scenario, plus where each replica count lands, for reports. */
export function summarizeWorkload(result: SimulationResult, workload: string): string {
  const w = result.workloads.find((x) => x.workload === workload);
  if (!w) return `${workload}: not in this simulation`;
  const waiting = w.onNodeClaims + w.pending;
  return `${workload} at ${w.replicas} replicas: ${w.onExistingNodes} Running on existing nodes, ${waiting} Pending${
    w.onNodeClaims > 0 ? ` (${w.onNodeClaims} run once Karpenter's NodeClaims join)` : ""
  }${w.pending > 0 ? `, ${w.pending} stay Pending` : ""}`;
}

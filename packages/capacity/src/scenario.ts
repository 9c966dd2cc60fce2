// Scenarios over one input: a replica sweep (min..max of an HPA) and what consolidation does after a scale-down.
import { SimulationError, simulate } from "./simulate.ts";
import type { ConsolidationNote, InstanceTypeSnapshot, SimulationInput, SimulationResult, SweepPoint, SweepResult, WorkloadInput } from "./types.ts";

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

/** Nodes and Pending pods for every replica count from `from` to `to`. */
export function sweep(input: SimulationInput, snapshot: InstanceTypeSnapshot, options: SweepOptions): SweepResult {
  const w = input.workloads[findWorkload(input, options.workload)]!;
  const from = options.from ?? w.hpa?.minReplicas ?? w.replicas;
  const to = options.to ?? w.hpa?.maxReplicas ?? w.replicas;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) {
    throw new SimulationError("sweep", `replica range ${from}..${to} must be whole numbers with 0 <= from <= to`);
  }
  const points: SweepPoint[] = [];
  for (let n = from; n <= to; n++) {
    const r = simulate(withReplicas(input, options.workload, n), snapshot);
    const wr = r.workloads.find((x) => x.workload === options.workload)!;
    points.push({
      replicas: n,
      existingNodes: r.nodes.length,
      nodeClaims: r.nodeClaims.length,
      pendingBeforeKarpenter: wr.onNodeClaims + wr.pending,
      pending: r.pending.length,
    });
  }
  return { ...(input.cluster !== undefined ? { cluster: input.cluster } : {}), workload: options.workload, points };
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
  const removed = new Set<string>();
  for (let k = options.to + 1; k <= options.from; k++) removed.add(`${options.workload}-${k}`);
  const left = before.nodeClaims.filter((c) => c.pods.some((p) => !removed.has(p))).length;
  // Consolidation packs what is left onto as few nodes as a fresh simulation needs.
  let spare = Math.max(0, left - after.nodeClaims.length);
  const change = `${options.workload} ${options.from} -> ${options.to}`;
  return before.nodeClaims.map((claim): ConsolidationNote => {
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

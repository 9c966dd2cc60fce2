// Simulation at any replica count (up to 2147483647): identical pods past the point where a workload saturates are
// counted, not placed one by one.
//
// Why this is exact: the pods of one workload are identical and contiguous, both in kube-scheduler's creation order and
// in Karpenter's queue (sorted by CPU and memory, then creation). A pod that cannot be placed changes nothing (no node,
// NodeClaim or limit moves), so once one pod of the workload fails in a round, every later pod of it fails the same way
// in that round, and the pods after it (other workloads) see the same state. So if the workload keeps at least one pod
// Pending at `n` replicas, then at any `m > n` the result is the one at `n` plus `m - n` more Pending pods with the same
// reason. A workload that does not saturate (a NodePool without limits) is simulated pod by pod up to MAX_PODS_PLACED.
import { SimulationError, simulate as simulateEach } from "./simulate.ts";
import type { InstanceTypeSnapshot, PendingPod, SimulationInput, SimulationResult, WorkloadResult } from "./types.ts";

/** Replicas of one workload simulated pod by pod before looking for saturation. */
const FIRST_PROBE = 1024;
/** Past this many pods of one workload that all find room, the simulation stops and says why. */
export const MAX_PODS_PLACED = 32_768;
/** The most replicas a Deployment can have (spec.replicas is an int32). */
export const MAX_REPLICAS = 2_147_483_647;

/** Pods that stay Pending, counting grouped entries by their size. */
export function pendingCount(result: SimulationResult): number {
  let n = 0;
  for (const p of result.pending) n += p.count ?? 1;
  return n;
}

/** Every workload at its replicas, however many: large counts are probed, then extended arithmetically (see above). */
export function simulate(input: SimulationInput, snapshot: InstanceTypeSnapshot): SimulationResult {
  input.workloads.forEach((w, i) => {
    if (!Number.isInteger(w.replicas) || w.replicas < 0 || w.replicas > MAX_REPLICAS) {
      throw new SimulationError(`workloads[${i}].replicas`, `must be a whole number from 0 to ${MAX_REPLICAS} (got ${w.replicas})`);
    }
  });
  const large = input.workloads.filter((w) => w.replicas > FIRST_PROBE).map((w) => `${w.namespace}/${w.name}`);
  if (large.length === 0) return simulateEach(input, snapshot);
  const wanted = new Map(input.workloads.map((w) => [`${w.namespace}/${w.name}`, w.replicas]));
  // Probe: every large workload at FIRST_PROBE, doubled for those that have no Pending pod yet.
  const probe = new Map(large.map((id) => [id, FIRST_PROBE]));
  for (;;) {
    const result = simulateEach(withCounts(input, probe), snapshot);
    const grow = large.filter((id) => probe.get(id)! < wanted.get(id)! && !saturated(result, id));
    if (grow.length === 0) return extend(result, wanted, probe);
    for (const id of grow) {
      const next = Math.min(wanted.get(id)!, probe.get(id)! * 2);
      if (next > MAX_PODS_PLACED) {
        throw new SimulationError(
          "workloads",
          `${id}: more than ${MAX_PODS_PLACED} replicas all find room (no NodePool limit stops them); set spec.limits on the NodePools or simulate fewer replicas`,
        );
      }
      probe.set(id, next);
    }
  }
}

function withCounts(input: SimulationInput, counts: ReadonlyMap<string, number>): SimulationInput {
  return { ...input, workloads: input.workloads.map((w) => ({ ...w, replicas: counts.get(`${w.namespace}/${w.name}`) ?? w.replicas })) };
}

function saturated(result: SimulationResult, id: string): boolean {
  return (result.workloads.find((w) => w.workload === id)?.pending ?? 0) > 0;
}

/** The probed result with every saturated workload at its wanted replicas: the extra pods stay Pending, as its last one. */
function extend(result: SimulationResult, wanted: ReadonlyMap<string, number>, probe: ReadonlyMap<string, number>): SimulationResult {
  const pending: PendingPod[] = [];
  const lastOf = new Map<string, number>();
  for (const [i, p] of result.pending.entries()) lastOf.set(p.workload, i);
  result.pending.forEach((p, i) => {
    pending.push(p);
    const extra = (wanted.get(p.workload) ?? 0) - (probe.get(p.workload) ?? wanted.get(p.workload) ?? 0);
    if (lastOf.get(p.workload) !== i || extra <= 0) return;
    const from = probe.get(p.workload)! + 1;
    const to = wanted.get(p.workload)!;
    pending.push({ ...p, pod: from === to ? `${p.workload}-${to}` : `${p.workload}-${from}..${p.workload}-${to}`, count: extra });
  });
  const workloads = result.workloads.map((w): WorkloadResult => {
    const extra = (wanted.get(w.workload) ?? w.replicas) - w.replicas;
    return extra === 0 ? w : { ...w, replicas: w.replicas + extra, pending: w.pending + extra };
  });
  return { ...result, pending, workloads };
}

/** Consecutive Pending entries of one workload with the same reason and message, merged into one (for reports). */
export function groupPending(pending: readonly PendingPod[]): PendingPod[] {
  const out: PendingPod[] = [];
  for (const p of pending) {
    const last = out.at(-1);
    if (last && last.workload === p.workload && last.reason === p.reason && last.message === p.message) {
      const first = last.pod.split("..")[0]!;
      const end = p.pod.split("..").at(-1)!;
      out[out.length - 1] = { ...last, pod: `${first}..${end}`, count: (last.count ?? 1) + (p.count ?? 1) };
    } else out.push(p);
  }
  return out;
}

/** `ns/name-3` or `ns/name-4..ns/name-2147483647 (2147483644 pods)`. */
export function pendingLabel(p: PendingPod): string {
  return (p.count ?? 1) > 1 ? `${p.pod} (${p.count} pods)` : p.pod;
}

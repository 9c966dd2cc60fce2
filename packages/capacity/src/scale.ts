// Simulation at any replica count (up to 2147483647): identical pods past the point where a workload saturates are
// counted, not placed one by one.
//
// Why this is exact: the pods of one workload are identical and contiguous, both in kube-scheduler's creation order and
// in Karpenter's queue (sorted by CPU and memory, then creation). A pod that cannot be placed changes nothing (no node,
// NodeClaim or limit moves), so once one pod of the workload fails in a round, every later pod of it fails the same way
// in that round, and the pods after it (other workloads) see the same state. So if the workload keeps at least one pod
// Pending at `n` replicas, then at any `m > n` the result is the one at `n` plus `m - n` more Pending pods with the same
// reason.
//
// A workload that does not saturate (a NodePool without limits) fills NodeClaims that end up identical: once its pods
// are past the node groups and the other workloads, each further `q` pods (what one NodeClaim takes) add one NodeClaim
// equal to the one before. See periodic() below for why and how that is checked before it is counted.
import { formatAmounts, parseAmounts } from "./instance-types.ts";
import { SimulationError, simulate as simulateEach } from "./simulate.ts";
import type { InstanceTypeSnapshot, NodeClaimResult, NodePoolUsage, PendingPod, SimulationInput, SimulationResult, WorkloadResult } from "./types.ts";

/** Replicas of one workload simulated pod by pod before looking for saturation. */
const FIRST_PROBE = 1024;
/** Pods of one workload placed one by one at most; past it, a workload that still finds room is counted (periodic()). */
export const MAX_PODS_PLACED = 32_768;
/** The most replicas a Deployment can have (spec.replicas is an int32). */
export const MAX_REPLICAS = 2_147_483_647;

/** NodeClaims Karpenter would add, counting grouped entries (`count`) by their size. */
export function nodeClaimCount(result: Pick<SimulationResult, "nodeClaims">, nodePool?: string): number {
  let n = 0;
  for (const c of result.nodeClaims) if (nodePool === undefined || c.nodePool === nodePool) n += c.count ?? 1;
  return n;
}

/** Pods that stay Pending, counting grouped entries by their size. */
export function pendingCount(result: SimulationResult): number {
  let n = 0;
  for (const p of result.pending) n += p.count ?? 1;
  return n;
}

/** Every workload at its replicas, however many: large counts are probed, then extended arithmetically (see above). */
export function simulate(input: SimulationInput, snapshot: InstanceTypeSnapshot, options: { readonly podsPlaced?: number } = {}): SimulationResult {
  /** Pods of one workload placed one by one at most (tests lower it to compare counting with placing). */
  const bound = options.podsPlaced ?? MAX_PODS_PLACED;
  input.workloads.forEach((w, i) => {
    if (!Number.isInteger(w.replicas) || w.replicas < 0 || w.replicas > MAX_REPLICAS) {
      throw new SimulationError(`workloads[${i}].replicas`, `must be a whole number from 0 to ${MAX_REPLICAS} (got ${w.replicas})`);
    }
  });
  const large = input.workloads.filter((w) => w.replicas > Math.min(FIRST_PROBE, bound)).map((w) => `${w.namespace}/${w.name}`);
  if (large.length === 0) return simulateEach(input, snapshot);
  const wanted = new Map(input.workloads.map((w) => [`${w.namespace}/${w.name}`, w.replicas]));
  // Probe: every large workload at FIRST_PROBE, doubled for those that have no Pending pod yet.
  const probe = new Map(large.map((id) => [id, Math.min(FIRST_PROBE, bound)]));
  for (;;) {
    const result = simulateEach(withCounts(input, probe), snapshot);
    const grow = large.filter((id) => probe.get(id)! < wanted.get(id)! && !saturated(result, id));
    if (grow.length === 0) return extend(result, wanted, probe);
    const past = grow.filter((id) => Math.min(wanted.get(id)!, probe.get(id)! * 2) > bound);
    if (past.length > 0) {
      // one workload that keeps finding room is counted in whole NodeClaims; several at once are not (their pods
      // interleave in Karpenter's queue), nor one whose pattern does not settle: those are refused, saying why
      const counted = past.length === 1 && grow.length === 1 ? periodic(input, snapshot, probe, past[0]!, wanted.get(past[0]!)!) : undefined;
      if (counted) return extend(counted.result, wanted, counted.probe);
      throw new SimulationError(
        "workloads",
        `${past.join(", ")}: more than ${bound} replicas all find room (no NodePool limit stops them)${past.length > 1 ? " in more than one workload at once" : " and the NodeClaims they fill do not settle into a repeating pattern"}; set spec.limits on the NodePools or simulate fewer replicas`,
      );
    }
    for (const id of grow) probe.set(id, Math.min(wanted.get(id)!, probe.get(id)! * 2));
  }
}

/** What a NodeClaim is, without its name and its pods' names: the pods by workload and count. */
function signature(c: NodeClaimResult): string {
  const pods = new Map<string, number>();
  for (const p of c.pods) {
    const w = p.slice(0, p.lastIndexOf("-"));
    pods.set(w, (pods.get(w) ?? 0) + 1);
  }
  const { name: _name, pods: _pods, count: _count, ...rest } = c;
  return JSON.stringify({ ...rest, pods: [...pods] });
}

const podIndex = (pod: string) => Number(pod.slice(pod.lastIndexOf("-") + 1));

/**
 * `id` at `wanted` replicas when it never saturates: simulated at three counts a NodeClaim's worth of pods apart, then
 * counted. Why the tail repeats (sigs.k8s.io/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/queue.go and
 * scheduler.go): the workload's pods are identical and contiguous in Karpenter's queue; each one tries the in-flight
 * NodeClaims (least loaded first, a stable sort, so a full NodeClaim is never preferred over the partial one) and
 * opens a new NodeClaim from the same NodePool with the same candidates once the partial one is full. So past some
 * point each further `q` pods (what one full NodeClaim holds) adds one more NodeClaim equal to the last full one,
 * and nothing else moves: not the node groups, not the other workloads' pods (they are placed before, or go to the
 * least loaded NodeClaims, which the full ones are not), not the Pending pods. That is checked, not assumed: the
 * results at n, n + q and n + 2q must differ by exactly one such NodeClaim each, inserted at one place, with every
 * other NodeClaim, node, Pending pod and other workload equal; NodePool limits must leave room for all of them (a
 * limited NodePool whose limit is hit past MAX_PODS_PLACED is not counted). Returns undefined when any check fails.
 */
function periodic(
  input: SimulationInput,
  snapshot: InstanceTypeSnapshot,
  probe: ReadonlyMap<string, number>,
  id: string,
  wanted: number,
): { result: SimulationResult; probe: Map<string, number> } | undefined {
  const mine = (pod: string) => pod.lastIndexOf("-") === id.length && pod.startsWith(id);
  const at = (n: number) => simulateEach(withCounts(input, new Map([...probe, [id, n]])), snapshot);
  const start = probe.get(id)!;
  const first = at(start);
  const holding = first.nodeClaims.filter((c) => c.pods.some(mine));
  if (holding.length < 2) return undefined;
  // the last NodeClaim of the workload may be partly filled: the one before it is full
  const q = holding[holding.length - 2]!.pods.filter(mine).length;
  const n = start + ((wanted - start) % q);
  if (wanted - n < 2 * q) return undefined;
  const [a, b, c] = [at(n), at(n + q), at(n + 2 * q)];
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  if (!same(a.nodes, b.nodes) || !same(b.nodes, c.nodes) || !same(a.pending, b.pending) || !same(b.pending, c.pending)) return undefined;
  const others = (r: SimulationResult) => r.workloads.filter((w) => w.workload !== id);
  if (!same(others(a), others(b)) || !same(others(b), others(c))) return undefined;
  const [sa, sb, sc] = [a, b, c].map((r) => r.nodeClaims.map(signature)) as [string[], string[], string[]];
  if (sb.length !== sa.length + 1 || sc.length !== sb.length + 1) return undefined;
  let i = 0;
  while (i < sa.length && sa[i] === sb[i]) i++;
  const unit = sb[i]!;
  const agrees = (k: number) => (k < i ? sa[k] === sb[k] && sb[k] === sc[k] : sa[k] === sb[k + 1] && sb[k + 1] === sc[k + 2]);
  for (let k = 0; k < sa.length; k++) if (!agrees(k)) return undefined;
  if (sc[i] !== unit || sc[i + 1] !== unit) return undefined;
  // the repeated NodeClaims hold only this workload's pods, in order: copies differ by q in their pods' numbers
  const claim = c.nodeClaims[i]!;
  if (!claim.pods.every(mine)) return undefined;
  if (podIndex(c.nodeClaims[i + 1]!.pods[0]!) - podIndex(claim.pods[0]!) !== q) return undefined;
  const extra = (wanted - n) / q - 2;
  // NodePool usage grows by one NodeClaim's worth per period; a limit must hold all of it
  const pool = claim.nodePool;
  const before = a.nodePools.find((p) => p.name === pool)!;
  const after = c.nodePools.find((p) => p.name === pool)!;
  const grown = grow(after, before, extra);
  if (!grown) return undefined;
  // the run of equal NodeClaims around i becomes one entry standing for all of them
  let from = i;
  while (from > 0 && signature(c.nodeClaims[from - 1]!) === unit) from--;
  let to = i + 1;
  while (to + 1 < c.nodeClaims.length && signature(c.nodeClaims[to + 1]!) === unit) to++;
  const number = (name: string) => Number(name.slice(name.lastIndexOf("-") + 1));
  const firstNumber = number(c.nodeClaims[from]!.name);
  const count = to - from + 1 + extra;
  const group: NodeClaimResult = { ...c.nodeClaims[from]!, name: `${pool}-${firstNumber}..${pool}-${firstNumber + count - 1}`, count };
  const shifted = c.nodeClaims.slice(to + 1).map((x): NodeClaimResult => {
    if (x.nodePool !== pool && !x.pods.some(mine)) return x;
    return {
      ...x,
      name: x.nodePool === pool ? `${pool}-${number(x.name) + extra}` : x.name,
      pods: x.pods.map((p) => (mine(p) ? `${id}-${podIndex(p) + extra * q}` : p)),
    };
  });
  const nodeClaims = [...c.nodeClaims.slice(0, from), group, ...shifted];
  const workloads = c.workloads.map((w): WorkloadResult => (w.workload === id ? { ...w, replicas: wanted, onNodeClaims: w.onNodeClaims + extra * q } : w));
  const nodePools = c.nodePools.map((p) => (p.name === pool ? grown : p));
  return { result: { ...c, nodeClaims, workloads, nodePools }, probe: new Map([...probe, [id, wanted]]) };
}

/** `after` (usage at n + 2q) plus `periods` more periods of it (one period: half of what `after` added over `before`, usage at n); undefined when a limit would not hold it. */
function grow(after: NodePoolUsage, before: NodePoolUsage, periods: number): NodePoolUsage | undefined {
  // per period: half of what two periods added (a whole amount: both periods added the same NodeClaim)
  const step = (x: Readonly<Record<string, string>>, y: Readonly<Record<string, string>>) => {
    const ax = parseAmounts(x);
    const ay = parseAmounts(y);
    const out: Record<string, number> = {};
    for (const k of Object.keys(ax)) out[k] = ax[k]! + ((ax[k]! - (ay[k] ?? 0)) / 2) * periods;
    return out;
  };
  const used = step(after.used, before.used);
  const atMost = step(after.usedAtMost, before.usedAtMost);
  const limits = parseAmounts(after.limits);
  const headroom: Record<string, number> = {};
  for (const [k, limit] of Object.entries(limits)) {
    headroom[k] = limit - (used[k] ?? 0);
    // Karpenter stops a NodePool at its limits counting each NodeClaim at its largest candidate
    if (limit < (atMost[k] ?? 0)) return undefined;
  }
  return {
    ...after,
    nodeClaims: after.nodeClaims + ((after.nodeClaims - before.nodeClaims) / 2) * periods,
    used: formatAmounts(used, "human"),
    usedAtMost: formatAmounts(atMost, "human"),
    headroom: formatAmounts(headroom, "human"),
  };
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

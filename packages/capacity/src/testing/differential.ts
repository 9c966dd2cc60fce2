// Test helper: compares a simulation with what Karpenter's own code decided for the same scenario (e2e only).
import { parseQuantity } from "../quantity.ts";
import type { SimulationResult } from "../types.ts";
import type { PeerResult } from "./karpenter-peer.ts";

/** One NodeClaim reduced to what both sides must agree on. */
export interface ClaimShape {
  nodePool: string;
  /** workload -> pods, sorted by workload. */
  workloads: Record<string, number>;
  /** Resource amounts (cpu in millicores, the rest as integers), zeros left out. */
  requests: Record<string, number>;
  /** The launch list: the cheapest 600 candidates, sorted by name. */
  candidates: string[];
  /** Capacity types of the launch list's offerings that meet the NodeClaim's requirements (spot, on-demand), sorted. */
  capacityTypes: string[];
}

export interface Outcome {
  claims: ClaimShape[];
  /** workload -> pods that stay Pending. */
  pending: Record<string, number>;
  /**
   * workload -> pods put on the existing nodes during the batch, after kube-scheduler's step-1 bindings (which the peer
   * gets bound): ours by `simulate`, Karpenter's by its addToExistingNode.
   */
  onExisting: Record<string, number>;
}

function workloadOf(pod: string): string {
  return pod.slice(0, pod.lastIndexOf("-"));
}

function countBy(pods: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of [...pods].sort()) out[workloadOf(p)] = (out[workloadOf(p)] ?? 0) + 1;
  return out;
}

function amounts(list: Readonly<Record<string, string>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(list).sort()) {
    const n = parseQuantity(list[k]!, k === "cpu" ? 1000 : 1);
    if (n !== 0) out[k] = n;
  }
  return out;
}

/** `bound`: kube-scheduler's step-1 bindings (scheduler.ts kubeSchedulerBindings); the other pods on nodes count as onExisting. */
export function ourOutcome(r: SimulationResult, bound?: ReadonlyMap<string, readonly string[]>): Outcome {
  const before = new Set([...(bound?.values() ?? [])].flat());
  return {
    claims: sortClaims(r.nodeClaims.map((c) => ({ nodePool: c.nodePool, workloads: countBy(c.pods), requests: amounts(c.requests), candidates: [...c.instanceTypes].sort(), capacityTypes: [...c.capacityTypes].sort() }))),
    pending: countBy(r.pending.map((p) => p.pod)),
    onExisting: bound ? countBy(r.nodes.flatMap((n) => n.pods.filter((p) => !before.has(p)))) : {},
  };
}

/** `rounds`: a NodeClaim's pods include those a later Solve put on the node it was launched as. */
export function peerOutcome(r: PeerResult, options: { rounds?: boolean } = {}): Outcome {
  return {
    claims: sortClaims(r.nodeClaims.map((c) => ({ nodePool: c.nodePool, workloads: countBy(options.rounds ? [...c.pods, ...(c.laterPods ?? [])] : c.pods), requests: amounts(c.requests), candidates: [...(c.launch ?? [])].sort(), capacityTypes: [...(c.capacityTypes ?? [])].sort() }))),
    pending: countBy(Object.keys(r.podErrors)),
    onExisting: countBy(r.existingNodes.flatMap((e) => e.pods)),
  };
}

/** The outcome without requests, launch lists and capacity types (compared on the first batch only). */
export function podsOnly(o: Outcome): Outcome {
  return { ...o, claims: sortClaims(o.claims.map((c) => ({ ...c, requests: {}, candidates: [], capacityTypes: [] }))) };
}

function sortClaims(claims: ClaimShape[]): ClaimShape[] {
  const key = (c: ClaimShape) => JSON.stringify([c.nodePool, c.workloads, c.requests, c.candidates, c.capacityTypes]);
  return claims.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export interface Agreement {
  count: boolean;
  pods: boolean;
  requests: boolean;
  candidates: boolean;
  /** The capacity types the launch list carries (spot and on-demand fallback). */
  capacityTypes: boolean;
  pending: boolean;
  existing: boolean;
  all: boolean;
  /** The first difference, in words. */
  reason?: string;
}

/** Compares two outcomes; NodeClaims are matched as a multiset (Karpenter's in-flight order is not part of the result). */
export function compareOutcomes(ours: Outcome, theirs: Outcome): Agreement {
  const count = ours.claims.length === theirs.claims.length;
  const podsKey = (c: ClaimShape) => JSON.stringify([c.nodePool, c.workloads]);
  const sameMultiset = (f: (c: ClaimShape) => string) => JSON.stringify(ours.claims.map(f).sort()) === JSON.stringify(theirs.claims.map(f).sort());
  const pods = count && sameMultiset(podsKey);
  const requests = pods && sameMultiset((c) => JSON.stringify([podsKey(c), c.requests]));
  const candidates = requests && sameMultiset((c) => JSON.stringify([podsKey(c), c.requests, c.candidates]));
  const capacityTypes = candidates && sameMultiset((c) => JSON.stringify([podsKey(c), c.requests, c.candidates, c.capacityTypes]));
  const pending = JSON.stringify(ours.pending) === JSON.stringify(theirs.pending);
  const existing = JSON.stringify(ours.onExisting) === JSON.stringify(theirs.onExisting);
  const all = count && pods && requests && candidates && capacityTypes && pending && existing;
  let reason: string | undefined;
  if (!all) {
    if (!existing) reason = `pods put on existing nodes during the batch: ours ${JSON.stringify(ours.onExisting)}, Karpenter ${JSON.stringify(theirs.onExisting)}`;
    else if (!pending) reason = `pending differ: ours ${JSON.stringify(ours.pending)}, Karpenter ${JSON.stringify(theirs.pending)}`;
    else if (!count) reason = `NodeClaim count: ours ${ours.claims.length}, Karpenter ${theirs.claims.length}`;
    else if (!pods) reason = `pods per NodeClaim: ours ${JSON.stringify(ours.claims.map((c) => [c.nodePool, c.workloads]))}, Karpenter ${JSON.stringify(theirs.claims.map((c) => [c.nodePool, c.workloads]))}`;
    else if (!requests) reason = `requests: ours ${JSON.stringify(ours.claims.map((c) => c.requests))}, Karpenter ${JSON.stringify(theirs.claims.map((c) => c.requests))}`;
    else if (!candidates) reason = `candidates: ${candidateDiff(ours, theirs)}`;
    else reason = `capacity types: ours ${JSON.stringify(ours.claims.map((c) => c.capacityTypes))}, Karpenter ${JSON.stringify(theirs.claims.map((c) => c.capacityTypes))}`;
  }
  return { count, pods, requests, candidates, capacityTypes, pending, existing, all, ...(reason ? { reason } : {}) };
}

function candidateDiff(ours: Outcome, theirs: Outcome): string {
  const a = new Set(ours.claims.flatMap((c) => c.candidates));
  const b = new Set(theirs.claims.flatMap((c) => c.candidates));
  const onlyOurs = [...a].filter((x) => !b.has(x)).slice(0, 8);
  const onlyTheirs = [...b].filter((x) => !a.has(x)).slice(0, 8);
  return `only ours [${onlyOurs.join(", ")}], only Karpenter's [${onlyTheirs.join(", ")}]`;
}

import { describe, expect, it } from "vitest";
import { costOf } from "./cost.ts";
import { groupPending, MAX_REPLICAS, nodeClaimCount, pendingCount, simulate } from "./scale.ts";
import { sweep, withReplicas } from "./scenario.ts";
import { simulate as simulateEach } from "./simulate.ts";
import { labInput } from "./testing/lab.ts";
import { randomScenario, withPrices } from "./testing/random-scenario.ts";
import { labSnapshot } from "./testing/region-snapshot.ts";
import type { NodeClaimResult, SimulationInput, SimulationResult } from "./types.ts";

const snapshot = labSnapshot();
const NGINX = "nlb-app-karpenter/nginx-deployment";
// The lab's NodePool has limits (cpu 1000, memory 1000Gi): past a few hundred replicas every further pod stays Pending.
const lab = labInput(12);

describe("simulate at any replica count", () => {
  it("equals the pod-by-pod simulation past the saturation point", { timeout: 120_000 }, () => {
    const input = withReplicas(lab, NGINX, 3000);
    const each = simulateEach(input, snapshot);
    const bounded = simulate(input, snapshot);
    expect(bounded.nodeClaims).toEqual(each.nodeClaims);
    expect(bounded.nodePools).toEqual(each.nodePools);
    expect(bounded.workloads).toEqual(each.workloads);
    expect(pendingCount(bounded)).toBe(each.pending.length);
    expect(groupPending(bounded.pending)).toEqual(groupPending(each.pending));
    expect(bounded.pending.length).toBeLessThan(each.pending.length);
  });

  it("runs 2147483647 replicas as a counted group", () => {
    const r = simulate(withReplicas(lab, NGINX, MAX_REPLICAS), snapshot);
    const w = r.workloads.find((x) => x.workload === NGINX)!;
    expect(w.replicas).toBe(MAX_REPLICAS);
    expect(w.onExistingNodes + w.onNodeClaims + w.pending).toBe(MAX_REPLICAS);
    const last = r.pending.at(-1)!;
    expect(last).toMatchObject({ workload: NGINX, reason: "limit-reached", count: MAX_REPLICAS - 1024 });
    expect(last.pod).toBe(`${NGINX}-1025..${NGINX}-${MAX_REPLICAS}`);
    expect(pendingCount(r)).toBe(w.pending);
  });

  it("refuses a count above int32", () => {
    expect(() => simulate(withReplicas(lab, NGINX, MAX_REPLICAS + 1), snapshot)).toThrow(/workloads\[2\]\.replicas: must be a whole number from 0 to 2147483647/);
  });
});

/** A grouped result as the NodeClaims it stands for: names and the workload's pod numbers of each copy. */
function expand(r: SimulationResult): NodeClaimResult[] {
  return r.nodeClaims.flatMap((c) => {
    if (!c.count) return [c];
    const head = c.name.split("..")[0]!;
    const first = Number(head.slice(head.lastIndexOf("-") + 1));
    const q = c.pods.length;
    return Array.from({ length: c.count }, (_, k) => {
      const { count: _count, ...one } = c;
      return { ...one, name: `${c.nodePool}-${first + k}`, pods: c.pods.map((p) => `${p.slice(0, p.lastIndexOf("-"))}-${Number(p.slice(p.lastIndexOf("-") + 1)) + k * q}`) };
    });
  });
}

describe("a workload that never stops finding room (a NodePool without limits)", () => {
  const unlimited = (n: number): SimulationInput => ({ ...withReplicas(lab, NGINX, n), nodePools: [{ ...lab.nodePools[0]!, limits: {} }] });

  // Counting whole NodeClaims must give exactly what placing every pod gives: compared where placing is affordable,
  // with the pod-by-pod bound lowered so that counting starts early.
  it.each([2500, 3001, 4444])("at %i replicas, counted past 1024 pods equals placed one by one", { timeout: 300_000 }, (n) => {
    const each = simulateEach(unlimited(n), snapshot);
    const counted = simulate(unlimited(n), snapshot, { podsPlaced: 1024 });
    expect(counted.nodeClaims.some((c) => (c.count ?? 1) > 1)).toBe(true);
    expect(expand(counted)).toEqual(each.nodeClaims);
    expect(counted.nodePools).toEqual(each.nodePools);
    expect(counted.workloads).toEqual(each.workloads);
    expect(counted.nodes).toEqual(each.nodes);
    expect(counted.pending).toEqual(each.pending);
    expect(nodeClaimCount(counted)).toBe(each.nodeClaims.length);
  });

  // Random clusters (the Karpenter differential's generator): one workload scaled up on NodePools without limits.
  // Counting must equal placing whenever it counts; where the NodeClaims do not settle it refuses instead (never a guess).
  it("on random clusters, counted equals placed one by one, or it refuses", { timeout: 600_000 }, () => {
    const priced = withPrices(snapshot);
    let counted = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const { input } = randomScenario(seed, priced);
      const big = input.workloads[0];
      if (!big) continue;
      const scaled: SimulationInput = {
        ...input,
        nodePools: input.nodePools.map((p) => ({ ...p, limits: {} })),
        workloads: input.workloads.map((w, i) => (i === 0 ? { ...w, replicas: 2600 } : w)),
      };
      let grouped: SimulationResult;
      try {
        grouped = simulate(scaled, priced, { podsPlaced: 512 });
      } catch (err) {
        expect(String(err)).toMatch(/all find room|too-big|matches no|minValues|SimulationError/);
        continue;
      }
      const each = simulateEach(scaled, priced);
      expect(expand(grouped), `seed ${seed}`).toEqual(each.nodeClaims);
      expect(grouped.workloads, `seed ${seed}`).toEqual(each.workloads);
      // pods that stay Pending past the saturation point are grouped too (extend())
      expect(groupPending(grouped.pending), `seed ${seed}`).toEqual(groupPending(each.pending));
      if (grouped.nodeClaims.some((c) => c.count)) counted++;
    }
    // the check must have counted somewhere, or it tests nothing
    expect(counted).toBeGreaterThan(0);
  });

  it("runs 2147483647 replicas as a group of identical NodeClaims, with its cost", { timeout: 300_000 }, () => {
    const r = simulate(unlimited(MAX_REPLICAS), snapshot);
    const w = r.workloads.find((x) => x.workload === NGINX)!;
    expect([w.replicas, w.pending, w.onExistingNodes + w.onNodeClaims]).toEqual([MAX_REPLICAS, 0, MAX_REPLICAS]);
    const group = r.nodeClaims.find((c) => (c.count ?? 1) > 1)!;
    expect(group.name).toMatch(/^default-\d+\.\.default-\d+$/);
    const perClaim = group.pods.length;
    // every pod of the workload not on a node group is on a NodeClaim, and the pool counts every NodeClaim
    expect(r.nodeClaims.reduce((n, c) => n + c.pods.filter((p) => p.startsWith(`${NGINX}-`)).length * (c.count ?? 1), 0)).toBe(w.onNodeClaims);
    expect(r.nodePools[0]!.nodeClaims).toBe(nodeClaimCount(r));
    expect(nodeClaimCount(r)).toBeGreaterThan(MAX_REPLICAS / perClaim - 10);
    const cost = costOf(r, snapshot);
    const line = cost.lines.find((l) => l.name === group.name)!;
    expect(line.count).toBe(group.count);
  });

  it("still says why when two workloads at once never stop finding room", { timeout: 300_000 }, () => {
    const two = unlimited(100_000);
    const other = { ...two.workloads[2]!, namespace: "other", name: "copy" };
    expect(() => simulate({ ...two, workloads: [...two.workloads, { ...other, replicas: 100_000 }] }, snapshot)).toThrow(/in more than one workload at once/);
  });
});

describe("sweep", () => {
  it("samples at most 40 counts up to 2147483647: the ends and both sides of every change", { timeout: 120_000 }, () => {
    const s = sweep(lab, snapshot, { workload: NGINX, from: 3, to: MAX_REPLICAS });
    const counts = s.points.map((p) => p.replicas);
    expect(counts.length).toBeLessThanOrEqual(40);
    expect(counts[0]).toBe(3);
    expect(counts.at(-1)).toBe(MAX_REPLICAS);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // Karpenter's first node: 9 fit the node groups, the 10th replica needs a NodeClaim (as the full walk of 3..12 shows).
    expect(counts).toContain(9);
    expect(counts).toContain(10);
    const byCount = new Map(s.points.map((p) => [p.replicas, p]));
    expect(byCount.get(9)!.nodeClaims).toBe(0);
    expect(byCount.get(10)!.nodeClaims).toBe(1);
    // every sampled point is what a direct simulation says
    for (const p of s.points.filter((_, i) => i % 7 === 0)) {
      const r = simulate(withReplicas(lab, NGINX, p.replicas), snapshot);
      expect([r.nodeClaims.length, pendingCount(r)]).toEqual([p.nodeClaims, p.pending]);
    }
  });

  it("walks a short range count by count", () => {
    expect(sweep(lab, snapshot, { workload: NGINX, from: 3, to: 12 }).points.map((p) => p.replicas)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });
});

import { describe, expect, it } from "vitest";
import { groupPending, MAX_REPLICAS, pendingCount, simulate } from "./scale.ts";
import { sweep, withReplicas } from "./scenario.ts";
import { simulate as simulateEach } from "./simulate.ts";
import { labInput } from "./testing/lab.ts";
import { labSnapshot } from "./testing/region-snapshot.ts";
import type { SimulationInput } from "./types.ts";

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

  it("refuses a count above int32, and says when no limit stops a huge count", { timeout: 300_000 }, () => {
    expect(() => simulate(withReplicas(lab, NGINX, MAX_REPLICAS + 1), snapshot)).toThrow(/workloads\[2\]\.replicas: must be a whole number from 0 to 2147483647/);
    const unlimited: SimulationInput = { ...withReplicas(lab, NGINX, 10_000_000), nodePools: [{ ...lab.nodePools[0]!, limits: {} }] };
    expect(() => simulate(unlimited, snapshot)).toThrow(/more than 32768 replicas all find room \(no NodePool limit stops them\)/);
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

// Seeded random scenarios: whatever the input, every pod is accounted for and every NodeClaim fits its candidates.
import { describe, expect, it } from "vitest";
import { resolveInstanceType } from "./instance-types.ts";
import { parseQuantity } from "./quantity.ts";
import { simulate } from "./simulate.ts";
import { labInput } from "./testing/lab.ts";
import { labSnapshot } from "./testing/region-snapshot.ts";
import type { NodePoolInput, SimulationInput, WorkloadInput } from "./types.ts";

const snapshot = labSnapshot();
const allocatable = new Map(snapshot.instanceTypes.map((t) => [t.name, resolveInstanceType(t).allocatable]));

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function scenario(seed: number): SimulationInput {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const lab = labInput(Math.floor(r() * 30));
  const pools: NodePoolInput[] = [
    { ...lab.nodePools[0]!, limits: pick<Record<string, string>>([{ cpu: "1000", memory: "1000Gi" }, { cpu: "24" }, { cpu: "64", nodes: "3" }]) },
    {
      name: pick(["arm", "od"]),
      nodeClass: "default",
      weight: Math.floor(r() * 20),
      requirements: [{ key: "kubernetes.io/arch", operator: "In", values: [pick(["amd64", "arm64"])] }],
      ...(r() < 0.3 ? { taints: [{ key: "team", value: "x", effect: "NoSchedule" as const }] } : {}),
    },
  ];
  const workloads: WorkloadInput[] = [...lab.workloads];
  for (let i = 0; i < 6; i++) {
    workloads.push({
      namespace: "rand",
      name: `w${i}`,
      replicas: Math.floor(r() * 40),
      requests: { cpu: pick(["50m", "250m", "1", "3500m", "70"]), memory: pick(["64Mi", "1Gi", "6G", "200Gi"]) },
      ...(r() < 0.3 ? { nodeSelector: { "kubernetes.io/arch": pick(["amd64", "arm64"]) } } : {}),
      ...(r() < 0.2 ? { tolerations: [{ key: "team", operator: "Exists" as const }] } : {}),
      ...(r() < 0.2 ? { onePerNode: true } : {}),
      ...(r() < 0.25 ? { zoneSpread: { maxSkew: 1 + Math.floor(r() * 2) } } : {}),
    });
  }
  return { ...lab, nodePools: pools, workloads };
}

describe("invariants over 25 seeded scenarios", () => {
  for (let seed = 1; seed <= 25; seed++) {
    it(`seed ${seed}`, () => {
      const input = scenario(seed);
      const r = simulate(input, snapshot);
      // Every replica is on a node group, on a NodeClaim, or Pending.
      for (const w of r.workloads) expect(w.onExistingNodes + w.onNodeClaims + w.pending).toBe(w.replicas);
      expect(r.pending.length).toBe(r.workloads.reduce((n, w) => n + w.pending, 0));
      const claimed = r.nodeClaims.reduce((n, c) => n + c.pods.length, 0);
      expect(claimed).toBe(r.workloads.reduce((n, w) => n + w.onNodeClaims, 0));
      // Node-group nodes are never over-committed.
      for (const n of r.nodes) {
        expect(parseQuantity(n.requested.cpu ?? "0", 1000)).toBeLessThanOrEqual(parseQuantity(n.allocatable.cpu!, 1000));
        expect(parseQuantity(n.requested.pods ?? "0")).toBeLessThanOrEqual(parseQuantity(n.allocatable.pods!));
      }
      // A NodeClaim's requests fit the allocatable of every candidate it lists.
      for (const c of r.nodeClaims) {
        expect(c.instanceTypes.length).toBeGreaterThan(0);
        const cpu = parseQuantity(c.requests.cpu!, 1000);
        const memory = parseQuantity(c.requests.memory ?? "0");
        const pods = parseQuantity(c.requests.pods!);
        const misfits = c.instanceTypes.filter((name) => {
          const a = allocatable.get(name)!;
          return cpu > a.cpu! || memory > a.memory! || pods > a.pods!;
        });
        expect(misfits).toEqual([]);
      }
      // Zone spreads hold over node-group nodes and NodeClaims narrowed to one zone.
      for (const w of input.workloads.filter((x) => x.zoneSpread)) {
        const id = `${w.namespace}/${w.name}`;
        const counts = new Map<string, number>();
        for (const n of r.nodes) for (const p of n.pods) if (p.startsWith(`${id}-`)) counts.set(n.zone, (counts.get(n.zone) ?? 0) + 1);
        for (const c of r.nodeClaims) {
          const mine = c.pods.filter((p) => p.startsWith(`${id}-`)).length;
          if (mine === 0) continue;
          expect(c.zones).toHaveLength(1);
          counts.set(c.zones[0]!, (counts.get(c.zones[0]!) ?? 0) + mine);
        }
        const values = ["ap-southeast-1a", "ap-southeast-1b", "ap-southeast-1c"].map((z) => counts.get(z) ?? 0);
        if (w.nodeSelector === undefined) expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(w.zoneSpread!.maxSkew);
      }
      // NodePool node limits hold.
      for (const p of r.nodePools) if (p.limits.nodes) expect(p.nodeClaims).toBeLessThanOrEqual(Number(p.limits.nodes));
    });
  }
});

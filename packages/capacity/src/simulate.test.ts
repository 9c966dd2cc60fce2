import { describe, expect, it } from "vitest";
import { resolveInstanceType } from "./instance-types.ts";
import { cannotRun, SimulationError, simulate } from "./simulate.ts";
import { labInput } from "./testing/lab.ts";
import { labSnapshot } from "./testing/region-snapshot.ts";
import type { NodePoolInput, SimulationInput, WorkloadInput } from "./types.ts";

const snapshot = labSnapshot();
const NGINX = "nlb-app-karpenter/nginx-deployment";

function withWorkload(input: SimulationInput, w: WorkloadInput): SimulationInput {
  return { ...input, workloads: [...input.workloads, w] };
}
function withPool(input: SimulationInput, patch: Partial<NodePoolInput>): SimulationInput {
  return { ...input, nodePools: [{ ...input.nodePools[0]!, ...patch }] };
}

describe("the eksworkshop lab at 12 replicas (the committed ap-southeast-1 snapshot, from moto 5.2.5)", () => {
  const r = simulate(labInput(12), snapshot);

  it("runs 9 nginx pods on the 3 t3.2xlarge nodes and leaves 3 Pending for Karpenter", () => {
    expect(r.workloads.find((w) => w.workload === NGINX)).toEqual({ workload: NGINX, replicas: 12, onExistingNodes: 9, onNodeClaims: 3, pending: 0 });
    expect(r.nodes.map((n) => [n.name, n.instanceType, n.allocatable.cpu, n.daemonSetPods.length])).toEqual([
      ["ng-ondemand-1", "t3.2xlarge", "7910m", 4],
      ["ng-ondemand-2", "t3.2xlarge", "7910m", 4],
      ["ng-ondemand-3", "t3.2xlarge", "7910m", 4],
    ]);
    // The Karpenter controller's two replicas sit on two different node-group nodes.
    expect(r.nodes.filter((n) => n.pods.some((p) => p.startsWith("kube-system/karpenter-"))).length).toBe(2);
    expect(r.pending).toEqual([]);
  });

  it("creates one NodeClaim from NodePool default with the lab's requests", () => {
    expect(r.nodeClaims).toHaveLength(1);
    const c = r.nodeClaims[0]!;
    expect(c.name).toBe("default-1");
    expect(c.nodePool).toBe("default");
    expect(c.requests).toEqual({ cpu: "6450m", memory: "12160432128", pods: "7" });
    expect(c.pods).toEqual([`${NGINX}-10`, `${NGINX}-11`, `${NGINX}-12`]);
    expect(c.capacityTypes).toEqual(["spot"]);
    expect(c.cheapest).toBeUndefined();
  });

  it("lists the candidates by name as Karpenter logs them, and the count the data gives", () => {
    const c = r.nodeClaims[0]!;
    expect(c.instanceTypes.slice(0, 5)).toEqual(["c3.2xlarge", "c3.4xlarge", "c3.8xlarge", "c4.2xlarge", "c4.4xlarge"]);
    expect(c.firstCandidates[3]).toEqual({ instanceType: "c4.2xlarge", allocatable: { cpu: "7910m", "ephemeral-storage": "17Gi", memory: "13215Mi", pods: "58" } });
    // the committed snapshot (moto 5.2.5's data; pnpm e2e checks it) holds the same ap-southeast-1 set the lab saw in 2026-09: 349 candidates.
    expect(c.instanceTypes).toHaveLength(349);
    // The same set, worked out here without the scheduler: the NodePool's requirements, a spot offering, and
    // allocatable >= the NodeClaim's requests (pods + DaemonSets).
    const expected = snapshot.instanceTypes
      .filter((t) => {
        const [family, size] = t.name.split(".") as [string, string];
        const m = /^([a-z]+)(-\d+tb)?(\d+)/.exec(family);
        if (!m || !["c", "m", "r"].includes(m[1]!) || Number(m[3]) <= 2) return false;
        if (["nano", "micro", "small", "medium", "large"].includes(size) || t.architecture !== "amd64") return false;
        if (!t.offerings.some((o) => o.capacityType === "spot")) return false;
        const { allocatable: a, capacity } = resolveInstanceType(t);
        // NodePool limits cpu 1000, memory 1000Gi: a type bigger than the limits is never a candidate.
        if (capacity.cpu! > 1_000_000 || capacity.memory! > 1000 * 2 ** 30) return false;
        return a.cpu! >= 6450 && a.memory! >= 12_160_432_128 && a.pods! >= 7;
      })
      .map((t) => t.name)
      .sort();
    expect(c.instanceTypes).toEqual(expected);
  });

  it("needs no NodeClaim at 1 replica", () => {
    const one = simulate(labInput(1), snapshot);
    expect(one.nodeClaims).toEqual([]);
    expect(one.workloads.find((w) => w.workload === NGINX)).toMatchObject({ onExistingNodes: 1, onNodeClaims: 0, pending: 0 });
  });
});

describe("Karpenter's packing", () => {
  it("keeps NodePool limits: pods beyond them stay Pending with the reason", () => {
    const r = simulate(withPool(labInput(40), { limits: { cpu: "16" } }), snapshot);
    expect(r.nodeClaims).toHaveLength(1);
    // Every candidate fits the 16-CPU limit; the NodeClaim takes 7 pods (7 x 2 + 0.45 <= 15.9).
    expect(r.nodeClaims[0]!.pods).toHaveLength(7);
    expect(r.workloads.find((w) => w.workload === NGINX)).toMatchObject({ onExistingNodes: 9, onNodeClaims: 7, pending: 24 });
    expect(r.pending).toHaveLength(24);
    expect(r.pending[0]).toEqual({
      pod: `${NGINX}-17`,
      workload: NGINX,
      reason: "limit-reached",
      message: "fits no existing node; NodePool default: limits reached (cpu 16 of 16)",
    });
    expect(r.nodePools[0]).toMatchObject({ limits: { cpu: "16" }, used: { cpu: "16", memory: "30310Mi" }, headroom: { cpu: "0" } });
    expect(cannotRun(r)).toEqual([]);
  });

  it("says when a pod is too big for every allowed type", () => {
    const r = simulate(withWorkload(labInput(1), { namespace: "big", name: "job", replicas: 1, requests: { cpu: "500" } }), snapshot);
    expect(r.pending).toEqual([
      {
        pod: "big/job-1",
        workload: "big/job",
        reason: "too-big",
        message: "fits no existing node; NodePool default: no instance type has enough allocatable for requests cpu 500, pods 1 plus DaemonSets",
      },
    ]);
    expect(cannotRun(r)).toHaveLength(1);
  });

  it("says when nothing matches the pod's node selector", () => {
    const r = simulate(withWorkload(labInput(1), { namespace: "arm", name: "app", replicas: 1, requests: { cpu: "1" }, nodeSelector: { "kubernetes.io/arch": "arm64" } }), snapshot);
    expect(r.pending[0]).toMatchObject({
      reason: "nothing-matches",
      message: "fits no existing node; NodePool default: incompatible requirements, key kubernetes.io/arch, kubernetes.io/arch In [arm64] not in kubernetes.io/arch In [amd64]",
    });
  });

  it("respects NodePool taints", () => {
    const input = withPool(labInput(12), { taints: [{ key: "dedicated", value: "web", effect: "NoSchedule" }] });
    const r = simulate(input, snapshot);
    expect(r.nodeClaims).toEqual([]);
    expect(r.pending.map((p) => p.reason)).toEqual(["nothing-matches", "nothing-matches", "nothing-matches"]);
    expect(r.pending[0]!.message).toBe("fits no existing node; NodePool default: taint dedicated=web:NoSchedule not tolerated");
    const tolerated = simulate(
      { ...input, workloads: input.workloads.map((w) => (w.name === "nginx-deployment" && w.namespace === "nlb-app-karpenter" ? { ...w, tolerations: [{ key: "dedicated", operator: "Equal" as const, value: "web", effect: "NoSchedule" as const }] } : w)) },
      snapshot,
    );
    expect(tolerated.nodeClaims).toHaveLength(1);
    // The DaemonSets tolerate everything, so their overhead is still counted.
    expect(tolerated.nodeClaims[0]!.requests.cpu).toBe("6450m");
  });

  it("adds only the DaemonSets that would run on the NodeClaim", () => {
    const input = labInput(12);
    const r = simulate({ ...input, daemonSets: [...input.daemonSets, { name: "ng-only", requests: { cpu: "1" }, nodeSelector: { "eks.amazonaws.com/nodegroup": "ng-ondemand" } }] }, snapshot);
    expect(r.nodes[0]!.daemonSetPods).toContain("ng-only");
    // One more CPU on every node-group node: 2 + 2 + 3 nginx pods fit there now (two nodes also run Karpenter).
    expect(r.workloads.find((w) => w.workload === NGINX)).toMatchObject({ onExistingNodes: 7, onNodeClaims: 5 });
    // 5 x 2 CPU + 450m, 5 x 4G + 153Mi, 5 + 4 pods: "ng-only" does not run on Karpenter's nodes.
    expect(r.nodeClaims[0]!.requests).toEqual({ cpu: "10450m", memory: "20160432128", pods: "9" });
    expect(r.nodeClaims[0]!.daemonSetPods).not.toContain("ng-only");
  });

  it("prefers the heavier NodePool, and the later name on equal weights", () => {
    const input = labInput(12);
    const base = input.nodePools[0]!;
    const od = { ...base, name: "on-demand", requirements: base.requirements!.map((r) => (r.key === "karpenter.sh/capacity-type" ? { ...r, values: ["on-demand"] } : r)) };
    expect(simulate({ ...input, nodePools: [od, { ...base, weight: 10 }] }, snapshot).nodeClaims[0]!.nodePool).toBe("default");
    expect(simulate({ ...input, nodePools: [base, od] }, snapshot).nodeClaims[0]!.nodePool).toBe("on-demand");
  });

  it("puts one replica per NodeClaim under hostname anti-affinity", () => {
    const input = { ...labInput(0), nodeGroups: [] };
    const r = simulate(withWorkload(input, { namespace: "a", name: "spread", replicas: 3, requests: { cpu: "100m" }, onePerNode: true }), snapshot);
    expect(r.nodeClaims.map((c) => c.pods)).toEqual([["a/spread-1"], ["a/spread-2"], ["a/spread-3"]]);
    // The Karpenter controller may not run on Karpenter's nodes, and nothing offers eks.amazonaws.com/capacityType
    // without a node group: they stay Pending (after a second round, once the first NodeClaims count as launched).
    expect(r.pending.map((p) => [p.pod, p.reason])).toEqual([
      ["kube-system/karpenter-1", "nothing-matches"],
      ["kube-system/karpenter-2", "nothing-matches"],
      ["nlb-app-ondemand/nginx-deployment-1", "nothing-matches"],
      ["nlb-app-ondemand/nginx-deployment-2", "nothing-matches"],
      ["nlb-app-ondemand/nginx-deployment-3", "nothing-matches"],
    ]);
    expect(r.pending[2]!.message).toBe('fits no existing node; NodePool default: incompatible requirements, label "eks.amazonaws.com/capacityType" does not have known values');
  });

  it("keeps a zone spread (maxSkew 1) on node-group nodes and on new NodeClaims", () => {
    const spread = { namespace: "s", name: "web", replicas: 4, requests: { cpu: "100m" }, zoneSpread: { maxSkew: 1 } };
    // Two nodes in 1a, one in 1b: the spread puts 2 pods in each zone, so the 1b node takes two.
    const nodeGroups = [{ name: "ng", instanceType: "t3.2xlarge", count: 3, zones: ["ap-southeast-1a", "ap-southeast-1a", "ap-southeast-1b"] }];
    const onNodes = simulate({ ...labInput(0), nodeGroups, workloads: [spread] }, snapshot);
    const perZone = (r: typeof onNodes) => r.nodes.map((n) => [n.zone, n.pods.length]);
    expect(perZone(onNodes)).toEqual([["ap-southeast-1a", 1], ["ap-southeast-1a", 1], ["ap-southeast-1b", 2]]);
    const free = simulate({ ...labInput(0), nodeGroups, workloads: [{ ...spread, zoneSpread: undefined }] }, snapshot);
    expect(perZone(free)).toEqual([["ap-southeast-1a", 2], ["ap-southeast-1a", 1], ["ap-southeast-1b", 1]]);

    // No node group: Karpenter opens one NodeClaim per zone instead of packing all six pods onto one.
    const web = { ...spread, replicas: 6, requests: { cpu: "1" } };
    const claims = simulate({ ...labInput(0), nodeGroups: [], workloads: [web] }, snapshot).nodeClaims;
    expect(claims.map((c) => [c.zones, c.pods.length])).toEqual([
      [["ap-southeast-1a"], 2],
      [["ap-southeast-1b"], 2],
      [["ap-southeast-1c"], 2],
    ]);
    expect(simulate({ ...labInput(0), nodeGroups: [], workloads: [{ ...web, zoneSpread: undefined }] }, snapshot).nodeClaims).toHaveLength(1);
  });

  it("narrows candidates by the pod's own requirements (zone)", () => {
    const r = simulate(withWorkload(labInput(9), { namespace: "z", name: "app", replicas: 1, requests: { cpu: "3" }, nodeSelector: { "topology.kubernetes.io/zone": "ap-southeast-1b" } }), snapshot);
    expect(r.nodeClaims).toHaveLength(1);
    expect(r.nodeClaims[0]!.zones).toEqual(["ap-southeast-1b"]);
  });

  it("treats an unpriced offering as unavailable once the snapshot has prices for its capacity type", () => {
    const spotPriced = {
      ...snapshot,
      instanceTypes: snapshot.instanceTypes.map((t) => ({
        ...t,
        offerings: t.offerings.map((o) => (o.capacityType === "spot" && t.name.startsWith("c5.") ? { ...o, price: 0.2 } : o)),
      })),
    };
    const c = simulate(labInput(12), spotPriced).nodeClaims[0]!;
    expect(c.instanceTypes.every((n) => n.startsWith("c5."))).toBe(true);
    expect(c.instanceTypes.slice(0, 3)).toEqual(["c5.12xlarge", "c5.18xlarge", "c5.24xlarge"]);
  });

  it("picks the cheapest-looking offering when the snapshot has prices", () => {
    const priced = {
      ...snapshot,
      instanceTypes: snapshot.instanceTypes.map((t) => ({
        ...t,
        offerings: t.offerings.map((o) => ({ ...o, price: t.name === "c5.2xlarge" && o.zone === "ap-southeast-1c" ? 0.1 : 1 })),
      })),
    };
    const c = simulate(labInput(12), priced).nodeClaims[0]!;
    expect(c.cheapest).toEqual({ instanceType: "c5.2xlarge", zone: "ap-southeast-1c", capacityType: "spot", price: 0.1 });
  });
});

describe("determinism", () => {
  it("gives the same result after other simulations warmed the per-snapshot caches", () => {
    const first = JSON.stringify(simulate(labInput(12), snapshot));
    simulate(withPool(labInput(40), { limits: { cpu: "16" } }), snapshot);
    simulate({ ...labInput(12), daemonSets: [] }, snapshot);
    simulate({ ...labInput(12), nodeClasses: [{ name: "default", kubelet: { maxPods: 20 } }] }, snapshot);
    expect(JSON.stringify(simulate(labInput(12), snapshot))).toBe(first);
  });

  it("uses the EC2NodeClass's kubelet settings for the candidates", () => {
    // maxPods 6: the NodeClaim needs 7 pods (3 nginx + 4 DaemonSets), so it no longer fits one node.
    const r = simulate({ ...labInput(12), nodeClasses: [{ name: "default", kubelet: { maxPods: 6 } }] }, snapshot);
    expect(r.nodeClaims.map((c) => c.requests.pods)).toEqual(["6", "5"]);
  });
});

describe("NodePools Karpenter skips", () => {
  it("skips a NodePool that matches no instance type and leaves its pods pending with the reason", () => {
    const r = simulate(withPool(labInput(12), { requirements: [{ key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["zz"] }] }), snapshot);
    expect(r.nodeClaims).toEqual([]);
    expect(r.pending).toHaveLength(3);
    expect(r.pending[0]!.reason).toBe("nothing-matches");
    expect(r.pending[0]!.message).toMatch(/NodePool default matches no instance type of the ap-southeast-1 snapshot \(requirements: .*karpenter\.k8s\.aws\/instance-category In \[zz\].*\(Karpenter skips the NodePool\)/);
  });

  it("skips a NodePool whose minValues no type set meets, and schedules on the others", () => {
    const input = withPool(labInput(12), { requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["c5", "m5"], minValues: 3 }] });
    const skipped = simulate(input, snapshot);
    expect(skipped.pending.map((p) => p.message)[0]).toContain("NodePool default: minValues requirement is not met for label karpenter.k8s.aws/instance-family (2 of 3)");
    const other: NodePoolInput = { name: "other", nodeClass: "default" };
    const r = simulate({ ...input, nodePools: [...input.nodePools, other] }, snapshot);
    expect(r.pending).toEqual([]);
    expect(r.nodeClaims.map((c) => c.nodePool)).toEqual(["other"]);
  });
});

describe("input faults name the field (exit 2)", () => {
  const fault = (input: SimulationInput) => {
    try {
      simulate(input, snapshot);
    } catch (e) {
      expect(e).toBeInstanceOf(SimulationError);
      return (e as Error).message;
    }
    throw new Error("no error");
  };

  it("names region, node group, NodePool and workload faults", () => {
    expect(fault({ ...labInput(), region: "us-east-1" })).toBe("region: the cluster is in us-east-1 but the instance-type snapshot is for ap-southeast-1");
    expect(fault({ ...labInput(), nodeGroups: [{ name: "ng", instanceType: "t9.huge", count: 1 }] })).toBe(
      "nodeGroups[0].instanceType: t9.huge is not in the ap-southeast-1 instance-type snapshot",
    );
    expect(fault(withPool(labInput(), { nodeClass: "missing" }))).toBe("nodePools[0].nodeClass: EC2NodeClass missing is not declared (nodeClasses: default)");
    expect(fault(withWorkload(labInput(), { namespace: "a", name: "b", replicas: 1, requests: { cpu: "two" } }))).toBe(
      'workloads[3].requests: "two" is not a Kubernetes quantity (e.g. 500m, 2, 4G, 153Mi)',
    );
    expect(fault(withWorkload(labInput(), { namespace: "a", name: "b", replicas: -1, requests: {} }))).toBe("workloads[3].replicas: must be a non-negative integer (got -1)");
    expect(fault(withWorkload(labInput(), { namespace: "a", name: "b", replicas: 1, requests: {}, zoneSpread: { maxSkew: 0 } }))).toBe(
      "workloads[3].zoneSpread.maxSkew: must be a whole number of at least 1 (got 0)",
    );
    expect(fault(withWorkload(labInput(), { ...labInput().workloads[2]! }))).toBe("workloads[3]: nlb-app-karpenter/nginx-deployment is declared twice");
    expect(fault({ ...labInput(), nodeGroups: [{ name: "ng", instanceType: "t3.2xlarge", count: 1, zones: ["us-east-1a"] }] })).toBe(
      "nodeGroups[0].zones[0]: us-east-1a is not a zone of the ap-southeast-1 snapshot (ap-southeast-1a, ap-southeast-1b, ap-southeast-1c)",
    );
    expect(fault({ ...labInput(), nodeClasses: [{ name: "default", zones: ["ap-southeast-1z"] }] })).toBe(
      "nodeClasses[0].zones[0]: ap-southeast-1z is not a zone of the ap-southeast-1 snapshot (ap-southeast-1a, ap-southeast-1b, ap-southeast-1c)",
    );
    expect(fault(withWorkload(labInput(), { namespace: "a", name: "b", replicas: 1, requests: {}, requiredNodeAffinity: [{ matchExpressions: [{ key: "k", operator: "Gt", values: ["x"] }] }] }))).toBe(
      'workloads[3].requiredNodeAffinity[0]: k Gt: needs one integer value (got ["x"])',
    );
  });
});

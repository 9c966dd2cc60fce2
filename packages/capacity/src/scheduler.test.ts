import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { instanceTypeLabels, resolveInstanceType } from "./instance-types.ts";
import { goSortSlice, goSortSliceStable } from "./go-sort.ts";
import type { Claim } from "./nodeclaim.ts";
import { simulateOutcomes } from "./scheduler.ts";
import { simulate } from "./simulate.ts";
import { parseSnapshot } from "./snapshot.ts";
import type { NodePoolInput, SimulationInput, WorkloadInput } from "./types.ts";

// The committed snapshot (moto 5.2.5's ap-southeast-1 data): these tests need nothing installed.
const FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "clusters", "eksworkshop", "capacity", "instance-types.ap-southeast-1.json");
const snapshot = parseSnapshot(readFileSync(FILE, "utf8"), FILE);
const type = (name: string) => snapshot.instanceTypes.find((t) => t.name === name)!;

function cluster(workloads: WorkloadInput[], nodePools: NodePoolInput[] = [{ name: "default", nodeClass: "default" }]): SimulationInput {
  return { nodeGroups: [], daemonSets: [], workloads, nodePools, nodeClasses: [{ name: "default" }] };
}

describe("topology spread on the hostname", () => {
  it("puts at most maxSkew replicas on a NodeClaim (a new NodeClaim is a domain with 0 pods)", () => {
    const r = simulate(cluster([{ namespace: "a", name: "w", replicas: 5, requests: { cpu: "100m" }, hostnameSpread: { maxSkew: 2 } }]), snapshot);
    expect(r.nodeClaims.map((c) => c.pods.length)).toEqual([2, 2, 1]);
  });

  it("keeps count + 1 - min <= maxSkew over the node-group nodes", () => {
    const input: SimulationInput = {
      ...cluster([{ namespace: "a", name: "w", replicas: 4, requests: { cpu: "100m" }, hostnameSpread: { maxSkew: 1 } }], []),
      nodeGroups: [{ name: "ng", instanceType: "m5.xlarge", count: 2 }],
    };
    const r = simulate(input, snapshot);
    expect(r.nodes.map((n) => n.pods.length)).toEqual([2, 2]);
  });
});

describe("existing nodes during Karpenter's batch (scheduler.go add tries them first for every pod)", () => {
  it("a pod a zone spread kept off a node-group node goes there once a NodeClaim fills the empty zone (seed 22291)", () => {
    const input: SimulationInput = {
      ...cluster([{ namespace: "a", name: "w", replicas: 4, requests: { cpu: "3500m", memory: "1Gi" }, zoneSpread: { maxSkew: 1 } }]),
      nodeGroups: [
        { name: "small", instanceType: "r5.large", count: 3 },
        { name: "big", instanceType: "c5.2xlarge", count: 2 },
      ],
    };
    const r = simulate(input, snapshot);
    // big-1 (1a) and big-2 (1b) take one each; 1c has only a small node, so the third goes to a NodeClaim in 1c and
    // the fourth, with 1a:1 1b:1 1c:1, back onto big-1.
    expect(r.workloads[0]).toMatchObject({ onExistingNodes: 3, onNodeClaims: 1, pending: 0 });
    expect(r.nodeClaims.map((c) => c.zones)).toEqual([["ap-southeast-1c"]]);
    expect(r.nodes.find((n) => n.name === "big-1")!.pods).toEqual(["a/w-1", "a/w-4"]);
  });

  it("counts the NodePools' zones in the spread's minimum there, as Karpenter's topology does (seed 22249)", () => {
    const input: SimulationInput = {
      ...cluster([{ namespace: "a", name: "w", replicas: 4, requests: { cpu: "2500m", memory: "1Gi" }, zoneSpread: { maxSkew: 2 } }]),
      nodeGroups: [
        { name: "big", instanceType: "c5.2xlarge", count: 1 },
        { name: "small", instanceType: "t3.micro", count: 2 },
      ],
    };
    const r = simulate(input, snapshot);
    // kube-scheduler puts two on big-1 (1a); the third goes to a NodeClaim in 1b. For the fourth, kube-scheduler's
    // minimum over the nodes' zones (1a:2, 1b:1) would let 1a take it, but Karpenter's addToExistingNode counts 1c
    // (0 pods) too: 2 + 1 - 0 > 2, so it joins the NodeClaim.
    expect(r.workloads[0]).toMatchObject({ onExistingNodes: 2, onNodeClaims: 2, pending: 0 });
    expect(r.nodes.find((n) => n.name === "big-1")!.pods).toEqual(["a/w-1", "a/w-2"]);
  });
});

describe("PreferNoSchedule taints (Karpenter counts them until it relaxes the pod)", () => {
  const soft: NodePoolInput = { name: "soft", nodeClass: "default", weight: 10, taints: [{ key: "k", value: "v", effect: "PreferNoSchedule" }] };
  const plain: NodePoolInput = { name: "plain", nodeClass: "default" };
  const pod: WorkloadInput = { namespace: "a", name: "w", replicas: 1, requests: { cpu: "100m" } };

  it("a pod that does not tolerate the heavier pool's PreferNoSchedule taint goes to the next pool", () => {
    expect(simulate(cluster([pod], [soft, plain]), snapshot).nodeClaims.map((c) => c.nodePool)).toEqual(["plain"]);
  });

  it("with no other pool, the relaxation tolerates it", () => {
    expect(simulate(cluster([pod], [soft]), snapshot).nodeClaims.map((c) => c.nodePool)).toEqual(["soft"]);
  });

  it("a DaemonSet ignores it (isDaemonPodCompatible tolerates PreferNoSchedule) and counts on that pool's NodeClaims", () => {
    const input = { ...cluster([{ ...pod, tolerations: [{ operator: "Exists" as const }] }], [soft]), daemonSets: [{ name: "ds", requests: { cpu: "1" } }] };
    expect(simulate(input, snapshot).nodeClaims[0]!.requests.cpu).toBe("1100m");
  });
});

describe("in-flight NodeClaims in Karpenter's order (sort.Slice by pod count before each pod: go-sort.ts)", () => {
  const claim = (name: string, pods: number) => ({ name, pods: Array.from({ length: pods }, () => "p") }) as unknown as Claim & { name: string };
  const fewerPods = (a: Claim, b: Claim) => a.pods.length < b.pods.length;
  const names = (claims: Claim[]) => claims.map((c) => (c as unknown as { name: string }).name);

  it("up to 12: a NodeClaim that took a pod moves past the ones with fewer pods only (Go's insertion sort)", () => {
    const claims = [claim("a", 1), claim("b", 1), claim("c", 2)];
    claims[0]!.pods.push("p"); // a: 2 pods
    expect(names(goSortSlice(claims, fewerPods))).toEqual(["b", "a", "c"]);
  });

  it("a new NodeClaim, appended, goes after every NodeClaim with as few pods", () => {
    const claims = [claim("a", 1), claim("b", 1), claim("c", 2), claim("d", 1)];
    expect(names(goSortSlice(claims, fewerPods))).toEqual(["a", "b", "d", "c"]);
  });

  it("beyond 12, pdqsort reorders equals: the permutation Go 1.26's sort.Slice printed (test-tools/kube/go-sort)", () => {
    // echo '{"keys":[3,1,3,2,1,1,1,1,1,1,1,1,1,1,1,0]}' | go-sort
    const keys = [3, 1, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0];
    const perm = goSortSlice(keys.map((_, i) => i), (a, b) => keys[a]! < keys[b]!);
    expect(perm).toEqual([15, 8, 11, 1, 4, 5, 6, 14, 9, 7, 10, 13, 12, 3, 0, 2]);
    expect(goSortSliceStable(keys.map((_, i) => i), (a, b) => keys[a]! < keys[b]!)).toEqual([15, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 3, 0, 2]);
  });
});

describe("ties Karpenter breaks by Go map order (ties.ts)", () => {
  const spread: WorkloadInput = { namespace: "a", name: "w", replicas: 1, requests: { cpu: "100m" }, zoneSpread: { maxSkew: 1 } };

  it("simulate picks the lowest of the tied zones; simulateOutcomes gives one outcome per zone", () => {
    const input = cluster([spread]);
    expect(simulate(input, snapshot).nodeClaims.map((c) => c.zones)).toEqual([["ap-southeast-1a"]]);
    const outcomes = simulateOutcomes(input, snapshot);
    expect(outcomes.complete).toBe(true);
    expect(outcomes.results.map((r) => r.nodeClaims.map((c) => c.zones.join()).join(" "))).toEqual(["ap-southeast-1a", "ap-southeast-1b", "ap-southeast-1c"]);
    expect(JSON.stringify(outcomes.results[0])).toBe(JSON.stringify(simulate(input, snapshot)));
  });

  it("two replicas, maxSkew 1: the second goes to one of the two zones left (3 x 2 ways, 6 outcomes)", () => {
    const input = cluster([{ ...spread, replicas: 2, onePerNode: true }]);
    const outcomes = simulateOutcomes(input, snapshot);
    expect(outcomes.complete).toBe(true);
    const zones = outcomes.results.map((r) => r.nodeClaims.map((c) => c.zones.join()).join(" "));
    expect(zones).toHaveLength(6);
    expect(zones.every((z) => z.split(" ")[0] !== z.split(" ")[1])).toBe(true);
  });

  it("a pod that drew a tied zone its NodePool cannot launch into is tried again after the others (seed 22086)", () => {
    // np0 launches in 1a only (its EC2NodeClass's zones) but its template allows every zone, so w's pod may draw 1b or
    // 1c and fail (np1 is spot only). Karpenter's queue tries it again after v made progress, with a new draw: then w's
    // NodeClaim is opened after v went to np1's, and v does not join it.
    const input: SimulationInput = {
      nodeGroups: [],
      daemonSets: [],
      workloads: [
        { namespace: "a", name: "w", replicas: 1, requests: { cpu: "2" }, zoneSpread: { maxSkew: 1 }, nodeSelector: { "karpenter.sh/capacity-type": "on-demand" } },
        { namespace: "a", name: "v", replicas: 2, requests: { cpu: "1" } },
      ],
      nodePools: [
        { name: "np0", nodeClass: "one-zone" },
        { name: "np1", nodeClass: "all", requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] }] },
      ],
      nodeClasses: [{ name: "one-zone", zones: ["ap-southeast-1a"] }, { name: "all" }],
    };
    const shapes = (r: ReturnType<typeof simulate>) => JSON.stringify([r.nodeClaims.map((c) => [c.nodePool, c.pods]), r.pending.map((p) => p.pod)]);
    const outcomes = simulateOutcomes(input, snapshot, { singleBatch: true });
    expect(outcomes.complete).toBe(true);
    expect(outcomes.results.map(shapes)).toEqual([
      JSON.stringify([[["np0", ["a/w-1", "a/v-1", "a/v-2"]]], []]),
      JSON.stringify([[["np1", ["a/v-1", "a/v-2"]], ["np0", ["a/w-1"]]], []]),
      JSON.stringify([[["np1", ["a/v-1", "a/v-2"]]], ["a/w-1"]]),
    ]);
  });

  it("stops at the bound and says so", () => {
    const outcomes = simulateOutcomes(cluster([{ ...spread, replicas: 6, onePerNode: true }]), snapshot, { maxOutcomes: 4 });
    expect(outcomes.complete).toBe(false);
    expect(outcomes.results).toHaveLength(4);
  });

  it("DaemonSet overhead groups: either order of two groups (one without DaemonSets) is a possible outcome", () => {
    // ds runs on amd64 only: the NodeClaim's types fall in two groups, amd64 (1 cpu overhead) and arm64 (none).
    // addDaemonRequests folds them in map order: amd64 then arm64 leaves no overhead, arm64 then amd64 leaves 1 cpu.
    const input: SimulationInput = {
      ...cluster([{ namespace: "a", name: "w", replicas: 1, requests: { cpu: "100m" } }]),
      daemonSets: [{ name: "kube-system/ds", requests: { cpu: "1" }, nodeSelector: { "kubernetes.io/arch": "amd64" } }],
    };
    const outcomes = simulateOutcomes(input, snapshot);
    expect(outcomes.complete).toBe(true);
    const cpu = outcomes.results.map((r) => r.nodeClaims[0]!.requests.cpu).sort();
    expect(cpu).toEqual(["100m", "1100m"]);
    expect(simulate(input, snapshot).nodeClaims[0]!.requests.cpu).toBe(outcomes.results[0]!.nodeClaims[0]!.requests.cpu);
  });

  it("no tie: one run, one outcome", () => {
    const outcomes = simulateOutcomes(cluster([{ namespace: "a", name: "w", replicas: 3, requests: { cpu: "100m" } }]), snapshot);
    expect(outcomes).toMatchObject({ complete: true, runs: 1 });
  });
});

describe("instance types as the AWS provider v1.14.1 resolves them", () => {
  it("Windows2022: 50Gi root volume by default and the windows-build label", () => {
    const r = resolveInstanceType(type("m5.large"), { name: "w", amiFamily: "Windows2022" });
    expect(r.capacity["ephemeral-storage"]).toBe(50 * 2 ** 30);
    const labels = instanceTypeLabels(type("m5.large"), "ap-southeast-1", "Windows2022");
    expect(labels.get("node.kubernetes.io/windows-build")).toBe("10.0.20348");
    expect(labels.get("kubernetes.io/os")).toBe("windows");
    expect(instanceTypeLabels(type("m5.large"), "ap-southeast-1", "AL2023").get("node.kubernetes.io/windows-build")).toBeUndefined();
  });

  it("keeps a negative allocatable (a1.large with an 8Gi systemReserved)", () => {
    const r = resolveInstanceType(type("a1.large"), { name: "x", amiFamily: "AL2", kubelet: { systemReserved: { cpu: "3", memory: "8Gi" } } });
    expect(r.allocatable.cpu).toBe(-1070);
    expect(r.allocatable.memory).toBe(-5386534912);
  });

  it("sets the sustained clock speed to 0 where EC2 gives none, and has no nitro-sandbox label", () => {
    const old = snapshot.instanceTypes.find((t) => t.cpuSustainedClockSpeedMhz === undefined)!;
    const labels = instanceTypeLabels(old, "ap-southeast-1");
    expect(labels.get("karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz")).toBe("0");
    expect(labels.has("karpenter.k8s.aws/nitro-sandbox")).toBe(false);
  });
});

describe("Karpenter's quirks the differential found (issue 22)", () => {
  it("a relaxed pod's spread counts start again: Topology.Update gives it a new group (seed 22067)", () => {
    // The pods do not tolerate the heavier pool's PreferNoSchedule taint: two go to `plain` (2 nodes at most); the other
    // two are relaxed (toleration added), and their new spread group has no pod on the in-flight NodeClaims yet.
    const soft: NodePoolInput = { name: "soft", nodeClass: "default", weight: 10, taints: [{ key: "k", value: "v", effect: "PreferNoSchedule" }] };
    const plain: NodePoolInput = { name: "plain", nodeClass: "default", limits: { nodes: "2" } };
    const w: WorkloadInput = { namespace: "a", name: "w", replicas: 4, requests: { cpu: "100m" }, hostnameSpread: { maxSkew: 1 } };
    const r = simulate(cluster([w], [soft, plain]), snapshot, { singleBatch: true });
    expect(r.nodeClaims.map((c) => [c.nodePool, c.pods.length])).toEqual([
      ["plain", 2],
      ["plain", 2],
    ]);
  });

  it("addDaemonRequests: an empty DaemonSet group first lets the next group's overhead count (seed 22096)", () => {
    // The first types of the pool are amd64 (no DaemonSet), then arm64 ones run ds: the groups come in that order, the
    // empty one empties the running minimum and ds's overhead replaces it.
    const input = { ...cluster([{ namespace: "a", name: "w", replicas: 1, requests: { cpu: "100m" } }]), daemonSets: [{ name: "ds", requests: { cpu: "1" }, nodeSelector: { "kubernetes.io/arch": "arm64" } }] };
    const claim = simulate(input, snapshot).nodeClaims[0]!;
    expect(claim.requests.cpu).toBe("1100m");
  });
});

describe("later rounds (another Solve once the batch's NodeClaims are nodes)", () => {
  // Seed 22435 of the differential: 12 replicas under a hostname spread of maxSkew 1 and a NodePool whose cpu limit
  // stops the first batch after 3 NodeClaims. The relaxed pods (PreferNoSchedule tolerated) open a new spread group
  // that counts only bound pods, so 2 share each NodeClaim; the next Solve starts a new Topology in which the launched
  // nodes are hostname domains holding their pods (topology.go countDomains), and 2 share each new NodeClaim again.
  it("start a new Topology: relaxed spread groups are counted afresh from the bound pods", () => {
    const soft = { key: "dedicated1", value: "x", effect: "PreferNoSchedule" as const };
    const input = cluster(
      [{ namespace: "default", name: "w0", replicas: 12, requests: { cpu: "250m", memory: "4096Mi" }, tolerations: [{ ...soft, operator: "Equal" as const }], hostnameSpread: { maxSkew: 1 } }],
      [{ name: "np1", nodeClass: "default", requirements: [{ key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["m", "r"] }], taints: [soft], limits: { cpu: "38" } }],
    );
    const first = simulate(input, snapshot, { singleBatch: true });
    expect(first.nodeClaims.map((c) => c.pods.length)).toEqual([2, 2, 2]);
    const all = simulate(input, snapshot);
    expect(all.pending).toEqual([]);
    // Karpenter: 7 NodeClaims over three Solves (the model kept 1 per later NodeClaim before: 9).
    expect(all.nodeClaims.map((c) => c.pods.length).sort()).toEqual([1, 1, 2, 2, 2, 2, 2]);
  });
});

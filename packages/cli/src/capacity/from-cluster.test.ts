// Grouping live nodes into node groups, and DaemonSets into per-node pods (the pure half of --from-cluster).
import type { V1Node } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { daemonSetsOf, nodeGroupsOf } from "./from-cluster.ts";

const node = (name: string, labels: Record<string, string>, taints: NonNullable<V1Node["spec"]>["taints"] = [], pods = "58"): V1Node => ({
  metadata: { name, labels: { "kubernetes.io/hostname": name, ...labels } },
  spec: { taints },
  status: { capacity: { pods } },
});

describe("nodeGroupsOf", () => {
  it("groups by node group and instance type, keeps shared labels and lasting taints, leaves Karpenter's nodes out", () => {
    const ng = { "eks.amazonaws.com/nodegroup": "system", "eks.amazonaws.com/capacityType": "SPOT", role: "system" };
    const { nodeGroups, skipped } = nodeGroupsOf([
      node("b", { ...ng, "node.kubernetes.io/instance-type": "m7g.large", "topology.kubernetes.io/zone": "z-b", extra: "1" }, [
        { key: "CriticalAddonsOnly", value: "true", effect: "NoSchedule" },
        { key: "node.kubernetes.io/unreachable", effect: "NoExecute" },
      ]),
      node("a", { ...ng, "node.kubernetes.io/instance-type": "m7g.large", "topology.kubernetes.io/zone": "z-a" }, [{ key: "CriticalAddonsOnly", value: "true", effect: "NoSchedule" }]),
      node("c", { ...ng, "node.kubernetes.io/instance-type": "m7g.xlarge", "topology.kubernetes.io/zone": "z-a" }, [], "110"),
      node("k", { "karpenter.sh/nodepool": "default", "node.kubernetes.io/instance-type": "c4.2xlarge" }),
      node("u", { "node.kubernetes.io/instance-type": "t3.large" }),
    ]);
    expect(skipped).toBe(1);
    expect(nodeGroups).toEqual([
      {
        name: "system/m7g.large",
        instanceType: "m7g.large",
        count: 2,
        capacityType: "spot",
        zones: ["z-a", "z-b"],
        labels: { "eks.amazonaws.com/capacityType": "SPOT", "eks.amazonaws.com/nodegroup": "system", "node.kubernetes.io/instance-type": "m7g.large", role: "system" },
        taints: [{ key: "CriticalAddonsOnly", value: "true", effect: "NoSchedule" }],
        kubelet: { maxPods: 58 },
      },
      {
        name: "system/m7g.xlarge",
        instanceType: "m7g.xlarge",
        count: 1,
        capacityType: "spot",
        zones: ["z-a"],
        labels: { "eks.amazonaws.com/capacityType": "SPOT", "eks.amazonaws.com/nodegroup": "system", "node.kubernetes.io/instance-type": "m7g.xlarge", role: "system" },
        taints: [],
        kubelet: { maxPods: 110 },
      },
      { name: "unmanaged", instanceType: "t3.large", count: 1, capacityType: "on-demand", zones: [], labels: { "node.kubernetes.io/instance-type": "t3.large" }, taints: [], kubelet: { maxPods: 58 } },
    ]);
  });
});

describe("daemonSetsOf", () => {
  it("sums the pod's containers and keeps its tolerations and node selector, sorted by name", () => {
    expect(
      daemonSetsOf([
        { metadata: { name: "z", namespace: "kube-system" }, spec: { selector: {}, template: { spec: { containers: [{ name: "a", resources: { requests: { cpu: "25m" } } }, { name: "b", resources: { requests: { cpu: "25m" } } }] } } } },
        { metadata: { name: "a", namespace: "obs" }, spec: { selector: {}, template: { spec: { nodeSelector: { os: "linux" }, tolerations: [{ operator: "Exists" }], containers: [{ name: "a", resources: { limits: { memory: "25Mi" } } }] } } } },
      ]),
    ).toEqual([
      { name: "kube-system/z", requests: { cpu: "50m" } },
      { name: "obs/a", requests: { memory: "25Mi" }, tolerations: [{ operator: "Exists" }], nodeSelector: { os: "linux" } },
    ]);
  });
});

// Node groups, DaemonSets, and the EC2NodeClass kubelet / block devices: checks and defaults.
import { describe, expect, it } from "vitest";
import awsCn from "../../../clusters/aws-cn/cluster.ts";
import eksworkshop from "../../../clusters/eksworkshop/cluster.ts";
import { ConfigError } from "./errors.ts";
import { checkCluster } from "./resolve.ts";

const FILE = "clusters/eksworkshop/cluster.ts";

function withChange(change: (c: Record<string, any>) => void): unknown {
  const copy = structuredClone(eksworkshop) as Record<string, any>;
  change(copy);
  return copy;
}

function problemsOf(input: unknown): string[] {
  try {
    checkCluster(input, FILE);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
  }
  throw new Error("expected a ConfigError");
}

describe("node groups and DaemonSets", () => {
  const c = checkCluster(eksworkshop, FILE);

  it("declares the lab's 3 x t3.2xlarge On-Demand group with the labels EKS puts on its nodes", () => {
    expect(c.nodeGroups).toEqual([
      {
        name: "podsubnet",
        instanceType: "t3.2xlarge",
        count: 3,
        capacityType: "ON_DEMAND",
        labels: { "eks.amazonaws.com/capacityType": "ON_DEMAND", "eks.amazonaws.com/nodegroup": "podsubnet" },
        taints: [],
        maxPods: undefined,
      },
    ]);
  });

  it("declares 4 DaemonSet pods per node totalling 450m CPU and 153Mi", () => {
    expect(c.daemonSets).toHaveLength(4);
    const milli = c.daemonSets.map((d) => Number.parseInt(d.requests.cpu ?? "0", 10)).reduce((a, b) => a + b, 0);
    const mi = c.daemonSets.map((d) => Number.parseInt(d.requests.memory ?? "0", 10)).reduce((a, b) => a + b, 0);
    expect(c.daemonSets.every((d) => /^\d+m$/.test(d.requests.cpu ?? "0m") && /^\d+Mi$/.test(d.requests.memory ?? "0Mi"))).toBe(true);
    expect([milli, mi]).toEqual([450, 153]);
    expect(c.daemonSets[0]).toEqual({ name: "aws-node", namespace: "kube-system", requests: { cpu: "50m" }, tolerations: [{ operator: "Exists" }] });
  });

  it("defaults capacity type, labels and taints", () => {
    const d = checkCluster(
      withChange((x) => {
        x.nodeGroups = [{ name: "ng-1", instanceType: "m5.large", count: 2, labels: { team: "a" } }];
        x.daemonSets = [{ name: "agent" }];
      }),
      FILE,
    );
    expect(d.nodeGroups[0]?.capacityType).toBe("ON_DEMAND");
    expect(d.nodeGroups[0]?.labels).toEqual({ team: "a", "eks.amazonaws.com/capacityType": "ON_DEMAND", "eks.amazonaws.com/nodegroup": "ng-1" });
    expect(d.daemonSets[0]).toEqual({ name: "agent", namespace: "kube-system", requests: {}, tolerations: [] });
  });

  it("defaults to no node groups and no DaemonSets", () => {
    const d = checkCluster(
      withChange((x) => {
        delete x.nodeGroups;
        delete x.daemonSets;
      }),
      FILE,
    );
    expect([d.nodeGroups, d.daemonSets]).toEqual([[], []]);
  });

  it("rejects a negative or fractional node count, naming the field", () => {
    expect(problemsOf(withChange((x) => (x.nodeGroups[0].count = -1)))).toEqual(["nodeGroups[0].count: must not be negative; got -1"]);
    expect(problemsOf(withChange((x) => (x.nodeGroups[0].count = 1.5)))).toEqual(["nodeGroups[0].count: must be a whole number of nodes; got 1.5"]);
  });

  it("rejects a malformed instance type and capacity type", () => {
    expect(
      problemsOf(
        withChange((x) => {
          x.nodeGroups[0].instanceType = "t3 2xlarge";
          x.nodeGroups[0].capacityType = "on-demand";
        }),
      ),
    ).toEqual([
      "nodeGroups[0].instanceType: must be an EC2 instance type such as 't3.2xlarge'; got \"t3 2xlarge\"",
      `nodeGroups[0].capacityType: must be one of 'ON_DEMAND', 'SPOT', 'CAPACITY_BLOCK'; got "on-demand"`,
    ]);
  });

  it("rejects an EKS label that disagrees with the group", () => {
    expect(problemsOf(withChange((x) => (x.nodeGroups[0].labels = { "eks.amazonaws.com/capacityType": "SPOT" })))).toEqual([
      "nodeGroups[0].labels.eks.amazonaws.com/capacityType: is 'SPOT' but EKS sets it to 'ON_DEMAND' (from the node group's 'capacityType')",
    ]);
  });

  it("rejects duplicate node groups and DaemonSets", () => {
    expect(
      problemsOf(
        withChange((x) => {
          x.nodeGroups.push({ ...x.nodeGroups[0] });
          x.daemonSets.push({ name: "kube-proxy", namespace: "kube-system" });
        }),
      ),
    ).toEqual(["nodeGroups[1].name: duplicate node group name 'podsubnet'", "daemonSets[4].name: duplicate DaemonSet name 'kube-system/kube-proxy'"]);
  });

  it("rejects a toleration without key for operator Equal, and a value with Exists", () => {
    expect(
      problemsOf(
        withChange((x) => {
          x.daemonSets[0].tolerations = [{ value: "x" }, { operator: "Exists", key: "a", value: "b" }];
        }),
      ),
    ).toEqual([
      "daemonSets[0].tolerations[0].key: is required with operator 'Equal' (use operator 'Exists' to tolerate every taint)",
      "daemonSets[0].tolerations[1].value: must be unset with operator 'Exists'",
    ]);
  });

  it("rejects a bad DaemonSet request", () => {
    expect(problemsOf(withChange((x) => (x.daemonSets[1].requests.cpu = "-100m")))).toEqual([
      `daemonSets[1].requests.cpu: must be a non-negative Kubernetes quantity such as '2', '500m', '4G' or '1Gi'; got "-100m"`,
    ]);
  });
});

describe("EC2NodeClass kubelet and block devices", () => {
  it("keeps the kubelet as declared and fills in EBS defaults", () => {
    const c = checkCluster(awsCn, "clusters/aws-cn/cluster.ts");
    expect(c.nodeClasses[0]?.kubelet).toEqual({ maxPods: 110, systemReserved: { cpu: "100m", memory: "100Mi" }, evictionHard: { "memory.available": "5%", "nodefs.available": "10%" } });
    expect(c.nodeClasses[0]?.blockDeviceMappings).toEqual([
      { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi", volumeType: "gp3", encrypted: true, deleteOnTermination: true } },
    ]);
  });

  it("leaves both unset by default", () => {
    const c = checkCluster(eksworkshop, FILE);
    expect([c.nodeClasses[0]?.kubelet, c.nodeClasses[0]?.blockDeviceMappings]).toEqual([undefined, undefined]);
  });

  it("rejects bad kubelet values, naming the field", () => {
    expect(
      problemsOf(
        withChange((x) => {
          x.nodeClasses[0].kubelet = { maxPods: -1, evictionHard: { "memory.available": "lots", "disk.available": "1Gi" }, kubeReserved: { gpu: "1" } };
        }),
      ),
    ).toEqual([
      "nodeClasses[0].kubelet.maxPods: must be at least 0; got -1",
      "nodeClasses[0].kubelet.kubeReserved.gpu: unknown key 'gpu'",
      `nodeClasses[0].kubelet.evictionHard.memory.available: must be a quantity such as '100Mi' or a percentage such as '10%'; got "lots"`,
      "nodeClasses[0].kubelet.evictionHard.disk.available: unknown key 'disk.available'",
    ]);
  });

  it("rejects two root volumes and a zero size", () => {
    const ebs = { volumeSize: "0Gi" };
    expect(
      problemsOf(
        withChange((x) => {
          x.nodeClasses[0].blockDeviceMappings = [
            { deviceName: "/dev/xvda", rootVolume: true, ebs },
            { deviceName: "/dev/xvdb", rootVolume: true, ebs: { volumeSize: "20Gi" } },
          ];
        }),
      ),
    ).toEqual(["nodeClasses[0].blockDeviceMappings[0].ebs.volumeSize: must be larger than zero", "nodeClasses[0].blockDeviceMappings: at most one mapping may set 'rootVolume: true'"]);
  });
});

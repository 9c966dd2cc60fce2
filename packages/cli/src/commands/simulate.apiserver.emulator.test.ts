// `simulate --from-cluster` against a real kube-apiserver (the e2e harness): the lab's nodes and DaemonSets, read
// live, give the same NodeClaim as the overlay's declaration.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { AppsV1Api, CoreV1Api, KubeConfig, type V1DaemonSet, type V1Node } from "@kubernetes/client-node";
import { startTestCluster, type TestCluster } from "@eks-gitops/e2e";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../../..");
const BIN = join(ROOT, "packages/cli/bin/eks-gitops.js");
let cluster: TestCluster;

function node(name: string, zone: string, labels: Record<string, string>, type = "t3.2xlarge"): V1Node {
  return {
    metadata: {
      name,
      labels: {
        "kubernetes.io/hostname": name,
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": type,
        "topology.kubernetes.io/zone": zone,
        "topology.kubernetes.io/region": "ap-southeast-1",
        ...labels,
      },
    },
    spec: { taints: [{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }] },
    status: { capacity: { cpu: "8", memory: "32386520Ki", pods: "58" }, allocatable: { cpu: "7910m", pods: "58" } },
  };
}

function daemonSet(namespace: string, name: string, requests: Record<string, string>): V1DaemonSet {
  return {
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { tolerations: [{ operator: "Exists" }], containers: [{ name, image: "public.ecr.aws/example/agent:1", resources: { requests } }] },
      },
    },
  };
}

beforeAll(async () => {
  cluster = await startTestCluster();
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const group = { "eks.amazonaws.com/nodegroup": "podsubnet", "eks.amazonaws.com/capacityType": "ON_DEMAND" };
  for (const [i, zone] of ["ap-southeast-1a", "ap-southeast-1b", "ap-southeast-1c"].entries()) await core.createNode({ body: node(`ip-192-168-${i}-10.ap-southeast-1.compute.internal`, zone, group) });
  // a node Karpenter launched earlier: the simulation plans NodeClaims afresh, so it is left out
  await core.createNode({ body: node("ip-192-168-2-97.ap-southeast-1.compute.internal", "ap-southeast-1c", { "karpenter.sh/nodepool": "default", "karpenter.sh/capacity-type": "spot" }, "c4.2xlarge") });
  await core.createNamespace({ body: { metadata: { name: "amazon-cloudwatch" } } });
  // the vpc-cni pod has two containers, 25m each
  const awsNode = daemonSet("kube-system", "aws-node", { cpu: "25m" });
  awsNode.spec?.template.spec?.containers.push({ name: "aws-eks-nodeagent", image: "public.ecr.aws/example/agent:1", resources: { requests: { cpu: "25m" } } });
  for (const d of [
    awsNode,
    daemonSet("kube-system", "kube-proxy", { cpu: "100m" }),
    daemonSet("amazon-cloudwatch", "cloudwatch-agent", { cpu: "250m", memory: "128Mi" }),
    daemonSet("amazon-cloudwatch", "fluent-bit", { cpu: "50m", memory: "25Mi" }),
  ])
    await apps.createNamespacedDaemonSet({ namespace: d.metadata?.namespace ?? "", body: d });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("simulate --from-cluster", () => {
  it("reads the 3 t3.2xlarge and the 4 DaemonSets, and reproduces the lab's NodeClaim", () => {
    const r = spawnSync(
      process.execPath,
      [BIN, "simulate", "--cluster", "eksworkshop", "--replicas", "nlb-app-karpenter/nginx-deployment=12", "--from-cluster", "--kubeconfig", cluster.kubeconfigPath, "--root", ROOT],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(r.stderr).toBe(
      `eksworkshop: existing capacity read from ${cluster.server}: 3 x t3.2xlarge (podsubnet) (1 Karpenter or deleting node(s) left out); 4 DaemonSet(s)\n`,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Node group podsubnet: 3 x t3.2xlarge on-demand (allocatable cpu 7910m, ephemeral-storage 17Gi, memory 29317Mi, pods 58)");
    expect(r.stdout).toContain("  nlb-app-karpenter/nginx-deployment  12        9               3        3                  0\n");
    expect(r.stdout).toContain("  NodeClaim default-1: requests cpu 6450m, memory 12160432128, pods 7\n");
    expect(r.stdout).toContain("instance types (349 candidates): c3.2xlarge, c3.4xlarge, c3.8xlarge, c4.2xlarge, c4.4xlarge and 344 other(s)");
  });

  it("a kubeconfig that does not exist: exit 2 naming the file and the fix", () => {
    const r = spawnSync(process.execPath, [BIN, "simulate", "--cluster", "eksworkshop", "--from-cluster", "--kubeconfig", join(ROOT, "no-such-kubeconfig"), "--root", ROOT], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`--kubeconfig ${join(ROOT, "no-such-kubeconfig")}: no such file; pass --kubeconfig FILE (e.g. after \`aws eks update-kubeconfig --name CLUSTER\`)\nnothing was simulated.\n`);
  });
});

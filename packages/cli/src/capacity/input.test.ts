// The simulation input built from an overlay's rendered objects: what each field comes from.
import { checkCluster } from "@eks-gitops/config";
import { describe, expect, it } from "vitest";
import awsCn from "../../../../clusters/aws-cn/cluster.ts";
import eksworkshop from "../../../../clusters/eksworkshop/cluster.ts";
import { renderCluster } from "../render.ts";
import { buildSimulationInput, schedulingConstraintsOf, type UnrenderedCapacity } from "./input.ts";

const config = checkCluster(eksworkshop, "clusters/eksworkshop/cluster.ts");
const files = renderCluster(config);
const unrendered: UnrenderedCapacity = { name: config.name, region: config.region, nodeGroups: config.nodeGroups, daemonSets: config.daemonSets };

describe("buildSimulationInput on eksworkshop", () => {
  const { input, autoscaled } = buildSimulationInput(unrendered, files, { at: "max" });

  it("puts the Karpenter controller first, from the chart values and the chart's defaults", () => {
    expect(input.workloads[0]).toEqual({
      namespace: "kube-system",
      name: "karpenter",
      replicas: 2,
      requests: { cpu: "1", memory: "1Gi" },
      nodeSelector: { "kubernetes.io/os": "linux" },
      tolerations: [{ key: "CriticalAddonsOnly", operator: "Exists" }],
      requiredNodeAffinity: [{ matchExpressions: [{ key: "karpenter.sh/nodepool", operator: "DoesNotExist" }] }],
      onePerNode: true,
      priority: 2_000_000_000,
      zoneSpread: { maxSkew: 1 },
    });
  });

  it("takes workloads from the rendered Deployments and HPAs", () => {
    expect(input.workloads.slice(1)).toEqual([
      { namespace: "nlb-app-karpenter", name: "nginx-deployment", kind: "Deployment", replicas: 12, hpa: { minReplicas: 3, maxReplicas: 12 }, requests: { cpu: "2", memory: "4G" } },
      {
        namespace: "nlb-app-ondemand",
        name: "nginx-deployment",
        kind: "Deployment",
        replicas: 3,
        requests: {},
        requiredNodeAffinity: [{ matchExpressions: [{ key: "eks.amazonaws.com/capacityType", operator: "In", values: ["ON_DEMAND"] }] }],
      },
    ]);
    expect(autoscaled).toEqual(["nlb-app-karpenter/nginx-deployment"]);
  });

  it("takes node groups and DaemonSets from the overlay", () => {
    expect(input.nodeGroups).toEqual([
      {
        name: "podsubnet",
        instanceType: "t3.2xlarge",
        count: 3,
        capacityType: "on-demand",
        labels: { "eks.amazonaws.com/capacityType": "ON_DEMAND", "eks.amazonaws.com/nodegroup": "podsubnet" },
        taints: [],
      },
    ]);
    expect(input.daemonSets.map((d) => [d.name, d.requests])).toEqual([
      ["kube-system/aws-node", { cpu: "50m" }],
      ["kube-system/kube-proxy", { cpu: "100m" }],
      ["amazon-cloudwatch/cloudwatch-agent", { cpu: "250m", memory: "128Mi" }],
      ["amazon-cloudwatch/fluent-bit", { cpu: "50m", memory: "25Mi" }],
    ]);
  });

  it("takes NodePools and EC2NodeClasses from the rendered objects", () => {
    expect(input.nodePools).toEqual([
      {
        name: "default",
        nodeClass: "default",
        requirements: [
          { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
          { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
          { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] },
          { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
          { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["2"] },
          { key: "karpenter.k8s.aws/instance-size", operator: "NotIn", values: ["nano", "micro", "small", "medium", "large"] },
        ],
        labels: { intent: "apps" },
        taints: [],
        limits: { cpu: "1000", memory: "1000Gi" },
        disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" },
      },
    ]);
    expect(input.nodeClasses).toEqual([{ name: "default", amiFamily: "AL2023" }]);
    expect([input.cluster, input.region]).toEqual(["eksworkshop", "ap-southeast-1"]);
  });

  it("--at min and current use the HPA's minReplicas (the Deployment renders no replicas); fixed workloads keep theirs", () => {
    for (const at of ["min", "current"] as const) {
      const w = buildSimulationInput(unrendered, files, { at }).input.workloads;
      expect(w.map((x) => x.replicas)).toEqual([2, 3, 3]);
    }
  });

  it("--replicas wins over --at, and names an unknown workload", () => {
    const w = buildSimulationInput(unrendered, files, { at: "min", replicas: new Map([["nlb-app-karpenter/nginx-deployment", 7]]) }).input.workloads;
    expect(w[1]?.replicas).toBe(7);
    expect(() => buildSimulationInput(unrendered, files, { at: "max", replicas: new Map([["web/web", 2]]) })).toThrow(
      "--replicas web/web=2: eksworkshop has no workload web/web (have: kube-system/karpenter, nlb-app-karpenter/nginx-deployment, nlb-app-ondemand/nginx-deployment)",
    );
  });
});

describe("buildSimulationInput details", () => {
  it("finds the Karpenter chart's values in an ApplicationSet too", () => {
    const input = structuredClone(eksworkshop) as Record<string, any>;
    input.argocd.applicationSet = true;
    input.karpenter.replicas = 3;
    const c = checkCluster(input, "clusters/eksworkshop/cluster.ts");
    const rendered = renderCluster(c);
    expect([...rendered.values()].some((t) => t.includes("kind: ApplicationSet"))).toBe(true);
    const w = buildSimulationInput(unrendered, rendered, { at: "max" }).input.workloads[0];
    expect([w?.namespace, w?.name, w?.replicas, w?.requests]).toEqual(["kube-system", "karpenter", 3, { cpu: "1", memory: "1Gi" }]);
  });

  it("aws-cn: kubelet and the root volume from the EC2NodeClass, taints of the node group", () => {
    const cn = checkCluster(awsCn, "clusters/aws-cn/cluster.ts");
    const { input } = buildSimulationInput({ name: cn.name, region: cn.region, nodeGroups: cn.nodeGroups, daemonSets: cn.daemonSets }, renderCluster(cn), { at: "max" });
    expect(input.nodeClasses).toEqual([
      {
        name: "graviton",
        amiFamily: "AL2023",
        kubelet: { maxPods: 110, systemReserved: { cpu: "100m", memory: "100Mi" }, evictionHard: { "memory.available": "5%", "nodefs.available": "10%" } },
        rootVolumeSize: "50Gi",
      },
    ]);
    expect(input.nodeGroups[0]?.taints).toEqual([{ key: "CriticalAddonsOnly", value: "true", effect: "NoSchedule" }]);
    expect(input.workloads.map((w) => [`${w.namespace}/${w.name}`, w.replicas])).toEqual([
      ["kube-system/karpenter", 2],
      ["web/web", 20],
    ]);
  });

  it("names an EC2NodeClass's capacity reservation selector terms as not modelled (which reservations they select is EC2's answer)", () => {
    const files = new Map([
      [
        "k/karpenter.k8s.aws_v1_ec2nodeclass_gpu.yaml",
        "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: gpu\nspec:\n  amiSelectorTerms:\n    - alias: al2023@latest\n  capacityReservationSelectorTerms:\n    - id: cr-0123456789abcdef0\n",
      ],
    ]);
    const { input } = buildSimulationInput({ name: "x", region: "r", nodeGroups: [], daemonSets: [] }, files, { at: "max" });
    expect(input.nodeClasses).toEqual([
      { name: "gpu", amiFamily: "AL2023", unmodelled: ["spec.capacityReservationSelectorTerms: the reservations they select are not known offline; simulated without reserved offerings"] },
    ]);
  });

  const yaml = (spec: string) =>
    new Map([
      [
        "w/apps_v1_deployment_a_a.yaml",
        `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  namespace: a\nspec:\n  replicas: 2\n  template:\n    metadata:\n      labels:\n        app: a\n    spec:\n${spec}`,
      ],
    ]);
  const only = (files: Map<string, string>) => buildSimulationInput({ name: "x", region: "r", nodeGroups: [], daemonSets: [] }, files, { at: "max" }).input.workloads[0];

  it("reads a zone spread constraint over the pod's own labels (DoNotSchedule only)", () => {
    const spread = (when: string, key = "topology.kubernetes.io/zone") =>
      only(yaml(`      topologySpreadConstraints:\n        - maxSkew: 2\n          topologyKey: ${key}\n          whenUnsatisfiable: ${when}\n          labelSelector:\n            matchLabels:\n              app: a\n      containers:\n        - {}\n`));
    expect(spread("DoNotSchedule")?.zoneSpread).toEqual({ maxSkew: 2 });
    expect(spread("ScheduleAnyway")?.zoneSpread).toBeUndefined();
    expect(spread("DoNotSchedule", "kubernetes.io/hostname")?.zoneSpread).toBeUndefined();
  });

  it("sums container requests, takes limits where requests are unset, and a bigger init container", () => {
    const w = only(
      yaml(
        "      initContainers:\n        - resources:\n            requests:\n              memory: 3Gi\n      containers:\n        - resources:\n            requests:\n              cpu: 500m\n              memory: 1Gi\n        - resources:\n            limits:\n              cpu: \"1\"\n              memory: 512Mi\n",
      ),
    );
    expect(w?.requests).toEqual({ cpu: "1500m", memory: "3Gi" });
  });

  it("reads node selector, tolerations and hostname anti-affinity against its own labels", () => {
    const w = only(
      yaml(
        "      nodeSelector:\n        disk: ssd\n      tolerations:\n        - key: gpu\n          operator: Exists\n      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            - topologyKey: kubernetes.io/hostname\n              labelSelector:\n                matchLabels:\n                  app: a\n      containers:\n        - {}\n",
      ),
    );
    expect(w).toEqual({ namespace: "a", name: "a", kind: "Deployment", replicas: 2, requests: {}, nodeSelector: { disk: "ssd" }, tolerations: [{ key: "gpu", operator: "Exists" }], onePerNode: true });
  });

  it("adds quantities exactly (100m + 200m is 300m, not 301m)", () => {
    const w = only(yaml("      containers:\n        - resources:\n            requests:\n              cpu: 100m\n              memory: 1Gi\n        - resources:\n            requests:\n              cpu: 200m\n              memory: 1M\n"));
    expect(w?.requests).toEqual({ cpu: "300m", memory: String(2 ** 30 + 1e6) });
  });
});

describe("schedulingConstraintsOf", () => {
  const labels = { app: "a" };
  const own = { matchLabels: { app: "a" } };

  it("models one zone and one hostname spread and one-per-node anti-affinity over the pod's own labels", () => {
    const spec = {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "DoNotSchedule", labelSelector: own },
        { maxSkew: 2, topologyKey: "kubernetes.io/hostname", whenUnsatisfiable: "DoNotSchedule", labelSelector: own },
      ],
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "kubernetes.io/hostname", labelSelector: own }] } },
    };
    expect(schedulingConstraintsOf(spec, labels)).toEqual({ zoneSpread: { maxSkew: 1 }, hostnameSpread: { maxSkew: 2 }, onePerNode: true });
  });

  it("names every constraint it does not model instead of dropping it", () => {
    const spec = {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: "kubernetes.io/hostname", whenUnsatisfiable: "ScheduleAnyway", labelSelector: own },
        { maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", labelSelector: own, minDomains: 3, matchLabelKeys: ["pod-template-hash"] },
        { maxSkew: 1, topologyKey: "topology.k8s.aws/zone-id", labelSelector: { matchLabels: { app: "other" } } },
      ],
      affinity: {
        podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: { app: "db" } } }] },
        nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }] },
      },
    };
    expect(schedulingConstraintsOf(spec, labels)).toEqual({
      unmodelled: [
        "topologySpreadConstraints[0] (kubernetes.io/hostname): whenUnsatisfiable ScheduleAnyway",
        "topologySpreadConstraints[1] (topology.kubernetes.io/zone): minDomains 3, matchLabelKeys",
        "topologySpreadConstraints[2] (topology.k8s.aws/zone-id): topologyKey topology.k8s.aws/zone-id, a labelSelector other than the pod's own matchLabels",
        "affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution",
        "affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution (a preference)",
      ],
    });
  });
});

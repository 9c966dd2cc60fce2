// Test fixture: the eksworkshop lab (../shared/seed/SUMMARY.md) as a SimulationInput, built by hand.
import type { SimulationInput, WorkloadInput } from "../types.ts";

const tolerateAll = [{ operator: "Exists" as const }];

export const nginx: WorkloadInput = {
  namespace: "nlb-app-karpenter",
  name: "nginx-deployment",
  replicas: 12,
  hpa: { minReplicas: 3, maxReplicas: 12 },
  requests: { cpu: "2", memory: "4G" },
};

/** The lab: 3 x t3.2xlarge On-Demand, 4 DaemonSet pods (450m / 153Mi in all), Karpenter 2 x 1 CPU / 1Gi, NodePool `default`. */
export function labInput(nginxReplicas = 12): SimulationInput {
  return {
    cluster: "eksworkshop",
    region: "ap-southeast-1",
    nodeGroups: [{ name: "ng-ondemand", instanceType: "t3.2xlarge", count: 3, capacityType: "on-demand" }],
    daemonSets: [
      { name: "kube-system/aws-node", requests: { cpu: "50m" }, tolerations: tolerateAll },
      { name: "kube-system/kube-proxy", requests: { cpu: "100m" }, tolerations: tolerateAll },
      { name: "kube-system/ebs-csi-node", requests: { cpu: "200m", memory: "120Mi" }, tolerations: tolerateAll },
      { name: "amazon-cloudwatch/fluent-bit", requests: { cpu: "100m", memory: "33Mi" }, tolerations: tolerateAll },
    ],
    workloads: [
      {
        namespace: "kube-system",
        name: "karpenter",
        replicas: 2,
        requests: { cpu: "1", memory: "1Gi" },
        requiredNodeAffinity: [{ matchExpressions: [{ key: "karpenter.sh/nodepool", operator: "DoesNotExist" }] }],
        onePerNode: true,
        zoneSpread: { maxSkew: 1 },
      },
      {
        namespace: "nlb-app-ondemand",
        name: "nginx-deployment",
        replicas: 3,
        requests: {},
        requiredNodeAffinity: [{ matchExpressions: [{ key: "eks.amazonaws.com/capacityType", operator: "In", values: ["ON_DEMAND"] }] }],
      },
      { ...nginx, replicas: nginxReplicas },
    ],
    nodePools: [
      {
        name: "default",
        nodeClass: "default",
        labels: { intent: "apps" },
        requirements: [
          { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
          { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
          { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] },
          { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
          { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["2"] },
          { key: "karpenter.k8s.aws/instance-size", operator: "NotIn", values: ["nano", "micro", "small", "medium", "large"] },
        ],
        limits: { cpu: "1000", memory: "1000Gi" },
        disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" },
      },
    ],
    nodeClasses: [{ name: "default", amiFamily: "AL2023" }],
  };
}

// A China-partition overlay: arm64 Graviton On-Demand nodes in cn-northwest-1; proves overlays are independent.
import { defineCluster } from "@eks-gitops/config";

export default defineCluster({
  name: "aws-cn",
  account: "210987654321",
  region: "cn-northwest-1",
  partition: "aws-cn",
  kubernetesVersion: "1.36",
  oidcIssuer: "https://oidc.eks.cn-northwest-1.amazonaws.com.cn/id/5C1A2B3C4D5E6F708192A3B4C5D6E7F8",
  authenticationMode: "API",
  karpenter: {
    version: "1.14.1",
    interruptionQueue: true,
  },
  nodeClasses: [
    {
      name: "graviton",
      amiSelectorTerms: [{ alias: "al2023@latest" }],
      tags: { team: "platform" },
      kubelet: { maxPods: 110, systemReserved: { cpu: "100m", memory: "100Mi" }, evictionHard: { "memory.available": "5%", "nodefs.available": "10%" } },
      blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi", volumeType: "gp3" } }],
    },
  ],
  nodePools: [
    {
      name: "graviton-on-demand",
      nodeClass: "graviton",
      labels: { intent: "apps", arch: "arm64" },
      requirements: [
        { key: "kubernetes.io/arch", operator: "In", values: ["arm64"] },
        { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
        { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
        { key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["c7g", "m7g", "r7g"] },
      ],
      limits: { cpu: 200, memory: "400Gi" },
      disruption: {
        consolidationPolicy: "WhenEmpty",
        consolidateAfter: "5m",
        budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "0 9 * * mon-fri", duration: "8h" }],
      },
    },
  ],
  workloads: [
    {
      name: "web",
      namespace: "web",
      image: "public.ecr.aws/nginx/nginx:1.31-alpine-slim",
      labels: { "app.kubernetes.io/name": "web" },
      resources: { requests: { cpu: "500m", memory: "512Mi" }, limits: { memory: "512Mi" } },
      securityContext: { runAsNonRoot: false, readOnlyRootFilesystem: false },
      service: { name: "web", type: "ClusterIP", port: 80 },
      autoscaling: { minReplicas: 2, maxReplicas: 20, targetCpuUtilizationPercent: 60 },
    },
  ],
  // System node group for cluster add-ons (and the Karpenter controller, which tolerates CriticalAddonsOnly).
  nodeGroups: [
    {
      name: "system",
      instanceType: "m7g.large",
      count: 2,
      capacityType: "ON_DEMAND",
      labels: { role: "system" },
      taints: [{ key: "CriticalAddonsOnly", value: "true", effect: "NoSchedule" }],
    },
  ],
  daemonSets: [
    { name: "aws-node", requests: { cpu: "50m" }, tolerations: [{ operator: "Exists" }] },
    { name: "kube-proxy", requests: { cpu: "100m" }, tolerations: [{ operator: "Exists" }] },
    { name: "ebs-csi-node", requests: { cpu: "30m", memory: "120Mi" }, tolerations: [{ operator: "Exists" }] },
  ],
  argocd: {
    repoURL: "https://git.example.cn/platform/eks-karpenter-gitops.git",
    targetRevision: "main",
  },
});

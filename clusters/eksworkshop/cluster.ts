// The lab's cluster: EKS 1.36 in ap-southeast-1, Karpenter 1.14.1 launching Spot nodes, nginx behind an NLB with an HPA.
import { defineCluster } from "@eks-gitops/config";

export default defineCluster({
  name: "eksworkshop",
  account: "133129065110",
  region: "ap-southeast-1",
  kubernetesVersion: "1.36",
  oidcIssuer: "https://oidc.eks.ap-southeast-1.amazonaws.com/id/D0A7E4BBBBD26CD6E003B94E42FECFD2",
  vpcId: "vpc-0a69fad178fdc8284",
  authenticationMode: "API_AND_CONFIG_MAP",
  karpenter: {
    version: "1.14.1",
    namespace: "kube-system",
    serviceAccount: "karpenter",
    controllerResources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } },
  },
  nodeClasses: [{ name: "default", amiSelectorTerms: [{ alias: "al2023@latest" }] }],
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
      expireAfter: "720h",
      limits: { cpu: 1000, memory: "1000Gi" },
      disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" },
    },
  ],
  workloads: [
    {
      name: "nginx-deployment",
      namespace: "nlb-app-karpenter",
      image: "public.ecr.aws/nginx/nginx:1.31-alpine-slim",
      imagePullPolicy: "Always",
      labels: { "app.kubernetes.io/name": "nginx" },
      containerPort: 80,
      resources: { requests: { cpu: "2", memory: "4G" }, limits: { cpu: "2", memory: "4G" } },
      // The stock nginx image starts as root and writes to /var/cache/nginx.
      securityContext: { runAsNonRoot: false, readOnlyRootFilesystem: false },
      service: {
        name: "service-nginx",
        type: "LoadBalancer",
        loadBalancerClass: "service.k8s.aws/nlb",
        annotations: {
          "service.beta.kubernetes.io/aws-load-balancer-scheme": "internet-facing",
          "service.beta.kubernetes.io/aws-load-balancer-nlb-target-type": "ip",
        },
        port: 80,
        targetPort: 80,
      },
      // What `kubectl autoscale --cpu=10% --min=3 --max=12` makes; production would target 50-70%.
      autoscaling: { minReplicas: 3, maxReplicas: 12, targetCpuUtilizationPercent: 10 },
    },
    {
      // The lab's smoke test on the existing On-Demand managed node group.
      name: "nginx-deployment",
      namespace: "nlb-app-ondemand",
      image: "public.ecr.aws/nginx/nginx:1.31-alpine-slim",
      imagePullPolicy: "Always",
      labels: { "app.kubernetes.io/name": "nginx" },
      containerPort: 80,
      replicas: 3,
      requiredNodeAffinity: [{ key: "eks.amazonaws.com/capacityType", operator: "In", values: ["ON_DEMAND"] }],
      securityContext: { runAsNonRoot: false, readOnlyRootFilesystem: false },
      service: {
        name: "service-nginx",
        loadBalancerClass: "service.k8s.aws/nlb",
        annotations: {
          "service.beta.kubernetes.io/aws-load-balancer-scheme": "internet-facing",
          "service.beta.kubernetes.io/aws-load-balancer-nlb-target-type": "ip",
        },
      },
    },
  ],
  // The existing On-Demand managed node group (eksctl; its role name in aws-auth starts `nodegroup-podsu`). EKS labels
  // its nodes eks.amazonaws.com/capacityType: ON_DEMAND (what nlb-app-ondemand's affinity selects) and
  // eks.amazonaws.com/nodegroup: podsubnet; the overlay derives both from `capacityType` and `name`.
  nodeGroups: [{ name: "podsubnet", instanceType: "t3.2xlarge", count: 3, capacityType: "ON_DEMAND" }],
  // The 4 DaemonSet pods every node runs, 450m CPU and 153Mi in all (the lab's NodeClaim: 3 x 2 CPU + 450m = 6450m).
  daemonSets: [
    // vpc-cni add-on: the aws-node and aws-eks-nodeagent containers, 25m each.
    { name: "aws-node", requests: { cpu: "50m" }, tolerations: [{ operator: "Exists" }] },
    { name: "kube-proxy", requests: { cpu: "100m" }, tolerations: [{ operator: "Exists" }] },
    // amazon-cloudwatch-observability add-on.
    { name: "cloudwatch-agent", namespace: "amazon-cloudwatch", requests: { cpu: "250m", memory: "128Mi" }, tolerations: [{ operator: "Exists" }] },
    { name: "fluent-bit", namespace: "amazon-cloudwatch", requests: { cpu: "50m", memory: "25Mi" }, tolerations: [{ operator: "Exists" }] },
  ],
  addons: ["metrics-server"],
  argocd: {
    repoURL: "https://github.com/example-org/eks-karpenter-gitops.git",
    targetRevision: "main",
  },
});

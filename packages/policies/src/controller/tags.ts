// The tag keys Karpenter 1.14 puts on what it creates; the scoped policy conditions on them.
import type { ClusterConfig } from "@eks-gitops/config";

export const NODEPOOL_TAG = "karpenter.sh/nodepool";
export const NODECLAIM_TAG = "karpenter.sh/nodeclaim";
export const EC2NODECLASS_TAG = "karpenter.k8s.aws/ec2nodeclass";
export const EKS_CLUSTER_NAME_TAG = "eks:eks-cluster-name";
export const REGION_TAG = "topology.kubernetes.io/region";
export const NAME_TAG = "Name";

/** `kubernetes.io/cluster/<cluster>`, set to `owned` on everything the cluster's Karpenter launches. */
export function clusterOwnedTag(config: ClusterConfig): string {
  return `kubernetes.io/cluster/${config.name}`;
}

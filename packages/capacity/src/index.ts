// Public API of @eks-gitops/capacity: a pure, offline model of what HPA replicas cost in nodes under Karpenter.
export * from "./types.ts";
export {
  type Ec2InstanceTypeInfo,
  type Ec2InstanceTypeOffering,
  type PriceInput,
  type SnapshotFromDescribeOptions,
  SnapshotError,
  parseSnapshot,
  serializeSnapshot,
  snapshotFromDescribe,
} from "./snapshot.ts";

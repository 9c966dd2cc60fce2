// Partition-aware ARNs of the resources an overlay's policies name; the only place ARN strings are assembled.
import type { ClusterConfig } from "@eks-gitops/config";

/** ARN builders bound to one overlay's partition, region and account. */
export interface Arns {
  /** `arn:<partition>:ec2:<region>:<account or *>:<type>/*`. */
  ec2(type: string, account?: "own" | "any"): string;
  /** Public AMIs and snapshots carry no account in their ARN. */
  ec2Public(type: "image" | "snapshot"): string;
  readonly instanceProfiles: string;
  readonly eksCluster: string;
  /** The public `/aws/service/...` SSM parameters (AMI IDs and the like), which AWS owns. */
  readonly publicServiceParameters: string;
  ssmParameter(name: string): string;
  sqsQueue(name: string): string;
  readonly eventRules: string;
}

export function arnsFor(config: ClusterConfig): Arns {
  const { partition: p, region: r, account: a } = config;
  return {
    ec2: (type, account = "any") => `arn:${p}:ec2:${r}:${account === "own" ? a : "*"}:${type}/*`,
    ec2Public: (type) => `arn:${p}:ec2:${r}::${type}/*`,
    instanceProfiles: `arn:${p}:iam::${a}:instance-profile/*`,
    eksCluster: `arn:${p}:eks:${r}:${a}:cluster/${config.name}`,
    publicServiceParameters: `arn:${p}:ssm:${r}::parameter/aws/service/*`,
    ssmParameter: (name) => `arn:${p}:ssm:${r}:${a}:parameter/${name.replace(/^\//, "")}`,
    sqsQueue: (name) => `arn:${p}:sqs:${r}:${a}:${name}`,
    eventRules: `arn:${p}:events:${r}:${a}:rule/*`,
  };
}

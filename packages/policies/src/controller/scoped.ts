// The `scoped` controller permissions (the default): what Karpenter 1.14 calls, scoped like the upstream v1.14 CloudFormation template.
import type { ClusterConfig } from "@eks-gitops/config";
import { arnsFor } from "../arn.ts";
import type { Statement } from "../types.ts";
import { clusterOwnedTag, EC2NODECLASS_TAG, EKS_CLUSTER_NAME_TAG, NAME_TAG, NODECLAIM_TAG, NODEPOOL_TAG, REGION_TAG } from "./tags.ts";

/** A named group of statements; becomes one policy document (or several, when it is too big). */
export interface PolicyGroup {
  readonly name: string;
  readonly statements: readonly Statement[];
}

/** Reads Karpenter 1.14 makes that the lab's policy lacks: they fail with UnauthorizedOperation without them. */
export const ACTIONS_MISSING_FROM_LAB = [
  "ec2:DescribeCapacityReservations",
  "ec2:DescribeInstanceStatus",
  "ec2:DescribePlacementGroups",
  "arc-zonal-shift:GetManagedResource",
] as const;

/** The EC2 reads Karpenter makes; none of these actions takes a resource ARN, so they are scoped by region. */
export const REGIONAL_READ_ACTIONS = [
  "ec2:DescribeCapacityReservations",
  "ec2:DescribeImages",
  "ec2:DescribeInstances",
  "ec2:DescribeInstanceStatus",
  "ec2:DescribeInstanceTypeOfferings",
  "ec2:DescribeInstanceTypes",
  "ec2:DescribeLaunchTemplates",
  "ec2:DescribePlacementGroups",
  "ec2:DescribeSecurityGroups",
  "ec2:DescribeSpotPriceHistory",
  "ec2:DescribeSubnets",
] as const;

/** The SQS actions the controller needs on its interruption queue. */
export const INTERRUPTION_QUEUE_ACTIONS = ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"] as const;

/**
 * The scoped controller policies, one group per concern (the upstream template's grouping and names).
 * The interruption group is present only when the overlay enables the queue.
 */
export function scopedControllerPolicies(config: ClusterConfig): PolicyGroup[] {
  const arn = arnsFor(config);
  const c = config.name;
  const owned = clusterOwnedTag(config);
  // Resources RunInstances/CreateFleet create: always in this account, so the account is pinned.
  const launchedResources = ["fleet", "instance", "volume", "network-interface", "launch-template", "spot-instances-request"].map((t) =>
    arn.ec2(t, "own"),
  );
  const ownedByThisCluster = { [`aws:ResourceTag/${owned}`]: "owned" };
  const inANodePool = { [`aws:ResourceTag/${NODEPOOL_TAG}`]: "*" };

  const nodeLifecycle: Statement[] = [
    {
      Sid: "AllowScopedEC2InstanceAccessActions",
      Effect: "Allow",
      Action: ["ec2:RunInstances", "ec2:CreateFleet"],
      // Subnets, security groups and capacity reservations may be shared from another account (RAM), so any account.
      Resource: [
        arn.ec2Public("image"),
        arn.ec2Public("snapshot"),
        arn.ec2("security-group"),
        arn.ec2("subnet"),
        arn.ec2("capacity-reservation"),
        arn.ec2("placement-group"),
      ],
    },
    {
      Sid: "AllowScopedEC2LaunchTemplateAccessActions",
      Effect: "Allow",
      Action: ["ec2:RunInstances", "ec2:CreateFleet"],
      Resource: arn.ec2("launch-template", "own"),
      Condition: { StringEquals: ownedByThisCluster, StringLike: inANodePool },
    },
    {
      Sid: "AllowScopedEC2InstanceActionsWithTags",
      Effect: "Allow",
      Action: ["ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"],
      Resource: launchedResources,
      Condition: {
        StringEquals: { [`aws:RequestTag/${owned}`]: "owned", [`aws:RequestTag/${EKS_CLUSTER_NAME_TAG}`]: c },
        StringLike: { [`aws:RequestTag/${NODEPOOL_TAG}`]: "*" },
      },
    },
    {
      Sid: "AllowScopedResourceCreationTagging",
      Effect: "Allow",
      Action: "ec2:CreateTags",
      Resource: launchedResources,
      Condition: {
        StringEquals: {
          [`aws:RequestTag/${owned}`]: "owned",
          [`aws:RequestTag/${EKS_CLUSTER_NAME_TAG}`]: c,
          "ec2:CreateAction": ["RunInstances", "CreateFleet", "CreateLaunchTemplate"],
        },
        StringLike: { [`aws:RequestTag/${NODEPOOL_TAG}`]: "*" },
      },
    },
    {
      Sid: "AllowScopedResourceTagging",
      Effect: "Allow",
      Action: "ec2:CreateTags",
      Resource: arn.ec2("instance", "own"),
      Condition: {
        StringEquals: ownedByThisCluster,
        StringLike: inANodePool,
        StringEqualsIfExists: { [`aws:RequestTag/${EKS_CLUSTER_NAME_TAG}`]: c },
        // Only these keys may be added after launch: never the ownership or nodepool tags the deletion statement trusts.
        "ForAllValues:StringEquals": { "aws:TagKeys": [EKS_CLUSTER_NAME_TAG, NODECLAIM_TAG, NAME_TAG] },
      },
    },
    {
      Sid: "AllowScopedDeletion",
      Effect: "Allow",
      Action: ["ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"],
      Resource: [arn.ec2("instance", "own"), arn.ec2("launch-template", "own")],
      Condition: { StringEquals: ownedByThisCluster, StringLike: inANodePool },
    },
  ];

  const profileOwned = {
    [`aws:ResourceTag/${owned}`]: "owned",
    [`aws:ResourceTag/${REGION_TAG}`]: config.region,
  };
  const profileRequestTags = {
    [`aws:RequestTag/${owned}`]: "owned",
    [`aws:RequestTag/${EKS_CLUSTER_NAME_TAG}`]: c,
    [`aws:RequestTag/${REGION_TAG}`]: config.region,
  };
  // In aws-cn the EC2 principal is ec2.amazonaws.com.cn; upstream accepts both names there, so do we.
  const passedTo = config.partition === "aws-cn" ? ["ec2.amazonaws.com", config.ec2ServicePrincipal] : config.ec2ServicePrincipal;
  const iamIntegration: Statement[] = [
    {
      Sid: "AllowPassingInstanceRole",
      Effect: "Allow",
      Action: "iam:PassRole",
      Resource: config.nodeRole.arn,
      Condition: { StringEquals: { "iam:PassedToService": passedTo } },
    },
    {
      Sid: "AllowScopedInstanceProfileCreationActions",
      Effect: "Allow",
      Action: "iam:CreateInstanceProfile",
      Resource: arn.instanceProfiles,
      Condition: { StringEquals: profileRequestTags, StringLike: { [`aws:RequestTag/${EC2NODECLASS_TAG}`]: "*" } },
    },
    {
      Sid: "AllowScopedInstanceProfileTagActions",
      Effect: "Allow",
      Action: "iam:TagInstanceProfile",
      Resource: arn.instanceProfiles,
      Condition: {
        StringEquals: { ...profileOwned, ...profileRequestTags },
        StringLike: { [`aws:ResourceTag/${EC2NODECLASS_TAG}`]: "*", [`aws:RequestTag/${EC2NODECLASS_TAG}`]: "*" },
      },
    },
    {
      Sid: "AllowScopedInstanceProfileActions",
      Effect: "Allow",
      Action: ["iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"],
      Resource: arn.instanceProfiles,
      Condition: { StringEquals: profileOwned, StringLike: { [`aws:ResourceTag/${EC2NODECLASS_TAG}`]: "*" } },
    },
  ];

  const eksIntegration: Statement[] = [
    { Sid: "AllowAPIServerEndpointDiscovery", Effect: "Allow", Action: "eks:DescribeCluster", Resource: arn.eksCluster },
  ];

  const zonalShift: Statement[] = [
    {
      Sid: "AllowZonalShiftStatusReadOnly",
      Effect: "Allow",
      Action: "arc-zonal-shift:GetManagedResource",
      // IAM's resource types for this action are load balancers only; the EKS cluster is named by the condition instead.
      Resource: "*",
      Condition: { StringEquals: { "arc-zonal-shift:ResourceIdentifier": arn.eksCluster } },
    },
  ];

  const resourceDiscovery: Statement[] = [
    {
      Sid: "AllowRegionalReadActions",
      Effect: "Allow",
      Action: [...REGIONAL_READ_ACTIONS],
      Resource: "*",
      Condition: { StringEquals: { "aws:RequestedRegion": config.region } },
    },
    { Sid: "AllowSSMReadActions", Effect: "Allow", Action: "ssm:GetParameter", Resource: arn.publicServiceParameters },
    // The price list API lives in one region per partition, not the cluster's, so no region condition.
    { Sid: "AllowPricingReadActions", Effect: "Allow", Action: "pricing:GetProducts", Resource: "*" },
    { Sid: "AllowUnscopedInstanceProfileListAction", Effect: "Allow", Action: "iam:ListInstanceProfiles", Resource: "*" },
    { Sid: "AllowInstanceProfileReadActions", Effect: "Allow", Action: "iam:GetInstanceProfile", Resource: arn.instanceProfiles },
  ];

  const groups: PolicyGroup[] = [
    { name: `KarpenterControllerNodeLifecyclePolicy-${c}`, statements: nodeLifecycle },
    { name: `KarpenterControllerIAMIntegrationPolicy-${c}`, statements: iamIntegration },
    { name: `KarpenterControllerEKSIntegrationPolicy-${c}`, statements: eksIntegration },
  ];
  const queue = interruptionPolicyGroup(config);
  if (queue) groups.push(queue);
  groups.push(
    { name: `KarpenterControllerZonalShiftPolicy-${c}`, statements: zonalShift },
    { name: `KarpenterControllerResourceDiscoveryPolicy-${c}`, statements: resourceDiscovery },
  );
  return groups;
}

/** The controller's access to its interruption queue, or undefined when the overlay has no queue. Shared by both profiles. */
export function interruptionPolicyGroup(config: ClusterConfig): PolicyGroup | undefined {
  const queue = config.karpenter.interruptionQueue;
  if (queue === undefined) return undefined;
  return {
    name: `KarpenterControllerInterruptionPolicy-${config.name}`,
    statements: [
      { Sid: "AllowInterruptionQueueActions", Effect: "Allow", Action: [...INTERRUPTION_QUEUE_ACTIONS], Resource: arnsFor(config).sqsQueue(queue) },
    ],
  };
}

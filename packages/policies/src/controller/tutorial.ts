// The `tutorial` controller permissions: the lab's inline policy statement for statement, to reproduce it as written.
import type { ClusterConfig } from "@eks-gitops/config";
import { arnsFor } from "../arn.ts";
import type { PolicyGroup } from "./scoped.ts";
import { clusterOwnedTag, EC2NODECLASS_TAG, NODEPOOL_TAG, REGION_TAG } from "./tags.ts";

/** The lab's `KarpenterControllerPolicy-<cluster>`. Broader than `scoped`: kept only so the lab can be reproduced exactly. */
export function tutorialControllerPolicy(config: ClusterConfig): PolicyGroup {
  const owned = clusterOwnedTag(config);
  const profileResourceTags = { [`aws:ResourceTag/${owned}`]: "owned", [`aws:ResourceTag/${REGION_TAG}`]: config.region };
  const profileRequestTags = { [`aws:RequestTag/${owned}`]: "owned", [`aws:RequestTag/${REGION_TAG}`]: config.region };
  return {
    name: `KarpenterControllerPolicy-${config.name}`,
    statements: [
      {
        Sid: "Karpenter",
        Effect: "Allow",
        Action: [
          "ssm:GetParameter",
          "ec2:DescribeImages",
          "ec2:RunInstances",
          "ec2:DescribeSubnets",
          "ec2:DescribeSecurityGroups",
          "ec2:DescribeLaunchTemplates",
          "ec2:DescribeInstances",
          "ec2:DescribeInstanceTypes",
          "ec2:DescribeInstanceTypeOfferings",
          "ec2:DeleteLaunchTemplate",
          "ec2:CreateTags",
          "ec2:CreateLaunchTemplate",
          "ec2:CreateFleet",
          "ec2:DescribeSpotPriceHistory",
          "pricing:GetProducts",
        ],
        Resource: "*",
      },
      {
        Sid: "ConditionalEC2Termination",
        Effect: "Allow",
        Action: "ec2:TerminateInstances",
        Resource: "*",
        Condition: { StringLike: { [`ec2:ResourceTag/${NODEPOOL_TAG}`]: "*" } },
      },
      { Sid: "PassNodeIAMRole", Effect: "Allow", Action: "iam:PassRole", Resource: config.nodeRole.arn },
      { Sid: "EKSClusterEndpointLookup", Effect: "Allow", Action: "eks:DescribeCluster", Resource: arnsFor(config).eksCluster },
      {
        Sid: "AllowScopedInstanceProfileCreationActions",
        Effect: "Allow",
        Action: ["iam:CreateInstanceProfile"],
        Resource: "*",
        Condition: { StringEquals: profileRequestTags, StringLike: { [`aws:RequestTag/${EC2NODECLASS_TAG}`]: "*" } },
      },
      {
        Sid: "AllowScopedInstanceProfileTagActions",
        Effect: "Allow",
        Action: ["iam:TagInstanceProfile"],
        Resource: "*",
        Condition: {
          StringEquals: { ...profileResourceTags, ...profileRequestTags },
          StringLike: { [`aws:ResourceTag/${EC2NODECLASS_TAG}`]: "*", [`aws:RequestTag/${EC2NODECLASS_TAG}`]: "*" },
        },
      },
      {
        Sid: "AllowScopedInstanceProfileActions",
        Effect: "Allow",
        Action: ["iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"],
        Resource: "*",
        Condition: { StringEquals: profileResourceTags, StringLike: { [`aws:ResourceTag/${EC2NODECLASS_TAG}`]: "*" } },
      },
      { Sid: "AllowInstanceProfileReadActions", Effect: "Allow", Action: "iam:GetInstanceProfile", Resource: "*" },
      { Sid: "AllowUnscopedInstanceProfileListAction", Effect: "Allow", Action: "iam:ListInstanceProfiles", Resource: "*" },
    ],
  };
}

// Trust policies: the EC2 service for the node role; IRSA (exact aud/sub) or Pod Identity for the controller.
import type { ClusterConfig } from "@eks-gitops/config";
import type { PolicyDocument } from "./types.ts";

/** Node role trust: only the partition's EC2 service principal may assume it. */
export function nodeRoleTrustPolicy(config: ClusterConfig): PolicyDocument {
  return {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { Service: config.ec2ServicePrincipal }, Action: "sts:AssumeRole" }],
  };
}

/** The service account subject, taken from the chart settings so it is never retyped. */
export function controllerServiceAccountSubject(config: ClusterConfig): string {
  return `system:serviceaccount:${config.karpenter.namespace}:${config.karpenter.serviceAccount}`;
}

/** Controller role trust: IRSA with exact StringEquals on :aud and :sub, or EKS Pod Identity. */
export function controllerRoleTrustPolicy(config: ClusterConfig): PolicyDocument {
  if (config.karpenter.identity === "pod-identity") {
    return {
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "AllowEksPodIdentity",
          Effect: "Allow",
          Principal: { Service: "pods.eks.amazonaws.com" },
          Action: ["sts:AssumeRole", "sts:TagSession"],
          Condition: {
            StringEquals: {
              "aws:SourceAccount": config.account,
              "aws:RequestTag/eks-cluster-name": config.name,
              "aws:RequestTag/kubernetes-namespace": config.karpenter.namespace,
              "aws:RequestTag/kubernetes-service-account": config.karpenter.serviceAccount,
            },
          },
        },
      ],
    };
  }
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "AllowIrsa",
        Effect: "Allow",
        Principal: { Federated: config.oidcProviderArn },
        Action: "sts:AssumeRoleWithWebIdentity",
        Condition: {
          StringEquals: {
            [`${config.oidcProvider}:aud`]: "sts.amazonaws.com",
            [`${config.oidcProvider}:sub`]: controllerServiceAccountSubject(config),
          },
        },
      },
    ],
  };
}

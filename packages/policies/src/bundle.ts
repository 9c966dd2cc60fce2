// buildIamDocuments(): the IAM roles of an overlay; iamFiles(): their rendered file layout under rendered/iam/.
import type { ClusterConfig } from "@eks-gitops/config";
import { controllerRoleTrustPolicy, nodeRoleTrustPolicy } from "./trust.ts";
import type { IamBundle, PolicyDocument } from "./types.ts";

/** The managed policies the lab attaches to the node role. */
export const NODE_ROLE_MANAGED_POLICIES = [
  "AmazonEKSWorkerNodePolicy",
  "AmazonEKS_CNI_Policy",
  "AmazonEC2ContainerRegistryPullOnly",
  "AmazonSSMManagedInstanceCore",
] as const;

/** Builds every IAM document of the overlay. Pure. */
export function buildIamDocuments(config: ClusterConfig): IamBundle {
  return {
    roles: [
      {
        name: config.nodeRole.name,
        arn: config.nodeRole.arn,
        description: `Nodes launched by Karpenter in EKS cluster ${config.name}`,
        trustPolicy: nodeRoleTrustPolicy(config),
        managedPolicyArns: NODE_ROLE_MANAGED_POLICIES.map((p) => `arn:${config.partition}:iam::aws:policy/${p}`),
        inlinePolicies: [],
      },
      {
        name: config.controllerRole.name,
        arn: config.controllerRole.arn,
        description: `Karpenter controller of EKS cluster ${config.name}`,
        trustPolicy: controllerRoleTrustPolicy(config),
        managedPolicyArns: [],
        inlinePolicies: [],
      },
    ],
  };
}

/** Index of rendered/iam/: which file holds which document. The bootstrap reads only this layout. */
export interface IamIndex {
  readonly roles: readonly {
    readonly name: string;
    readonly arn: string;
    readonly description: string;
    readonly trustPolicyFile: string;
    readonly managedPolicyArns: readonly string[];
    readonly inlinePolicies: readonly { readonly name: string; readonly file: string }[];
  }[];
}

export const IAM_INDEX_FILE = "index.json";

/** File name -> JSON document for rendered/iam/. */
export function iamFiles(bundle: IamBundle): Map<string, IamIndex | PolicyDocument> {
  const files = new Map<string, IamIndex | PolicyDocument>();
  const index: IamIndex = {
    roles: bundle.roles.map((role) => {
      const trustPolicyFile = `${role.name}.trust-policy.json`;
      files.set(trustPolicyFile, role.trustPolicy);
      const inlinePolicies = role.inlinePolicies.map((p) => {
        const file = `${role.name}.${p.name}.json`;
        files.set(file, p.document);
        return { name: p.name, file };
      });
      return { name: role.name, arn: role.arn, description: role.description, trustPolicyFile, managedPolicyArns: role.managedPolicyArns, inlinePolicies };
    }),
  };
  files.set(IAM_INDEX_FILE, index);
  return files;
}

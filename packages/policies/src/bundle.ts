// buildIamDocuments(): the IAM roles of an overlay; iamFiles(): their rendered file layout under rendered/iam/.
import type { ClusterConfig } from "@eks-gitops/config";
import { controllerPermissions } from "./controller/index.ts";
import { interruptionQueue } from "./interruption.ts";
import { controllerRoleTrustPolicy, nodeRoleTrustPolicy } from "./trust.ts";
import type { IamBundle, InterruptionRule, PolicyDocument } from "./types.ts";

/** The managed policies the lab attaches to the node role. */
export const NODE_ROLE_MANAGED_POLICIES = [
  "AmazonEKSWorkerNodePolicy",
  "AmazonEKS_CNI_Policy",
  "AmazonEC2ContainerRegistryPullOnly",
  "AmazonSSMManagedInstanceCore",
] as const;

/** Builds every IAM document of the overlay. Pure. */
export function buildIamDocuments(config: ClusterConfig): IamBundle {
  const permissions = controllerPermissions(config);
  const queue = interruptionQueue(config);
  return {
    roles: [
      {
        name: config.nodeRole.name,
        arn: config.nodeRole.arn,
        description: `Nodes launched by Karpenter in EKS cluster ${config.name}`,
        trustPolicy: nodeRoleTrustPolicy(config),
        managedPolicyArns: NODE_ROLE_MANAGED_POLICIES.map((p) => `arn:${config.partition}:iam::aws:policy/${p}`),
        inlinePolicies: [],
        customerManagedPolicies: [],
      },
      {
        name: config.controllerRole.name,
        arn: config.controllerRole.arn,
        description: `Karpenter controller of EKS cluster ${config.name}`,
        trustPolicy: controllerRoleTrustPolicy(config),
        managedPolicyArns: [],
        inlinePolicies: permissions.inlinePolicies,
        customerManagedPolicies: permissions.customerManagedPolicies,
      },
    ],
    ...(queue ? { queue } : {}),
  };
}

/** Index of rendered/iam/: which file holds which document. The bootstrap reads only this layout. */
export interface IamIndex {
  readonly roles: readonly {
    readonly name: string;
    readonly arn: string;
    readonly description: string;
    readonly trustPolicyFile: string;
    /** AWS managed policies to attach. */
    readonly managedPolicyArns: readonly string[];
    readonly inlinePolicies: readonly { readonly name: string; readonly file: string }[];
    /** Policies to create in the account (CreatePolicy) and attach; empty unless the inline limit is passed. */
    readonly customerManagedPolicies: readonly { readonly name: string; readonly arn: string; readonly file: string }[];
  }[];
  /** The interruption queue, when the overlay enables it: create it with these attributes and policy, then the rules targeting it. */
  readonly queue?: {
    readonly name: string;
    readonly arn: string;
    readonly attributes: Readonly<Record<string, string>>;
    readonly policyFile: string;
    readonly rules: readonly InterruptionRule[];
  };
}

export const IAM_INDEX_FILE = "index.json";

/** File name -> JSON document for rendered/iam/. */
export function iamFiles(bundle: IamBundle): Map<string, IamIndex | PolicyDocument> {
  const files = new Map<string, IamIndex | PolicyDocument>();
  const add = (file: string, doc: PolicyDocument) => {
    if (files.has(file)) throw new Error(`rendered/iam/${file}: two IAM documents map to this file`);
    files.set(file, doc);
  };
  const index: IamIndex = {
    roles: bundle.roles.map((role) => {
      const trustPolicyFile = `${role.name}.trust-policy.json`;
      add(trustPolicyFile, role.trustPolicy);
      const policyFiles = (policies: readonly { name: string; document: PolicyDocument }[]) =>
        policies.map((p) => {
          const file = `${role.name}.${p.name}.json`;
          add(file, p.document);
          return { name: p.name, file };
        });
      const inlinePolicies = policyFiles(role.inlinePolicies);
      const customerManagedPolicies = policyFiles(role.customerManagedPolicies).map((f, i) => ({
        name: f.name,
        arn: role.customerManagedPolicies[i]!.arn,
        file: f.file,
      }));
      return {
        name: role.name,
        arn: role.arn,
        description: role.description,
        trustPolicyFile,
        managedPolicyArns: role.managedPolicyArns,
        inlinePolicies,
        customerManagedPolicies,
      };
    }),
  };
  if (bundle.queue) {
    const q = bundle.queue;
    const policyFile = `${q.name}.queue-policy.json`;
    add(policyFile, q.policy);
    files.set(IAM_INDEX_FILE, { ...index, queue: { name: q.name, arn: q.arn, attributes: q.attributes, policyFile, rules: q.rules } });
  } else {
    files.set(IAM_INDEX_FILE, index);
  }
  return files;
}

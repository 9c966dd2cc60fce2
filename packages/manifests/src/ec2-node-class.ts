// Ec2NodeClass: a karpenter.k8s.aws/v1 EC2NodeClass built from a checked overlay entry.
import { ApiObject } from "cdk8s";
import type { Construct } from "constructs";
import type { ResolvedNodeClass } from "@eks-gitops/config";
import { ARGOCD_SYNC_OPTIONS_ANNOTATION, KEEP_ON_PRUNE_AND_DELETE } from "./node-pool.ts";

export interface Ec2NodeClassProps {
  readonly nodeClass: ResolvedNodeClass;
}

/** An EC2NodeClass; Karpenter creates the instance profile from `spec.role`. */
export class Ec2NodeClass extends ApiObject {
  constructor(scope: Construct, id: string, props: Ec2NodeClassProps) {
    const n = props.nodeClass;
    super(scope, id, {
      apiVersion: "karpenter.k8s.aws/v1",
      kind: "EC2NodeClass",
      // Deleting an EC2NodeClass terminates its nodes too: Argo CD must never prune or cascade-delete it.
      metadata: { name: n.name, annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: KEEP_ON_PRUNE_AND_DELETE } },
      spec: {
        role: n.role,
        amiSelectorTerms: n.amiSelectorTerms.map((t) => ({ ...t })),
        subnetSelectorTerms: n.subnetSelectorTerms.map((t) => ({ ...t })),
        securityGroupSelectorTerms: n.securityGroupSelectorTerms.map((t) => ({ ...t })),
        tags: Object.keys(n.tags).length > 0 ? { ...n.tags } : undefined,
        kubelet: n.kubelet && structuredClone(n.kubelet),
        blockDeviceMappings: n.blockDeviceMappings?.map((b) => structuredClone(b)),
      },
    });
  }
}

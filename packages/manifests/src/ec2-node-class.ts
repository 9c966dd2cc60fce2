// Ec2NodeClass: a karpenter.k8s.aws/v1 EC2NodeClass built from a checked overlay entry.
import { ApiObject } from "cdk8s";
import type { Construct } from "constructs";
import type { ResolvedNodeClass } from "@eks-gitops/config";
import { ARGOCD_SYNC_OPTIONS_ANNOTATION, KEEP_ON_PRUNE_AND_DELETE } from "./node-pool.ts";
import type { ObjectSources, OverlayPath } from "./sources.ts";

export interface Ec2NodeClassProps {
  readonly nodeClass: ResolvedNodeClass;
  /** The class's path in the overlay, for {@link Ec2NodeClass.sources}. @default ["nodeClasses"] */
  readonly source?: OverlayPath;
}

/** An EC2NodeClass; Karpenter creates the instance profile from `spec.role`. */
export class Ec2NodeClass extends ApiObject {
  /** Which overlay field each part of the EC2NodeClass comes from. */
  readonly sources: ObjectSources;

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
    const at = props.source ?? ["nodeClasses"];
    this.sources = {
      "": at,
      ...Object.fromEntries(["name"].map((k) => [`/metadata/${k}`, [...at, k]])),
      ...Object.fromEntries(
        ["role", "amiSelectorTerms", "subnetSelectorTerms", "securityGroupSelectorTerms", "tags", "kubelet", "blockDeviceMappings"].map((k) => [`/spec/${k}`, [...at, k]]),
      ),
    };
  }
}

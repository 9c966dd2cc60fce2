// KarpenterNodePool: a karpenter.sh/v1 NodePool built from a checked overlay entry.
import { ApiObject } from "cdk8s";
import type { Construct } from "constructs";
import type { ResolvedNodePool } from "@eks-gitops/config";
import type { ObjectSources, OverlayPath } from "./sources.ts";

export const NODE_POOL_API_VERSION = "karpenter.sh/v1";
export const NODE_CLASS_GROUP = "karpenter.k8s.aws";
/** Argo CD's per-object sync options annotation. */
export const ARGOCD_SYNC_OPTIONS_ANNOTATION = "argocd.argoproj.io/sync-options";
/**
 * Never prune or cascade-delete these objects from Argo CD: removing a NodePool or EC2NodeClass drains
 * and terminates every node it launched, so that must be a deliberate `kubectl delete`.
 */
export const KEEP_ON_PRUNE_AND_DELETE = "Prune=false,Delete=false";

export interface KarpenterNodePoolProps {
  readonly pool: ResolvedNodePool;
  /** The pool's path in the overlay, for {@link KarpenterNodePool.sources}. @default ["nodePools"] */
  readonly source?: OverlayPath;
}

/** A Karpenter NodePool; its nodeClassRef always points at an EC2NodeClass of the same overlay. */
export class KarpenterNodePool extends ApiObject {
  /** Which overlay field each part of the NodePool comes from. */
  readonly sources: ObjectSources;

  constructor(scope: Construct, id: string, props: KarpenterNodePoolProps) {
    const p = props.pool;
    super(scope, id, {
      apiVersion: NODE_POOL_API_VERSION,
      kind: "NodePool",
      metadata: { name: p.name, annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: KEEP_ON_PRUNE_AND_DELETE } },
      spec: {
        template: {
          metadata: Object.keys(p.labels).length > 0 ? { labels: { ...p.labels } } : undefined,
          spec: {
            nodeClassRef: { group: NODE_CLASS_GROUP, kind: "EC2NodeClass", name: p.nodeClass },
            requirements: p.requirements.map((r) => ({
              key: r.key,
              operator: r.operator,
              ...(r.values ? { values: [...r.values] } : {}),
              ...(r.minValues !== undefined ? { minValues: r.minValues } : {}),
            })),
            taints: p.taints.length > 0 ? p.taints.map((t) => ({ ...t })) : undefined,
            expireAfter: p.expireAfter,
            terminationGracePeriod: p.terminationGracePeriod,
          },
        },
        limits: Object.keys(p.limits).length > 0 ? { ...p.limits } : undefined,
        disruption: {
          consolidationPolicy: p.disruption.consolidationPolicy,
          consolidateAfter: p.disruption.consolidateAfter,
          budgets: p.disruption.budgets?.map((b) => ({ ...b, reasons: b.reasons ? [...b.reasons] : undefined })),
        },
        weight: p.weight,
      },
    });
    const at = props.source ?? ["nodePools"];
    this.sources = {
      "": at,
      "/metadata/name": [...at, "name"],
      "/spec/template/metadata/labels": [...at, "labels"],
      "/spec/template/spec/nodeClassRef": [...at, "nodeClass"],
      "/spec/template/spec/requirements": [...at, "requirements"],
      "/spec/template/spec/taints": [...at, "taints"],
      "/spec/template/spec/expireAfter": [...at, "expireAfter"],
      "/spec/template/spec/terminationGracePeriod": [...at, "terminationGracePeriod"],
      "/spec/limits": [...at, "limits"],
      "/spec/disruption": [...at, "disruption"],
      "/spec/weight": [...at, "weight"],
    };
  }
}

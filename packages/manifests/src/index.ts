// Public API of @eks-gitops/manifests.
export { buildKubernetesComponents, SynthValidationError } from "./build.ts";
export type { Component, KubeObject } from "./build.ts";
export { Ec2NodeClass } from "./ec2-node-class.ts";
export {
  ARGOCD_SYNC_OPTIONS_ANNOTATION,
  KarpenterNodePool,
  KEEP_ON_PRUNE_AND_DELETE,
  NODE_CLASS_GROUP,
  NODE_POOL_API_VERSION,
} from "./node-pool.ts";
export { WebApp } from "./web-app.ts";
export { type ObjectSources, type OverlayPath, overlayPathOf, sourceKey } from "./sources.ts";

// Public API of @eks-gitops/config.
export * from "./types.ts";
export * from "./aws.ts";
export * from "./errors.ts";
export * from "./layout.ts";
export { checkCluster, defineCluster, DISCOVERY_TAG, isOverlayField } from "./resolve.ts";
export type { ClusterConfig, ResolvedDaemonSet, ResolvedNodeClass, ResolvedNodeGroup, ResolvedNodePool, ResolvedWorkload, RoleRef } from "./resolve.ts";
export { clusterFile, listClusters, loadCluster, locateProblems } from "./load.ts";
export { parseOverlay, type OverlaySource, type SourcePosition } from "./locate.ts";
export { knownRegion, suggestRegion } from "./regions.ts";

// Argo CD API names and the sync-wave order of a cluster's Applications.

export const ARGOCD_API_VERSION = "argoproj.io/v1alpha1";
/** Deleting an Application first deletes what it deployed (objects marked Delete=false excepted). */
export const RESOURCES_FINALIZER = "resources-finalizer.argocd.argoproj.io";
export const SYNC_WAVE_ANNOTATION = "argocd.argoproj.io/sync-wave";

/**
 * Sync waves of the objects the root app syncs. Argo CD applies a wave only once the previous one is
 * healthy, so the CRDs exist and the controller runs before any NodePool or EC2NodeClass is applied,
 * and node pools exist before workloads ask for nodes. (Argo CD only waits on an Application's health
 * when the `argoproj.io/Application` health check is enabled in argocd-cm; see the README.)
 */
export const SYNC_WAVES = {
  project: -2,
  karpenterCrd: -1,
  karpenter: 0,
  nodePools: 1,
  workloads: 2,
} as const;

/** Retry a failed sync: a kind whose CRD another app installs may not be served on the first attempt. */
export const SYNC_RETRY = { limit: 5, backoff: { duration: "10s", factor: 2, maxDuration: "3m" } } as const;

/** Namespaces that exist on every EKS cluster, so an Application never needs to create them. */
export const PREEXISTING_NAMESPACES: readonly string[] = ["default", "kube-node-lease", "kube-public", "kube-system"];

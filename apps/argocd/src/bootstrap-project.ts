// The AppProject of the app-of-apps: the root app may only sync the Argo CD objects of rendered/argocd
// (Applications, AppProjects, an ApplicationSet) into the Argo CD namespace, from this repository.
import { BOOTSTRAP_PROJECT, type ClusterConfig } from "@eks-gitops/config";
import type { ArgoObject } from "./applications.ts";
import { ARGOCD_API_VERSION, RESOURCES_FINALIZER } from "./constants.ts";

/**
 * Instead of Argo CD's built-in `default` project, which allows any source, destination and kind until an
 * install locks it down. Applied by hand with the root app (it cannot be synced by the app it governs).
 * No cluster-scoped kind is listed, so none is allowed; the namespaced kinds are exactly those the root
 * app syncs, computed from them.
 */
export function buildBootstrapProject(config: ClusterConfig, synced: readonly ArgoObject[]): ArgoObject {
  const a = config.argocd;
  const kinds = [...new Set(synced.map((o) => o.kind))].sort();
  return {
    apiVersion: ARGOCD_API_VERSION,
    kind: "AppProject",
    metadata: {
      name: bootstrapProjectName(config),
      namespace: a.namespace,
      // Argo CD keeps the project while the root app still uses it.
      finalizers: [RESOURCES_FINALIZER],
    },
    spec: {
      description: `The app-of-apps of EKS cluster ${config.name}: only Argo CD objects in ${a.namespace}, from ${a.repoURL}`,
      sourceRepos: [a.repoURL],
      destinations: [{ server: a.destinationServer, namespace: a.namespace }],
      namespaceResourceWhitelist: kinds.map((kind) => ({ group: "argoproj.io", kind })),
    },
  };
}

export const bootstrapProjectName = (config: ClusterConfig) => `${config.name}-${BOOTSTRAP_PROJECT}`;

// buildArgoCdObjects(): the Argo CD project, the per-component Applications (or an ApplicationSet) and the root app-of-apps of an overlay.
import { COMPONENTS, ROOT_APP, type ClusterConfig } from "@eks-gitops/config";
import type { Component } from "@eks-gitops/manifests";
import { toApplicationSet } from "./application-set.ts";
import { type ArgoObject, componentPath, planApplications, toApplication } from "./applications.ts";
import { ARGOCD_API_VERSION, RESOURCES_FINALIZER, SYNC_RETRY } from "./constants.ts";
import { buildAppProject } from "./project.ts";

export interface ArgoCdOutput {
  /** Objects the root app syncs (rendered/argocd/). */
  readonly objects: readonly ArgoObject[];
  /** The one object applied by hand (rendered/bootstrap/). */
  readonly root: ArgoObject;
}

/** Builds the Argo CD objects for the rendered Kubernetes components of an overlay. Pure. */
export function buildArgoCdObjects(config: ClusterConfig, components: readonly Component[]): ArgoCdOutput {
  const plans = planApplications(config, components);
  const project = buildAppProject(config, components, plans);
  const apps = config.argocd.applicationSet ? [toApplicationSet(config, plans)] : plans.map((p) => toApplication(config, p));
  return { objects: [project, ...apps], root: buildRootApplication(config) };
}

/**
 * The app-of-apps. It lives in Argo CD's `default` project because it creates the cluster's own
 * project (an Application cannot belong to a project that does not exist yet); everything it syncs
 * is an Argo CD object in the Argo CD namespace.
 */
function buildRootApplication(config: ClusterConfig): ArgoObject {
  const a = config.argocd;
  return {
    apiVersion: ARGOCD_API_VERSION,
    kind: "Application",
    metadata: { name: `${config.name}-${ROOT_APP}`, namespace: a.namespace, finalizers: [RESOURCES_FINALIZER] },
    spec: {
      project: "default",
      source: { repoURL: a.repoURL, targetRevision: a.targetRevision, path: componentPath(config, COMPONENTS.argocd) },
      destination: { server: a.destinationServer, namespace: a.namespace },
      syncPolicy: { automated: { prune: true, selfHeal: true }, retry: SYNC_RETRY },
    },
  };
}

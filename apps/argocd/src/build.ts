// buildArgoCdObjects(): the Argo CD project, the per-component Applications (or an ApplicationSet) and the root app-of-apps of an overlay.
import { COMPONENTS, ROOT_APP, type ClusterConfig } from "@eks-gitops/config";
import type { Component } from "@eks-gitops/manifests";
import { toApplicationSet } from "./application-set.ts";
import { type ArgoObject, componentPath, planApplications, toApplication } from "./applications.ts";
import { ARGOCD_API_VERSION, RESOURCES_FINALIZER, SYNC_RETRY } from "./constants.ts";
import { buildBootstrapProject, bootstrapProjectName } from "./bootstrap-project.ts";
import { buildAppProject } from "./project.ts";

export interface ArgoCdOutput {
  /** Objects the root app syncs (rendered/argocd/). */
  readonly objects: readonly ArgoObject[];
  /** The app-of-apps, applied by hand (rendered/bootstrap/). */
  readonly root: ArgoObject;
  /** Everything applied by hand (rendered/bootstrap/): the root app's own AppProject, then the root app. */
  readonly bootstrap: readonly ArgoObject[];
}

/** Builds the Argo CD objects for the rendered Kubernetes components of an overlay. Pure. */
export function buildArgoCdObjects(config: ClusterConfig, components: readonly Component[]): ArgoCdOutput {
  const plans = planApplications(config, components);
  const project = buildAppProject(config, components, plans);
  const apps = config.argocd.applicationSet ? [toApplicationSet(config, plans)] : plans.map((p) => toApplication(config, p));
  const objects = [project, ...apps];
  const root = buildRootApplication(config);
  return { objects, root, bootstrap: [buildBootstrapProject(config, objects), root] };
}

/**
 * The app-of-apps. It has a project of its own, applied with it, because the cluster's project is one of
 * the objects it syncs (an Application cannot belong to a project that does not exist yet); that project
 * allows only the Argo CD objects it syncs, in the Argo CD namespace, from this repository.
 */
function buildRootApplication(config: ClusterConfig): ArgoObject {
  const a = config.argocd;
  return {
    apiVersion: ARGOCD_API_VERSION,
    kind: "Application",
    metadata: { name: `${config.name}-${ROOT_APP}`, namespace: a.namespace, finalizers: [RESOURCES_FINALIZER] },
    spec: {
      project: bootstrapProjectName(config),
      source: { repoURL: a.repoURL, targetRevision: a.targetRevision, path: componentPath(config, COMPONENTS.argocd) },
      destination: { server: a.destinationServer, namespace: a.namespace },
      syncPolicy: { automated: { prune: true, selfHeal: true }, retry: SYNC_RETRY },
    },
  };
}

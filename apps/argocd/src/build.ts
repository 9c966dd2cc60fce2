// buildArgoCdObjects(): the Argo CD project, the per-component Applications and the root app-of-apps of an overlay.
import { COMPONENTS, CLUSTERS_DIR, RENDERED_DIR, type ClusterConfig } from "@eks-gitops/config";
import { karpenterChartValues } from "./karpenter-values.ts";

export const ARGOCD_API_VERSION = "argoproj.io/v1alpha1";
export const RESOURCES_FINALIZER = "resources-finalizer.argocd.argoproj.io";

export interface ArgoObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [k: string]: unknown };
  readonly spec: Record<string, unknown>;
}

export interface ArgoCdOutput {
  /** Objects the root app syncs (rendered/argocd/). */
  readonly objects: readonly ArgoObject[];
  /** The one object applied by hand (rendered/bootstrap/). */
  readonly root: ArgoObject;
}

/** Path of a component folder inside this repository. */
export function componentPath(config: ClusterConfig, component: string): string {
  return `${CLUSTERS_DIR}/${config.name}/${RENDERED_DIR}/${component}`;
}

/** Builds the Argo CD objects for the given rendered Kubernetes components. Pure. */
export function buildArgoCdObjects(config: ClusterConfig, components: readonly string[]): ArgoCdOutput {
  const a = config.argocd;
  const project = config.name;
  const application = (name: string, source: Record<string, unknown>, namespace: string | undefined, syncOptions: string[]): ArgoObject => ({
    apiVersion: ARGOCD_API_VERSION,
    kind: "Application",
    metadata: { name: `${config.name}-${name}`, namespace: a.namespace, finalizers: [RESOURCES_FINALIZER] },
    spec: {
      project,
      source,
      destination: { server: a.destinationServer, ...(namespace ? { namespace } : {}) },
      syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions },
    },
  });

  const karpenter = application(
    "karpenter",
    {
      repoURL: config.karpenter.chartRepository,
      chart: "karpenter",
      targetRevision: config.karpenter.version,
      helm: { releaseName: "karpenter", valuesObject: karpenterChartValues(config) },
    },
    config.karpenter.namespace,
    ["ServerSideApply=true"],
  );
  const componentApps = components.map((c) =>
    application(c, { repoURL: a.repoURL, targetRevision: a.targetRevision, path: componentPath(config, c) }, undefined, c === COMPONENTS.nodePools ? ["ServerSideApply=true"] : ["CreateNamespace=true"]),
  );
  const appProject: ArgoObject = {
    apiVersion: ARGOCD_API_VERSION,
    kind: "AppProject",
    metadata: { name: project, namespace: a.namespace },
    spec: {
      description: `Everything Argo CD syncs to EKS cluster ${config.name}`,
      sourceRepos: [a.repoURL, config.karpenter.chartRepository],
      destinations: [{ server: a.destinationServer, namespace: "*" }],
      clusterResourceWhitelist: [{ group: "*", kind: "*" }],
    },
  };
  const root = application("root", { repoURL: a.repoURL, targetRevision: a.targetRevision, path: componentPath(config, COMPONENTS.argocd) }, a.namespace, []);
  return { objects: [appProject, karpenter, ...componentApps], root: { ...root, spec: { ...root.spec, project: "default" } } };
}

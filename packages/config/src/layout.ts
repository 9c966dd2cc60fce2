// Every name of the repository layout in one place: folders, components and file names of rendered output.

/** Folder holding one sub-folder per cluster overlay. */
export const CLUSTERS_DIR = "clusters";
/** File in each overlay folder that default-exports `defineCluster({...})`. */
export const CLUSTER_FILE = "cluster.ts";
/** Folder, inside an overlay folder, that the renderer owns. */
export const RENDERED_DIR = "rendered";

/** Components: one folder under rendered/ each, and (except iam) one Argo CD Application each. */
export const COMPONENTS = {
  argocd: "argocd",
  bootstrap: "bootstrap",
  iam: "iam",
  nodePools: "karpenter-nodepools",
} as const;

/** Component folder of a workload namespace. */
export function workloadComponent(namespace: string): string {
  return `workload-${namespace}`;
}

/** The command that re-renders committed output. */
export const SYNTH_COMMAND = "pnpm synth";

/** Label and tag value that marks resources as managed by this project. */
export const MANAGED_BY = "eks-gitops";

/** Argo CD Applications that install a chart instead of a rendered folder; named `<cluster>-<app>`. */
export const CHART_APPS = {
  /** The karpenter-crd chart: owns the Karpenter CRDs. */
  karpenterCrd: "karpenter-crd",
  /** The karpenter chart (controller), installed with skipCrds. */
  karpenter: "karpenter",
} as const;

/** The app-of-apps of a cluster; named `<cluster>-root`. */
export const ROOT_APP = "root";
/** The AppProject of the app-of-apps (only Argo CD objects in the Argo CD namespace); named `<cluster>-bootstrap`. */
export const BOOTSTRAP_PROJECT = "bootstrap";

/** Label on an Argo CD cluster Secret that the ApplicationSet's cluster generator selects (value: the overlay name). */
export const CLUSTER_SECRET_LABEL = "eks-gitops.io/cluster";

/** Folder, inside an overlay folder, holding the instance-type snapshots `eks-gitops simulate` reads. */
export const CAPACITY_DIR = "capacity";

/** File name of a region's instance-type snapshot inside `clusters/<name>/capacity/`. */
export function instanceTypesFile(region: string): string {
  return `instance-types.${region}.json`;
}

/** The command that writes an instance-type snapshot. */
export const CAPACITY_REFRESH_COMMAND = "pnpm eks-gitops capacity refresh";

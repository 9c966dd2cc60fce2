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

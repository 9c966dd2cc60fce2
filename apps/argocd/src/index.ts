// Public API of @eks-gitops/argocd.
export { toApplicationSet } from "./application-set.ts";
export { componentPath, hpaReplicaDifferences, KARPENTER_CRD_GROUPS, planApplications, toApplication } from "./applications.ts";
export type { AppPlan, ArgoObject } from "./applications.ts";
export { buildArgoCdObjects } from "./build.ts";
export type { ArgoCdOutput } from "./build.ts";
export { ARGOCD_API_VERSION, PREEXISTING_NAMESPACES, RESOURCES_FINALIZER, SYNC_RETRY, SYNC_WAVE_ANNOTATION, SYNC_WAVES } from "./constants.ts";
export { KARPENTER_CLUSTER_KINDS, KARPENTER_EXTRA_NAMESPACES, KARPENTER_NAMESPACED_KINDS } from "./karpenter-chart.ts";
export { karpenterChartValues } from "./karpenter-values.ts";
export { buildAppProject } from "./project.ts";

// Public API of @eks-gitops/argocd.
export { ARGOCD_API_VERSION, buildArgoCdObjects, componentPath, RESOURCES_FINALIZER } from "./build.ts";
export type { ArgoCdOutput, ArgoObject } from "./build.ts";
export { karpenterChartValues } from "./karpenter-values.ts";

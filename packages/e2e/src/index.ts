// Public API of @eks-gitops/e2e: the real-API-server harness, for other packages' tests (e.g. the aws-auth path of bootstrap).
export { startTestCluster } from "./harness/test-cluster.ts";
export type { StartOptions, TestCluster } from "./harness/test-cluster.ts";
export { installCrds, pinnedCrd, pinnedCrds } from "./harness/crds.ts";
export { applyVerdict, ensureNamespaces, FIELD_MANAGER, RawObjectApi } from "./harness/apply.ts";
export type { ApplyOptions, ApplyVerdict, StatusCause } from "./harness/apply.ts";
export { serverBinaries } from "./harness/tools.ts";
export { generateMutations, CATEGORIES } from "./mutations/generate.ts";
export type { Mutation, MutationBase, MutationCategory } from "./mutations/generate.ts";

// Public API of @eks-gitops/policies.
export * from "./types.ts";
export { controllerRoleTrustPolicy, controllerServiceAccountSubject, nodeRoleTrustPolicy } from "./trust.ts";
export { buildIamDocuments, IAM_INDEX_FILE, iamFiles, NODE_ROLE_MANAGED_POLICIES } from "./bundle.ts";
export type { IamIndex } from "./bundle.ts";

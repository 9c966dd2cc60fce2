// Public API of @eks-gitops/policies.
export * from "./types.ts";
export { controllerRoleTrustPolicy, controllerServiceAccountSubject, nodeRoleTrustPolicy } from "./trust.ts";
export { buildIamDocuments, IAM_INDEX_FILE, iamFiles, NODE_ROLE_MANAGED_POLICIES } from "./bundle.ts";
export type { IamIndex } from "./bundle.ts";
export { arnsFor, type Arns } from "./arn.ts";
export { controllerPermissions, controllerPolicyGroups } from "./controller/index.ts";
export {
  ACTIONS_MISSING_FROM_LAB,
  INTERRUPTION_QUEUE_ACTIONS,
  interruptionPolicyGroup,
  type PolicyGroup,
  REGIONAL_READ_ACTIONS,
  scopedControllerPolicies,
} from "./controller/scoped.ts";
export { tutorialControllerPolicy } from "./controller/tutorial.ts";
export { interruptionQueue } from "./interruption.ts";
export { IAM_LIMITS, packPolicies, type PackedPolicies, PolicySizeError, policySize, splitStatements } from "./size.ts";
export {
  iamLintTargets,
  type LintContext,
  lintPolicyDocument,
  lintRolePolicies,
  type PolicyFinding,
  type RoleFinding,
  SEVERITIES,
  type Severity,
} from "./lint/index.ts";

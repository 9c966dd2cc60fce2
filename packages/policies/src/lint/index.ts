// Public API of the policy lint.
export { lintPolicyDocument } from "./lint.ts";
export { lintRolePolicies, type RoleFinding } from "./role.ts";
export { iamLintTargets } from "./targets.ts";
export { type LintContext, type PolicyFinding, SEVERITIES, type Severity } from "./types.ts";

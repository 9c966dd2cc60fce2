// Public API of the policy lint.
export { lintPolicyDocument } from "./lint.ts";
export { type LintContext, type PolicyFinding, SEVERITIES, type Severity } from "./types.ts";

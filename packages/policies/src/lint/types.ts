// Lint result types: one finding per problem, with a severity, a stable code, a JSON pointer and a message that says how to fix it.

export type Severity = "error" | "security-warning" | "warning" | "suggestion";

export interface PolicyFinding {
  readonly severity: Severity;
  /** Stable, grep-able identifier such as `UNKNOWN_ACTION`. */
  readonly code: string;
  /** JSON pointer into the document, e.g. `/Statement/0/Action/2`; `""` for the whole document. */
  readonly path: string;
  /** What is wrong and how to fix it. */
  readonly message: string;
}

export interface LintContext {
  /** identity: attached to a user/role; trust: a role's assume-role policy; resource: e.g. an SQS queue policy. */
  readonly kind: "identity" | "trust" | "resource";
  /** Where the document came from, put in front of messages by callers that print them. */
  readonly file?: string;
  /** The partition every ARN must be in; when omitted, the first ARN's partition is expected everywhere. */
  readonly partition?: string;
  /** For identity policies: inline (10,240 characters per role) or managed (6,144). @default "inline" */
  readonly attachment?: "inline" | "managed";
}

/** Order of severities, most serious first. */
export const SEVERITIES: readonly Severity[] = ["error", "security-warning", "warning", "suggestion"];

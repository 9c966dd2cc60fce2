// IAM document types: policies as plain JSON-shaped data.

export type ConditionOperator = string;
export type ConditionBlock = Record<ConditionOperator, Record<string, string | readonly string[] | boolean>>;

export interface Statement {
  readonly Sid?: string;
  readonly Effect: "Allow" | "Deny";
  /** Trust and resource policies only; `"*"` means everyone. */
  readonly Principal?: "*" | Record<string, string | readonly string[]>;
  readonly Action: string | readonly string[];
  readonly Resource?: string | readonly string[];
  readonly Condition?: ConditionBlock;
}

export interface PolicyDocument {
  readonly Version: "2012-10-17";
  readonly Id?: string;
  readonly Statement: readonly Statement[];
}

export interface InlinePolicy {
  readonly name: string;
  readonly document: PolicyDocument;
}

/** A customer managed policy the bootstrap creates and attaches; used when inline policies would pass the role's size limit. */
export interface CustomerManagedPolicy {
  readonly name: string;
  readonly arn: string;
  readonly document: PolicyDocument;
}

/** One IAM role as the bootstrap creates it: trust, attached managed policies, inline policies. */
export interface RoleDocuments {
  readonly name: string;
  readonly arn: string;
  readonly description: string;
  readonly trustPolicy: PolicyDocument;
  /** AWS managed policies to attach. */
  readonly managedPolicyArns: readonly string[];
  readonly inlinePolicies: readonly InlinePolicy[];
  /** Policies to create in the account and attach (empty unless the permissions overflow the inline limit). */
  readonly customerManagedPolicies: readonly CustomerManagedPolicy[];
}

/** One EventBridge rule that feeds the interruption queue. */
export interface InterruptionRule {
  /** Rule name (<= 64 characters, `[.\-_A-Za-z0-9]`). */
  readonly name: string;
  readonly description: string;
  readonly eventPattern: { readonly source: readonly string[]; readonly "detail-type": readonly string[] };
}

/** The SQS queue Karpenter reads interruption events from, and what feeds it. */
export interface InterruptionQueue {
  readonly name: string;
  readonly arn: string;
  /** SQS queue attributes, as the SetQueueAttributes/CreateQueue API takes them. */
  readonly attributes: Readonly<Record<string, string>>;
  readonly policy: PolicyDocument;
  readonly rules: readonly InterruptionRule[];
}

/** Every IAM document of one overlay. */
export interface IamBundle {
  readonly roles: readonly RoleDocuments[];
  /** Present when the overlay enables interruption handling. */
  readonly queue?: InterruptionQueue;
}

// IAM document types: policies as plain JSON-shaped data.

export type ConditionOperator = string;
export type ConditionBlock = Record<ConditionOperator, Record<string, string | readonly string[] | boolean>>;

export interface Statement {
  readonly Sid?: string;
  readonly Effect: "Allow" | "Deny";
  readonly Principal?: Record<string, string | readonly string[]>;
  readonly Action: string | readonly string[];
  readonly Resource?: string | readonly string[];
  readonly Condition?: ConditionBlock;
}

export interface PolicyDocument {
  readonly Version: "2012-10-17";
  readonly Statement: readonly Statement[];
}

export interface InlinePolicy {
  readonly name: string;
  readonly document: PolicyDocument;
}

/** One IAM role as the bootstrap creates it: trust, attached managed policies, inline policies. */
export interface RoleDocuments {
  readonly name: string;
  readonly arn: string;
  readonly description: string;
  readonly trustPolicy: PolicyDocument;
  readonly managedPolicyArns: readonly string[];
  readonly inlinePolicies: readonly InlinePolicy[];
}

/** Every IAM document of one overlay. */
export interface IamBundle {
  readonly roles: readonly RoleDocuments[];
}

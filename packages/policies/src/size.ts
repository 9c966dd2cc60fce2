// IAM's size limits, and packing statement groups into documents that fit them (inline first, customer managed when inline cannot hold them).
import type { CustomerManagedPolicy, InlinePolicy, PolicyDocument, Statement } from "./types.ts";

/** IAM quotas that bound our documents (characters, whitespace excluded). */
export const IAM_LIMITS = {
  /** Sum of every inline policy of one role. Splitting inline policies does not raise it. */
  inlineRolePolicies: 10_240,
  /** One customer managed policy. */
  managedPolicy: 6_144,
  /** Role trust policy, default quota (raisable to 4,096). */
  trustPolicy: 2_048,
  trustPolicyMax: 4_096,
  /** SQS queue policy (bytes). */
  queuePolicy: 20_480,
  /** Managed policies attached to one role, default quota (raisable to 20). */
  managedPoliciesPerRole: 10,
} as const;

/** Size as IAM counts it: the JSON without insignificant whitespace. */
export function policySize(doc: unknown): number {
  return JSON.stringify(doc).length;
}

export function policyDocument(statements: readonly Statement[]): PolicyDocument {
  return { Version: "2012-10-17", Statement: statements };
}

/** A policy set cannot be made to fit IAM's limits; the message names the policy, the statement and the numbers. */
export class PolicySizeError extends Error {
  override readonly name = "PolicySizeError";
}

export interface PackInput {
  /** The role the policies belong to (for messages and managed policy ARNs). */
  readonly roleName: string;
  readonly partition: string;
  readonly account: string;
  /** Named groups of statements, in order. */
  readonly groups: readonly { readonly name: string; readonly statements: readonly Statement[] }[];
  /** AWS managed policies already attached to the role (they count against the attachment quota). */
  readonly attachedManagedPolicies: number;
}

export interface PackedPolicies {
  readonly inlinePolicies: readonly InlinePolicy[];
  readonly customerManagedPolicies: readonly CustomerManagedPolicy[];
}

/**
 * One inline policy per group when all of them together fit the role's inline limit; otherwise one customer
 * managed policy per group, each split in statement order into `-1`, `-2`, ... parts when it passes 6,144.
 * Throws PolicySizeError when a single statement, or the number of parts, cannot fit.
 */
export function packPolicies(input: PackInput): PackedPolicies {
  const inline = input.groups.map((g) => ({ name: g.name, document: policyDocument(g.statements) }));
  const inlineTotal = inline.reduce((n, p) => n + policySize(p.document), 0);
  if (inlineTotal <= IAM_LIMITS.inlineRolePolicies) return { inlinePolicies: inline, customerManagedPolicies: [] };

  const managed: CustomerManagedPolicy[] = [];
  for (const group of input.groups) {
    const parts = splitStatements(group.statements, IAM_LIMITS.managedPolicy, `${input.roleName}: policy ${group.name}`);
    parts.forEach((statements, i) => {
      const name = parts.length === 1 ? group.name : `${group.name}-${i + 1}`;
      managed.push({ name, arn: `arn:${input.partition}:iam::${input.account}:policy/${name}`, document: policyDocument(statements) });
    });
  }
  const attachments = managed.length + input.attachedManagedPolicies;
  if (attachments > IAM_LIMITS.managedPoliciesPerRole) {
    throw new PolicySizeError(
      `${input.roleName}: the permissions (${inlineTotal} characters) pass the ${IAM_LIMITS.inlineRolePolicies}-character inline limit, ` +
        `and as managed policies they need ${attachments} attachments, more than the default quota of ${IAM_LIMITS.managedPoliciesPerRole} per role; ` +
        "remove statements, or raise the 'Managed policies per role' quota and the limit here",
    );
  }
  return { inlinePolicies: [], customerManagedPolicies: managed };
}

/** Splits statements, in order, into the fewest consecutive runs whose documents fit `limit`. */
export function splitStatements(statements: readonly Statement[], limit: number, what: string): Statement[][] {
  const parts: Statement[][] = [];
  let current: Statement[] = [];
  statements.forEach((s, i) => {
    const alone = policySize(policyDocument([s]));
    if (alone > limit) {
      throw new PolicySizeError(
        `${what}: statement ${s.Sid ?? `#${i}`} alone is ${alone} characters, over the ${limit}-character limit of one policy; ` +
          "split its Action or Resource list into several statements",
      );
    }
    if (current.length > 0 && policySize(policyDocument([...current, s])) > limit) {
      parts.push(current);
      current = [];
    }
    current.push(s);
  });
  if (current.length > 0) parts.push(current);
  return parts;
}

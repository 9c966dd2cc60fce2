// Which rendered/iam/ file is which kind of policy, read from index.json, so a caller can lint every file with the right context.
import type { IamIndex } from "../bundle.ts";
import type { LintContext } from "./types.ts";

/** Every policy file index.json names, with the lint context it needs (partition: the one of the roles' ARNs). */
export function iamLintTargets(index: IamIndex): { readonly file: string; readonly context: LintContext }[] {
  const partition = index.roles[0]?.arn.split(":")[1];
  const at = (file: string, context: Omit<LintContext, "file" | "partition">) => ({ file, context: { ...context, file, ...(partition ? { partition } : {}) } });
  return [
    ...index.roles.flatMap((role) => [
      at(role.trustPolicyFile, { kind: "trust" }),
      ...role.inlinePolicies.map((p) => at(p.file, { kind: "identity", attachment: "inline" })),
      ...(role.customerManagedPolicies ?? []).map((p) => at(p.file, { kind: "identity", attachment: "managed" })),
    ]),
    ...(index.queue ? [at(index.queue.policyFile, { kind: "resource" })] : []),
  ];
}

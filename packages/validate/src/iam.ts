// IAM files under rendered/iam/: linted through an adapter so the validator does not depend on the linter's internals.
import type { Finding, IamDocument } from "./types.ts";

/** What the validator needs from an IAM linter (the policies package's `lintPolicyDocument`). */
export type IamLinter = (doc: unknown, context: { kind: "identity" | "trust" | "resource"; file: string }) => readonly {
  readonly severity: string;
  readonly code: string;
  readonly path: string;
  readonly message: string;
}[];

export type IamOutcome = { status: "valid" | "invalid" | "skipped"; findings: Finding[] };

/** Finds `lintPolicyDocument` in @eks-gitops/policies when that package has it; undefined otherwise. */
export async function loadPolicyLinter(): Promise<IamLinter | undefined> {
  try {
    const mod = (await import("@eks-gitops/policies")) as Record<string, unknown>;
    return typeof mod.lintPolicyDocument === "function" ? (mod.lintPolicyDocument as IamLinter) : undefined;
  } catch {
    return undefined;
  }
}

export function lintIamDocument(doc: IamDocument, linter: IamLinter | undefined): IamOutcome {
  if (doc.iamKind === "index") {
    return { status: "skipped", findings: [{ severity: "warning", path: "", message: "IAM index file: not a policy; the documents it names are linted one by one", rule: "iam:index" }] };
  }
  if (!linter) {
    return {
      status: "skipped",
      findings: [{ severity: "warning", path: "", message: "IAM policy not linted: this build of @eks-gitops/policies has no lintPolicyDocument", rule: "iam:unavailable" }],
    };
  }
  const found = linter(doc.object, { kind: doc.iamKind === "trust-policy" ? "trust" : "identity", file: doc.file });
  const findings: Finding[] = found.map((f) => ({ severity: f.severity === "error" ? "error" : "warning", path: f.path, message: f.message, rule: `iam:${f.code}` }));
  return { status: findings.some((f) => f.severity === "error") ? "invalid" : "valid", findings };
}

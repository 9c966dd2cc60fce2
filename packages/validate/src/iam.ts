// IAM files under rendered/iam/: each document linted with the policies package, in the context index.json gives it.
import { type IamIndex, iamLintTargets, type LintContext, lintPolicyDocument, lintRolePolicies, type PolicyFinding } from "@eks-gitops/policies";
import { iamIndexProblem } from "./hostile/iam-index.ts";
import type { Finding, IamDocument, ResourceStatus } from "./types.ts";

export interface IamOutcome {
  readonly status: ResourceStatus;
  readonly findings: Finding[];
}

const folderOf = (file: string) => file.slice(0, file.lastIndexOf("/") + 1);
const baseOf = (file: string) => file.slice(file.lastIndexOf("/") + 1);

// a suggestion is as tight as IAM allows (e.g. the zonal-shift statement): nothing to act on, so info
const LEVELS: Readonly<Record<string, Finding["severity"]>> = { error: "error", suggestion: "info" };
const toFinding = (f: PolicyFinding): Finding => ({ severity: LEVELS[f.severity] ?? "warning", path: f.path, message: f.message, rule: `iam:${f.code}` });

/** The context a file's name implies, for files index.json does not list. */
function contextFromName(file: string): LintContext {
  if (file.endsWith(".trust-policy.json")) return { kind: "trust", file };
  if (file.endsWith(".queue-policy.json")) return { kind: "resource", file };
  return { kind: "identity", file };
}

function isIndex(v: unknown): v is IamIndex {
  return iamIndexProblem(v) === undefined;
}

/** Lints every IAM document; results keyed by file. Documents of one folder share its index.json. */
export function lintIamDocuments(docs: readonly IamDocument[]): Map<string, IamOutcome> {
  const out = new Map<string, IamOutcome>();
  const folders = new Map<string, IamDocument[]>();
  for (const d of docs) folders.set(folderOf(d.file), [...(folders.get(folderOf(d.file)) ?? []), d]);
  for (const [folder, group] of folders) {
    const indexDoc = group.find((d) => d.iamKind === "index");
    const contexts = new Map<string, LintContext>();
    let index: IamIndex | undefined;
    if (indexDoc) {
      if (isIndex(indexDoc.object)) {
        index = indexDoc.object;
        for (const t of iamLintTargets(index)) contexts.set(t.file, t.context);
        out.set(indexDoc.file, { status: "valid", findings: [] });
      } else {
        const problem = iamIndexProblem(indexDoc.object) ?? { path: "/roles", message: "index.json must have a roles array" };
        out.set(indexDoc.file, { status: "invalid", findings: [{ severity: "error", path: problem.path, message: problem.message, rule: "iam:index" }] });
      }
    }
    const byBase = new Map(group.map((d) => [baseOf(d.file), d]));
    const findings = new Map<string, Finding[]>();
    for (const d of group) {
      if (d === indexDoc) continue;
      const listed = contexts.get(baseOf(d.file));
      const context = { ...(listed ?? contextFromName(baseOf(d.file))), file: d.file };
      const fs = lintPolicyDocument(d.object, context).map(toFinding);
      if (index && !listed) fs.push({ severity: "warning", path: "", message: `not listed in ${folder}index.json; linted as kind "${context.kind}" (from its file name)`, rule: "iam:unlisted" });
      findings.set(d.file, fs);
    }
    // a tag-then-act escalation can span a role's documents: lint each role's identity policies together
    for (const role of index?.roles ?? []) {
      const files = [...role.inlinePolicies.map((p) => p.file), ...(role.customerManagedPolicies ?? []).map((p) => p.file)];
      const members = files.map((f) => byBase.get(f)).filter((d): d is IamDocument => d !== undefined);
      if (members.length < 2) continue;
      for (const f of lintRolePolicies(members.map((d) => ({ file: d.file, doc: d.object })))) findings.get(f.file)?.push(toFinding(f));
    }
    for (const [file, fs] of findings) out.set(file, { status: fs.some((f) => f.severity === "error") ? "invalid" : "valid", findings: fs });
  }
  return out;
}

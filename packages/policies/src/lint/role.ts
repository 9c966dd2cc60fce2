// Checks that need all of a role's permission policies at once: a tag-then-act path can span two documents.
import { resolveAction, type ResolvedAction, type StatementActions } from "./actions.ts";
import { findTagThenActEscalations } from "./escalation.ts";
import type { PolicyFinding } from "./types.ts";

/** A finding about one file of the role. */
export interface RoleFinding extends PolicyFinding {
  readonly file: string;
}

function statementActions(st: unknown): StatementActions | undefined {
  if (typeof st !== "object" || st === null || Array.isArray(st)) return undefined;
  const raw = (st as Record<string, unknown>).Action;
  if (raw === undefined) return undefined;
  const actions: ResolvedAction[] = [];
  let all = false;
  for (const a of Array.isArray(raw) ? raw : [raw]) {
    if (typeof a !== "string") continue;
    const r = resolveAction(a);
    if (r === "all") all = true;
    else if (!("error" in r)) actions.push(...r);
  }
  return { all, actions };
}

/**
 * Lints a role's identity policies together and reports only what no single document shows: a tag-then-act
 * escalation whose statements sit in different files. Run lintPolicyDocument on each file as well.
 */
export function lintRolePolicies(documents: readonly { readonly file: string; readonly doc: unknown }[]): RoleFinding[] {
  const located: { file: string; index: number; statement: unknown }[] = [];
  for (const { file, doc } of documents) {
    const raw = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>).Statement : undefined;
    const statements = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
    statements.forEach((statement, index) => {
      located.push({ file, index, statement });
    });
  }
  const statements = located.map((l) => l.statement);
  const where = (i: number) => `${located[i]!.file}#/Statement/${located[i]!.index}`;
  const escalations = findTagThenActEscalations(statements, statements.map(statementActions), where);
  return escalations.flatMap((e) => {
    const file = located[e.statement]!.file;
    // Within one file, lintPolicyDocument already reports it.
    if (e.setters.every((s) => located[s]!.file === file)) return [];
    return [{ file, severity: "security-warning" as const, code: "PRIVILEGE_ESCALATION_TAG_THEN_ACT", path: `/Statement/${located[e.statement]!.index}/Condition`, message: e.message }];
  });
}

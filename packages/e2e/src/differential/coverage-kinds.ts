// The kinds the differential must cover: every kind of packages/validate's coverage table (entry-points.json, generated
// from the Go sources by test-tools/validation-coverage), less the kinds that are requests the server answers and never
// stores (reviews, token requests, the scale subresource): a dry-run create of those judges nothing the validator checks.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../harness/repo.ts";

export const ENTRY_POINTS = join(REPO_ROOT, "packages", "validate", "src", "native", "coverage", "entry-points.json");

/** Kinds of the table that are not stored objects, with why. */
export const NOT_STORED: Readonly<Record<string, string>> = {
  TokenRequest: "a request answered by serviceaccounts/token",
  SubjectAccessReview: "a request the authorizer answers",
  SelfSubjectAccessReview: "a request the authorizer answers",
  LocalSubjectAccessReview: "a request the authorizer answers",
  Scale: "the scale subresource",
};

/** The table's stored kinds, sorted, and the ones left out. */
export function coverageKinds(file = ENTRY_POINTS): { kinds: string[]; leftOut: string[] } {
  const entries = JSON.parse(readFileSync(file, "utf8")) as { kind: string }[];
  const all = [...new Set(entries.map((e) => e.kind).filter((k) => k.length > 0))].sort();
  return { kinds: all.filter((k) => !(k in NOT_STORED)), leftOut: all.filter((k) => k in NOT_STORED) };
}

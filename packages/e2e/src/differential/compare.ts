// Compares the two sides case by case: agreement rate, and each disagreement with the reason it is (or is not) expected.
import type { Outcome } from "./verdicts.ts";

export interface Case {
  readonly id: string;
  /** Mutation category, or `fixture`. */
  readonly category: string;
  readonly kind: string;
  readonly description: string;
  readonly server: Outcome;
  readonly validator: Outcome;
}

export interface Disagreement extends Case {
  /** Why the two sides differ; `undefined` when no known reason explains it (a bug to fix on our side). */
  readonly reason: string | undefined;
}

export interface Comparison {
  readonly total: number;
  readonly agreed: number;
  /** agreed / total, 0..1 */
  readonly rate: number;
  readonly disagreements: readonly Disagreement[];
}

const BUILT_IN_KINDS = new Set(["Deployment", "Service", "HorizontalPodAutoscaler", "Namespace"]);
/**
 * Status causes of kube-apiserver's hand-written Go validation of built-in kinds (selector matches labels,
 * requests <= limits, DNS names, duplicate ports, min <= max...). The published OpenAPI v3 carries types,
 * enums and some required lists, not these; an offline validator sees them only if it re-implements them.
 */
const GO_ONLY_CAUSE = /^(FieldValueInvalid|FieldValueDuplicate|FieldValueForbidden|FieldValueTooLong|FieldValueTooMany)$/;

/** The reason a disagreement is expected, or undefined. Everything undefined is ours to fix. */
export function explain(c: Case): string | undefined {
  if (c.server.verdict === "error") return `not comparable: the API server gave no verdict (${c.server.detail})`;
  if (c.server.verdict === "invalid" && c.validator.verdict === "valid" && BUILT_IN_KINDS.has(c.kind)) {
    const reasons = c.server.causeReasons ?? [];
    if (reasons.length > 0 && reasons.every((r) => GO_ONLY_CAUSE.test(r))) {
      return "built-in semantic validation in kube-apiserver's Go code, not in the OpenAPI v3 schema";
    }
  }
  return undefined;
}

export function compare(cases: readonly Case[]): Comparison {
  const disagreements = cases
    .filter((c) => c.server.verdict !== c.validator.verdict)
    .map((c) => ({ ...c, reason: explain(c) }));
  const agreed = cases.length - disagreements.length;
  return { total: cases.length, agreed, rate: cases.length === 0 ? 1 : agreed / cases.length, disagreements };
}

/** The report printed by the test: summary, then one line per disagreement. */
export function formatComparison(title: string, result: Comparison): string {
  const lines = [
    `${title}: ${result.agreed}/${result.total} agree (${(result.rate * 100).toFixed(2)}%), ${result.disagreements.length} disagree`,
    ...result.disagreements.map(
      (d) =>
        `  ${d.id} [${d.category}] ${d.kind}: ${d.description} | server=${d.server.verdict} validator=${d.validator.verdict}` +
        ` | ${d.reason ?? "UNEXPLAINED"}\n      server: ${d.server.detail || "-"}\n      validator: ${d.validator.detail || "-"}`,
    ),
  ];
  return lines.join("\n");
}

// Compares the two sides case by case: agreement rate, and each disagreement with the reason it is (or is not) expected.
import { type ConstraintLookup, fieldTokens } from "./openapi-constraints.ts";
import type { Outcome } from "./verdicts.ts";

export interface Case {
  readonly id: string;
  /** Mutation category, or `fixture`. */
  readonly category: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly description: string;
  readonly server: Outcome;
  readonly validator: Outcome;
  /** The document both sides judged (to tell a missing field from a present zero value). */
  readonly object: unknown;
  /** For a fixture: the cross-object check codes its header expects (its own case); undefined elsewhere. */
  readonly expectedCrossObject?: readonly string[];
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
  /** Agreement per kind: `{ NodePool: { total, agreed } }`. */
  readonly byKind: Readonly<Record<string, { total: number; agreed: number }>>;
  readonly disagreements: readonly Disagreement[];
}

/** Kinds whose server-side validation is Go code (everything served from CRDs is schema + CEL only). */
const BUILT_IN_GROUPS = new Set([
  "v1",
  "apps/v1",
  "autoscaling/v2",
  "batch/v1",
  "policy/v1",
  "networking.k8s.io/v1",
  "rbac.authorization.k8s.io/v1",
  "scheduling.k8s.io/v1",
  "storage.k8s.io/v1",
  "resource.k8s.io/v1",
  "coordination.k8s.io/v1",
  "node.k8s.io/v1",
  "admissionregistration.k8s.io/v1",
]);

export const REASONS = {
  notComparable: "not comparable: the API server gave no verdict",
  goOnly:
    "kube-apiserver's hand-written Go validation of a built-in kind that the native stage (src/native) does not reproduce; the published OpenAPI v3 schema does not express this constraint at that field",
  goConversion:
    "kube-apiserver cannot decode the value into its Go type (Quantity syntax, an int-or-string wider than int32); the OpenAPI v3 schema does not express it",
  catalogGap:
    "an enum the live server publishes at /openapi/v3 that neither the pinned Kubernetes v1.36.5 OpenAPI v3 files nor the generated table of Go enums (src/schema/enum-values.ts) has; `validate --from-cluster` enforces it",
  zeroValue:
    "kube-apiserver's Go validation treats a present zero value (\"\", 0, []) of a required field as missing; the OpenAPI v3 `required` only asks for presence, which the document has",
  crossObject:
    "a cross-object check of the validator (HPA target, nodeClassRef, IAM, versions...); the API server judges one object at a time, by design",
  crossObjectPooled:
    "a cross-object finding the fixture does not expect: the differential validates all fixtures in one run, where files outside clusters/<name>/rendered form one group, so the fixture meets other fixtures' IAM roles, node classes and Karpenter Applications; its own suite checks it without them (a single-object fixture by schema and CEL only, a cross-object fixture with its folder as the overlay). The API server judges one object at a time",
  intWrap:
    "server-side apply stores an integer that overflows its int32/int64 Go field wrapped (unstructured conversion does not range-check); the validator enforces the schema's declared format (deliberately stricter)",
} as const;

/**
 * The reason a disagreement is expected, or undefined (ours to fix). For built-in kinds the server's causes
 * are checked against the pinned OpenAPI v3: a cause whose field carries the matching schema keyword
 * (enum for NotSupported, required for Required, bounds/pattern/length for Invalid) is one the validator
 * should have found, so it stays unexplained.
 */
export interface Schemas {
  /** The schemas the validator ran with (its pinned catalog, or the server's with --from-cluster). */
  readonly pinned: ConstraintLookup;
  /** What the test server publishes at /openapi/v3. */
  readonly live: ConstraintLookup;
}

export function explain(c: Case, schemas: Schemas): string | undefined {
  if (c.server.verdict === "error") return `${REASONS.notComparable} (${c.server.detail})`;
  const findings = c.validator.findings ?? [];
  const perObject = (rule: string) => rule.startsWith("schema:") || rule.startsWith("cel:") || rule.startsWith("parse:");
  if (c.server.verdict === "valid" && findings.length > 0 && !findings.some((f) => perObject(f.rule))) {
    const expected = c.expectedCrossObject;
    return expected === undefined || findings.every((f) => expected.includes(f.rule)) ? REASONS.crossObject : REASONS.crossObjectPooled;
  }
  // Custom resources are judged by schema and CEL alone, both of which the validator implements: no excuse.
  if (!BUILT_IN_GROUPS.has(c.apiVersion)) return undefined;
  if (c.server.verdict === "invalid" && c.validator.verdict === "valid") {
    const causes = c.server.causes ?? [];
    if (causes.length === 0) return conversionReason(c, schemas.pinned);
    // Does the schema itself forbid this value at the cause's field? (Then the validator should have said so.)
    const expressedIn = (lookup: ConstraintLookup, which: typeof causes) =>
      which.some((cause) => {
        const field = lookup(c.apiVersion, c.kind, cause.field);
        if (!field) return true; // unresolvable path: do not excuse it
        const value = valueAt(c.object, cause.field);
        if (cause.reason === "FieldValueRequired") return field.requiredByParent || field.keywords.some((k) => k.startsWith("min"));
        if (field.enum) return !field.enum.includes(value);
        if (cause.reason === "FieldValueNotSupported") return false;
        if (typeof value === "number" && (field.minimum !== undefined || field.maximum !== undefined)) {
          return value < (field.minimum ?? Number.NEGATIVE_INFINITY) || value > (field.maximum ?? Number.POSITIVE_INFINITY);
        }
        // pattern / length keywords: not re-evaluated here, so not excused.
        return field.keywords.length > 0;
      });
    // A Required cause for a field the document does have (as "", 0 or []) is Go's zero-value rule, not `required`.
    const zeroValued = causes.filter((cause) => cause.reason === "FieldValueRequired" && valueAt(c.object, cause.field) !== undefined);
    const others = causes.filter((cause) => !zeroValued.includes(cause));
    if (others.length === 0) return REASONS.zeroValue;
    if (expressedIn(schemas.pinned, others)) return undefined;
    return expressedIn(schemas.live, others) ? REASONS.catalogGap : zeroValued.length > 0 ? `${REASONS.goOnly}; ${REASONS.zeroValue}` : REASONS.goOnly;
  }
  if (c.server.verdict === "valid" && c.validator.verdict === "invalid") {
    if (findings.length > 0 && findings.every((f) => f.rule === "schema:format") && /format int(32|64)/.test(c.validator.detail)) {
      return REASONS.intWrap;
    }
  }
  return undefined;
}

export function compare(cases: readonly Case[], schemas: Schemas): Comparison {
  const disagreements = cases
    .filter((c) => c.server.verdict !== c.validator.verdict)
    .map((c) => ({ ...c, reason: explain(c, schemas) }));
  const agreed = cases.length - disagreements.length;
  const byKind: Record<string, { total: number; agreed: number }> = {};
  for (const c of cases) {
    const k = byKind[c.kind] ?? { total: 0, agreed: 0 };
    byKind[c.kind] = k;
    k.total++;
    if (c.server.verdict === c.validator.verdict) k.agreed++;
  }
  return { total: cases.length, agreed, rate: cases.length === 0 ? 1 : agreed / cases.length, byKind, disagreements };
}

/** The report printed by the test: summary, counts per reason, then one line per unexplained disagreement. */
export function formatComparison(title: string, result: Comparison): string {
  const byReason = new Map<string, number>();
  for (const d of result.disagreements) {
    const key = d.reason?.startsWith(REASONS.notComparable) ? REASONS.notComparable : (d.reason ?? "UNEXPLAINED (ours to fix)");
    byReason.set(key, (byReason.get(key) ?? 0) + 1);
  }
  return [
    `${title}: ${result.agreed}/${result.total} agree (${(result.rate * 100).toFixed(2)}%), ${result.disagreements.length} disagree`,
    `  by kind: ${Object.entries(result.byKind)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, k]) => `${kind} ${k.agreed}/${k.total}`)
      .join(", ")}`,
    ...[...byReason].map(([reason, n]) => `  ${String(n).padStart(4)} x ${reason}`),
    ...result.disagreements
      .filter((d) => d.reason !== undefined)
      .map(
        (d) =>
          `  - ${d.id} [${d.category}] ${d.kind}: ${d.description} | server=${d.server.verdict} validator=${d.validator.verdict} | ${shortReason(d.reason ?? "")}` +
          `\n      server: ${d.server.detail.slice(0, 300) || "-"} | validator: ${d.validator.detail.slice(0, 300) || "-"}`,
      ),
    ...result.disagreements
      .filter((d) => d.reason === undefined)
      .map(
        (d) =>
          `  UNEXPLAINED ${d.id} [${d.category}] ${d.kind}: ${d.description} | server=${d.server.verdict} validator=${d.validator.verdict}` +
          `\n      server: ${d.server.detail || "-"}\n      validator: ${d.validator.detail || "-"}`,
      ),
  ].join("\n");
}

/** The first clause of a reason, for one-line listings. */
function shortReason(reason: string): string {
  return reason.split(";")[0]?.trim() ?? reason;
}

/** The value at a Go field path (`spec.ports[0].name`) of a document, or undefined when absent. */
function valueAt(object: unknown, fieldPath: string): unknown {
  let cur = object;
  for (const token of fieldTokens(fieldPath)) {
    if (cur === null || typeof cur !== "object") return undefined;
    const key = token.index ?? token.name;
    cur = Array.isArray(cur) ? cur[Number(key)] : (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * A decode/conversion failure with no causes: excused only when the schema cannot express it, i.e. a Quantity
 * (the schema says string-or-number) or a number too wide for a field the schema does not declare int32/int64
 * (int-or-string). A plain int32 field overflowing is the validator's to catch (`format: int32`).
 */
function conversionReason(c: Case, lookup: ConstraintLookup): string | undefined {
  const detail = c.server.detail;
  if (!/cannot be handled as a|failed to convert new object/.test(detail)) return undefined;
  if (/quantities must match the regular expression/.test(detail)) return REASONS.goConversion;
  const number = /cannot unmarshal number \S+ into Go struct field \w+\.(\S+) of type int(32|64)/.exec(detail);
  if (number?.[1]) {
    const format = lookup(c.apiVersion, c.kind, number[1])?.format;
    return format === "int32" || format === "int64" ? undefined : REASONS.goConversion;
  }
  return undefined;
}

/** Agreement of one kind: cases, agreements, false rejections (server valid, validator invalid) and misses. */
export interface KindAgreement {
  readonly kind: string;
  readonly cases: number;
  readonly agreed: number;
  readonly falseRejections: number;
  readonly misses: number;
}

/** The least agreement a kind may show in the differential (issue 23: 99.5% per kind, no false rejection). */
export const KIND_AGREEMENT_MIN = 0.995;

/**
 * One row per kind of `kinds` (kinds without a case included, with 0 cases) and per other kind the cases have,
 * sorted by kind. A case with no verdict from either side (error) counts as neither agreement nor disagreement type.
 */
export function agreementByKind(cases: readonly Case[], kinds: readonly string[]): KindAgreement[] {
  const rows = new Map<string, { cases: number; agreed: number; falseRejections: number; misses: number }>();
  const row = (kind: string) => {
    let r = rows.get(kind);
    if (!r) {
      r = { cases: 0, agreed: 0, falseRejections: 0, misses: 0 };
      rows.set(kind, r);
    }
    return r;
  };
  for (const k of kinds) row(k);
  for (const c of cases) {
    const r = row(c.kind);
    r.cases++;
    if (c.server.verdict === c.validator.verdict) r.agreed++;
    else if (c.server.verdict === "valid" && c.validator.verdict === "invalid") r.falseRejections++;
    else if (c.server.verdict === "invalid" && c.validator.verdict === "valid") r.misses++;
  }
  return [...rows].map(([kind, r]) => ({ kind, ...r })).sort((a, b) => a.kind.localeCompare(b.kind));
}

/** Why a kind's row fails issue 23's bar, or undefined: no case, below KIND_AGREEMENT_MIN, or any false rejection. */
export function kindShortfall(row: KindAgreement): string | undefined {
  if (row.cases === 0) return "no case";
  if (row.falseRejections > 0) return `${row.falseRejections} false rejection(s)`;
  if (row.agreed / row.cases < KIND_AGREEMENT_MIN) return `${((row.agreed / row.cases) * 100).toFixed(2)}% < ${(KIND_AGREEMENT_MIN * 100).toFixed(1)}%`;
  return undefined;
}

/** The per-kind table, markdown: kind | cases | agree | false rejections | misses, with a closing total line. */
export function formatAgreementByKind(title: string, rows: readonly KindAgreement[]): string {
  const pct = (a: number, n: number) => (n === 0 ? "-" : `${((a / n) * 100).toFixed(2)}%`);
  const total = rows.reduce((t, r) => ({ cases: t.cases + r.cases, agreed: t.agreed + r.agreed, fr: t.fr + r.falseRejections, miss: t.miss + r.misses }), { cases: 0, agreed: 0, fr: 0, miss: 0 });
  const failing = rows.filter((r) => kindShortfall(r) !== undefined).length;
  return [
    `${title}: agreement per kind (${rows.length} kinds, ${failing} below the bar)`,
    "| kind | cases | agree | false rejections | misses |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.kind} | ${r.cases} | ${r.agreed} (${pct(r.agreed, r.cases)}) | ${r.falseRejections} | ${r.misses} |${kindShortfall(r) ? ` ${kindShortfall(r)}` : ""}`),
    `| total | ${total.cases} | ${total.agreed} (${pct(total.agreed, total.cases)}) | ${total.fr} | ${total.miss} |`,
  ].join("\n");
}

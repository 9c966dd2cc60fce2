// One vocabulary for both sides of the differential: the API server's answer and the validator's status become valid / invalid / error.
import type { ApplyVerdict } from "../harness/apply.ts";

export type Verdict = "valid" | "invalid" | "error";

export interface Outcome {
  readonly verdict: Verdict;
  /** Why, in one line: the server's message, or the validator's findings. */
  readonly detail: string;
  /** The server's `details.causes[]` (reason such as FieldValueInvalid, and the Go field path). */
  readonly causes?: readonly { readonly reason: string; readonly field: string }[];
  /** The validator's error findings: rule (`schema:format`, `cel:...`) and JSON Pointer. */
  readonly findings?: readonly { readonly rule: string; readonly path: string }[];
}

/**
 * 422 Invalid and 400 BadRequest (undecodable: wrong JSON type, strict-decoding unknown field) are invalid.
 * So are the two 500s with which server-side apply reports an object that does not fit its type:
 * "failed to create typed patch object" (unknown field, wrong JSON type against the structural schema) and
 * "failed to convert new object" (fits the schema's JSON type but not the Go type: 1.5 for an int32,
 * a malformed quantity). Anything else (404 unknown kind, other 5xx) is an error, not a verdict.
 */
const SSA_TYPE_ERRORS = ["failed to create typed patch object", "failed to convert new object"];

export function serverOutcome(result: ApplyVerdict | { readonly thrown: string }): Outcome {
  if ("thrown" in result) return { verdict: "error", detail: result.thrown };
  if (result.accepted) return { verdict: "valid", detail: "" };
  const text = result.causes.map((c) => `${c.field ?? ""}: ${c.message ?? ""}`).join("; ");
  const detail = `${result.code} ${result.reason}: ${text || result.message}`;
  const invalid =
    result.code === 422 ||
    result.code === 400 ||
    (result.code === 500 && SSA_TYPE_ERRORS.some((prefix) => result.message.startsWith(prefix)));
  const causes = result.causes.map((c) => ({ reason: c.reason ?? "", field: c.field ?? "" }));
  return { verdict: invalid ? "invalid" : "error", detail, causes };
}

/** One `resources[]` entry of the validator's `--output json` (the stable contract of packages/validate). */
export interface ValidatorResource {
  readonly file: string;
  readonly index: number;
  readonly kind: string;
  readonly name: string;
  readonly status: "valid" | "invalid" | "error" | "skipped";
  readonly findings: readonly { severity: string; path: string; message: string; rule: string }[];
}

export function validatorOutcome(resource: ValidatorResource | undefined): Outcome {
  if (!resource) return { verdict: "error", detail: "no result for this document" };
  const errors = resource.findings.filter((f) => f.severity === "error");
  const detail = errors.map((f) => `${f.path}: ${f.message} (${f.rule})`).join("; ");
  if (resource.status === "valid") return { verdict: "valid", detail: "" };
  if (resource.status === "invalid") return { verdict: "invalid", detail, findings: errors.map((f) => ({ rule: f.rule, path: f.path })) };
  return { verdict: "error", detail: `${resource.status}: ${detail}` };
}

/** Rules of per-object checks (what the API server can also judge); anything else is a cross-object check code. */
const PER_OBJECT = /^(schema|cel|parse|native|decode|metadata):/;

/** The validator's verdict on the object alone: an object invalid only by cross-object findings counts as valid. */
export function perObjectOutcome(o: Outcome): Outcome {
  if (o.verdict !== "invalid" || !o.findings) return o;
  const own = o.findings.filter((f) => PER_OBJECT.test(f.rule));
  return own.length > 0 ? { ...o, findings: own } : { verdict: "valid", detail: "" };
}

// Stable rule metadata for SARIF: an id that never embeds CEL source, a short description and a help text.
import { createHash } from "node:crypto";
import { CHECK_CODES } from "../cross-object/codes.ts";

export interface RuleInfo {
  /** Stable id: the finding's `rule`, except CEL rules, which become `cel/<12 hex of SHA-256 of the rule text>`. */
  readonly id: string;
  readonly shortDescription: string;
  /** How to fix a violation (the finding's hint when the check gives one). */
  readonly help: string;
}

const SCHEMA_HELP = "make the field match the kind's OpenAPI schema (see `kubectl explain <kind>.<field>`)";

/**
 * A CEL rule's id is a hash of its text: the text itself is long, may contain any character and is not
 * an identifier, yet the same rule in the same CRD version must keep the same id across runs (code
 * scanning tracks alerts by rule id). The rule text is kept in the description.
 */
export function celRuleId(ruleText: string): string {
  return `cel/${createHash("sha256").update(ruleText).digest("hex").slice(0, 12)}`;
}

const clip = (s: string, max = 200) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Rule metadata for a finding's `rule` (`hint`: the finding's fix hint, preferred as help text). */
export function ruleInfo(rule: string, hint?: string): RuleInfo {
  const colon = rule.indexOf(":");
  const family = colon < 0 ? rule : rule.slice(0, colon);
  const detail = colon < 0 ? "" : rule.slice(colon + 1);
  if (family === "cel") {
    if (detail === "skipped") return { id: rule, shortDescription: "CEL rules not evaluated because the object failed schema validation", help: hint ?? "fix the schema errors of the object; its CEL rules then run" };
    return { id: celRuleId(detail), shortDescription: clip(`CEL validation rule: ${detail}`), help: hint ?? "make the object satisfy the CRD's x-kubernetes-validations rule named in the message" };
  }
  if (family === "schema") {
    if (detail === "missing") return { id: rule, shortDescription: "no schema found for the object's apiVersion and kind", help: hint ?? "supply the schema with --crd FILE|DIR, add the CRD to the validated files, use --from-cluster, or fix apiVersion/kind" };
    return { id: rule, shortDescription: `OpenAPI schema: ${detail}`, help: hint ?? SCHEMA_HELP };
  }
  if (family === "metadata") return { id: rule, shortDescription: `ObjectMeta: ${detail}`, help: hint ?? "fix metadata as the API server requires (names, labels and annotations syntax)" };
  if (family === "parse") return { id: rule, shortDescription: `document not readable: ${detail}`, help: hint ?? "fix the YAML/JSON syntax at the reported line" };
  if (family === "iam") return { id: rule, shortDescription: `IAM policy lint: ${detail}`, help: hint ?? "see the message; the policies package README explains each lint code" };
  if (family === "native") return { id: rule, shortDescription: `API server validation: ${detail}`, help: hint ?? "fix the field as the API server requires (see the message)" };
  if (family === "reject") return { id: rule, shortDescription: `kind rejected by --reject ${detail}`, help: hint ?? "remove the object or drop the kind from --reject" };
  // a cross-object check's own hint: a finding's may name that finding's fix (e.g. the closest chart key)
  const code = CHECK_CODES[rule as keyof typeof CHECK_CODES];
  if (code) return { id: rule, shortDescription: code.title, help: code.hint };
  return { id: rule, shortDescription: rule, help: hint ?? "see the message" };
}

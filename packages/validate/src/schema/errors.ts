// Turning ajv errors into findings worded like the API server's field errors (path, message, rule).
import { pointerSegment } from "../pointer.ts";
import type { ErrorObject } from "ajv";
import type { Finding } from "../types.ts";

const show = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "object" ? "object" : String(v));
const typeOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);
/** `/spec/template/0` → `spec.template[0]`, as the API server names fields. */
export function dotted(pointer: string): string {
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(seg) ? `[${seg}]` : out === "" ? seg : `.${seg}`;
  }
  return out;
}

// The error types after which the API server skips CEL (hasBlockingErr in apiextensions-apiserver's
// customresource strategy): TypeInvalid, NotSupported, Required, TooLong and TooMany, as ajv keywords.
const BLOCKING = new Set(["type", "enum", "required", "maxLength", "maxItems", "maxProperties"]);

/** Whether an error makes the API server skip the CEL rules (it then says so in one extra error). */
export const isBlocking = (e: ErrorObject): boolean => BLOCKING.has(e.keyword);

/** Converts ajv errors; drops the per-branch noise of anyOf/oneOf and keeps the summary error. */
export function findingsFromAjv(errors: readonly ErrorObject[]): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (/\/(anyOf|oneOf|not)\/\d+\//.test(e.schemaPath) || /\/not\//.test(e.schemaPath)) continue;
    if (e.keyword === "if" || e.keyword === "$ref") continue;
    let path = e.instancePath;
    let message: string;
    const p = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case "required":
        path = `${path}/${pointerSegment(String(p.missingProperty))}`;
        message = "Required value";
        break;
      case "additionalProperties":
        path = `${path}/${pointerSegment(String(p.additionalProperty))}`;
        message = `unknown field "${dotted(path)}"`;
        break;
      case "type":
        message = `Invalid value: ${show(e.data)}: must be of type ${Array.isArray(p.type) ? p.type.join(" or ") : String(p.type)}, not ${typeOf(e.data)}`;
        break;
      case "enum":
        message = `Unsupported value: ${show(e.data)}: supported values: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
        break;
      case "pattern":
        message = `Invalid value: ${show(e.data)}: should match '${String(p.pattern)}'`;
        break;
      case "format":
        message = `Invalid value: ${show(e.data)}: must be of format ${String(p.format)}`;
        break;
      case "maxLength":
        message = `Too long: may not be longer than ${String(p.limit)}`;
        break;
      case "minLength":
        message = `Invalid value: ${show(e.data)}: should be at least ${String(p.limit)} chars long`;
        break;
      case "maxItems":
        message = `Too many: must have at most ${String(p.limit)} items`;
        break;
      case "minItems":
        message = `Invalid value: should have at least ${String(p.limit)} items`;
        break;
      case "maxProperties":
        message = `Too many: must have at most ${String(p.limit)} properties`;
        break;
      case "minProperties":
        message = `Invalid value: should have at least ${String(p.limit)} properties`;
        break;
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum":
        message = `Invalid value: ${show(e.data)}: should be ${String(p.comparison).replace(">=", "greater than or equal to").replace("<=", "less than or equal to").replace(">", "greater than").replace("<", "less than")} ${String(p.limit)}`;
        break;
      case "anyOf":
      case "oneOf":
        message = `Invalid value: ${show(e.data)}: must validate ${e.keyword === "oneOf" ? "one and only one" : "at least one"} schema (${e.keyword})`;
        break;
      case "not":
        message = `Invalid value: ${show(e.data)}: must not validate the schema (not)`;
        break;
      default:
        message = `Invalid value: ${show(e.data)}: ${e.message ?? e.keyword}`;
    }
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ severity: "error", path, message, rule: `schema:${e.keyword}` });
  }
  return out;
}

// Findings of the native stage, worded as the API server's field errors (`<path>: Invalid value: 65536: <detail>`).
// After k8s.io/apimachinery@v0.36.5/pkg/util/validation/field/errors.go (ErrorBody and the error constructors).
import type { Finding } from "../types.ts";
import type { FieldPath } from "./path.ts";

/**
 * Go's `%q` for a string (strconv.Quote): printable runes as they are, `"` and `\` escaped, the rest as
 * `\n`, `\x01`, `\u2028`... Hand-written: JSON.stringify differs for control characters.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x07) out += "\\a";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x0c) out += "\\f";
    else if (c === 0x0b) out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if (c >= 0x80 && c < 0xa0) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else if (c === 0x2028 || c === 0x2029 || c === 0xfeff) out += `\\u${c.toString(16)}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Go's json.Marshal: like JSON.stringify, with `<`, `>`, `&` escaped as it does by default. */
export function goJson(v: unknown): string {
  return (JSON.stringify(v) ?? "null").replace(/[<>&\u2028\u2029]/g, (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`);
}

/** A value as the API server prints it after `Invalid value: `. */
export function formatValue(v: unknown): string {
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === "boolean") return String(v);
  if (typeof v === "bigint") return v.toString();
  return goJson(v);
}

/** A Go map as json.Marshal prints it: keys sorted. */
export function goMap(o: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

/** A value printed as Go prints a quantity or another struct with a JSON form (json.Marshal). */
export class JsonValue {
  constructor(readonly value: unknown) {}
}

const body = (type: string, value: unknown, detail: string | undefined): string => {
  const v = value instanceof JsonValue ? goJson(value.value) : formatValue(value);
  return detail ? `${type}: ${v}: ${detail}` : `${type}: ${v}`;
};

/**
 * Collects findings. `check` names the rule: `core/container-port` becomes `native:core/container-port`.
 * `pointer` overrides the JSON Pointer where the server names a coarser field than the offending value
 * (label errors name `metadata.labels`, the finding points at the key).
 */
export class Reporter {
  readonly findings: Finding[] = [];

  private add(path: FieldPath, text: string, check: string, pointer?: string): void {
    this.findings.push({ severity: "error", path: pointer ?? path.pointer(), message: `${path.toString()}: ${text}`, rule: `native:${check}` });
  }

  invalid(path: FieldPath, value: unknown, detail: string, check: string, pointer?: string): void {
    this.add(path, body("Invalid value", value, detail), check, pointer);
  }

  required(path: FieldPath, detail: string, check: string, pointer?: string): void {
    this.add(path, detail ? `Required value: ${detail}` : "Required value", check, pointer);
  }

  forbidden(path: FieldPath, detail: string, check: string, pointer?: string): void {
    this.add(path, detail ? `Forbidden: ${detail}` : "Forbidden", check, pointer);
  }

  notFound(path: FieldPath, value: unknown, check: string, pointer?: string): void {
    this.add(path, body("Not found", value, undefined), check, pointer);
  }

  /** field.NotFound with a detail set afterwards (as Go does for resource claims). */
  notFoundWithDetail(path: FieldPath, value: unknown, detail: string, check: string, pointer?: string): void {
    this.add(path, body("Not found", value, detail), check, pointer);
  }

  duplicate(path: FieldPath, value: unknown, check: string, pointer?: string): void {
    this.add(path, body("Duplicate value", value, undefined), check, pointer);
  }

  /** field.Duplicate with a detail set afterwards (as Go does for a Node's taints). */
  duplicateWithDetail(path: FieldPath, value: unknown, detail: string, check: string, pointer?: string): void {
    this.add(path, body("Duplicate value", value, detail), check, pointer);
  }

  /** field.NotSupported: `Unsupported value: "x": supported values: "a", "b"`. */
  notSupported(path: FieldPath, value: unknown, valid: readonly string[], check: string, pointer?: string): void {
    const detail = valid.length > 0 ? `supported values: ${valid.map(goQuote).join(", ")}` : "";
    this.add(path, body("Unsupported value", value, detail), check, pointer);
  }

  /** field.InternalError: `Internal error: <detail>`. */
  internalError(path: FieldPath, detail: string, check: string, pointer?: string): void {
    this.add(path, `Internal error: ${detail}`, check, pointer);
  }

  /** field.TooLong: the value is never printed. */
  tooLong(path: FieldPath, max: number, check: string, unit: "bytes" | "characters" = "bytes", pointer?: string): void {
    const u = max === 1 ? unit.slice(0, -1) : unit;
    this.add(path, `Too long: may not be more than ${max} ${u}`, check, pointer);
  }

  tooMany(path: FieldPath, actual: number, max: number, check: string, pointer?: string): void {
    this.add(path, `Too many: ${actual}: must have at most ${max} ${max === 1 ? "item" : "items"}`, check, pointer);
  }

  /** A warning of our own (not a server error: the object is still valid), with the server's field path in front. */
  warn(path: FieldPath, text: string, check: string, hint?: string): void {
    this.findings.push({ severity: "warning", path: path.pointer(), message: `${path.toString()}: ${text}`, rule: `native:${check}`, ...(hint ? { hint } : {}) });
  }

  /** Every message of a Go `Is...` function as one `Invalid value` each (the usual shape). */
  invalidEach(path: FieldPath, value: unknown, messages: readonly string[], check: string, pointer?: string): void {
    for (const m of messages) this.invalid(path, value, m, check, pointer);
  }
}

// Secret values never reach a report: every value under a Secret's `data` and `stringData` (and its base64-decoded
// text) is replaced in findings' messages, paths and hints by `<redacted: N bytes>`, in every output format.
// No schema in the pinned catalog marks other fields as sensitive; Secrets are what the API server itself hides.
import type { Finding, ParsedResource, ResourceResult } from "./types.ts";

/**
 * Values shorter than this are replaced unquoted only in the Secret's own findings (shorter still: only in a finding
 * about that very field); quoted (`"ab"`) they are replaced everywhere. Short common words ("true", "default") would
 * otherwise be masked in unrelated messages.
 */
const MIN_RAW_LENGTH = 4;
const MIN_RAW_LENGTH_ELSEWHERE = 8;

const isSecret = (r: { apiVersion?: string; kind?: string }) => r.kind === "Secret" && (r.apiVersion === "v1" || r.apiVersion === undefined);

export interface SecretValue {
  readonly text: string;
  readonly marker: string;
  /** The value as JSON shows it (`"text"`), and its marker quoted: worked out once, not per finding. */
  readonly quoted: string;
  readonly quotedMarker: string;
  /** JSON Pointer of the field holding it. */
  readonly pointer: string;
}

const marker = (value: string) => `<redacted: ${Buffer.byteLength(value)} bytes>`;
const pointerKey = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");

/** The base64-decoded text of a `data` value, when it decodes to printable UTF-8. */
function decoded(value: string): string | undefined {
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(value)) return undefined;
  const text = Buffer.from(value, "base64").toString("utf8");
  return text.length > 0 && !text.includes("\ufffd") ? text : undefined;
}

function secretValue(text: string, pointer: string): SecretValue {
  const m = marker(text);
  return { text, marker: m, pointer, quoted: JSON.stringify(text), quotedMarker: `"${m}"` };
}

/** Every secret value of a run's Secrets (the longest first, so that a value containing another is replaced whole). */
export function secretValues(resources: readonly Pick<ParsedResource, "apiVersion" | "kind" | "object" | "pointer">[]): SecretValue[] {
  const out: SecretValue[] = [];
  for (const r of resources) {
    if (!isSecret(r)) continue;
    for (const field of ["data", "stringData"] as const) {
      const map = r.object[field];
      if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
      for (const [k, v] of Object.entries(map)) {
        const pointer = `${r.pointer ?? ""}/${field}/${pointerKey(k)}`;
        // a value that is not a string (a number, a list) is shown as JSON by the schema errors
        const text = typeof v === "string" ? v : JSON.stringify(v);
        if (text === undefined || text === "") continue;
        out.push(secretValue(text, pointer));
        const plain = field === "data" && typeof v === "string" ? decoded(v) : undefined;
        if (plain && plain !== text) out.push(secretValue(plain, pointer));
      }
    }
  }
  return out.sort((a, b) => b.text.length - a.text.length);
}

/** One value replaced in `out` (quoted everywhere; raw where `own` and the lengths allow): the text after. */
function redactValue(out: string, v: SecretValue, pointer: string, own: boolean): string {
  let text = out;
  if (text.includes(v.quoted)) text = text.split(v.quoted).join(v.quotedMarker);
  const raw = own ? v.text.length >= MIN_RAW_LENGTH || pointer === v.pointer || pointer.startsWith(`${v.pointer}/`) : v.text.length >= MIN_RAW_LENGTH_ELSEWHERE;
  if (raw && text.includes(v.text)) text = text.split(v.text).join(v.marker);
  return text;
}

/** Characters a value's fingerprint takes from its start (fewer for shorter values). */
const GRAM = 4;

/** A hash (16 bits) of the `n` characters of `s` from `i`: collisions only make the gate below answer "maybe" more often. */
function gramAt(s: string, i: number, n: number): number {
  let h = 0;
  for (let k = 0; k < n; k++) h = (Math.imul(h, 31) + s.charCodeAt(i + k)) | 0;
  return (h ^ (h >>> 16)) & 0xffff;
}

/**
 * A run's secret values (longest first) and a gate in front of them: the first characters (up to GRAM) of their
 * raw and quoted forms, hashed into a bitmap per length. A text holding none of those is returned as it is after
 * one pass over its characters per length, instead of being compared with every value; a text that may hold one
 * is redacted by comparing it with each value in turn (redactTextByEachValue), so the replacements and their
 * order are the reference's. Hand-written: a multi-pattern matching library answers "which values occur and
 * where", which costs more than this gate for the common answer, none.
 */
export class SecretIndex {
  /** By length 1..GRAM: a bitmap of the hashed starts of the values' forms that long (or longer, for GRAM). */
  private readonly starts: (Uint8Array | undefined)[] = [];

  constructor(readonly values: readonly SecretValue[]) {
    for (const v of values) {
      for (const form of [v.text, v.quoted]) {
        const n = Math.min(GRAM, form.length);
        const bitmap = this.starts[n] ?? new Uint8Array(1 << 16);
        this.starts[n] = bitmap;
        bitmap[gramAt(form, 0, n)] = 1;
      }
    }
  }

  /** Whether `s` may contain a value, raw or quoted (false: it contains none). */
  private mayContain(s: string): boolean {
    for (let n = 1; n <= GRAM; n++) {
      const bitmap = this.starts[n];
      if (bitmap === undefined) continue;
      for (let i = 0; i + n <= s.length; i++) if (bitmap[gramAt(s, i, n)] === 1) return true;
    }
    return false;
  }

  /** `s` with every value replaced, as comparing it with each value in turn (longest first) does. */
  redact(s: string, pointer: string, own: boolean): string {
    return this.mayContain(s) ? redactTextByEachValue(s, this.values, pointer, own) : s;
  }
}

/** The reference: each value in turn, longest first (SecretIndex.redact gives the same text, comparing fewer values). */
export function redactTextByEachValue(s: string, values: readonly SecretValue[], pointer: string, own: boolean): string {
  let out = s;
  for (const v of values) {
    // neither the value nor its quoted form fits in a shorter text (the markers replacing values may make it longer)
    if (v.text.length > out.length) continue;
    out = redactValue(out, v, pointer, own);
  }
  return out;
}

function redactFinding(f: Finding, index: SecretIndex, own: boolean): Finding {
  const message = index.redact(f.message, f.path, own);
  const hint = f.hint === undefined ? undefined : index.redact(f.hint, f.path, own);
  if (message === f.message && hint === f.hint) return f;
  return { ...f, message, ...(hint !== undefined ? { hint } : {}) };
}

/** Results with every secret value of `resources` redacted from every finding (results without one are returned as is). */
export function redactResults(resources: readonly Pick<ParsedResource, "apiVersion" | "kind" | "object" | "file" | "index">[], results: readonly ResourceResult[]): ResourceResult[] {
  const values = secretValues(resources);
  if (values.length === 0) return [...results];
  const index = new SecretIndex(values);
  const secrets = new Set(resources.filter(isSecret).map((r) => `${r.file}\u0000${r.index}`));
  return results.map((r) => {
    if (r.findings.length === 0) return r;
    const own = secrets.has(`${r.file}\u0000${r.index}`);
    const findings = r.findings.map((f) => redactFinding(f, index, own));
    return findings.every((f, i) => f === r.findings[i]) ? r : { ...r, findings };
  });
}

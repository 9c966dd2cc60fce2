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

const pairAt = (s: string, i: number) => (s.charCodeAt(i) << 16) | s.charCodeAt(i + 1);

/**
 * A run's secret values (longest first) with an index by their first two characters (raw and quoted), so that a
 * finding's text is compared only with the values that may occur in it: a text without a value's first two
 * characters contains neither its raw nor its quoted form. Hand-written: the order of replacement (longest
 * first, each value seeing the markers put before it) is part of the output, which a multi-pattern library
 * does not keep.
 */
export class SecretIndex {
  private readonly byPair = new Map<number, number[]>();
  /** Values of one character: no pair to index them by; always compared. */
  private readonly always: number[] = [];

  constructor(readonly values: readonly SecretValue[]) {
    values.forEach((v, j) => {
      const keys = new Set([pairAt(v.quoted, 0)]);
      if (v.text.length >= 2) keys.add(pairAt(v.text, 0));
      else this.always.push(j);
      for (const k of keys) {
        const list = this.byPair.get(k);
        if (list) list.push(j);
        else this.byPair.set(k, [j]);
      }
    });
  }

  /** Indexes (ascending, from `from` on) of the values whose raw or quoted form may occur in `s`. */
  private candidates(s: string, from: number): number[] {
    const out = new Set<number>();
    for (const j of this.always) if (j >= from) out.add(j);
    for (let i = 0; i + 1 < s.length; i++) {
      const list = this.byPair.get(pairAt(s, i));
      if (list) for (const j of list) if (j >= from) out.add(j);
    }
    return [...out].sort((a, b) => a - b);
  }

  /** `s` with every value replaced, as comparing it with each value in turn (longest first) would. */
  redact(s: string, pointer: string, own: boolean): string {
    let out = s;
    let from = 0;
    // candidates are worked out again after each replacement: the markers put in may hold another value
    for (let changed = true; changed; ) {
      changed = false;
      for (const j of this.candidates(out, from)) {
        const v = this.values[j] as SecretValue;
        // neither the value nor its quoted form fits in a shorter text (the markers replacing values may make it longer)
        if (v.text.length > out.length) continue;
        const next = redactValue(out, v, pointer, own);
        if (next !== out) {
          out = next;
          from = j + 1;
          changed = true;
          break;
        }
      }
    }
    return out;
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

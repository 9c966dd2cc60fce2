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

interface SecretValue {
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

function redactText(s: string, values: readonly SecretValue[], pointer: string, own: boolean): string {
  let out = s;
  for (const v of values) {
    // neither the value nor its quoted form fits in a shorter text (the markers replacing values may make it longer)
    if (v.text.length > out.length) continue;
    if (out.includes(v.quoted)) out = out.split(v.quoted).join(v.quotedMarker);
    const raw = own ? v.text.length >= MIN_RAW_LENGTH || pointer === v.pointer || pointer.startsWith(`${v.pointer}/`) : v.text.length >= MIN_RAW_LENGTH_ELSEWHERE;
    if (raw && out.includes(v.text)) out = out.split(v.text).join(v.marker);
  }
  return out;
}

function redactFinding(f: Finding, values: readonly SecretValue[], own: boolean): Finding {
  const message = redactText(f.message, values, f.path, own);
  const hint = f.hint === undefined ? undefined : redactText(f.hint, values, f.path, own);
  if (message === f.message && hint === f.hint) return f;
  return { ...f, message, ...(hint !== undefined ? { hint } : {}) };
}

/** Results with every secret value of `resources` redacted from every finding (results without one are returned as is). */
export function redactResults(resources: readonly Pick<ParsedResource, "apiVersion" | "kind" | "object" | "file" | "index">[], results: readonly ResourceResult[]): ResourceResult[] {
  const values = secretValues(resources);
  if (values.length === 0) return [...results];
  const secrets = new Set(resources.filter(isSecret).map((r) => `${r.file}\u0000${r.index}`));
  return results.map((r) => {
    const own = secrets.has(`${r.file}\u0000${r.index}`);
    const findings = r.findings.map((f) => redactFinding(f, values, own));
    return findings.every((f, i) => f === r.findings[i]) ? r : { ...r, findings };
  });
}

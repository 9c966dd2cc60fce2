// Report text from hostile input made safe to print: control characters (C0, DEL, C1), line and paragraph
// separators and bidirectional overrides are written as visible escapes, so a kind or name cannot forge an
// output line (`::error ...`, `Summary: ...`), colour a terminal, or break JUnit XML.
import type { Finding, Report, ResourceResult } from "../types.ts";

// C0 (tab and newline included: every format is one line per finding), DEL, C1, U+2028/2029, bidi embeddings,
// overrides and isolates, and lone surrogates (not representable in UTF-8 output)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const visible = (c: string) => {
  const code = c.charCodeAt(0);
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "\t") return "\\t";
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
};

/** `s` with every unsafe character as a visible escape (`\n`, `\x1b`, `\u202e`). */
export function safeText(s: string): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(s) ? s.replace(UNSAFE, visible) : s;
}

/**
 * `s` for Markdown (a pull-request comment): safe as text (above), then every character that Markdown or
 * HTML gives a meaning written as an HTML character reference, which GitHub shows as the character itself:
 * `<` `>` `&` (no tags such as `</details>`), `|` (no table cells), backticks, `*` `_` `~` `[` `]` `\`
 * (no formatting or links) and `@` (no mentions). Valid inside `<code>`, table cells and headings alike.
 */
export function safeMarkdown(s: string): string {
  return safeText(s).replace(/[&<>"'|`*_~[\]\\@#!]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `s` cut to at most `max` characters (an ellipsis in the middle, so both ends stay readable): for names in a bounded comment. */
export function shorten(s: string, max = 120): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = Math.ceil((max - 1) / 2);
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - (max - 1 - head)).join("")}`;
}

const safeFinding = (f: Finding): Finding => ({
  ...f,
  path: safeText(f.path),
  message: safeText(f.message),
  rule: safeText(f.rule),
  ...(f.hint !== undefined ? { hint: safeText(f.hint) } : {}),
});

/** One result with every string made safe to print (for writers that go resource by resource). */
export const safeResult = (r: ResourceResult): ResourceResult => ({
  ...r,
  file: safeText(r.file),
  apiVersion: safeText(r.apiVersion),
  kind: safeText(r.kind),
  name: safeText(r.name),
  namespace: safeText(r.namespace),
  findings: r.findings.map(safeFinding),
});

/** The report with every string made safe to print (a copy; the report is unchanged). */
export function sanitizeReport(report: Report): Report {
  return { ...report, resources: report.resources.map(safeResult) };
}

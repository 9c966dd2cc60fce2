// writeReport(): the output formats written piece by piece, byte for byte what formatReport returns, so a
// large report is never one large string (on 50,000 objects the JSON text alone is 13 MB, and building it
// in one piece took ~50 MB more at peak than the run itself).
import type { Report } from "../types.ts";
import { rowsOf } from "../result-store.ts";
import { safeText } from "./sanitize.ts";
import { type FormatOptions, formatGithub, formatText, jsonResource, junitLines, type OutputFormat, sarifDocument } from "./format.ts";

/** Collects small pieces and hands them on in chunks of about 64 KB. */
class Chunks {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly sink: (chunk: string) => void) {}
  push(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= 65_536) this.flush();
  }
  flush(): void {
    if (this.parts.length === 0) return;
    this.sink(this.parts.join(""));
    this.parts = [];
    this.size = 0;
  }
}

const pad = (depth: number) => "  ".repeat(depth);
/** `JSON.stringify(value, null, 2)` of a value nested `depth` levels deep in a pretty-printed document. */
const nested = (value: unknown, depth: number) => {
  const text = JSON.stringify(value, null, 2) ?? "null";
  return depth === 0 ? text : text.replace(/\n/g, `\n${pad(depth)}`);
};

/**
 * Writes `JSON.stringify(value, null, 2)` in pieces: containers down to `streamDepth` are written member by
 * member, deeper values in one piece each. Plain JSON data only (no toJSON, no undefined in arrays).
 */
export function writeJson(value: unknown, push: (s: string) => void, depth = 0, streamDepth = 3): void {
  if (depth >= streamDepth || value === null || typeof value !== "object") {
    push(nested(value, depth));
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      push("[]");
      return;
    }
    push("[\n");
    value.forEach((v, i) => {
      push(pad(depth + 1));
      writeJson(v, push, depth + 1, streamDepth);
      push(i < value.length - 1 ? ",\n" : "\n");
    });
    push(`${pad(depth)}]`);
    return;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== "function");
  if (entries.length === 0) {
    push("{}");
    return;
  }
  push("{\n");
  entries.forEach(([k, v], i) => {
    push(`${pad(depth + 1)}${JSON.stringify(k)}: `);
    writeJson(v, push, depth + 1, streamDepth);
    push(i < entries.length - 1 ? ",\n" : "\n");
  });
  push(`${pad(depth)}}`);
}

/** Resources written by one JSON.stringify (a few dozen KB of text). */
export const JSON_BATCH = 128;

/** Writes a report in `format` through `write` (called with chunks); the bytes equal formatReport's. */
export function writeReport(report: Report, format: OutputFormat, options: FormatOptions, write: (chunk: string) => void): void {
  const out = new Chunks(write);
  const push = (s: string) => out.push(s);
  switch (format) {
    case "json": {
      // the resources are mapped to the contract one at a time, never all at once
      push(`{\n  "summary": ${nested(report.summary, 1)},\n  "resources": `);
      const resources = rowsOf(report);
      if (resources.length === 0) push("[]");
      else {
        push("[\n");
        // a batch of resources at a time, nested in two arrays so that JSON.stringify writes them at their own depth
        // (2): one call a batch, and no re-indenting of each resource's text (nested() was half of writing a report)
        for (let from = 0; from < resources.length; from += JSON_BATCH) {
          const to = Math.min(resources.length, from + JSON_BATCH);
          const batch = [];
          for (let i = from; i < to; i++) batch.push(jsonResource(resources.at(i)));
          // `[\n  [\n` and `\n  ]\n]` cut off
          push(`${JSON.stringify([batch], null, 2).slice(6, -6)}${to < resources.length ? ",\n" : "\n"}`);
        }
        push("  ]");
      }
      if (report.notChecked?.length) push(`,\n  "notChecked": ${nested(report.notChecked.map(safeText), 1)}`);
      push("\n}\n");
      break;
    }
    case "sarif":
      // results are per finding (few next to resources): the document is built, then written in pieces
      writeJson(sarifDocument(report), push, 0, 4);
      push("\n");
      break;
    case "junit":
      for (const line of junitLines(report)) push(`${line}\n`);
      break;
    case "github":
      push(formatGithub(report));
      break;
    default:
      push(formatText(report, options));
  }
  out.flush();
}

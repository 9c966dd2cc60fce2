// Test helper: compares a position scanner (positions-fast.ts, positions-flow.ts) with the `yaml` library on every
// pointer of every document of a text, wherever the scanner answers.
import { pointerSegment } from "../pointer.ts";
import { documentSpans, yamlOffset } from "../positions.ts";
import { yamlLib } from "../yaml-lib.ts";

/** A scanner's answer: the offset of the value at `pointer` in `text[start, end)`, or undefined when it cannot tell. */
export type Scanner = (text: string, start: number, end: number, pointer: string) => number | undefined;

/**
 * Every pointer of a value, plus a missing key below each map and a missing index below each list (and, with
 * `nonNumericIndex`, a key that is no index below each list).
 */
export function pointers(value: unknown, at = "", nonNumericIndex = false): string[] {
  const out = [at];
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push(...pointers(v, `${at}/${i}`, nonNumericIndex));
    });
    out.push(`${at}/${value.length}`, ...(nonNumericIndex ? [`${at}/x`] : []));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...pointers(v, `${at}/${pointerSegment(k)}`, nonNumericIndex));
    out.push(`${at}/no-such-key`);
  }
  return out;
}

/** How many pointers the scanner answered, of how many, and each answer that differs from `yaml`'s (named `label`). */
export function compareWithYaml(text: string, scan: Scanner, label: string, nonNumericIndex = false): { answered: number; total: number; mismatches: string[] } {
  const lib = yamlLib();
  let answered = 0;
  let total = 0;
  const mismatches: string[] = [];
  for (const span of documentSpans(text)) {
    const doc = lib.parseDocument(text.slice(span.start, span.end), { prettyErrors: false, uniqueKeys: false });
    if (doc.errors.length > 0) continue;
    for (const p of pointers(doc.toJS({ maxAliasCount: 100 }), "", nonNumericIndex)) {
      total++;
      const fast = scan(text, span.start, span.end, p);
      if (fast === undefined) continue;
      answered++;
      const slow = yamlOffset(doc, p);
      if (slow === undefined || fast !== span.start + slow) mismatches.push(`${p}: ${label} ${fast}, yaml ${slow === undefined ? "none" : span.start + slow}`);
    }
  }
  return { answered, total, mismatches };
}

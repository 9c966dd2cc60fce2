// A line scanner that finds where a JSON Pointer points in block-style YAML without parsing the document:
// rendered manifests are block YAML, and parsing each invalid document again with `yaml` only to locate its
// findings cost more than validating it. Anything the scanner is not sure of (flow collections, quoted or
// complex keys, anchors, aliases, tags, tabs on the path) returns undefined and positions.ts asks `yaml`; a flow
// collection on the path is handed to the flow scanner (positions-flow.ts).
// positions-fast.test.ts compares both on every finding of the fixtures and on every path of the bench corpus.

import { flowOffsetFrom } from "./positions-flow.ts";

interface Line {
  /** Offset of the line's first character in the text. */
  readonly start: number;
  /** Indentation (spaces); -1 for blank and comment-only lines. */
  readonly indent: number;
  readonly text: string;
}

/** A document marker line (`---` or `...` at column 0, then a blank or the line's end): no content of the document. */
const MARKER_LINE = /^(---|\.\.\.)(\s|$)/;

/**
 * The lines of `text[from, to)`, without its document marker lines (`---`, `...` at column 0).
 * Most lines are spaces and then printable ASCII: their indentation is counted here; a line that starts otherwise
 * (another blank character after the spaces: trimStart's idea of white space is Unicode's) is measured with
 * trimStart, as every line was. Written by character code: a run locates the findings of hundreds of files, cold
 * (V8 has not optimised this code yet), and the slice, regular-expression replace and trimStart of every line were
 * most of this function's time.
 */
function linesOf(text: string, from: number, to: number): Line[] {
  const out: Line[] = [];
  let start = from;
  while (start < to) {
    let end = text.indexOf("\n", start);
    if (end < 0 || end > to) end = to;
    const stop = end > start && text.charCodeAt(end - 1) === 13 /* \r */ ? end - 1 : end;
    let i = start;
    while (i < stop && text.charCodeAt(i) === 32) i++;
    const c = i < stop ? text.charCodeAt(i) : -1;
    let indent: number;
    let raw: string;
    if (c > 32 && c < 127) {
      raw = text.slice(start, stop);
      indent = c === 35 /* # */ ? -1 : i - start;
      // a marker line is no content of the document
      if (indent === 0 && (c === 45 || c === 46) && MARKER_LINE.test(raw)) {
        start = end + 1;
        continue;
      }
    } else if (c === -1) {
      raw = text.slice(start, stop);
      indent = -1;
    } else {
      raw = text.slice(start, end).replace(/\r$/, "");
      const body = raw.trimStart();
      indent = body === "" || body.startsWith("#") ? -1 : raw.length - body.length;
      if (indent === 0 && MARKER_LINE.test(raw)) {
        start = end + 1;
        continue;
      }
    }
    out.push({ start, indent, text: raw });
    start = end + 1;
  }
  return out;
}

/**
 * The content lines of `text[from, to)` (marker lines dropped), or undefined when it holds a tab. The last
 * document's lines are kept: the items of a `kind: List` are results of their own that share one document, and
 * cutting it into lines for each of their findings made a List of n items cost n times its size.
 */
function documentLines(text: string, from: number, to: number): readonly Line[] | undefined {
  if (last !== undefined && last.text === text && last.from === from && last.to === to) return last.lines;
  const tab = text.indexOf("\t", from);
  const lines = tab >= 0 && tab < to ? undefined : linesOf(text, from, to);
  last = { text, from, to, lines };
  return lines;
}
let last: { readonly text: string; readonly from: number; readonly to: number; readonly lines: readonly Line[] | undefined } | undefined;

/**
 * Nodes of a document spanning at least this many lines have their sequence items and value extents kept (see
 * `memoOf`): below it, scanning again is cheaper than a key and a map entry.
 */
const MEMO_LINES = 64;

/**
 * What was worked out about the large nodes of the last document's lines: the line of each item of a sequence,
 * and where a key's value ends. The items of a `kind: List` are results of their own whose findings all go
 * through the List's `items`: scanning that sequence from its first line for every finding made a List of n
 * items with findings cost n times its size (its lines are kept by documentLines; this keeps the walk).
 */
interface Memo {
  readonly items: Map<string, readonly number[]>;
  readonly extents: Map<string, number>;
}
const memos = new WeakMap<readonly Line[], Memo>();
function memoOf(lines: readonly Line[]): Memo {
  let m = memos.get(lines);
  if (!m) {
    m = { items: new Map(), extents: new Map() };
    memos.set(lines, m);
  }
  return m;
}

/** The lines of the items of the sequence node at [lo, hi) (items at `firstIndent`; the first line's content at `firstCol`), in order. */
function sequenceItems(lines: readonly Line[], lo: number, hi: number, firstIndent: number, firstCol: number, stopAt: number): number[] {
  const items: number[] = [];
  for (let i = lo; i < hi; i++) {
    const l = lines[i] as Line;
    if (l.indent < 0) continue;
    const col = i === lo ? firstCol : l.indent;
    if (col < firstIndent) break;
    if (col !== firstIndent) continue;
    const c = l.text.slice(col);
    if (!(c.startsWith("- ") || c === "-")) break;
    items.push(i);
    if (items.length > stopAt) break;
  }
  return items;
}

/** The end (exclusive) of the value of a key at column `col` whose value starts on line `next`. */
function valueEnd(lines: readonly Line[], next: number, hi: number, col: number, seqAtKey: boolean): number {
  let end = next + 1;
  while (end < hi) {
    const l = lines[end] as Line;
    if (l.indent < 0 || l.indent > col || (seqAtKey && l.indent === col && /^-( |$)/.test(l.text.slice(col)))) end++;
    else break;
  }
  return end;
}

// a plain key (no quotes, no flow, no anchors/tags/complex keys) and what follows its colon
const KEY = /^([^\s"'#&*!?{}[\],|>%@`-][^:#]*?|-[^\s:#][^:#]*?)[ \t]*:(?:[ \t]+(.*))?$/;

/** The node a pointer names inside block YAML `text[from, to)`, as an offset (a key's, or an item's content), or undefined when unsure. */
export function fastOffset(text: string, from: number, to: number, pointer: string): number | undefined {
  const lines = documentLines(text, from, to);
  if (lines === undefined) return undefined;
  // the current node: lines [lo, hi) and, for an item's first line, a virtual indentation
  let lo = lines.findIndex((l) => l.indent >= 0);
  if (lo < 0) return undefined;
  let hi = lines.length;
  // the first line of a node may be a sequence item's line, whose content starts after "- "
  let firstIndent = (lines[lo] as Line).indent;
  let firstCol = firstIndent;
  let offset = (lines[lo] as Line).start + firstCol;
  if (/^[%]/.test((lines[lo] as Line).text)) return undefined;
  if (pointer === "") return offset;
  const segments = pointer.slice(1).split("/");
  // indexed: an entries() iterator and its destructuring cost more than most steps of this walk, cold
  for (let at = 0; at < segments.length; at++) {
    const raw = segments[at] as string;
    const last = at === segments.length - 1;
    const key = raw.includes("~") ? raw.replace(/~1/g, "/").replace(/~0/g, "~") : raw;
    // a scalar has no children: the pointer names something that does not exist
    if (firstIndent === Number.POSITIVE_INFINITY) return offset;
    // the node's own lines: the first (at firstCol) and the following content lines
    const first = lines[lo] as Line;
    const content = first.text.slice(firstCol);
    if (content.startsWith("- ") || content === "-") {
      // a sequence: items are lines at the node's indentation starting with "-"
      if (!/^\d+$/.test(key)) return offset;
      const want = Number(key);
      let items: readonly number[];
      if (hi - lo < MEMO_LINES) items = sequenceItems(lines, lo, hi, firstIndent, firstCol, want);
      else {
        // every item's line, once per sequence: the next finding in another item looks it up
        const { items: known } = memoOf(lines);
        const memoKey = `${lo}:${hi}:${firstIndent}:${firstCol}`;
        let all = known.get(memoKey);
        if (all === undefined) {
          all = sequenceItems(lines, lo, hi, firstIndent, firstCol, Number.POSITIVE_INFINITY);
          known.set(memoKey, all);
        }
        items = all;
      }
      const found = items[want] ?? -1;
      if (found < 0) return offset;
      const line = lines[found] as Line;
      const col = found === lo ? firstCol : line.indent;
      const after = line.text.slice(col + 1);
      const pad = after.length - after.trimStart().length;
      // the item ends at the next line at or left of the dash
      let end = found + 1;
      while (end < hi && ((lines[end] as Line).indent < 0 || (lines[end] as Line).indent > col)) end++;
      if (after.trim() === "") {
        // the item's content starts on the next line
        let next = found + 1;
        while (next < end && (lines[next] as Line).indent < 0) next++;
        if (next >= end) return line.start + col;
        lo = next;
        hi = end;
        firstIndent = firstCol = (lines[next] as Line).indent;
        offset = (lines[next] as Line).start + firstCol;
      } else {
        const c = col + 1 + pad;
        // an item in flow style (`- {name: a}`): the flow scanner reads the rest of the path
        if (/^[{[]/.test(line.text.slice(c))) return last ? line.start + c : flowOffsetFrom(text, line.start + c, to, segments.slice(at + 1), line.start + c);
        if (/^[&*!|>"']/.test(line.text.slice(c))) return undefined;
        lo = found;
        hi = end;
        firstIndent = firstCol = c;
        offset = line.start + c;
      }
      continue;
    }
    // a mapping: keys are lines at the node's indentation
    let found = -1;
    let value = "";
    let valueCol = 0;
    for (let i = lo; i < hi; i++) {
      const l = lines[i] as Line;
      if (l.indent < 0) continue;
      const col = i === lo ? firstCol : l.indent;
      if (col < firstIndent) break;
      if (col !== firstIndent) continue;
      const c = l.text.slice(col);
      // a sequence at the key's indentation is the value of the key before it
      if (c.startsWith("- ") || c === "-") continue;
      const stripped = c.replace(/[ \t]+#.*$/, "");
      const m = KEY.exec(stripped);
      if (!m) return undefined;
      if (m[1] === key) {
        found = i;
        value = (m[2] ?? "").trim();
        valueCol = stripped.length - (m[2] ?? "").trimStart().length;
        break;
      }
    }
    if (found < 0) return offset;
    const line = lines[found] as Line;
    const col = found === lo ? firstCol : line.indent;
    offset = line.start + col;
    if (value !== "") {
      // a value on the key's line: a scalar ends the walk; below anything else is for `yaml` to read
      if (last) return offset;
      // a value in flow style (`labels: {a: b}`, `args: [x]`): the flow scanner reads the rest of the path
      if (/^[{[]/.test(value)) return flowOffsetFrom(text, line.start + col + valueCol, to, segments.slice(at + 1), offset);
      if (/^[&*!]/.test(value)) return undefined;
      if (/^[|>]/.test(value)) return offset;
      lo = found;
      hi = found + 1;
      firstIndent = firstCol = Number.POSITIVE_INFINITY; // a scalar has no children
      continue;
    }
    // the value: following lines indented more than the key, or a sequence at the key's indentation
    let next = found + 1;
    while (next < hi && (lines[next] as Line).indent < 0) next++;
    if (next >= hi) {
      lo = found;
      hi = found + 1;
      firstIndent = firstCol = Number.POSITIVE_INFINITY;
      continue;
    }
    const n = lines[next] as Line;
    const seqAtKey = n.indent === col && /^-( |$)/.test(n.text.slice(col));
    if (n.indent <= col && !seqAtKey) {
      lo = found;
      hi = found + 1;
      firstIndent = firstCol = Number.POSITIVE_INFINITY;
      continue;
    }
    let end: number;
    if (hi - next < MEMO_LINES) end = valueEnd(lines, next, hi, col, seqAtKey);
    else {
      const { extents } = memoOf(lines);
      const memoKey = `${next}:${hi}:${col}:${seqAtKey}`;
      let known = extents.get(memoKey);
      if (known === undefined) {
        known = valueEnd(lines, next, hi, col, seqAtKey);
        extents.set(memoKey, known);
      }
      end = known;
    }
    lo = next;
    hi = end;
    firstIndent = firstCol = n.indent;
    if (/^[&*!{["'?]/.test(n.text.slice(n.indent))) return undefined;
  }
  return offset;
}

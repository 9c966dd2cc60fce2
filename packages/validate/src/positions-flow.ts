// A scanner that finds where a JSON Pointer points in JSON and flow-style YAML without parsing the document, the
// counterpart of positions-fast.ts (block YAML): JSON text and flow style were located by parsing each document
// with `yaml` again, which cost more than validating it (issue 19). It skips what the pointer does not name
// (strings, nested collections) with a character loop and reads only the keys on the way. Anything it is not sure
// of (anchors, aliases, tags, complex or implicit keys, plain keys YAML would read as something other than the
// same string, block content) returns undefined and positions.ts asks `yaml`. positions-flow.test.ts compares both
// on every finding of the fixtures and on every path of the bench corpus in flow and JSON shapes.

import { isFlowIndicator } from "./yaml-fast.ts";

/** Where a pointer leads: the offset to report, or undefined when unsure. */
type Located = number | undefined;

/** A space, tab or line break (by character code: the scanner loops over every character of a plain scalar). */
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** What makes a double-quoted key more than the text between its quotes: an escape, or a control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
const SPECIAL_IN_DOUBLE = /[\\\x00-\x1f]/;

class FlowScanner {
  constructor(
    private readonly text: string,
    private readonly end: number,
  ) {}

  /** Skips whitespace and comments (a `#` after whitespace or at a line start, to the line end). */
  skip(at: number): number {
    const t = this.text;
    let i = at;
    while (i < this.end) {
      const c = t.charCodeAt(i);
      // isSpace written out: this loop runs over every indentation of a JSON text, mostly before V8 optimises it
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else if (c === 35 /* # */ && (i === 0 || isSpace(t.charCodeAt(i - 1)))) {
        const nl = t.indexOf("\n", i);
        i = nl < 0 || nl > this.end ? this.end : nl + 1;
      } else break;
    }
    return i;
  }

  /** The end of a double-quoted scalar starting at `at` (after its closing quote), or -1. */
  private doubleEnd(at: number): number {
    const t = this.text;
    // from quote to quote with indexOf: a quote ends the scalar unless an odd run of backslashes escapes it
    for (let from = at + 1; ; ) {
      const quote = t.indexOf('"', from);
      if (quote < 0 || quote >= this.end) return -1;
      let slash = quote;
      while (slash > at + 1 && t.charCodeAt(slash - 1) === 92 /* \ */) slash--;
      if ((quote - slash) % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  }

  /** The end of a single-quoted scalar starting at `at` (`''` is a quote inside), or -1. */
  private singleEnd(at: number): number {
    const t = this.text;
    for (let i = at + 1; i < this.end; i++) {
      if (t.charCodeAt(i) === 39 /* ' */) {
        if (t.charCodeAt(i + 1) === 39) i++;
        else return i + 1;
      }
    }
    return -1;
  }

  /** The end of a plain scalar in flow context: before `,[]{}`, `: `/`:` + indicator, ` #`, trailing spaces excluded. */
  private plainEnd(at: number): number {
    const t = this.text;
    let i = at;
    let last = at;
    while (i < this.end) {
      const c = t.charCodeAt(i);
      if (isFlowIndicator(c)) break;
      if (c === 58 /* : */ && (i + 1 >= this.end || isSpace(t.charCodeAt(i + 1)) || isFlowIndicator(t.charCodeAt(i + 1)))) break;
      if (c === 35 /* # */ && i > at && isSpace(t.charCodeAt(i - 1))) break;
      i++;
      if (!isSpace(c)) last = i;
    }
    return last;
  }

  /** The end of the scalar at `at`, or -1 for what this scanner does not read (anchors, tags, aliases, block scalars, complex keys). */
  scalarEnd(at: number): number {
    const c = this.text[at];
    if (c === '"') return this.doubleEnd(at);
    if (c === "'") return this.singleEnd(at);
    if (c === undefined || "&*!|>?%@`".includes(c) || ((c === "-" || c === ":") && (at + 1 >= this.text.length || isSpace(this.text.charCodeAt(at + 1))))) return -1;
    return this.plainEnd(at);
  }

  /** The end of the value (scalar or collection) at `at`, or -1. */
  valueEnd(at: number): number {
    const c = this.text[at];
    if (c !== "{" && c !== "[") return this.scalarEnd(at);
    const close = c === "{" ? "}" : "]";
    let i = this.skip(at + 1);
    for (;;) {
      if (i >= this.end) return -1;
      if (this.text[i] === close) return i + 1;
      const e = this.valueEnd(i);
      if (e < 0) return -1;
      i = this.skip(e);
      // a map's value, or a single-pair map inside a sequence (`[a: b]`)
      if (this.text[i] === ":") {
        i = this.skip(i + 1);
        if (this.text[i] !== "," && this.text[i] !== close) {
          const v = this.valueEnd(i);
          if (v < 0) return -1;
          i = this.skip(v);
        }
      }
      if (this.text[i] === ",") i = this.skip(i + 1);
      else if (this.text[i] !== close) return -1;
    }
  }

  /** The string a key at [at, end) stands for, as `yaml` would print it, or undefined when unsure. */
  keyText(at: number, end: number): string | undefined {
    const raw = this.text.slice(at, end);
    const c = raw[0];
    if (c === '"') {
      // no escape and no control character (a line break included): the text between the quotes, as JSON.parse reads it
      if (!SPECIAL_IN_DOUBLE.test(raw)) return raw.slice(1, -1);
      // YAML's escapes are JSON's plus a few (\x, \e, \N...): those are left to `yaml`
      if (/\\[^"\\/bfnrtu]/.test(raw)) return undefined;
      try {
        return JSON.parse(raw.replace(/\r?\n[ \t]*/g, " ")) as string;
      } catch {
        return undefined;
      }
    }
    if (c === "'") return raw.includes("\n") ? undefined : raw.slice(1, -1).replaceAll("''", "'");
    // a plain key YAML reads as null, a boolean or a number in another spelling is not the same string
    if (/^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE)$/.test(raw) || raw.includes("\n")) return undefined;
    if (/^[-+.0-9]/.test(raw) && !/^(?:0|[1-9][0-9]*)$/.test(raw)) return undefined;
    return raw;
  }
}

const unescapeSegment = (raw: string) => (raw.includes("~") ? raw.replace(/~1/g, "/").replace(/~0/g, "~") : raw);

/**
 * The offset of the node `segments` name, starting at the flow collection at `at` whose own offset (a key's, or the
 * collection's) is `offset`: the offset of the deepest node that exists, as yamlOffset (positions.ts) reports it.
 */
export function flowOffsetFrom(text: string, at: number, to: number, segments: readonly string[], offset: number): Located {
  const s = new FlowScanner(text, to);
  let pos = at;
  let current = offset;
  for (const raw of segments) {
    const c = text[pos];
    if (c === "{") {
      const key = unescapeSegment(raw);
      let i = s.skip(pos + 1);
      let next: number | undefined;
      while (next === undefined) {
        if (i >= to) return undefined;
        if (text[i] === "}") return current;
        const keyEnd = s.scalarEnd(i);
        if (keyEnd < 0) return undefined;
        const name = s.keyText(i, keyEnd);
        if (name === undefined) return undefined;
        let j = s.skip(keyEnd);
        // `{a, b}`: keys without values are for `yaml` to read
        if (text[j] !== ":") return undefined;
        j = s.skip(j + 1);
        if (name === key) {
          current = i;
          next = j;
          break;
        }
        if (text[j] !== "," && text[j] !== "}") {
          const v = s.valueEnd(j);
          if (v < 0) return undefined;
          j = s.skip(v);
        }
        if (text[j] === ",") i = s.skip(j + 1);
        else if (text[j] === "}") return current;
        else return undefined;
      }
      pos = next;
    } else if (c === "[") {
      if (!/^\d+$/.test(raw)) return current;
      const want = Number(raw);
      let i = s.skip(pos + 1);
      for (let k = 0; ; k++) {
        if (i >= to) return undefined;
        if (text[i] === "]") return current;
        const e = s.valueEnd(i);
        if (e < 0) return undefined;
        let j = s.skip(e);
        // `[a: b]` is a map inside the sequence: for `yaml`
        if (text[j] === ":") return undefined;
        if (k === want) {
          current = i;
          break;
        }
        if (text[j] === ",") j = s.skip(j + 1);
        else if (text[j] !== "]") return undefined;
        i = j;
      }
      pos = current;
    } else {
      // a scalar has no children (or an anchor, tag or alias: for `yaml`)
      return c === undefined || "&*!|>".includes(c) ? undefined : current;
    }
    const v = text[pos];
    if (v === "&" || v === "*" || v === "!") return undefined;
  }
  return current;
}

/** The first content of a document span (after blanks, comments, directives end and `---`), or -1. */
function contentStart(text: string, from: number, to: number): number {
  const s = new FlowScanner(text, to);
  let i = s.skip(from);
  if (text.startsWith("---", i) && (i + 3 >= to || isSpace(text.charCodeAt(i + 3)))) i = s.skip(i + 3);
  return i < to ? i : -1;
}

/** Whether the document in text[from, to) is one flow collection (JSON or flow-style YAML), which flowOffset reads. */
export function isFlowDocument(text: string, from: number, to: number): boolean {
  const at = contentStart(text, from, to);
  if (at < 0 || (text[at] !== "{" && text[at] !== "[")) return false;
  const end = new FlowScanner(text, to).valueEnd(at);
  if (end < 0) return false;
  // nothing but blanks, comments and a `...` after it
  const after = contentStart(text, end, to);
  return after < 0 || (text.startsWith("...", after) && contentStart(text, after + 3, to) < 0);
}

/** The offset a pointer names in the flow document text[from, to) (as yamlOffset gives it), or undefined when unsure. */
export function flowOffset(text: string, from: number, to: number, pointer: string): Located {
  const at = contentStart(text, from, to);
  if (at < 0) return undefined;
  return flowOffsetFrom(text, at, to, pointer === "" ? [] : pointer.slice(1).split("/"), at);
}

/** The string value of a top-level key of a flow document (to check a span is the expected resource's), or undefined. */
export function flowTopString(text: string, from: number, to: number, key: string): string | undefined {
  const at = contentStart(text, from, to);
  if (at < 0 || text[at] !== "{") return undefined;
  const keyAt = flowOffsetFrom(text, at, to, [key], at);
  if (keyAt === undefined || keyAt === at) return undefined;
  const s = new FlowScanner(text, to);
  const keyEnd = s.scalarEnd(keyAt);
  const colon = s.skip(keyEnd);
  const v = s.skip(colon + 1);
  const vEnd = s.scalarEnd(v);
  return vEnd < 0 ? undefined : s.keyText(v, vEnd);
}

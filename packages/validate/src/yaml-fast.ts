// A block-YAML fast path for the reader (issue 19): the subset real manifests use, read in one pass to exactly the
// documents js-yaml (with the YAML 1.1 scalar rules of yaml11.ts) reads; anything else returns undefined and takes
// js-yaml's general path, which keeps every error, anchor, tag and merge key as it was.
// Hand-written: js-yaml was the largest single cost on block YAML (composeNode, readPlainScalar, readBlockMapping...),
// and neither YAML library has a faster mode. The rules below follow js-yaml 4.3.2 lib/loader.js (readDocument,
// readBlockMapping, readBlockSequence, readPlainScalar, the quoted readers, readBlockScalar, readFlowCollection);
// a property test (yaml-fast.test.ts) holds the two side by side on generated documents, fixtures and corpora.
//
// The subset: block mappings and sequences (compact `- key: v` items, sequences at their key's indentation), plain
// scalars (on one line, or a value over more indented lines, as go-yaml and kustomize wrap long strings), single- and
// double-quoted scalars (a value's over lines too), `|` and `>` block scalars with their indicators, comments, `---`
// separators, empty documents, one-line flow collections of scalars, and a document that is one flow collection
// (flow-style YAML: on one line, or with line breaks and comments between its tokens). Outside it (left to js-yaml):
// anchors, aliases, tags, directives, `?` and `:` explicit entries, `<<` merge keys, a quoted key or flow entry over
// lines, a multi-line plain scalar with a comment line, or `: ` or ` #`, in its later lines, a scalar on the line
// below its key, a flow entry without a value, a flow collection inside block YAML that spans lines, tabs, control
// and non-ASCII line-break characters, lone surrogates, `...`, duplicate keys, `__proto__`, nesting past MAX_DEPTH,
// and any indentation js-yaml would refuse.
//
// Flow-style documents (issue 19): flow 5,000 of the bench, which js-yaml read through its general path
// (composeNode, readFlowCollection, readPlainScalar: ~0.2 s of the read-ahead worker's ~0.8 s, the worker the busier
// thread), 11 interleaved rounds: 0.83 -> 0.69 s, CPU 1.49 -> 1.22 s (ours/kubeconform 0.88 -> 0.73).
import { resolveYaml11 } from "./yaml11.ts";

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;
const DOT = 0x2e;
const DQ = 0x22;
const SQ = 0x27;
const COMMA = 0x2c;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const PIPE = 0x7c;
const GT = 0x3e;
const QUESTION = 0x3f;
const BACKSLASH = 0x5c;

/** Thrown where the text leaves the subset (a constant, so no stack is captured); readBlockYaml returns undefined. */
const BAIL = { bail: "yaml-fast" };
const bail = (): never => {
  throw BAIL;
};

/** Collections nested deeper go to js-yaml (its own limit is 100 nodes deep; the reader's is far beyond). */
const MAX_DEPTH = 40;

/**
 * Characters js-yaml refuses in scalars, or reads in ways this path does not follow: C0 controls and tab, DEL and C1
 * controls (NEL included), U+2028/2029, a BOM past the start, U+FFFE/FFFF, lone surrogates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters looked for
const UNSAFE = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Indicators that cannot begin a plain scalar (js-yaml readPlainScalar): `,[]{}#&*!|>'"%@` and backquote. */
const NOT_PLAIN_START = new Uint8Array(128);
for (const c of ",[]{}#&*!|>'\"%@`") NOT_PLAIN_START[c.charCodeAt(0)] = 1;

/** Characters a block plain scalar looks at: line breaks, `:`, `#` and the space (which is not part of its end). */
const PLAIN_SPECIAL = new Uint8Array(128);
for (const c of "\n\r:# ") PLAIN_SPECIAL[c.charCodeAt(0)] = 1;

const SIMPLE_ESCAPES = new Map<number, string>([
  [0x30, "\x00"],
  [0x61, "\x07"],
  [0x62, "\x08"],
  [0x74, "\x09"],
  [0x6e, "\x0a"],
  [0x76, "\x0b"],
  [0x66, "\x0c"],
  [0x72, "\x0d"],
  [0x65, "\x1b"],
  [0x20, " "],
  [0x22, '"'],
  [0x2f, "/"],
  [0x5c, "\\"],
  [0x4e, "\x85"],
  [0x5f, "\xa0"],
  [0x4c, "\u2028"],
  [0x50, "\u2029"],
]);

// The reader's state: one text at a time (the module is never re-entered).
let s = "";
let pos = 0;
/** Where the current line starts. */
let lineStart = 0;
/** The current content line's indentation, or -1 at the end of the text or on a `---` line, which close every block. */
let indent = 0;
/** Whether the current content line is a `---` separator. */
let atSeparator = false;
let depth = 0;
/**
 * Whether line breaks (and comments) may come between the entries of a flow collection: in one that is a whole
 * document. A flow collection inside block YAML stays on its line (js-yaml's indentation rules for one that spans
 * lines are not followed here).
 */
let flowLines = false;
/** Why the last plain scalar in block context stopped. */
let stop: "eol" | "colon" | "comment" = "eol";

const isEol = (c: number): boolean => c === LF || c === CR;
const isSpaceOrEol = (c: number): boolean => c === SPACE || c === LF || c === CR;
/** `,`, `[`, `]`, `{` or `}` (also the flow scanner's, positions-flow.ts). */
export const isFlowIndicator = (c: number): boolean => c === COMMA || c === LBRACKET || c === RBRACKET || c === LBRACE || c === RBRACE;
const isDashItem = (at: number): boolean => s.charCodeAt(at) === DASH && isSpaceOrEol(s.charCodeAt(at + 1));
/** Whether `---` or `...` begins at `at` (a document marker, when at a line's start and followed by a space or the line's end). */
const isMarkerAt = (at: number): boolean => {
  const c = s.charCodeAt(at);
  return (c === DASH || c === DOT) && s.charCodeAt(at + 1) === c && s.charCodeAt(at + 2) === c;
};
/** What js-yaml writes for `breaks` line breaks inside a folded scalar (writeFoldedLines): a space for one, n-1 line feeds for n. */
const folded = (breaks: number): string => (breaks === 1 ? " " : "\n".repeat(breaks - 1));

/**
 * The documents js-yaml's loadAll (schema YAML11_SCHEMA) reads from this text, or undefined where the text leaves
 * the subset this path reads (js-yaml then reads it, to a value or an error).
 */
export function readBlockYaml(text: string): unknown[] | undefined {
  if (text.length === 0) return [];
  // as js-yaml's loadDocuments: a line break added at the end, then a BOM removed
  let t = text;
  if (!isEol(t.charCodeAt(t.length - 1))) t += "\n";
  if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
  if (UNSAFE.test(t)) return undefined;
  // js-yaml reads documents while its position (past the leading spaces) is before the last character
  let lead = 0;
  while (t.charCodeAt(lead) === SPACE) lead++;
  if (lead >= t.length - 1) return [];
  s = t;
  pos = 0;
  depth = 0;
  try {
    return readDocuments();
  } catch {
    // BAIL, or (a fault here) anything else: js-yaml reads the text, as it would without this path
    return undefined;
  } finally {
    s = "";
    flowLines = false;
  }
}

function readDocuments(): unknown[] {
  const documents: unknown[] = [];
  for (;;) {
    skipToContent();
    if (atSeparator) {
      pos += 3;
      endLine();
      skipToContent();
    }
    let node: unknown = null;
    const c = s.charCodeAt(pos);
    if (indent >= 0 && (c === LBRACE || c === LBRACKET)) {
      // a flow collection as the whole document (flow-style YAML, JSON-like text that is not plain JSON): its lines
      // may break between entries (see skipFlowSpace); after it only a comment, then the next document or the end
      flowLines = true;
      node = readFlow();
      flowLines = false;
      endLine();
      skipToContent();
      if (indent >= 0) bail();
    } else if (indent >= 0) {
      node = readNode(indent);
      // after the document: the end of the text or a separator
      if (indent >= 0) bail();
    }
    documents.push(node);
    if (!atSeparator) return documents;
  }
}

/** Moves from a line start to the next line with content (skipping blank and comment lines); sets indent. */
function skipToContent(): void {
  for (;;) {
    if (pos >= s.length) {
      indent = -1;
      atSeparator = false;
      return;
    }
    lineStart = pos;
    let c = s.charCodeAt(pos);
    while (c === SPACE) c = s.charCodeAt(++pos);
    if (c === HASH) {
      do c = s.charCodeAt(++pos);
      while (!isEol(c));
    }
    if (isEol(c)) {
      pos = afterBreak(pos, c);
      continue;
    }
    indent = pos - lineStart;
    atSeparator = false;
    if (indent === 0 && isMarkerAt(pos)) {
      // `---` alone (or before a comment) separates documents; `...`, and `---` with content after it, go to js-yaml
      if (c === DOT || !isSpaceOrEol(s.charCodeAt(pos + 3))) bail();
      atSeparator = true;
      indent = -1;
    }
    return;
  }
}

const afterBreak = (at: number, c: number): number => (c === CR && s.charCodeAt(at + 1) === LF ? at + 2 : at + 1);

/** Skips spaces and a comment after them from pos (the character there is `c`); returns the character it stops at. */
function skipSpacesAndComment(c: number): number {
  if (c === SPACE) {
    do c = s.charCodeAt(++pos);
    while (c === SPACE);
    if (c === HASH) {
      do c = s.charCodeAt(++pos);
      while (!isEol(c));
    }
  }
  return c;
}

/** After a value on its line: spaces, a comment (after a space), the line break. */
function endLine(): void {
  const c = skipSpacesAndComment(s.charCodeAt(pos));
  if (!isEol(c)) bail();
  pos = afterBreak(pos, c);
}

/** Skips the rest of a line that holds only spaces and a comment from here on. */
function skipLine(): void {
  let c = s.charCodeAt(pos);
  while (!isEol(c)) c = s.charCodeAt(++pos);
  pos = afterBreak(pos, c);
}

/** A block sequence or mapping starting at pos, in column `column` (a scalar here goes to js-yaml). */
function readNode(column: number): unknown {
  return isDashItem(pos) ? readSequence(column) : readMapping(column);
}

function readMapping(n: number): Record<string, unknown> {
  if (++depth > MAX_DEPTH) bail();
  const result: Record<string, unknown> = {};
  for (;;) {
    const key = readKey();
    // js-yaml refuses duplicate keys and defines `__proto__` as an own property
    if (key === "__proto__" || Object.hasOwn(result, key)) bail();
    result[key] = readValue(n, true);
    if (indent === n) {
      // a `- ` item at the mapping's indentation after a key's value is a js-yaml error
      if (isDashItem(pos)) bail();
      continue;
    }
    if (indent > n) bail();
    depth--;
    return result;
  }
}

function readSequence(n: number): unknown[] {
  if (++depth > MAX_DEPTH) bail();
  const result: unknown[] = [];
  for (;;) {
    pos++;
    result.push(readValue(n, false));
    if (indent === n && isDashItem(pos)) continue;
    if (indent > n) bail();
    depth--;
    return result;
  }
}

/** A mapping key with its `:`; pos after the `:`, before a space or the line break. */
function readKey(): string {
  const c = s.charCodeAt(pos);
  let key: string;
  if (c === DQ || c === SQ) {
    key = c === DQ ? readDoubleQuoted() : readSingleQuoted();
    while (s.charCodeAt(pos) === SPACE) pos++;
  } else {
    const raw = readPlain();
    // `<<` is a merge key (yaml11.ts); an empty key is js-yaml's explicit `:` notation
    if (stop !== "colon" || raw === "<<" || raw.length === 0) bail();
    key = String(resolveYaml11(raw));
  }
  if (s.charCodeAt(pos) !== COLON || !isSpaceOrEol(s.charCodeAt(pos + 1))) bail();
  pos++;
  return key;
}

/**
 * The value after a key's `:` or a sequence's `-` (pos just after it), of a collection at indentation n; leaves pos
 * at the next content line. A value on the lines below is a collection (a mapping's value may be a sequence at the
 * mapping's own indentation); no value is null.
 */
function readValue(n: number, ofMapping: boolean): unknown {
  let c = s.charCodeAt(pos);
  while (c === SPACE) c = s.charCodeAt(++pos);
  if (c === HASH || isEol(c)) {
    skipLine();
    skipToContent();
    if (indent > n) return readNode(indent);
    if (ofMapping && indent === n && isDashItem(pos)) return readSequence(n);
    // after an empty item js-yaml's readBlockSequence takes a `- ` line of any smaller indentation as its next item
    if (!ofMapping && indent >= 0 && indent < n && isDashItem(pos)) bail();
    return null;
  }
  const column = pos - lineStart;
  if (c === PIPE || c === GT) {
    const value = readBlockScalar(n + 1);
    skipToContent();
    return value;
  }
  if (c === LBRACKET || c === LBRACE) {
    const value = readFlow();
    endLine();
    skipToContent();
    return value;
  }
  if (!ofMapping && isDashItem(pos)) return readSequence(column);
  const start = pos;
  if (c === DQ || c === SQ) {
    // a value may go on over lines (folded); a key may not (see readKey)
    const value = c === DQ ? readDoubleQuoted(true) : readSingleQuoted(true);
    if (!ofMapping) {
      let after = pos;
      while (s.charCodeAt(after) === SPACE) after++;
      if (s.charCodeAt(after) === COLON) {
        pos = start;
        return readMapping(column);
      }
    }
    endLine();
    skipToContent();
    return value;
  }
  const raw = readPlain();
  if (stop === "colon") {
    // `- key: value` begins a mapping in the item's column; `key: a: b` is a js-yaml error
    if (ofMapping) bail();
    pos = start;
    return readMapping(column);
  }
  if (stop === "eol") {
    // a value may go on over more indented lines (go-yaml and kustomize wrap long strings at ~80 columns)
    const folded = readContinuation(raw, n);
    skipToContent();
    return resolveYaml11(folded);
  }
  skipLine();
  skipToContent();
  // a more indented line after a plain scalar would continue it (multi-line) or be a js-yaml error: the callers bail
  return resolveYaml11(raw);
}

/**
 * A plain value from its first line (`first`, pos at that line's break) on, with the lines that continue it: as
 * js-yaml's readPlainScalar reads them for a value of a mapping or a sequence at indentation n, lines indented more than n,
 * each without its leading and trailing spaces, joined by a space, or by n-1 line feeds across n line breaks (blank
 * lines); the scalar ends before the first line indented n or less (blank lines before it are not part of it).
 * Left to js-yaml: a comment line among them, and a `: ` or ` #` in them (js-yaml ends the scalar there, then errs
 * or reads on in ways not followed here). Leaves pos at the start of the line after the scalar.
 */
function readContinuation(first: string, n: number): string {
  let out = first;
  let breaks = 0;
  let c = s.charCodeAt(pos);
  for (;;) {
    // pos is at a line break
    const next = afterBreak(pos, c);
    breaks++;
    let at = next;
    c = s.charCodeAt(at);
    while (c === SPACE) c = s.charCodeAt(++at);
    // a blank line: one more line break (its spaces say nothing of the indentation)
    if (isEol(c)) {
      pos = at;
      continue;
    }
    if (at >= s.length || at - next <= n) {
      pos = next;
      return out;
    }
    if (c === HASH) bail();
    const start = at;
    let end = at;
    while (!isEol(c)) {
      if ((c === COLON && isSpaceOrEol(s.charCodeAt(at + 1))) || (c === HASH && s.charCodeAt(at - 1) === SPACE)) bail();
      if (c !== SPACE) end = at + 1;
      c = s.charCodeAt(++at);
    }
    out += folded(breaks);
    out += s.slice(start, end);
    breaks = 0;
    pos = at;
  }
}

/** Whether js-yaml's readPlainScalar would start a plain scalar at pos. */
function isPlainStart(inFlow: boolean): boolean {
  const c = s.charCodeAt(pos);
  if (isSpaceOrEol(c) || (c < 128 && NOT_PLAIN_START[c] === 1)) return false;
  if (c === QUESTION || c === DASH || c === COLON) {
    const next = s.charCodeAt(pos + 1);
    if (isSpaceOrEol(next) || (inFlow && isFlowIndicator(next))) return false;
  }
  return true;
}

/** A one-line plain scalar in block context, up to `: `, ` #` or the line's end; trailing spaces are not part of it. */
function readPlain(): string {
  if (!isPlainStart(false)) bail();
  const start = pos;
  let end = pos;
  let c = s.charCodeAt(pos);
  for (;;) {
    // most characters are none of the five that matter here
    if (c >= 128 || PLAIN_SPECIAL[c] === 0) {
      end = pos + 1;
      c = s.charCodeAt(++pos);
      continue;
    }
    if (isEol(c)) {
      stop = "eol";
      break;
    }
    if (c === COLON) {
      if (isSpaceOrEol(s.charCodeAt(pos + 1))) {
        stop = "colon";
        break;
      }
    } else if (c === HASH && s.charCodeAt(pos - 1) === SPACE) {
      stop = "comment";
      break;
    }
    if (c !== SPACE) end = pos + 1;
    c = s.charCodeAt(++pos);
  }
  return s.slice(start, end);
}

/** `'...'` from pos (at the quote); with `lines`, over line breaks too, folded as js-yaml's readSingleQuotedScalar does (see foldBreaks). */
function readSingleQuoted(lines = false): string {
  let out = "";
  let start = ++pos;
  // where the text to keep ends: spaces before a line break are not part of the scalar
  let end = start;
  for (;;) {
    const c = s.charCodeAt(pos);
    if (c === SQ) {
      out += s.slice(start, pos);
      if (s.charCodeAt(pos + 1) !== SQ) {
        pos++;
        return out;
      }
      out += "'";
      pos += 2;
      start = end = pos;
      continue;
    }
    if (isEol(c)) {
      out += foldedLine(lines, start, end);
      start = end = pos;
      continue;
    }
    if (Number.isNaN(c)) bail();
    pos++;
    if (c !== SPACE) end = pos;
  }
}

/** At a line break inside a quoted scalar: the line's text to keep, `s[start, end)`, and the break folded (foldBreaks); a break in a key or a flow collection (`lines` false) is js-yaml's. */
function foldedLine(lines: boolean, start: number, end: number): string {
  if (!lines) bail();
  return s.slice(start, end) + foldBreaks();
}

/** `"..."` from pos (at the quote), with its escapes; with `lines`, over line breaks too, folded as js-yaml's readDoubleQuotedScalar does (see foldBreaks). */
function readDoubleQuoted(lines = false): string {
  let out = "";
  let start = ++pos;
  // where the text to keep ends: spaces before a line break are not part of the scalar
  let end = start;
  for (;;) {
    const c = s.charCodeAt(pos);
    if (c === DQ) {
      out += s.slice(start, pos);
      pos++;
      return out;
    }
    if (c === BACKSLASH) {
      out += s.slice(start, pos);
      const e = s.charCodeAt(++pos);
      const simple = SIMPLE_ESCAPES.get(e);
      if (simple !== undefined) {
        out += simple;
        pos++;
      } else if (isEol(e)) {
        // an escaped line break: the break and the next line's leading spaces are dropped, nothing written
        if (!lines) bail();
        foldBreaks();
      } else {
        const digits = e === 0x78 ? 2 : e === 0x75 ? 4 : e === 0x55 ? 8 : 0;
        // an unknown escape: js-yaml's
        if (digits === 0) bail();
        const hex = s.slice(pos + 1, pos + 1 + digits);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) bail();
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff) bail();
        out += String.fromCodePoint(code);
        pos += 1 + digits;
      }
      start = end = pos;
      continue;
    }
    if (isEol(c)) {
      out += foldedLine(lines, start, end);
      start = end = pos;
      continue;
    }
    if (Number.isNaN(c)) bail();
    pos++;
    if (c !== SPACE) end = pos;
  }
}

/**
 * Inside a quoted scalar, from a line break (pos at it): skips the line breaks and the spaces that follow, and returns
 * what js-yaml writes for them (writeFoldedLines): a space for one break, n-1 line feeds for n. A `---` or `...`
 * starting a line there, or the end of the text, is a js-yaml error: left to it. No indentation is required of the
 * lines (js-yaml only warns).
 */
function foldBreaks(): string {
  let breaks = 0;
  let c = s.charCodeAt(pos);
  for (;;) {
    if (c === SPACE) {
      c = s.charCodeAt(++pos);
      continue;
    }
    if (!isEol(c)) break;
    pos = afterBreak(pos, c);
    breaks++;
    c = s.charCodeAt(pos);
    if (isMarkerAt(pos) && isSpaceOrEol(s.charCodeAt(pos + 3))) bail();
  }
  if (pos >= s.length) bail();
  return folded(breaks);
}

/**
 * A `|` or `>` block scalar whose parent collection is at nodeIndent - 1 (pos at the indicator), by js-yaml's
 * readBlockScalar rules: indentation detected from the first non-empty line (or the leading empty lines, when
 * longer) or given, clip/strip/keep chomping, folding of `>`. Leaves pos at the start of the first line after it.
 */
function readBlockScalar(nodeIndent: number): string {
  const folding = s.charCodeAt(pos) === GT;
  let chomping: "clip" | "strip" | "keep" = "clip";
  let detectedIndent = false;
  let textIndent = nodeIndent;
  let c: number;
  for (;;) {
    c = s.charCodeAt(++pos);
    if (c === 0x2b /* + */ || c === DASH) {
      if (chomping !== "clip") bail();
      chomping = c === DASH ? "strip" : "keep";
    } else if (c >= 0x31 && c <= 0x39) {
      if (detectedIndent) bail();
      textIndent = nodeIndent + (c - 0x30) - 1;
      detectedIndent = true;
    } else break;
  }
  c = skipSpacesAndComment(c);
  // `0`, a repeated indicator or other text in the header: js-yaml's errors
  if (!isEol(c)) bail();
  let result = "";
  let didReadContent = false;
  let emptyLines = 0;
  let atMoreIndented = false;
  for (;;) {
    pos = afterBreak(pos, c);
    lineStart = pos;
    let lineIndent = 0;
    c = s.charCodeAt(pos);
    while ((!detectedIndent || lineIndent < textIndent) && c === SPACE) {
      lineIndent++;
      c = s.charCodeAt(++pos);
    }
    if (!detectedIndent && lineIndent > textIndent) textIndent = lineIndent;
    if (isEol(c)) {
      emptyLines++;
      continue;
    }
    // at the end of the text c is NaN: lineIndent 0 is below textIndent (at least 1 here), which ends the scalar
    if (lineIndent < textIndent) {
      if (chomping === "keep") result += "\n".repeat(didReadContent ? 1 + emptyLines : emptyLines);
      else if (chomping === "clip" && didReadContent) result += "\n";
      break;
    }
    if (folding) {
      if (c === SPACE) {
        atMoreIndented = true;
        result += "\n".repeat(didReadContent ? 1 + emptyLines : emptyLines);
      } else if (atMoreIndented) {
        atMoreIndented = false;
        result += "\n".repeat(emptyLines + 1);
      } else if (emptyLines === 0) {
        if (didReadContent) result += " ";
      } else result += "\n".repeat(emptyLines);
    } else result += "\n".repeat(didReadContent ? 1 + emptyLines : emptyLines);
    didReadContent = true;
    detectedIndent = true;
    emptyLines = 0;
    const start = pos;
    while (!isEol(c)) c = s.charCodeAt(++pos);
    result += s.slice(start, pos);
  }
  pos = lineStart;
  return result;
}

/** A flow sequence or mapping closed on its line, of scalars and flow collections (pos at `[` or `{`). */
function readFlow(): unknown {
  if (++depth > MAX_DEPTH) bail();
  const isMapping = s.charCodeAt(pos) === LBRACE;
  const terminator = isMapping ? RBRACE : RBRACKET;
  const sequence: unknown[] = [];
  const mapping: Record<string, unknown> = {};
  let readNext = true;
  pos++;
  for (;;) {
    let c = skipFlowSpace();
    // a line break or a comment inside a one-line collection: left to js-yaml
    if (isEol(c) || c === HASH) bail();
    if (c === terminator) {
      pos++;
      depth--;
      return isMapping ? mapping : sequence;
    }
    if (!readNext || c === COMMA) bail();
    if (isMapping) {
      const key = readFlowKey();
      if (skipSpaces() !== COLON) bail();
      pos++;
      c = skipFlowSpace();
      // a key without a value (null): left to js-yaml
      if (c === COMMA || c === terminator || isEol(c) || c === HASH) bail();
      if (key === "__proto__" || Object.hasOwn(mapping, key)) bail();
      mapping[key] = readFlowNode();
    } else {
      const item = readFlowNode();
      // `[a: b]` is a one-pair mapping in js-yaml (a `:` on a later line is a js-yaml error)
      if (skipFlowSpace() === COLON) bail();
      sequence.push(item);
    }
    if (skipFlowSpace() === COMMA) {
      readNext = true;
      pos++;
    } else readNext = false;
  }
}

function skipSpaces(): number {
  let c = s.charCodeAt(pos);
  while (c === SPACE) c = s.charCodeAt(++pos);
  return c;
}

/**
 * The space between a flow collection's tokens (js-yaml's skipSeparationSpace, comments allowed): spaces; with
 * flowLines also comments (a `#` there begins one, as in js-yaml, even right after a `,`) and line breaks. Returns
 * the character it stops at. A `---` or `...` at the start of a line inside the collection is left to js-yaml.
 */
function skipFlowSpace(): number {
  let c = skipSpaces();
  if (!flowLines) return c;
  for (;;) {
    if (c === HASH) {
      do c = s.charCodeAt(++pos);
      while (!isEol(c));
    }
    if (!isEol(c)) return c;
    pos = afterBreak(pos, c);
    // the end of the text inside the collection is a js-yaml error
    if (pos >= s.length) bail();
    if (isMarkerAt(pos)) bail();
    c = skipSpaces();
  }
}

/**
 * Whether a plain scalar of a flow collection ends at the line break at pos (flowLines): js-yaml's readPlainScalar
 * looks past the line breaks and spaces, and ends the scalar there only before a flow indicator or a comment; any
 * other character continues it on the next line (a multi-line scalar, left to js-yaml), and a `:` there would be a
 * js-yaml error.
 */
function plainEndsAtLine(): boolean {
  let at = pos;
  let c = s.charCodeAt(at);
  while (c === SPACE || isEol(c)) c = s.charCodeAt(++at);
  return isFlowIndicator(c) || c === HASH;
}

function readFlowKey(): string {
  const c = s.charCodeAt(pos);
  if (c === DQ) return readDoubleQuoted();
  if (c === SQ) return readSingleQuoted();
  const raw = readFlowPlain();
  if (raw === "<<") bail();
  return String(resolveYaml11(raw));
}

function readFlowNode(): unknown {
  const c = s.charCodeAt(pos);
  if (c === LBRACKET || c === LBRACE) return readFlow();
  if (c === DQ) return readDoubleQuoted();
  if (c === SQ) return readSingleQuoted();
  return resolveYaml11(readFlowPlain());
}

/** A plain scalar inside a flow collection: up to `: `, `:` before an indicator, or a flow indicator. */
function readFlowPlain(): string {
  if (!isPlainStart(true)) bail();
  const start = pos;
  let end = pos;
  let c = s.charCodeAt(pos);
  for (;;) {
    if (isEol(c)) {
      if (flowLines && plainEndsAtLine()) break;
      bail();
    }
    if (c === COLON) {
      const next = s.charCodeAt(pos + 1);
      if (isSpaceOrEol(next) || isFlowIndicator(next)) break;
    } else if (c === HASH) {
      // ` #` ends the scalar: a comment follows, which only a collection that may span lines can hold
      if (s.charCodeAt(pos - 1) === SPACE) {
        if (flowLines) break;
        bail();
      }
    } else if (isFlowIndicator(c)) break;
    if (c !== SPACE) end = pos + 1;
    c = s.charCodeAt(++pos);
  }
  return s.slice(start, end);
}

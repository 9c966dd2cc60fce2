// Line and column of findings: each finding's JSON Pointer mapped back to the YAML/JSON node it names.
//
// Positions are only needed for documents that have findings, so the fast reader (js-yaml, no positions)
// stays as it is; a line scanner (block YAML, positions-fast.ts) or a character scanner (JSON and flow style,
// positions-flow.ts) finds most paths, and only what they are unsure of is re-read here with `yaml`.
// A file is cut into documents at its `---` / `...` marker lines first, so a file of a hundred documents
// with one finding parses one document, not a hundred.
import type { Document, Node as YamlNode } from "yaml";
import { fastOffset } from "./positions-fast.ts";
import { flowOffset, flowTopString, isFlowDocument } from "./positions-flow.ts";
import type { Finding, ResourceResult } from "./types.ts";
import { yamlLib } from "./yaml-lib.ts";
import { ownString } from "./own-string.ts";

/** 1-based line and column, as editors, SARIF and GitHub annotations count them. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** One document's slice of the text: [start, end) offsets, and the 0-based line `start` is on. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

/**
 * Line and column of `offset`, counting lines from a known line start (`from`, on 0-based line `line`) at or
 * before it: a finding's document start, so only that document's lines are counted, never the whole file.
 */
export function positionAt(text: string, offset: number, from = 0, line = 0): Position {
  let n = line;
  for (let i = text.indexOf("\n", from); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return { line: n + 1, column: offset - (offset === 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1) + 1 };
}

/**
 * A finding this many characters or more past its document's start is placed with a LineIndex of the text (made
 * once per text): the items of a List are one document, and counting the lines from the List's start for every
 * finding made locating them cost the List's size per finding. Closer findings (most documents are small, also in
 * a file of many documents) count their lines directly, which is cheaper than indexing the whole text.
 */
const INDEX_CHARS = 16 * 1024;

/** positionAt() over one text by binary search in the offsets of its line breaks (made once), with the same answers (exported for its property test). */
export class LineIndex {
  private readonly breaks: Int32Array;
  private readonly count: number;

  constructor(private readonly text: string) {
    const breaks: number[] = [];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) breaks.push(i);
    this.breaks = Int32Array.from(breaks);
    this.count = breaks.length;
  }

  /** Line breaks before `offset`. */
  private before(offset: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.breaks[mid] as number) < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** What positionAt(text, offset, from, line) answers: `line` plus the line breaks in [from, offset). */
  at(offset: number, from = 0, line = 0): Position {
    const n = line + (from <= offset ? this.before(offset) - this.before(from) : 0);
    return { line: n + 1, column: offset - (offset === 0 ? 0 : this.text.lastIndexOf("\n", offset - 1) + 1) + 1 };
  }
}

const DOC_START = /^---(?=[ \t\r]|$)/;
const DOC_END = /^\.\.\.(?=[ \t\r]|$)/;
const CONTENT = /^[ \t]*(?:[^\s#%]|%(?!\w))/;

/**
 * Cuts a YAML stream into documents the way js-yaml numbers them. YAML forbids `---` and `...` at the start
 * of a line (followed by a space or the line end) inside a document's content, block scalars included
 * (the spec's c-forbidden), so those lines always separate documents. Hand-written: `yaml` has no way to
 * locate documents without composing all of them, which is the cost this module avoids.
 */
export function documentSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  let startLine = 0;
  // whether the current document has begun (a `---`, or content before the first marker)
  let open = false;
  let offset = 0;
  for (let line = 0; offset <= text.length; line++) {
    let end = text.indexOf("\n", offset);
    if (end < 0) end = text.length;
    const next = end + 1;
    // only lines starting with `-` or `.` can be markers; before the first document, any line may open one
    const c = text.charCodeAt(offset);
    if (c === 45 /* - */ || c === 46 /* . */ || !open) {
      const content = text.slice(offset, end);
      if (DOC_START.test(content)) {
        if (open) spans.push({ start, end: offset, line: startLine });
        start = offset;
        startLine = line;
        open = true;
      } else if (DOC_END.test(content)) {
        if (open) spans.push({ start, end: Math.min(next, text.length), line: startLine });
        open = false;
        start = next;
        startLine = line + 1;
      } else if (!open && CONTENT.test(content)) {
        open = true;
      }
    }
    offset = next;
  }
  if (open) spans.push({ start, end: text.length, line: startLine });
  return spans;
}

type Lib = ReturnType<typeof yamlLib>;

/** The node a JSON Pointer names, or the nearest existing parent; the offset is a map key's (so `field:` is pointed at). */
export function yamlOffset(doc: Document, pointer: string): number | undefined {
  return offsetOf(yamlLib(), doc, pointer);
}

function offsetOf(lib: Lib, doc: Document, pointer: string): number | undefined {
  let node: unknown = doc.contents;
  let offset = (node as YamlNode | null)?.range?.[0];
  if (pointer === "") return offset;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.includes("~") ? raw.replace(/~1/g, "/").replace(/~0/g, "~") : raw;
    if (lib.isAlias(node)) node = node.resolve(doc);
    if (lib.isMap(node)) {
      const pair = node.items.find((p) => (lib.isScalar(p.key) ? String(p.key.value) : String(p.key)) === key);
      if (!pair) break;
      offset = (pair.key as YamlNode | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (lib.isSeq(node)) {
      const item = node.items[Number(key)];
      if (item === undefined || !/^\d+$/.test(key)) break;
      offset = (item as YamlNode | null)?.range?.[0] ?? offset;
      node = item;
    } else break;
  }
  return offset;
}

/** Parses one document of a stream; `expect` (apiVersion/kind/name) guards against a cut that numbered documents differently from the reader. */
function documentAt(lib: Lib, text: string, spans: readonly Span[], index: number, expect?: ResourceResult, item?: string): { doc: Document; base: number } | undefined {
  const span = spans[index];
  if (span) {
    const doc = lib.parseDocument(text.slice(span.start, span.end), { prettyErrors: false, uniqueKeys: false }) as Document;
    if (matches(lib, doc, expect, item)) return { doc, base: span.start };
  }
  // rare: directives or unusual markers; the whole stream tells the truth
  const docs = lib.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false });
  const doc = Array.isArray(docs) ? (docs[index] as Document | undefined) : undefined;
  return doc ? { doc, base: 0 } : undefined;
}

function matches(lib: Lib, doc: Document, expect?: ResourceResult, item?: string): boolean {
  if (!expect?.kind || !expect.apiVersion) return true; // IAM JSON and unreadable documents: nothing to compare
  // an item of a list: the node at its pointer (an item of a typed list may leave apiVersion and kind to the list)
  const contents = item ? doc.getIn(["items", Number(item.slice("/items/".length))], true) : doc.contents;
  if (!lib.isMap(contents)) return false;
  if (item) {
    const meta = contents.get("metadata");
    const kind = contents.get("kind", true);
    return String((lib.isMap(meta) ? meta.get("name") : undefined) ?? "") === expect.name && (!lib.isScalar(kind) || String(kind.value) === expect.kind);
  }
  const get = (k: string) => {
    const v = contents.get(k, true);
    return lib.isScalar(v) ? String(v.value) : undefined;
  };
  const meta = contents.get("metadata");
  const name = lib.isMap(meta) ? meta.get("name") : undefined;
  return get("kind") === expect.kind && (get("apiVersion") ?? "") === expect.apiVersion && String(name ?? "") === expect.name;
}

// Reader messages already say where a syntax error is; that position is the finding's.
const MESSAGE_POSITION = /\(line (\d+), column (\d+)\)/;

/**
 * Adds `line`/`column` to the findings of the results of one file (all results must share `text`'s file).
 * Findings that already have a line keep it; a text that cannot be read for positions leaves them as they are.
 * `json`: the reader read this very text as one plain JSON value (LoadedDocuments.json), so it is one flow
 * document and the flow scanner needs no whole-text scan to say so.
 */
export function locateFindings(text: string, results: readonly ResourceResult[], json = false): ResourceResult[] {
  // `yaml` loads (tens of milliseconds) only for a finding the fast scanner cannot place
  let lib: Lib | undefined;
  let spans: Span[] | undefined;
  // Per document (span index): which scanner may read it and, once needed, its `yaml` parse. The items of a
  // `kind: List` document are results of their own that share one span: deciding and parsing once per span
  // keeps a List of n items with findings from costing n parses of the whole List.
  const scanners = new Map<string, Scanner>();
  const parses = new Map<number, { doc: Document; base: number } | undefined>();
  let index: LineIndex | undefined;
  const at = (offset: number, from?: number, line?: number): Position => {
    if (offset - (from ?? 0) < INDEX_CHARS) return positionAt(text, offset, from, line);
    index ??= new LineIndex(text);
    return index.at(offset, from, line);
  };
  return results.map((r) => {
    if (r.findings.length === 0 || r.findings.every((f) => f.line !== undefined)) return r;
    // a plain JSON text is one document from its first character to its last: no line of it can be a marker (a
    // string holds no line break, and no JSON token starts with `---` or `...`), so its lines need no scan
    spans ??= json ? [{ start: 0, end: text.length, line: 0 }] : documentSpans(text);
    const span = (spans as Span[])[r.index];
    const item = listItemPointer(r);
    const scannerKey = item ? `${r.index}|list` : `${r.index}|${r.apiVersion}|${r.kind}`;
    const findings = r.findings.map((f): Finding => {
      if (f.line !== undefined) return f;
      const quoted = MESSAGE_POSITION.exec(f.message);
      if (quoted && f.rule.startsWith("parse:")) return { ...f, line: Number(quoted[1]), column: Number(quoted[2]) };
      const parsedBefore = parses.get(r.index);
      // a document that had to be parsed is read with `yaml` from then on: the scanners were unsure of it
      if (span && !parses.has(r.index)) {
        let scanner = scanners.get(scannerKey);
        if (scanner === undefined) {
          scanner = scannerFor(text, span, r, item, json);
          scanners.set(scannerKey, scanner);
        }
        if (scanner) {
          const fast = (scanner === "flow" ? flowOffset : fastOffset)(text, span.start, span.end, f.path);
          if (fast !== undefined) return { ...f, ...at(fast, span.start, span.line) };
        }
      }
      let parsed = parsedBefore;
      if (!parses.has(r.index)) {
        try {
          lib ??= yamlLib();
          parsed = documentAt(lib, text, spans as Span[], r.index, r, item);
        } catch {
          parsed = undefined;
        }
        parses.set(r.index, parsed);
      }
      if (!parsed || !lib) return span ? { ...f, ...at(firstContent(text, span), span.start, span.line) } : f;
      const offset = offsetOf(lib, parsed.doc, f.path);
      if (offset === undefined) return f;
      // counted from the document's start when it was parsed alone, from the text's start otherwise
      const own = parsed.base === span?.start ? span : undefined;
      return { ...f, ...at(parsed.base + offset, own?.start, own?.line) };
    });
    return { ...r, findings };
  });
}

/**
 * `/items/N` when the result is an item of a list document: results do not carry the reader's pointer, but an
 * item's findings are all prefixed with it (stream.ts), and no object the validator reads has a top-level
 * `items` of its own besides a list. (A list in a list gives the outer item, whose kind does not match: the
 * whole stream is then read with `yaml`, which is slower but still right.)
 */
function listItemPointer(r: ResourceResult): string | undefined {
  const first = /^\/items\/\d+/.exec(r.findings[0]?.path ?? "")?.[0];
  return first && r.findings.every((f) => f.path === first || f.path.startsWith(`${first}/`)) ? first : undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

type Scanner = "block" | "flow" | false;

/**
 * The scanner that may read a span: the flow one for JSON and flow style, the block one for a block document of
 * this resource; for an item of a list (`item`, its findings' paths already under it), a document whose
 * top-level kind is a list's (`List`, `RoleList`...).
 */
function scannerFor(text: string, span: Span, r: ResourceResult, item: string | undefined, json: boolean): Scanner {
  // A plain JSON text (JSON.parse read all of it, and it begins with `{` or `[`) is one flow collection with only
  // blanks around it: what isFlowDocument finds by scanning the whole document (~20 us a 1 KB object, most of the
  // time spent locating a JSON file's findings; json-fast.test.ts holds the two to the same answer, and
  // positions-flow.test.ts the positions found either way)
  if (json || isFlowDocument(text, span.start, span.end)) {
    const top = (key: string) => flowTopString(text, span.start, span.end, key);
    if (item) return Boolean(top("kind")?.endsWith("List")) && "flow";
    // an IAM policy document (JSON, one a file, no apiVersion or kind of its own): its span is taken as it is,
    // as documentAt() takes it (matches() has nothing to compare either); without this, one IAM finding in a run
    // loaded the `yaml` library (~50 ms) to locate it
    if (r.kind.startsWith("IAM:") && !r.apiVersion) return "flow";
    return Boolean(r.kind && r.apiVersion) && top("kind") === r.kind && top("apiVersion") === r.apiVersion && "flow";
  }
  if (item) return hasTopLine(text, span, "kind", LIST_KIND) && "block";
  return isDocumentOf(text, span, r) && "block";
}

/** A top-level `kind:` line of a list's kind (`List`, `RoleList`...), read from the `k` on. */
const LIST_KIND = /kind:[ \t]*["']?[A-Za-z0-9]*List["']?[ \t]*(#.*)?$/my;

/** Whether a span is the block-YAML document of this resource (its kind and apiVersion at the top level), so the fast scanner may read it. */
function isDocumentOf(text: string, span: Span, r: ResourceResult): boolean {
  if (!r.kind || !r.apiVersion) return false;
  return hasTopLine(text, span, "kind", topLine(kindLines, "kind", r.kind)) && hasTopLine(text, span, "apiVersion", topLine(apiVersionLines, "apiVersion", r.apiVersion));
}

/**
 * Whether a line of the span that starts with `key:` (at the span's start or after a line feed) is the whole of a
 * `line` (sticky: matched where the key is). Found with indexOf: a multi-line regular expression over the document
 * tried every position of it, and was most of the time spent deciding which scanner reads a document, cold. A line
 * that starts after another line terminator (a lone CR, U+2028) is not looked at: the document then goes to `yaml`.
 */
function hasTopLine(text: string, span: Span, key: string, line: RegExp): boolean {
  const head = `${key}:`;
  const after = (from: number) => {
    const feed = text.indexOf(`\n${head}`, from);
    return feed < 0 ? -1 : feed + 1;
  };
  for (let at = text.startsWith(head, span.start) ? span.start : after(span.start); at >= 0 && at < span.end; at = after(at)) {
    line.lastIndex = at;
    if (line.test(text)) return true;
  }
  return false;
}

/**
 * The regular expression of a top-level `key: value` line, made once per key and value: a run locates the
 * findings of thousands of documents of a few kinds, and making two expressions per document was ~2% of the main
 * thread's time on 5,000 files. One map per key (a key made of both cost ~2 us a look-up, cold). Bounded, for
 * inputs of many distinct kinds.
 */
const kindLines = new Map<string, RegExp>();
const apiVersionLines = new Map<string, RegExp>();
function topLine(lines: Map<string, RegExp>, key: string, value: string): RegExp {
  let re = lines.get(value);
  if (re === undefined) {
    if (lines.size >= 1024) lines.clear();
    re = new RegExp(`${key}:[ \\t]*["']?${escapeRegExp(value)}["']?[ \\t]*(#.*)?$`, "my");
    // a copy: a kind or apiVersion read on this thread may be a slice of its file's text, which a kept key would
    // keep alive (50 files of 1 MB, each of its own kind: 52.7 MB held)
    lines.set(ownString(value), re);
  }
  return re;
}

/** The first non-blank, non-comment, non-marker character of a document (where a whole-document finding points). */
function firstContent(text: string, span: Span): number {
  const re = /^[ \t]*([^\s#])/gm;
  re.lastIndex = span.start;
  for (let m = re.exec(text); m && m.index < span.end; m = re.exec(text)) {
    const at = m.index + m[0].length - 1;
    if (!DOC_START.test(text.slice(m.index, m.index + 4))) return at;
  }
  return span.start;
}

/**
 * Adds positions to every finding of a report's results, reading each file that has findings once
 * (`readText` returns undefined for a file that cannot be read again, e.g. stdin not kept). `json`: every file's
 * text, as `readText` gives it, is one the reader read as plain JSON (see locateFindings).
 */
export function locateAll(results: readonly ResourceResult[], readText: (file: string) => string | undefined, json = false): ResourceResult[] {
  const byFile = new Map<string, number[]>();
  results.forEach((r, i) => {
    if (r.findings.length === 0 || r.findings.every((f) => f.line !== undefined)) return;
    const list = byFile.get(r.file);
    if (list) list.push(i);
    else byFile.set(r.file, [i]);
  });
  if (byFile.size === 0) return [...results];
  const out = [...results];
  for (const [file, indexes] of byFile) {
    let text: string | undefined;
    try {
      text = readText(file);
    } catch {
      text = undefined;
    }
    if (text === undefined) continue;
    const located = locateFindings(
      text,
      indexes.map((i) => out[i] as ResourceResult),
      json,
    );
    indexes.forEach((i, j) => {
      out[i] = located[j] as ResourceResult;
    });
  }
  return out;
}

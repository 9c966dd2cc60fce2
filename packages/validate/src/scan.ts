// The first, cheap pass of a streaming run: before any document is validated, the CRDs among the documents
// (schema layer 2 outranks the catalog, so they must be known first) and the kinds each file may hold
// (so the catalog reads only the files defining them). It keeps the texts of the first files and the documents of the
// CRD files among them (bounded), which the stream then neither reads nor parses again.
import { HeapGuard } from "./heap-guard.ts";
import { readRegularFile } from "./hostile/fs.ts";
import { iamKindOf, parseText } from "./reader.ts";
import { documentSource, isCrd, typesFromCrd } from "./schema/sources.ts";
import type { TypeSchema } from "./schema/model.ts";
import type { LoadedDocuments } from "./types.ts";
import { ownString } from "./result-store.ts";

export interface ScanResult {
  /** Types of the CRDs among the documents, in file order. */
  readonly crdTypes: TypeSchema[];
  /** apiVersion/kind pairs each file may contain (over-approximated from its text), by file. */
  readonly kindsByFile: Map<string, { apiVersion: string; kind: string }[]>;
  /** Helm chart names that Argo CD sources may name (`chart: karpenter`), over-approximated like the kinds. */
  readonly charts: Set<string>;
  /**
   * The texts read, by file, of the first files up to `keepChars` in all: the reader parses these without reading
   * them again (issue 19: each file read once). Files the reader must judge (binary, too large, unreadable) are never kept.
   */
  readonly texts: Map<string, string>;
  /**
   * The documents of the kept texts that hold a CRD, by file, as the reader would make them (the scan parses those
   * files to learn their CRDs): the stream validates these very documents instead of parsing the text again, so a
   * CRD document is parsed once, and its types share their schemas with the document (see schemaProblems).
   */
  readonly parsed: Map<string, LoadedDocuments>;
}

/**
 * Characters of text the scan keeps for the reader, at most: with one-object files of ~1 KB, the first ~8,000
 * files are read once; files past it are read again by the reader. A bound, so that memory stays flat in input
 * size: the kept texts are dropped as the stream takes their files, and the first files are taken first.
 */
export const SCAN_KEEP_CHARS = 8 * 1024 * 1024;

/**
 * Characters of text whose documents (files holding a CRD, which the scan parses) are kept for the stream, at most:
 * the CRDs of a few operators (Karpenter's three are ~0.3 MB); past it a CRD file is parsed again by the reader.
 */
export const SCAN_KEEP_PARSED_CHARS = 2 * 1024 * 1024;

/** parseText's alias limit when none is given (ReadOptions.maxAliasCount). */
const DEFAULT_ALIAS_COUNT = 100;

// Top-level keys of block YAML start a line; JSON has them quoted anywhere. Over-approximation is fine:
// these only decide which catalog files are read, and a kind missed here is loaded when first met.
const JSON_API = /"apiVersion"\s*:\s*"([^"]+)"/g;
const JSON_KIND = /"kind"\s*:\s*"([^"]+)"/g;
const CHART = /\bchart["']?[ \t]*:[ \t]*["']?([\w.-]+)/g;

function all(re: RegExp, text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(re)) out.add(m[1] as string);
  return out;
}

// The values of `key:` at line starts (`apiVersion: apps/v1`, `kind: "Service"`). indexOf finds the candidate
// lines (several times faster over a multi-megabyte text than a multiline regex trying every line) and a
// sticky regex reads each value.
const YAML_VALUE = /[ \t]*["']?([^"'\s#,}]+)/y;
function topLevel(key: string, text: string): Set<string> {
  const out = new Set<string>();
  const needle = `\n${key}:`;
  const read = (at: number) => {
    YAML_VALUE.lastIndex = at;
    const m = YAML_VALUE.exec(text);
    if (m) out.add(m[1] as string);
  };
  if (text.startsWith(`${key}:`)) read(key.length + 1);
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) read(i + needle.length);
  // a lone CR ends a line in YAML too
  if (text.includes("\r")) for (let i = text.indexOf(`\r${key}:`); i >= 0; i = text.indexOf(`\r${key}:`, i + 1)) read(i + needle.length);
  return out;
}

/** Reads each file once (files too large or binary are left to the reader, which reports them). */
export function scanFiles(
  files: readonly string[],
  options: {
    readonly maxFileBytes: number;
    readonly text: (file: string) => string | undefined;
    readonly show: (file: string) => string;
    /** @default SCAN_KEEP_CHARS */ readonly keepChars?: number;
    /** @default SCAN_KEEP_PARSED_CHARS */ readonly keepParsedChars?: number;
    /** The reader's alias limit (ReadOptions.maxAliasCount): documents are kept for the stream only when the scan's parse is the reader's. @default 100 */
    readonly maxAliasCount?: number;
  },
): ScanResult {
  const crdTypes: TypeSchema[] = [];
  const kindsByFile = new Map<string, { apiVersion: string; kind: string }[]>();
  const charts = new Set<string>();
  // each pair once, its strings copied: a match is a slice of the file's text, and V8 keeps a whole text alive
  // while any slice of it lives (kept for every file, they held ~0.5 KB of text a file until the catalog was read)
  const pairs = new Map<string, { apiVersion: string; kind: string }>();
  const pair = (apiVersion: string, kind: string) => {
    const key = `${apiVersion}\u0000${kind}`;
    let p = pairs.get(key);
    if (!p) {
      p = { apiVersion: ownString(apiVersion), kind: ownString(kind) };
      pairs.set(key, p);
    }
    return p;
  };
  const texts = new Map<string, string>();
  const parsed = new Map<string, LoadedDocuments>();
  // the scan parses with parseText's defaults (the CRDs it learns never depended on the reader's options); its
  // documents are the reader's only with the reader's default alias limit
  const sameParse = (options.maxAliasCount ?? DEFAULT_ALIAS_COUNT) === DEFAULT_ALIAS_COUNT;
  // documents take several times their text's memory until the stream takes their file: kept for a bounded share
  let parsedLeft = options.keepParsedChars ?? SCAN_KEEP_PARSED_CHARS;
  // kept from the first file on, until one does not fit: the stream takes files in order, so kept texts go first
  let keepLeft = options.keepChars ?? SCAN_KEEP_CHARS;
  // every text read is garbage at once, but V8 let ~90 MB of it pile up over 200,000 files before its first full
  // collection (the run's peak): collected as it grows, as the stream does
  const heap = new HeapGuard();
  let read = 0;
  // files holding the same pairs share one array of them (~40 B a file less, until the catalog is loaded)
  const sets = new Map<string, { apiVersion: string; kind: string }[]>();
  for (const file of files) {
    if (++read % 100 === 0) heap.check();
    let text: string | undefined;
    if (file === "-") text = options.text(file);
    else {
      // the hardened read (regular files only, never waiting on a FIFO, within the size limit); the reader reports problems
      const bytes = readRegularFile(file, options.maxFileBytes);
      text = Buffer.isBuffer(bytes) ? bytes.toString("utf8") : undefined;
    }
    if (text === undefined || text.includes("\u0000")) continue;
    // a text without NUL is what the reader would read (the reader refuses a file with NUL bytes as binary)
    let kept = false;
    if (file !== "-") {
      if (text.length <= keepLeft) {
        texts.set(file, text);
        keepLeft -= text.length;
        kept = true;
      } else keepLeft = 0;
    }
    // JSON keys are quoted: a text without `"apiVersion"` has none to find
    const json = text.includes('"apiVersion"') || text.includes('"kind"');
    const apis = new Set([...topLevel("apiVersion", text), ...(json ? all(JSON_API, text) : [])]);
    const kinds = new Set([...topLevel("kind", text), ...(json ? all(JSON_KIND, text) : [])]);
    const found: { apiVersion: string; kind: string }[] = [];
    for (const apiVersion of apis) for (const kind of kinds) found.push(pair(apiVersion, kind));
    const key = found.map((p) => `${p.apiVersion}\u0000${p.kind}`).join("\u0001");
    let same = sets.get(key);
    if (!same) {
      same = found;
      sets.set(key, same);
    }
    kindsByFile.set(file, same);
    if (text.includes("chart")) for (const c of all(CHART, text)) charts.add(c);
    if (kinds.has("CustomResourceDefinition")) {
      const shown = options.show(file);
      const docs = parseText({ file: shown, text });
      for (const r of docs.resources) if (isCrd(r.object)) crdTypes.push(...typesFromCrd(r.object, documentSource(r)));
      // what the reader makes of a kept text (readFile in reader.ts): an IAM file is read as JSON there, not parsed
      if (kept && sameParse && text.length <= parsedLeft && !iamKindOf(shown)) {
        parsed.set(file, { resources: docs.resources, unreadable: docs.unreadable, iam: [] });
        parsedLeft -= text.length;
      }
    }
  }
  return { crdTypes, kindsByFile, charts, texts, parsed };
}

/** The same facts for documents already in memory (synth's render): exact kinds, the CRDs among them, charts named. */
export function scanDocuments(docs: LoadedDocuments): ScanResult {
  const crdTypes: TypeSchema[] = [];
  const kindsByFile = new Map<string, { apiVersion: string; kind: string }[]>();
  const charts = new Set<string>();
  for (const r of docs.resources) {
    const kinds = kindsByFile.get(r.file) ?? [];
    if (!kinds.some((k) => k.apiVersion === r.apiVersion && k.kind === r.kind)) kinds.push({ apiVersion: r.apiVersion, kind: r.kind });
    kindsByFile.set(r.file, kinds);
    if (isCrd(r.object)) crdTypes.push(...typesFromCrd(r.object, documentSource(r)));
    const json = JSON.stringify(r.object);
    if (json.includes("chart")) for (const c of all(CHART, json)) charts.add(c);
  }
  return { crdTypes, kindsByFile, charts, texts: new Map(), parsed: new Map() };
}

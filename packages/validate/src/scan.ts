// The first, cheap pass of a streaming run: before any document is validated, the CRDs among the documents
// (schema layer 2 outranks the catalog, so they must be known first) and the kinds each file may hold
// (so the catalog reads only the files defining them). It keeps the texts of the first files and the documents of the
// CRD files among them (bounded), which the stream then neither reads nor parses again; shared with the read-ahead
// worker, the main thread's half also keeps those of the last files when they all fit (scanFilesShared).
import { HeapGuard } from "./heap-guard.ts";
import { iamKindOf, parseText } from "./reader.ts";
import { documentSource, isCrd, typesFromCrd } from "./schema/sources.ts";
import type { TypeSchema } from "./schema/model.ts";
import type { LoadedDocuments } from "./types.ts";
import { ownString } from "./own-string.ts";
import { allMatches, CHART, FactsByIndex, KeptTexts, scanRead, type TextFacts, textFacts } from "./scan-text.ts";

export interface ScanResult {
  /** Types of the CRDs among the documents, in file order. */
  readonly crdTypes: TypeSchema[];
  /** apiVersion/kind pairs each file may contain (over-approximated from its text), by file. */
  readonly kindsByFile: Map<string, { apiVersion: string; kind: string }[]>;
  /** Helm chart names that Argo CD sources may name (`chart: karpenter`), over-approximated like the kinds. */
  readonly charts: Set<string>;
  /**
   * The texts read, by file, of the first files up to `keepChars` in all (a shared scan: of the last files, those the
   * main thread scanned, when all of them fit; the worker keeps its own, see scanFilesShared): the reader parses these
   * without reading them again (issue 19: each file read once).
   * Files the reader must judge (binary, too large, unreadable) are never kept.
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

/**
 * What the main thread's half of a shared scan (scanFilesShared, from the last file down) keeps: the texts of all
 * the files it scanned when they fit, else none (they would be held through the whole stream). The worker keeps
 * SCAN_KEEP_CHARS of the first files as a lone scan does, so a shared scan holds up to 12 M characters in all, only
 * for inputs whose last half fits in this. Before, the main thread's half was read again by the stream: 2,155 of
 * 5,000 one-object files were opened twice.
 */
export const SHARED_SCAN_KEEP_CHARS = 4 * 1024 * 1024;

/** parseText's alias limit when none is given (ReadOptions.maxAliasCount). */
const DEFAULT_ALIAS_COUNT = 100;

export interface ScanOptions {
  readonly maxFileBytes: number;
  readonly text: (file: string) => string | undefined;
  readonly show: (file: string) => string;
  /** @default SCAN_KEEP_CHARS (scanFilesShared: SHARED_SCAN_KEEP_CHARS) */ readonly keepChars?: number;
  /** @default SCAN_KEEP_PARSED_CHARS */ readonly keepParsedChars?: number;
  /** The reader's alias limit (ReadOptions.maxAliasCount): documents are kept for the stream only when the scan's parse is the reader's. @default 100 */
  readonly maxAliasCount?: number;
}

/**
 * The read-ahead worker's half of a shared scan (ReadAhead.scanPartner): it scans from the first file on while
 * this thread scans from the last one, each file by whichever thread claims it first.
 */
export interface ScanPartner {
  /** Claims file `index` for this thread's scan: false when the worker has claimed it. */
  claimScan(index: number): boolean;
  /**
   * The facts of the files the worker scanned, by index (null: a file the reader must judge), once the worker has
   * met a file this thread claimed (or has gone: files it claimed but did not report are then absent).
   */
  scanned(): Promise<FactsByIndex>;
}

/** A file's text as the scan reads it (stdin from the run's copy), or undefined for one the reader must judge. */
function readForScan(file: string, options: ScanOptions): string | undefined {
  // scanRead already leaves a text with NUL to the reader; stdin's copy is looked at here
  if (file !== "-") return scanRead(file, options.maxFileBytes);
  const text = options.text(file);
  return text === undefined || text.includes("\u0000") ? undefined : text;
}

/**
 * The scan's reads on this thread. Every text read is garbage at once (but the few kept), yet V8 let ~90 MB of them
 * pile up over 200,000 files before its first full collection (the run's peak): collected as it grows, as the
 * stream does.
 */
class ScanReads {
  private readonly heap = new HeapGuard();
  private count = 0;
  // characters read since the heap was last looked at: a file of hundreds of objects is a large text
  private chars = 0;

  constructor(private readonly options: ScanOptions) {}

  read(file: string): string | undefined {
    if (++this.count % 100 === 0 || this.chars > 4 * 1024 * 1024) {
      this.heap.check();
      this.chars = 0;
    }
    const text = readForScan(file, this.options);
    this.chars += text?.length ?? 0;
    return text;
  }
}

/** The scan's result, put together file by file in file order, whichever thread read each file. */
class ScanAssembly {
  readonly crdTypes: TypeSchema[] = [];
  readonly kindsByFile = new Map<string, { apiVersion: string; kind: string }[]>();
  readonly charts = new Set<string>();
  readonly texts = new Map<string, string>();
  readonly parsed = new Map<string, LoadedDocuments>();
  // each pair once, its strings copied: a match is a slice of the file's text, and V8 keeps a whole text alive
  // while any slice of it lives (kept for every file, they held ~0.5 KB of text a file until the catalog was read)
  private readonly pairs = new Map<string, { apiVersion: string; kind: string }>();
  // files that may hold the same pairs share one array of them (~40 B a file less, until the catalog is loaded)
  private readonly sets = new Map<string, { apiVersion: string; kind: string }[]>();
  // the scan parses with parseText's defaults (the CRDs it learns never depended on the reader's options); its
  // documents are the reader's only with the reader's default alias limit
  private readonly sameParse: boolean;
  // documents take several times their text's memory until the stream takes their file: kept for a bounded share
  private parsedLeft: number;

  constructor(
    private readonly options: ScanOptions,
    /** scanFiles' rule: documents are kept only with a text kept (the first files'); else with their own text. */
    private readonly keptTextsOnly: boolean,
  ) {
    this.sameParse = (options.maxAliasCount ?? DEFAULT_ALIAS_COUNT) === DEFAULT_ALIAS_COUNT;
    this.parsedLeft = options.keepParsedChars ?? SCAN_KEEP_PARSED_CHARS;
  }

  private pair(apiVersion: string, kind: string) {
    const key = `${apiVersion}\u0000${kind}`;
    let p = this.pairs.get(key);
    if (!p) {
      p = { apiVersion: ownString(apiVersion), kind: ownString(kind) };
      this.pairs.set(key, p);
    }
    return p;
  }

  /**
   * One file's facts, in file order. `text`: its text when the caller has it (`kept`: the stream takes it from
   * `texts`); a CRD file's is otherwise read again here, to be parsed for its types.
   */
  add(file: string, facts: TextFacts, text: string | undefined, kept: boolean): void {
    const key = facts.pairs.join("\u0000");
    let pairs = this.sets.get(key);
    if (!pairs) {
      pairs = [];
      for (let i = 0; i < facts.pairs.length; i += 2) pairs.push(this.pair(facts.pairs[i] as string, facts.pairs[i + 1] as string));
      this.sets.set(ownString(key), pairs);
    }
    this.kindsByFile.set(file, pairs);
    for (const c of facts.charts) this.charts.add(c);
    if (!facts.crd) return;
    const crdText = text ?? readForScan(file, this.options);
    // changed or gone since the worker read it: the reader reports what it finds, and a CRD read only then is a
    // kind the catalog loads when first met
    if (crdText === undefined) return;
    const shown = this.options.show(file);
    const docs = parseText({ file: shown, text: crdText });
    for (const r of docs.resources) if (isCrd(r.object)) this.crdTypes.push(...typesFromCrd(r.object, documentSource(r)));
    // what the reader makes of a kept text (readFile in reader.ts): an IAM file is read as JSON there, not parsed.
    // The documents of a text not kept are kept with their text (the stream locates findings in it), in the same budget.
    if (file !== "-" && this.sameParse && crdText.length <= this.parsedLeft && !iamKindOf(shown) && (kept || !this.keptTextsOnly)) {
      this.parsed.set(file, { resources: docs.resources, unreadable: docs.unreadable, iam: [] });
      if (!kept) this.texts.set(file, crdText);
      this.parsedLeft -= crdText.length;
    }
  }

  result(): ScanResult {
    return { crdTypes: this.crdTypes, kindsByFile: this.kindsByFile, charts: this.charts, texts: this.texts, parsed: this.parsed };
  }
}

/** Reads each file once (files too large or binary are left to the reader, which reports them). */
export function scanFiles(files: readonly string[], options: ScanOptions): ScanResult {
  const assembly = new ScanAssembly(options, true);
  const keep = new KeptTexts(options.keepChars ?? SCAN_KEEP_CHARS);
  const reads = new ScanReads(options);
  for (const file of files) {
    const text = reads.read(file);
    if (text === undefined) continue;
    const kept = file !== "-" && keep.take(text);
    if (kept) assembly.texts.set(file, text);
    assembly.add(file, textFacts(text), text, kept);
  }
  return assembly.result();
}

/**
 * scanFiles shared with the read-ahead worker: the worker scans from the first file on (and keeps the texts of
 * the first files to parse them itself), this thread from the last one, until they meet; the facts are then put
 * together in file order. The same result as scanFiles, except for the texts kept: here those of all the files
 * this thread scanned when they fit in `keepChars` (default SHARED_SCAN_KEEP_CHARS; the stream gives them to the
 * worker as it comes near them), and those of the CRD files whose documents are kept. The scan was ~15% of the main thread's
 * CPU on 5,000 one-object files, while the worker waited at its window.
 */
export async function scanFilesShared(files: readonly string[], options: ScanOptions, partner: ScanPartner): Promise<ScanResult> {
  // facts by file index (files of the same facts share one object), and the texts of the CRD files among them
  const mine = new FactsByIndex(files.length);
  const crdTexts = new Map<number, string>();
  const kept = new Map<number, string>();
  const keep = new KeptTexts(options.keepChars ?? SHARED_SCAN_KEEP_CHARS);
  let keeping = true;
  const reads = new ScanReads(options);
  let first = files.length;
  for (let i = files.length - 1; i >= 0 && partner.claimScan(i); i--) {
    first = i;
    const file = files[i] as string;
    const text = reads.read(file);
    if (text === undefined) continue;
    const facts = textFacts(text);
    mine.set(i, facts);
    // a CRD file's text is kept for its documents, made from it below (ScanAssembly.add keeps the two together);
    // another's while all of this thread's fit in its share, for the stream to parse without reading the file again.
    // Past the share none is kept: these are the last files, whose texts would be held through the whole stream
    // (keeping up to the share regardless, list 50,000 peaked at 243 MB against 235 MB in one run, for a tenth of
    // the files read once)
    if (facts.crd) crdTexts.set(i, text);
    else if (keeping && file !== "-") {
      if (keep.take(text)) kept.set(i, text);
      else {
        keeping = false;
        kept.clear();
      }
    }
  }
  const theirs = first > 0 ? await partner.scanned() : new FactsByIndex(0);
  const assembly = new ScanAssembly(options, false);
  for (let i = 0; i < files.length; i++) {
    const file = files[i] as string;
    if (i >= first) {
      const facts = mine.get(i);
      const text = kept.get(i);
      if (text !== undefined) assembly.texts.set(file, text);
      if (facts) assembly.add(file, facts, crdTexts.get(i), false);
      continue;
    }
    let facts = theirs.get(i);
    let text: string | undefined;
    // a file the worker did not report (it stopped or failed): read here
    if (facts === undefined) {
      text = reads.read(file);
      facts = text === undefined ? null : textFacts(text);
    }
    if (facts) assembly.add(file, facts, text, false);
  }
  return assembly.result();
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
    if (json.includes("chart")) for (const c of allMatches(CHART, json)) charts.add(c);
  }
  return { crdTypes, kindsByFile, charts, texts: new Map(), parsed: new Map() };
}

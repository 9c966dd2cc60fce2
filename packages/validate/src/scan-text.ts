// What the scan (scan.ts) learns from one file's text, apart from the rest of the scan: the read-ahead worker
// scans files too (from the first file on, while the main thread scans from the last one), and its bundle
// takes this module and nothing of the catalog's.
import { readRegularFile } from "./hostile/fs.ts";
import { ownString } from "./own-string.ts";

/** One file's facts: apiVersion/kind pairs it may hold (over-approximated), chart names, whether a CRD may be among them. */
export interface TextFacts {
  /** apiVersion, kind, apiVersion, kind...: every apiVersion with every kind the text names at the top level. */
  readonly pairs: readonly string[];
  readonly charts: readonly string[];
  readonly crd: boolean;
}

/** FactsByIndex's id of a file not scanned (or not reported), and of a file the reader must judge (null facts). */
const ABSENT = -1;
const JUDGED = -2;

/**
 * The facts of a shared scan's files by file index, one object for all files of the same facts, its strings copies:
 * a file's facts are matches sliced from its text (V8 keeps the whole text alive while a slice lives) or, from the
 * worker, a structured clone of their own. Held for every file until the scan is put together in file order: the
 * main thread's half of a shared scan of 200,000 files kept ~55 MB more at its peak than scanFiles (the texts of its
 * 100,000 files, through their slices). An Int32Array of ids, 4 bytes a file: a Map of a number to the facts was
 * ~36 bytes a file with its hash table (~4 MB for each half of the scan at 200,000 files).
 */
export class FactsByIndex {
  private readonly ids: Int32Array;
  private readonly distinct: TextFacts[] = [];
  private readonly byKey = new Map<string, number>();

  constructor(files: number) {
    this.ids = new Int32Array(files).fill(ABSENT);
  }

  /** Records the facts of file `index` (null: the reader's to judge). */
  set(index: number, facts: TextFacts | null): void {
    if (facts === null) {
      this.ids[index] = JUDGED;
      return;
    }
    // JSON: no two different facts give the same key, whatever characters a hostile file's strings hold
    const key = JSON.stringify([facts.crd, facts.pairs, facts.charts]);
    let id = this.byKey.get(key);
    if (id === undefined) {
      id = this.distinct.length;
      this.distinct.push({ pairs: facts.pairs.map(ownString), charts: facts.charts.map(ownString), crd: facts.crd });
      this.byKey.set(ownString(key), id);
    }
    this.ids[index] = id;
  }

  /** The facts of file `index`: null for a file the reader must judge, undefined for one not recorded. */
  get(index: number): TextFacts | null | undefined {
    const id = this.ids[index];
    return id === undefined || id === ABSENT ? undefined : id === JUDGED ? null : this.distinct[id];
  }
}

// Top-level keys of block YAML start a line; JSON has them quoted anywhere. Over-approximation is fine:
// these only decide which catalog files are read, and a kind missed here is loaded when first met.
const JSON_API = /"apiVersion"\s*:\s*"([^"]+)"/g;
const JSON_KIND = /"kind"\s*:\s*"([^"]+)"/g;
export const CHART = /\bchart["']?[ \t]*:[ \t]*["']?([\w.-]+)/g;

export function allMatches(re: RegExp, text: string): Set<string> {
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

/** The facts of a text (a pure function of it: either thread makes the same). */
export function textFacts(text: string): TextFacts {
  // JSON keys are quoted: a text without `"apiVersion"` has none to find
  const json = text.includes('"apiVersion"') || text.includes('"kind"');
  const apis = new Set([...topLevel("apiVersion", text), ...(json ? allMatches(JSON_API, text) : [])]);
  const kinds = new Set([...topLevel("kind", text), ...(json ? allMatches(JSON_KIND, text) : [])]);
  const pairs: string[] = [];
  for (const apiVersion of apis) for (const kind of kinds) pairs.push(apiVersion, kind);
  return { pairs, charts: text.includes("chart") ? [...allMatches(CHART, text)] : [], crd: kinds.has("CustomResourceDefinition") };
}

/**
 * The text the scan reads of a file, or undefined for one the reader must judge (unreadable, not a regular file, too
 * large, binary): the hardened read, regular files only, never waiting on a FIFO, within the size limit. A text
 * without NUL is what the reader would read (the reader refuses a file with NUL bytes as binary).
 */
export function scanRead(file: string, maxFileBytes: number): string | undefined {
  const bytes = readRegularFile(file, maxFileBytes);
  const text = Buffer.isBuffer(bytes) ? bytes.toString("utf8") : undefined;
  return text === undefined || text.includes("\u0000") ? undefined : text;
}

/**
 * The texts the scan keeps for the reader, `chars` in all: from the first file on, until one does not fit (the
 * stream takes files in order, so kept texts go first; a text kept past a gap would wait there). scanFiles and the
 * worker's scanFront keep by this rule; the main thread's half of a shared scan, from the last file down, keeps its
 * texts only while all of them fit (scanFilesShared).
 */
export class KeptTexts {
  constructor(private left: number) {}

  /** Whether to keep `text`, the next file's (in file order; files the reader must judge are not offered). */
  take(text: string): boolean {
    if (text.length > this.left) {
      this.left = 0;
      return false;
    }
    this.left -= text.length;
    return true;
  }
}

// Reading files, folders and stdin into documents: multi-document YAML and JSON, one error per bad document.
import { loadAll } from "js-yaml";
import { readPlainJson } from "./json-fast.ts";
import { readBlockYaml } from "./yaml-fast.ts";
import { shownPath } from "./shown-path.ts";
import { jsonSyntaxMessage } from "./json-position.ts";
import type { Document } from "yaml";
import { collectPaths, readRegularFile, readStdinLimited, tooLarge } from "./hostile/fs.ts";
import { MAX_NESTING_DEPTH, mayNestDeeperThan, nestingDepth, scanJson } from "./hostile/json.ts";
import { documentProblem, mayHaveComplexKey } from "./hostile/yaml-doc.ts";
import { YAML11_SCHEMA, yaml11Tag } from "./yaml11.ts";
import { yamlLib } from "./yaml-lib.ts";
import type { Finding, IamDocument, LoadedDocuments, ParsedResource, UnreadableDocument } from "./types.ts";

export interface ReadOptions {
  /** Larger files are one `error` document, unread. @default 16 MiB */
  readonly maxFileBytes?: number;
  /** Alias expansions allowed per document (`yaml`'s guard against billion-laughs). @default 100 */
  readonly maxAliasCount?: number;
  /** Shown paths are relative to this folder (files are read relative to the process's cwd). @default process.cwd() */
  readonly cwd?: string;
  /** Reads stdin for `-` (tests; the byte limit applies to what it returns too). @default fd 0, at most maxFileBytes */
  readonly readStdin?: () => string;
}

export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Anything that may be a YAML anchor (`&` then a non-space, after a space, line start or flow indicator); `a&b` in URLs is not. */
export const ANCHOR = /(^|[\s[{,])&\S/m;

/** One text to split into documents: a file's content or stdin. */
export interface TextSource {
  readonly file: string;
  readonly text: string;
}

const parseError = (file: string, index: number, rule: string, message: string): UnreadableDocument => ({
  file,
  index,
  findings: [{ severity: "error", path: "", message, rule }],
});

/** Files (recursively for folders, links followed) in a stable order; `-` stays as is. Throws on the first path that cannot be read. */
export function expandPaths(paths: readonly string[]): string[] {
  const { files, problems } = collectPaths(paths);
  if (problems[0]) throw new Error(`${problems[0].file}: ${problems[0].message}`);
  return files;
}

/** A JSON file (`.json` in any case) directly in a folder named `iam`; its name is group 1. */
const IAM_FILE = /(?:^|[\\/])iam[\\/]([^\\/]*\.[jJ][sS][oO][nN])$/;

/**
 * IAM documents are the JSON files of a rendered `iam/` component folder. Asked of every file read, on both
 * threads: one regular expression, where splitting the path and lower-casing it cost ~2 us a file (~10 ms of the
 * read-ahead worker's 5,000 files).
 */
export function iamKindOf(file: string): IamDocument["iamKind"] | undefined {
  const base = IAM_FILE.exec(file)?.[1];
  if (base === undefined) return undefined;
  if (base === "index.json") return "index";
  return base.endsWith(".trust-policy.json") ? "trust-policy" : "policy";
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

function readFileChecked(path: string, maxBytes: number, stdin?: () => string): string | UnreadableDocument {
  let buf: ReturnType<typeof readRegularFile>;
  if (path === "-" && stdin) {
    const text = stdin();
    const bytes = Buffer.byteLength(text);
    if (bytes > maxBytes) return parseError(path, 0, "parse:too-large", tooLarge(path, `stdin is ${bytes} bytes`, maxBytes).message);
    buf = Buffer.from(text);
  } else buf = path === "-" ? readStdinLimited(maxBytes) : readRegularFile(path, maxBytes);
  if (!Buffer.isBuffer(buf)) return parseError(path, 0, buf.rule, buf.message);
  if (isBinary(buf)) return parseError(path, 0, "parse:binary", "file is binary (contains NUL bytes), not YAML or JSON");
  return buf.toString("utf8");
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * Whether a document is a list kubectl expands into its items: `kind: List` or a typed list (`RoleList`,
 * `ConfigMapList`...) with an `items` array. kubectl's unstructured decoder takes any object with `items` for a
 * list (k8s.io/apimachinery v0.36.5 pkg/apis/meta/v1/unstructured/helpers.go, decode); the kind's `List` suffix
 * is required here as well, so that an object of another kind with a top-level `items` field stays an object.
 */
const isList = (obj: Record<string, unknown>, kind: string | undefined): boolean => kind?.endsWith("List") === true && Array.isArray(obj.items);

/**
 * Sorts one parsed document into a resource or an unreadable document (not an object, no apiVersion/kind); a list
 * becomes one resource per item, each with `pointer` `/items/N` (where its findings are in the document).
 */
function classify(value: unknown, file: string, index: number, resources: ParsedResource[], unreadable: UnreadableDocument[], item?: { pointer: string; apiVersion?: string; kind?: string }): void {
  const at = item?.pointer ?? "";
  const pointed = item ? { pointer: item.pointer } : {};
  if (value === null || value === undefined) {
    // an empty document, as between `---` separators; a null list item is an object kubectl cannot decode
    if (item) unreadable.push({ file, index, findings: [{ severity: "error", path: at, message: "list item is null, not a Kubernetes object", rule: "parse:not-an-object" }] });
    return;
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    const what = Array.isArray(value) ? "a list" : `a ${typeof value}`;
    unreadable.push({ file, index, findings: [{ severity: "error", path: at, message: `${item ? "list item" : "document"} is ${what}, not a Kubernetes object`, rule: "parse:not-an-object" }] });
    return;
  }
  const obj = value as Record<string, unknown>;
  const meta = (typeof obj.metadata === "object" && obj.metadata !== null ? obj.metadata : {}) as Record<string, unknown>;
  let apiVersion = str(obj.apiVersion);
  let kind = str(obj.kind);
  // an item of a typed list without apiVersion and kind is of the list's kind without `List` (helpers.go, decodeToList)
  if (item && obj.apiVersion === undefined && obj.kind === undefined && item.kind !== "List") {
    apiVersion = item.apiVersion;
    kind = item.kind?.slice(0, -"List".length);
  }
  if (apiVersion && isList(obj, kind)) {
    for (const [i, v] of (obj.items as unknown[]).entries()) classify(v, file, index, resources, unreadable, { pointer: `${at}/items/${i}`, apiVersion, kind });
    return;
  }
  const ident = { apiVersion, kind, name: str(meta.name), namespace: str(meta.namespace) };
  const missing = [apiVersion ? undefined : "apiVersion", kind ? undefined : "kind"].filter((m): m is string => m !== undefined);
  if (missing.length > 0) {
    const findings: Finding[] = missing.map((m) => ({ severity: "error", path: `${at}/${m}`, message: `missing ${m}: every Kubernetes object needs apiVersion and kind (as a non-empty string)`, rule: "parse:missing-type" }));
    unreadable.push({ file, index, ...ident, findings });
    return;
  }
  resources.push({ file, index, ...pointed, apiVersion: apiVersion as string, kind: kind as string, name: ident.name ?? "", namespace: ident.namespace ?? "", object: obj });
}

/**
 * How js-yaml's documents expand once aliases are followed: `ok`, `too-large` (past `EXPANSION_FACTOR`
 * objects and lists per input character plus a floor, for all documents of the text together) or `cyclic`
 * (an anchor used inside itself), one verdict per document. js-yaml keeps an alias as a reference to its
 * anchor's value (read-only data here: nothing changes parsed documents), so memory is bounded by the text;
 * expansion happens when documents are walked, and the budget stops alias bombs (billion laughs) before
 * that. Hand-written: neither YAML library offers js-yaml's speed with an expansion limit.
 */
export function aliasExpansion(values: readonly unknown[], textLength: number): ("ok" | "too-large" | "cyclic")[] {
  const budget = EXPANSION_FLOOR + EXPANSION_FACTOR * textLength;
  // Common case first: count the expanded nodes, stopping at the budget (a cycle never ends, so it hits it
  // too). Within budget means no cycle and no bomb; only past it are shared nodes measured one by one.
  let left = budget;
  const count = (v: unknown): boolean => {
    // scalars count too (a long string by its length): an alias of a 100,000-item list of scalars is as costly
    // to walk, copy and print as one of objects
    if (--left < 0) return false;
    if (typeof v !== "object" || v === null) {
      if (typeof v === "string") left -= v.length >> 6;
      return left >= 0;
    }
    if (Array.isArray(v)) {
      for (const x of v) if (!count(x)) return false;
    } else {
      for (const k in v) if (!count((v as Record<string, unknown>)[k])) return false;
    }
    return true;
  };
  try {
    if (values.every(count)) return values.map(() => "ok");
  } catch (err) {
    // a cycle (or a very deep document) can exhaust the stack before the budget
    if (!(err instanceof RangeError)) throw err;
  }
  try {
    return measureShared(values, budget);
  } catch (err) {
    // nested beyond the stack: yaml re-reads the text and reports it per document
    if (!(err instanceof RangeError)) throw err;
    return values.map(() => "too-large");
  }
}

/** aliasExpansion's exact pass: each distinct object measured once, cycles found. */
function measureShared(values: readonly unknown[], budget: number): ("ok" | "too-large" | "cyclic")[] {
  // expanded size of each distinct object, so that a shared subtree is measured once
  const sizes = new Map<object, number>();
  const IN_PROGRESS = -1;
  let cyclic = false;
  const size = (v: unknown): number => {
    if (typeof v !== "object" || v === null) return 1 + (typeof v === "string" ? v.length >> 6 : 0);
    const known = sizes.get(v);
    if (known === IN_PROGRESS) cyclic = true;
    if (known !== undefined) return Math.max(known, 0);
    sizes.set(v, IN_PROGRESS);
    let n = 1;
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      n += size(x);
      if (n > budget) break;
    }
    sizes.set(v, n);
    return n;
  };
  let total = 0;
  return values.map((v) => {
    cyclic = false;
    total += size(v);
    return cyclic ? "cyclic" : total > budget ? "too-large" : "ok";
  });
}

/** Expanded nodes (scalars included) allowed per input character (and a floor) before yaml's alias limit decides. */
const EXPANSION_FACTOR = 2;
const EXPANSION_FLOOR = 10_000;

/** Splits one text into documents; a bad document never stops the ones after it. */
export function parseText(source: TextSource, options: ReadOptions = {}): { resources: ParsedResource[]; unreadable: UnreadableDocument[]; json?: true } {
  const maxAliasCount = options.maxAliasCount ?? 100;
  const resources: ParsedResource[] = [];
  const unreadable: UnreadableDocument[] = [];
  const { file } = source;
  // Fast path: js-yaml is about ten times faster than yaml. Any error re-reads the text with yaml, which
  // reports each bad document with its line and keeps the others. js-yaml has no alias expansion limit:
  // a text with anchors is measured against a budget (aliasExpansion); past it, yaml reads
  // the text and applies its own alias limit.
  let values: unknown[] | undefined;
  // plain JSON text that js-yaml would read to the same value: JSON.parse (json-fast.ts); it has no aliases, and no
  // complex key (every key of JSON is a string): asked first, it spares JSON text the complex-key search below
  const json = readPlainJson(source.text);
  if (json !== undefined) {
    classify(json, file, 0, resources, unreadable);
    return { resources, unreadable, json: true };
  }
  // a possible complex key (a list or map as a key) is for yaml to judge: js-yaml would stringify it
  const complexKey = mayHaveComplexKey(source.text);
  // block YAML of the subset manifests use, read in one pass to js-yaml's documents (yaml-fast.ts): trees without
  // aliases, nested at most 40 deep, so neither the alias budget nor the nesting bound has anything to find
  const fast = complexKey ? undefined : readBlockYaml(source.text);
  try {
    values = fast ?? (complexKey ? undefined : loadAll(source.text, undefined, { schema: YAML11_SCHEMA }));
  } catch {
    values = undefined;
  }
  // includes() first: most texts have no `&` at all, and it answers that faster than ANCHOR tries every position
  const expansion = values && !fast && source.text.includes("&") && ANCHOR.test(source.text) ? aliasExpansion(values, source.text.length) : undefined;
  if (values && !expansion?.includes("too-large")) {
    const deep = !fast && mayNestDeeperThan(source.text, MAX_NESTING_DEPTH);
    for (const [index, value] of values.entries()) {
      if (expansion?.[index] === "cyclic") unreadable.push(parseError(file, index, "parse:alias-cycle", "an alias refers to the anchor it is inside: the document would be infinite"));
      else if (deep && nestingDepth(value) > MAX_NESTING_DEPTH) unreadable.push(parseError(file, index, "parse:too-deep", `document is nested more than ${MAX_NESTING_DEPTH} levels deep`));
      else classify(value, file, index, resources, unreadable);
    }
    return { resources, unreadable };
  }
  let docs: readonly Document[];
  const { LineCounter, parseAllDocuments } = yamlLib();
  const lines = new LineCounter();
  try {
    docs = parseAllDocuments(source.text, { uniqueKeys: true, prettyErrors: false, lineCounter: lines, customTags: (tags) => [yaml11Tag, ...tags], merge: true }) as readonly Document[];
  } catch (err) {
    unreadable.push(parseError(file, 0, "parse:syntax", `cannot parse: ${(err as Error).message}`));
    return { resources, unreadable };
  }
  docs.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const pos = e ? lines.linePos(e.pos[0]) : undefined;
      const at = pos ? ` (line ${pos.line}, column ${pos.col})` : "";
      const duplicate = e?.code === "DUPLICATE_KEY";
      if (e && /call stack/i.test(e.message)) {
        unreadable.push(parseError(file, index, "parse:too-deep", `document is nested too deeply to read${at}`));
        return;
      }
      unreadable.push(
        parseError(file, index, duplicate ? "parse:duplicate-key" : "parse:syntax", `${duplicate ? "duplicate key" : "YAML syntax error"}${at}: ${e?.message.split("\n")[0]}`),
      );
      return;
    }
    const problem = documentProblem(doc, lines);
    if (problem) {
      unreadable.push(parseError(file, index, problem.rule, problem.message));
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount });
    } catch (err) {
      const message = (err as Error).message;
      const bomb = /alias/i.test(message);
      unreadable.push(parseError(file, index, bomb ? "parse:alias-limit" : "parse:syntax", bomb ? `too many alias expansions (limit ${maxAliasCount}): ${message}` : message));
      return;
    }
    if (nestingDepth(value) > MAX_NESTING_DEPTH) {
      unreadable.push(parseError(file, index, "parse:too-deep", `document is nested more than ${MAX_NESTING_DEPTH} levels deep`));
      return;
    }
    classify(value, file, index, resources, unreadable);
  });
  return { resources, unreadable };
}

/** Reads every path (files, folders recursively, `-` for stdin) into resources, unreadable documents and IAM files. */
export function loadDocuments(paths: readonly string[], options: ReadOptions = {}): LoadedDocuments {
  const cwd = options.cwd ?? process.cwd();
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const resources: ParsedResource[] = [];
  const unreadable: UnreadableDocument[] = [];
  const iam: IamDocument[] = [];
  const { files, problems } = collectPaths(paths);
  for (const p of problems) unreadable.push(parseError(shownPath(cwd, p.file), 0, p.rule, p.message));
  for (const path of files) void readFile(path, cwd, maxBytes, options, { resources, unreadable, iam });
  return { resources, unreadable, iam };
}

/**
 * The documents of one file that a listing (collectPaths: the run's file list) has already found to be a regular
 * file, or `-`: read without asking the file system about the path again (opening it checks it is still a file).
 * Also gives the text read (undefined when the file could not be read as text), so that the positions of its
 * findings are found without reading it again. `known` is the file's text when a pass before (scan.ts) already
 * read it: the file is then not read again.
 */
export function loadFileText(path: string, options: ReadOptions = {}, known?: string): { docs: LoadedDocuments; text: string | undefined } {
  const docs: FileDocuments = { resources: [], unreadable: [], iam: [] };
  const text = readFile(path, options.cwd ?? process.cwd(), options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, options, docs, known);
  return { docs, text };
}

/** What readFile fills in: LoadedDocuments, being made. */
type FileDocuments = { resources: ParsedResource[]; unreadable: UnreadableDocument[]; iam: IamDocument[]; json?: boolean };

/** Reads one file (or uses its `known` text) into `out`; returns the text, or undefined when it could not be read as text. */
function readFile(path: string, cwd: string, maxBytes: number, options: ReadOptions, out: FileDocuments, known?: string): string | undefined {
  const { resources, unreadable, iam } = out;
  const shown = path === "-" ? "-" : shownPath(cwd, path);
  const read = known ?? readFileChecked(path, maxBytes, options.readStdin);
  if (typeof read !== "string") {
    unreadable.push({ ...read, file: shown });
    return undefined;
  }
  const text = read;
  const iamKind = path === "-" ? undefined : iamKindOf(shown);
  if (iamKind) {
    let object: unknown;
    try {
      object = JSON.parse(text);
    } catch (err) {
      unreadable.push(parseError(shown, 0, "parse:syntax", jsonSyntaxMessage(text, err as Error)));
      return text;
    }
    // duplicate keys and excess depth, which JSON.parse lets through
    const problem = scanJson(text);
    if (problem) unreadable.push(parseError(shown, 0, problem.rule, problem.message));
    else iam.push({ file: shown, index: 0, iamKind, object });
    return text;
  }
  const parsed = parseText({ file: shown, text }, options);
  for (const r of parsed.resources) resources.push(r);
  for (const u of parsed.unreadable) unreadable.push(u);
  if (parsed.json) out.json = true;
  return text;
}

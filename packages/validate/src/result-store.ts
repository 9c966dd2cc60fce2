// ResultStore: the results of a streaming run kept as columns until the report is made, so what a run holds
// per object is a few numbers and its name, not an object, a lookup key and a map entry.
//
// On 50,000 objects the results, their lookup keys (`file\0index\0pointer` strings in a Map, for the
// cross-object findings) and the interned file names were ~1 KB an object of live heap until the end of the
// stream. Here a valid object costs 25 bytes of typed arrays and its `name` string; its file, apiVersion,
// kind and namespace are indices into one table of strings (a file's name is kept once, however many
// documents it holds); findings and list pointers are kept only where there are some. The results are made
// objects again once, at the end, after the read-ahead worker and the documents are gone.
import { Int32Column, Uint8Column } from "./columns.ts";
import { jsonExact } from "./cross-object/compact.ts";
import { ownString } from "./own-string.ts";
import { SPILL_AFTER, type SpillBudget, SparseSpillColumn, SpillColumn, SpillFile } from "./spill.ts";
import type { CrossObjectFinding, Finding, Report, ResourceResult, ResourceStatus, Summary } from "./types.ts";

export { SPILL_AFTER };

const STATUSES: readonly ResourceStatus[] = ["valid", "invalid", "error", "skipped"];
const STATUS_CODE: Readonly<Record<ResourceStatus, number>> = { valid: 0, invalid: 1, error: 2, skipped: 3 };

/** The findings of every result that has none. */
const NO_FINDINGS: readonly Finding[] = [];

export class ResultStore {
  private rows = 0;
  // chunked columns (columns.ts), not typed arrays grown by doubling: ~25 bytes a row, at most a chunk unused
  private readonly file = new Int32Column();
  private readonly index = new Int32Column();
  private readonly apiVersion = new Int32Column();
  private readonly kind = new Int32Column();
  private readonly namespace = new Int32Column();
  private readonly status = new Uint8Column();
  /** The next row of the same file (-1: none): a file's rows are found without a key per row. */
  private readonly nextOfFile = new Int32Column();
  private spillFile: SpillFile | undefined;
  /** The temporary file of this store's spilled strings (made when first written to), for other columns of the run too. */
  readonly spill = (): SpillFile => (this.spillFile ??= new SpillFile(this.budget.bufferBytes));
  /** Rows whose name and pointer stay in memory (the rest are written to a temporary file). */
  readonly spillAfter: number;
  /** By row: its name, and the list item it is (undefined: none); in memory up to the budget, then in the spill. */
  private readonly names: SpillColumn;
  private readonly pointers: SparseSpillColumn;
  /** apiVersions, kinds and namespaces, each kept once. */
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  /**
   * Files by id: their names (in memory for the first `spillAfter` files, then in the spill), and the ids of those
   * in memory by name. A file past the budget is known again only as the file of the row before (a file's rows
   * come together): a file met again later gets another id of the same name, which sorts, finds and reports as one.
   */
  private readonly fileNames: SpillColumn;
  private readonly fileIds = new Map<string, number>();
  private files = 0;
  private lastFile: string | undefined;
  private lastFileId = -1;
  /** By file id: its first and last rows (-1: none), and its place among the files' names (equal names, equal places). */
  private readonly firstOfFile = new Int32Column();
  private readonly lastOfFile = new Int32Column();
  private readonly fileRank = new Int32Column();
  /** Whether the files' names came in sorted order (as `<` compares them): their ids then sort the report. */
  private filesSorted = true;
  private ranks = 0;
  private lastNewFile: string | undefined;
  /** By row: the findings of rows below the budget, and of rows given more (addFinding); they win over the spilled. */
  private readonly findings = new Map<number, readonly Finding[]>();
  /**
   * The findings of rows past the budget, as JSON, only rows that have some: ~15% of the rows of the bench corpus,
   * whose finding objects were ~0.2 KB a row with findings in memory until the report (~6 MB at 200,000 objects).
   */
  private readonly spilledFindings: SparseSpillColumn;

  constructor(private readonly budget: SpillBudget = {}) {
    this.spillAfter = budget.after ?? SPILL_AFTER;
    this.names = new SpillColumn(this.spill, this.spillAfter);
    this.fileNames = new SpillColumn(this.spill, this.spillAfter);
    this.pointers = new SparseSpillColumn(this.spill, this.spillAfter);
    this.spilledFindings = new SparseSpillColumn(this.spill, 0);
  }

  /** Closes the spill (a report of this store can then not be read any more); a store collected unclosed closes it then. */
  close(): void {
    this.spillFile?.close();
  }

  /** Whether any of this store's strings were written to the disk. */
  get onDisk(): boolean {
    return this.spillFile?.onDisk ?? false;
  }

  get size(): number {
    return this.rows;
  }

  /** `copy`: whether `s` may be a slice of a file's text (apiVersion, kind, namespace); a file's name never is. */
  private id(s: string, copy = true): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      const own = copy ? ownString(s) : s;
      this.strings.push(own);
      this.ids.set(own, id);
    }
    return id;
  }

  /** The id of a file (a file's name is never a slice of a text: kept as it is). */
  private fileId(name: string): number {
    if (name === this.lastFile) return this.lastFileId;
    let id = this.fileIds.get(name);
    if (id === undefined) {
      id = this.files++;
      this.firstOfFile.set(id, -1);
      this.lastOfFile.set(id, -1);
      if (id < this.spillAfter) this.fileIds.set(name, id);
      const previous = this.lastNewFile;
      if (previous !== undefined && name < previous) this.filesSorted = false;
      // ranks in the order the ids are made: right when the names came sorted (sortedRows() checks)
      this.fileRank.set(id, previous === name ? this.ranks - 1 : this.ranks++);
      this.lastNewFile = name;
      this.fileNames.push(name);
    }
    this.lastFile = name;
    this.lastFileId = id;
    return id;
  }

  /** The ids of the files named in `names` (several for a name met apart past the budget: see fileNames). */
  private fileIdsOf(names: ReadonlySet<string>): Map<string, number[]> {
    const out = new Map<string, number[]>();
    const found = (name: string, id: number) => {
      const list = out.get(name);
      if (list) list.push(id);
      else out.set(name, [id]);
    };
    for (const name of names) {
      const id = this.fileIds.get(name);
      if (id !== undefined) found(name, id);
    }
    // past the budget: one read of the spilled names, in the order written
    for (let id = this.spillAfter; id < this.files; id++) {
      const name = this.fileNames.at(id) as string;
      if (names.has(name)) found(name, id);
    }
    return out;
  }

  /** Makes `s` the string kept for a file's name (the caller's, as it holds it anyway): equal strings given later are not kept. */
  preferString(s: string): void {
    this.fileId(s);
  }

  /** Keeps `r` (its findings as they are: the caller owns them) and returns its row. `pointer`: the list item it is, if any. */
  add(r: ResourceResult, pointer?: string): number {
    const row = this.rows++;
    const file = this.fileId(r.file);
    this.file.set(row, file);
    this.index.set(row, r.index);
    this.apiVersion.set(row, this.id(r.apiVersion));
    this.kind.set(row, this.id(r.kind));
    this.namespace.set(row, this.id(r.namespace));
    this.status.set(row, STATUS_CODE[r.status]);
    // copied: a spilled name waits for its block in memory (SpillColumn), and must not keep its file's text alive
    this.names.push(ownString(r.name));
    this.nextOfFile.set(row, -1);
    const last = this.lastOfFile.get(file);
    if (last < 0) this.firstOfFile.set(file, row);
    else this.nextOfFile.set(last, row);
    this.lastOfFile.set(file, row);
    if (r.findings.length > 0) {
      // a Secret's findings may quote its values, and stdin's text is on no disk: neither is written to the spill file
      // (private and unlinked at once, but a value the input did not put on a disk is not put there here either);
      // other findings quote what their input file holds on the disk already
      if (row >= this.spillAfter && r.kind !== "Secret" && r.file !== "-" && r.findings.every(jsonExact)) this.spilledFindings.set(row, JSON.stringify(r.findings));
      else this.findings.set(row, r.findings);
    }
    if (pointer) this.pointers.set(row, ownString(pointer));
    return row;
  }

  /** The row of a document (a list item by its pointer); the last one kept when several share it. */
  find(file: string, index: number, pointer?: string): number | undefined {
    let found: number | undefined;
    for (const id of this.fileIdsOf(new Set([file])).get(file) ?? []) {
      for (let row = this.firstOfFile.get(id); row >= 0; row = this.nextOfFile.get(row)) {
        if (this.index.get(row) === index && (this.pointers.get(row) ?? "") === (pointer ?? "") && (found === undefined || row > found)) found = row;
      }
    }
    return found;
  }

  /** Adds cross-object findings (in their order) to the rows they are about; a finding on no kept row is dropped. Each file's rows are walked once, not once per finding. */
  addFindings(found: readonly CrossObjectFinding[], finding: (f: CrossObjectFinding) => Finding): void {
    const ids = this.fileIdsOf(new Set(found.map((f) => f.file)));
    const byFile = new Map<string, CrossObjectFinding[]>();
    for (const f of found) {
      if (!ids.has(f.file)) continue;
      const list = byFile.get(f.file);
      if (list) list.push(f);
      else byFile.set(f.file, [f]);
    }
    for (const [file, list] of byFile) {
      // document and list item -> the last row kept for it, as find() answers
      const rows = new Map<string, number>();
      for (const id of ids.get(file) ?? []) {
        for (let row = this.firstOfFile.get(id); row >= 0; row = this.nextOfFile.get(row)) {
          const key = `${this.index.get(row)}\u0000${this.pointers.get(row) ?? ""}`;
          if (!((rows.get(key) ?? -1) > row)) rows.set(key, row);
        }
      }
      for (const f of list) {
        const row = rows.get(`${f.index}\u0000${f.pointer ?? ""}`);
        if (row !== undefined) this.addFinding(row, finding(f));
      }
    }
  }

  apiVersionAt(row: number): string {
    return this.strings[this.apiVersion.get(row)] as string;
  }

  kindAt(row: number): string {
    return this.strings[this.kind.get(row)] as string;
  }

  nameAt(row: number): string {
    return this.names.at(row) as string;
  }

  namespaceAt(row: number): string {
    return this.strings[this.namespace.get(row)] as string;
  }

  /** The rows that have findings, ascending. */
  rowsWithFindings(): number[] {
    return [...new Set([...this.findings.keys(), ...this.spilledFindings.indices()])].sort((a, b) => a - b);
  }

  /**
   * The rows sorted by file, then index (ties in the order kept), as `results().sort()` by those would give
   * them: each file's name is compared once with the others, then rows by numbers only.
   */
  sortedRows(): Int32Array {
    // files whose names came sorted (a walk of folders gives them so) are ranked already, without reading a name
    const rank = this.filesSorted ? this.fileRank.slice(this.files) : this.sortedFileRanks();
    const order = new Int32Array(this.rows);
    for (let row = 0; row < this.rows; row++) order[row] = row;
    // plain arrays for the comparator (a few MB for the sort only)
    const file = this.file.slice(this.rows);
    const index = this.index.slice(this.rows);
    return order.sort((a, b) => (rank[file[a] as number] as number) - (rank[file[b] as number] as number) || (index[a] as number) - (index[b] as number) || a - b);
  }

  /** Each file's place among the names of the files in use (equal names, equal places), from their names. */
  private sortedFileRanks(): Int32Array {
    // the files in use, without a set of 200,000 numbers: a flag per file
    const used = new Uint8Array(this.files);
    for (let row = 0; row < this.rows; row++) used[this.file.get(row)] = 1;
    const files: { id: number; name: string }[] = [];
    for (let id = 0; id < this.files; id++) if (used[id] === 1) files.push({ id, name: this.fileNames.at(id) as string });
    files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const rank = new Int32Array(this.files);
    let r = -1;
    files.forEach((f, i) => {
      if (i === 0 || f.name !== (files[i - 1] as { name: string }).name) r++;
      rank[f.id] = r;
    });
    return rank;
  }

  /** The status of a row as kept. */
  statusAt(row: number): ResourceStatus {
    return STATUSES[this.status.get(row)] as ResourceStatus;
  }

  get(row: number): ResourceResult {
    return {
      file: this.fileNames.at(this.file.get(row)) as string,
      index: this.index.get(row),
      apiVersion: this.strings[this.apiVersion.get(row)] as string,
      kind: this.strings[this.kind.get(row)] as string,
      name: this.names.at(row) as string,
      namespace: this.strings[this.namespace.get(row)] as string,
      status: STATUSES[this.status.get(row)] as ResourceStatus,
      findings: this.findingsOf(row),
    };
  }

  private findingsOf(row: number): readonly Finding[] {
    const kept = this.findings.get(row);
    if (kept !== undefined || row < this.spillAfter) return kept ?? NO_FINDINGS;
    const spilled = this.spilledFindings.get(row);
    return spilled === undefined ? NO_FINDINGS : (JSON.parse(spilled) as Finding[]);
  }

  pointer(row: number): string | undefined {
    return this.pointers.get(row);
  }

  /** Adds a finding to a row; an error makes a valid result invalid. */
  addFinding(row: number, finding: Finding): void {
    this.findings.set(row, [...this.findingsOf(row), finding]);
    if (this.status.get(row) === STATUS_CODE.valid && finding.severity === "error") this.status.set(row, STATUS_CODE.invalid);
  }

  /** Every result as an object, in the order kept. */
  results(): ResourceResult[] {
    const out = new Array<ResourceResult>(this.rows);
    for (let row = 0; row < this.rows; row++) out[row] = this.get(row);
    return out;
  }
}

/** A report's results one at a time (the lazily made rows of a run, or any report's array). */
export interface ResultRows {
  readonly length: number;
  at(i: number): ResourceResult;
}

const ROWS = Symbol("eks-gitops.result-rows");

/**
 * A run's results in report order, made objects only when asked for, one at a time: a result without
 * findings is made from its row on each call (and is garbage once written); a result with findings is made
 * once (located, redacted, levelled: `done`). What a report of 200,000 objects holds while it is written is
 * then the store's columns and the results with findings, not 200,000 objects.
 */
export class SortedRows implements ResultRows {
  constructor(
    private readonly store: ResultStore,
    /** Rows in report order. */
    private readonly order: Int32Array,
    /** By row: the final result of each row with findings. */
    private readonly done: ReadonlyMap<number, ResourceResult>,
  ) {}

  get length(): number {
    return this.order.length;
  }

  /** Whether the run wrote any of its rows' strings to a temporary file (spill.ts). */
  get onDisk(): boolean {
    return this.store.onDisk;
  }

  at(i: number): ResourceResult {
    const row = this.order[i] as number;
    return this.done.get(row) ?? this.store.get(row);
  }

  /** The same rows with `fn` applied to each result that has findings (the others are kept as they are). */
  mapFound(fn: (r: ResourceResult) => ResourceResult): SortedRows {
    const done = new Map<number, ResourceResult>();
    for (const [row, r] of this.done) done.set(row, fn(r));
    return new SortedRows(this.store, this.order, done);
  }

  summary(): Summary {
    const counts = { valid: 0, invalid: 0, error: 0, skipped: 0 };
    for (let i = 0; i < this.order.length; i++) {
      const row = this.order[i] as number;
      counts[this.done.get(row)?.status ?? this.store.statusAt(row)]++;
    }
    return { resources: this.order.length, ...counts };
  }

  /** Every result as an object (what `report.resources` gives, made on first use). */
  toArray(): ResourceResult[] {
    const out = new Array<ResourceResult>(this.order.length);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i);
    return out;
  }
}

/**
 * A report over `rows`: `resources` is an array made on first read (library callers, tests), while the writers
 * (output/) go row by row through rowsOf() and never make it. The keys are in the order of a plain report's.
 */
export function reportOfRows(rows: SortedRows, rest: Pick<Report, "stats" | "notChecked">): Report {
  const report = { summary: rows.summary() } as { summary: Summary };
  let resources: ResourceResult[] | undefined;
  Object.defineProperty(report, "resources", { enumerable: true, configurable: true, get: () => (resources ??= rows.toArray()) });
  Object.assign(report, { stats: rest.stats }, rest.notChecked !== undefined ? { notChecked: rest.notChecked } : {});
  Object.defineProperty(report, ROWS, { value: rows });
  return report as unknown as Report;
}

/** The lazily made rows of a report from reportOfRows (undefined for any other report, or a copy of one). */
export function lazyRows(report: Report): SortedRows | undefined {
  return (report as { [ROWS]?: SortedRows })[ROWS];
}

/** A report's results, one at a time. */
export function rowsOf(report: Report): ResultRows {
  const lazy = lazyRows(report);
  if (lazy) return lazy;
  const { resources } = report;
  return { length: resources.length, at: (i) => resources[i] as ResourceResult };
}

/** `{...report, notChecked}`, keeping a lazy report lazy. */
export function withNotChecked(report: Report, notChecked: readonly string[]): Report {
  const lazy = lazyRows(report);
  return lazy ? reportOfRows(lazy, { stats: report.stats, notChecked }) : { ...report, notChecked };
}

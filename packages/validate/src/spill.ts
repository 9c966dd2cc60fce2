// Spill: strings a long run keeps until its report (objects' names, list pointers, packed cross-object facts)
// written to a temporary file past an in-memory budget and read back when the report asks for them, so that
// the live heap of a run does not grow with the objects it has read (issue 19: peak memory flat in input size).
//
// Written by hand over node:fs: what is kept is a few strings per row, appended once and read back mostly in
// the order written (the report's order is the files' order), which a buffered append log with a read block
// does in ~150 lines; an embedded database or a key-value store would add a native dependency and its own
// start-up to every run for what a few typed arrays of lengths and offsets give.
//
// The file is made in a folder of its own (mkdtemp: 0700), opened 0600 with O_EXCL, and its name removed at
// once: the data lives only as long as the descriptor, so nothing is left on disk whatever ends the process
// (an error, SIGINT/SIGTERM, SIGKILL, a crash). Where a name cannot be removed while the file is open
// (Windows), it is removed when the spill is closed, and at exit. Strings are stored as UTF-16 code units,
// so every string (lone surrogates, U+2028, NUL) reads back as it was.
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Int32Column } from "./columns.ts";

/** Bytes written at a time (the append buffer), and read at a time when reading back in order. */
const WRITE_BUFFER = 1 << 20;
const READ_BLOCK = 1 << 16;

/** Closes descriptors of spills nobody can read any more (a report collected before its process ends). */
const orphans = new FinalizationRegistry<{ fd: number | undefined; path: string | undefined }>((held) => release(held));

function release(held: { fd: number | undefined; path: string | undefined }): void {
  if (held.fd !== undefined) {
    try {
      closeSync(held.fd);
    } catch {
      // already closed
    }
    held.fd = undefined;
  }
  if (held.path !== undefined) {
    rmSync(join(held.path, ".."), { recursive: true, force: true });
    held.path = undefined;
  }
}

/** One temporary append-only file of UTF-16 strings; made on the first append (a run that never spills never touches the disk). */
/**
 * Rows whose strings are kept in memory; those of later rows (their names, list pointers, files' names, and the
 * cross-object facts past as many) go to a temporary file. ~0.3 KB a row in memory at most: a repository's run
 * never spills; a run of 50,000 objects keeps its first 10,000 in memory and the rest on disk.
 */
export const SPILL_AFTER = 10_000;

/** How much a run keeps in memory before it spills (RunOptions.spill): the report is the same either way. */
export interface SpillBudget {
  /** Rows (and cross-object facts) whose strings stay in memory. @default SPILL_AFTER (result-store.ts) */
  readonly after?: number;
  /** Bytes buffered before they are written to the file (a test makes it small to read from the disk). @default 1 MiB */
  readonly bufferBytes?: number;
}

export class SpillFile {
  /** The descriptor and, only where it could not be removed at once, the file's path. */
  private readonly held: { fd: number | undefined; path: string | undefined } = { fd: undefined, path: undefined };
  private readonly out: Buffer;
  /** Bytes buffered before they are written (SpillColumn writes a block of strings at most half of it at a time). */
  readonly bufferBytes: number;
  private used = 0;
  /** Bytes in the file (what is in `out` comes after). */
  private flushed = 0;
  private readonly block = Buffer.allocUnsafe(READ_BLOCK);
  private blockStart = 0;
  private blockEnd = 0;
  private exitHook: (() => void) | undefined;

  constructor(bufferBytes = WRITE_BUFFER) {
    this.bufferBytes = Math.max(2, bufferBytes);
    this.out = Buffer.allocUnsafe(this.bufferBytes);
  }

  /** Whether anything was written to the disk (a run under its budget never opens the file). */
  get onDisk(): boolean {
    return this.held.fd !== undefined || this.flushed > 0;
  }

  /** Bytes appended so far. */
  get size(): number {
    return this.flushed + this.used;
  }

  private open(): number {
    const dir = mkdtempSync(join(tmpdir(), "eks-gitops-spill-"));
    const path = join(dir, "rows");
    const fd = openSync(path, "wx+", 0o600);
    this.held.fd = fd;
    try {
      unlinkSync(path);
      rmdirSync(dir);
    } catch {
      this.held.path = path;
      const held = this.held;
      this.exitHook = () => release(held);
      process.once("exit", this.exitHook);
    }
    orphans.register(this, this.held, this);
    return fd;
  }

  private flush(): void {
    if (this.used === 0) return;
    const fd = this.held.fd ?? this.open();
    let done = 0;
    while (done < this.used) done += writeSync(fd, this.out, done, this.used - done, this.flushed + done);
    this.flushed += this.used;
    this.used = 0;
  }

  /** Appends `s`; returns where it starts (its length in bytes is `2 * s.length`). */
  append(s: string): number {
    const at = this.size;
    const bytes = 2 * s.length;
    if (this.used + bytes > this.out.length) this.flush();
    if (bytes > this.out.length) {
      const fd = this.held.fd ?? this.open();
      const whole = Buffer.from(s, "utf16le");
      let done = 0;
      while (done < bytes) done += writeSync(fd, whole, done, bytes - done, this.flushed + done);
      this.flushed += bytes;
      return at;
    }
    this.used += this.out.write(s, this.used, "utf16le");
    return at;
  }

  /** The string of `bytes` bytes appended at `at`. */
  read(at: number, bytes: number): string {
    if (bytes === 0) return "";
    // not written out yet: still in the append buffer
    if (at >= this.flushed) return this.out.toString("utf16le", at - this.flushed, at - this.flushed + bytes);
    if (at + bytes > this.flushed) this.flush();
    if (at >= this.blockStart && at + bytes <= this.blockEnd) return this.block.toString("utf16le", at - this.blockStart, at - this.blockStart + bytes);
    const fd = this.held.fd as number;
    if (bytes > READ_BLOCK) {
      const whole = Buffer.allocUnsafe(bytes);
      let done = 0;
      while (done < bytes) {
        const n = readSync(fd, whole, done, bytes - done, at + done);
        if (n === 0) throw new Error("spill file ended early");
        done += n;
      }
      return whole.toString("utf16le");
    }
    // a block from here on: the next strings asked for are most often the next ones written
    const want = Math.min(READ_BLOCK, this.flushed - at);
    let got = 0;
    while (got < bytes) {
      const n = readSync(fd, this.block, got, want - got, at + got);
      if (n === 0) throw new Error("spill file ended early");
      got += n;
    }
    this.blockStart = at;
    this.blockEnd = at + got;
    return this.block.toString("utf16le", 0, bytes);
  }

  /** Closes (and, where it still has a name, removes) the file; nothing can be read after. */
  close(): void {
    orphans.unregister(this);
    if (this.exitHook) process.removeListener("exit", this.exitHook);
    release(this.held);
    this.used = 0;
  }
}

/**
 * Strings of some indices only, given in ascending order of index (a list item's pointer, by row): a SpillColumn
 * of those and a sorted array of their indices, so that rows without one cost nothing.
 */
export class SparseSpillColumn {
  private readonly at_ = new Int32Column();
  private readonly values: SpillColumn;

  constructor(file: () => SpillFile, budget: number) {
    this.values = new SpillColumn(file, budget);
  }

  set(index: number, s: string): void {
    this.at_.set(this.values.size, index);
    this.values.push(s);
  }

  get(index: number): string | undefined {
    let lo = 0;
    let hi = this.values.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.at_.get(mid);
      if (at === index) return this.values.at(mid);
      if (at < index) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The indices that have a string, ascending. */
  indices(): Int32Array {
    return this.at_.slice(this.values.size);
  }
}

/** A list of files read by index (an array, or spilledList()'s). */
export interface FileList {
  readonly length: number;
  at(i: number): string | undefined;
}

/**
 * `items` as a FileList that keeps the first `budget.after` in memory and the rest in a temporary file of its own
 * (`items` itself when they are no more): a run's list of 200,000 paths is ~20 MB of heap otherwise, held by the
 * stream until its last file.
 */
export function spilledList(items: readonly string[], budget: SpillBudget = {}): FileList {
  const after = budget.after ?? SPILL_AFTER;
  if (items.length <= after) return items;
  let file: SpillFile | undefined;
  const column = new SpillColumn(() => (file ??= new SpillFile(budget.bufferBytes)), after);
  for (const item of items) column.push(item);
  return { length: column.size, at: (i) => column.at(i) };
}

/** The items of a FileList as an array. */
export function listArray(list: FileList): string[] {
  if (Array.isArray(list)) return list;
  return Array.from({ length: list.length }, (_, i) => list.at(i) as string);
}

/**
 * Spilled strings of a column written together: a block's strings lie one after the other in the file, so that a
 * block needs one offset in the file and each string only its length. A Float64 offset a string was 8 of the 12
 * bytes a spilled string cost in memory (4 such columns a row: ~6 MB at 200,000 objects). A block is written once
 * it holds this many strings, or half the file's write buffer of characters (a long string is written at once).
 */
const SPILL_BLOCK = 64;

/**
 * Strings (or undefined) by index 0, 1, 2... kept in memory up to `budget` of them and in a SpillFile after that.
 * What each spilled one costs in memory is 4 bytes of typed arrays (off the V8 heap), and 16 bytes a block. The
 * strings of the block being filled are held until it is written: give strings that are no slice of a large text.
 */
export class SpillColumn {
  private readonly kept: (string | undefined)[] = [];
  /** By spilled string: its length in UTF-16 code units (-1: undefined). */
  private readonly lengths = new Int32Column();
  /** By block written: its first string (index among the spilled ones), and where that starts in the file (bytes). */
  private readonly blockFirst: number[] = [];
  private readonly blockStart: number[] = [];
  /** The strings of the block being filled (from spilled string `pendingFirst` on), and their bytes. */
  private pending: (string | undefined)[] = [];
  private pendingFirst = 0;
  private pendingBytes = 0;
  private spilled = 0;
  /** The block and the spilled string read last, and where that string ends in its block (code units). */
  private lastBlock = 0;
  private lastRead = -1;
  private lastEnd = 0;

  constructor(
    private readonly file: () => SpillFile,
    private readonly budget: number,
  ) {}

  get size(): number {
    return this.kept.length + this.spilled;
  }

  push(s: string | undefined): void {
    if (this.kept.length < this.budget) {
      this.kept.push(s);
      return;
    }
    this.lengths.set(this.spilled++, s === undefined ? -1 : s.length);
    this.pending.push(s);
    this.pendingBytes += 2 * (s?.length ?? 0);
    if (this.pending.length === SPILL_BLOCK || 2 * this.pendingBytes >= this.file().bufferBytes) this.writeBlock();
  }

  private writeBlock(): void {
    const file = this.file();
    this.blockFirst.push(this.pendingFirst);
    this.blockStart.push(file.size);
    // appended one after the other, nothing else written between: the block's strings are contiguous
    for (const s of this.pending) if (s) file.append(s);
    this.pendingFirst = this.spilled;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** The block written that holds spilled string `j` (strings are most often read in order: the last one's first). */
  private blockOf(j: number): number {
    const first = this.blockFirst;
    let b = this.lastBlock;
    if (!((first[b] as number) <= j && (b + 1 === first.length || j < (first[b + 1] as number)))) {
      let lo = 0;
      let hi = first.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if ((first[mid] as number) <= j) lo = mid;
        else hi = mid - 1;
      }
      b = lo;
    }
    this.lastBlock = b;
    return b;
  }

  at(i: number): string | undefined {
    if (i < this.kept.length) return this.kept[i];
    const j = i - this.kept.length;
    if (j >= this.spilled) return undefined;
    const length = this.lengths.get(j);
    if (length < 0) return undefined;
    if (j >= this.pendingFirst) return this.pending[j - this.pendingFirst];
    const b = this.blockOf(j);
    const first = this.blockFirst[b] as number;
    // code units of the strings before it in its block
    let before = 0;
    if (this.lastRead === j - 1 && j !== first) before = this.lastEnd;
    else for (let k = first; k < j; k++) before += Math.max(0, this.lengths.get(k));
    this.lastRead = j;
    this.lastEnd = before + length;
    return this.file().read((this.blockStart[b] as number) + 2 * before, 2 * length);
  }
}

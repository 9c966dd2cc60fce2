// Read-ahead: files are read and parsed (YAML → documents) in a worker thread while the main thread
// validates the files before them, the way kubeconform reads and validates on several goroutines.
//
// Parsing is about a third of a run's CPU. The worker only reads: it runs the same loadFileText() the main
// thread would, so every document, unreadable file and finding is the same; what it posts back is plain data
// (structured clone keeps shared YAML aliases, -0 and own `__proto__` keys as they were). Validation stays on
// the main thread: workers that validated too were measured slower on this 2-CPU machine, each isolate paying
// its own warm-up (schemas, compiled validators, JIT). Anything the worker does not deliver (stdin, a file it
// failed on, a worker that could not start or died) is read on the main thread instead, so a run never
// depends on the worker for its results, only for its speed.
import type { Worker } from "node:worker_threads";
import { loadFileText, type ReadOptions } from "./reader.ts";
import type { CatalogVersions } from "./catalog/index.ts";
import type { NativeAhead } from "./native-ahead.ts";
import type { FileList } from "./spill.ts";
import type { LoadedDocuments } from "./types.ts";

/** What the worker is given (its first message). */
export interface ReadAheadWork {
  /** The first files (from index 0); the others follow in ReadAheadFiles messages, ahead of the worker's need. */
  readonly files: readonly string[];
  /** Files in all. */
  readonly total: number;
  readonly read: Pick<ReadOptions, "maxFileBytes" | "maxAliasCount" | "cwd">;
  /** Int32Array slots: files taken by the main thread; stop (see read-ahead-worker.ts). */
  readonly state: SharedArrayBuffer;
  /** Int32Array, one slot per file: who reads it (UNCLAIMED, BY_WORKER, BY_MAIN), set once by compare-and-swap. */
  readonly claims: SharedArrayBuffer;
  /** Files read but not yet taken, at most. */
  readonly window: number;
  /** Where the catalog's packs are (native-ahead.ts); without it the worker only reads. */
  readonly cacheDir?: string;
}

/** Sent after the work: the catalog versions of each file (by index), for the native checks the worker runs ahead. */
export interface ReadAheadVersions {
  readonly versions: readonly (CatalogVersions | null)[];
}

/**
 * Sent after the work: the next files, by index. The worker holds the names of the files just ahead of it, not a
 * copy of the whole list (~80 B a file of its heap: 16 MB at 200,000 files).
 */
export interface ReadAheadFiles {
  readonly from: number;
  readonly names: readonly string[];
}

/** Sent after the work: texts the scan already read, by file index; the worker parses them instead of reading the files. */
export interface ReadAheadTexts {
  readonly texts: readonly (readonly [number, string])[];
}

/** One file's documents, or undefined when the main thread must read it itself. */
export interface ReadAheadMessage {
  readonly index: number;
  readonly docs: LoadedDocuments | undefined;
  /** The native findings of each resource of `docs`, made ahead (null: none, the main thread runs the checks). */
  readonly native?: readonly (NativeAhead | null)[];
  /** The text the worker read (absent when it was given the text, or could not read one): positions of findings are found in it. */
  readonly text?: string;
}

/** Slots of the shared state: files the main thread has taken, and its request to stop. */
export const TAKEN = 0;
export const STOP = 1;
/** Claims of a file: nobody yet, the worker (it will post it), the main thread (the worker skips it). */
export const UNCLAIMED = 0;
export const BY_WORKER = 1;
export const BY_MAIN = 2;

const slice = (list: FileList, from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => list.at(from + i) as string);

/** Files read ahead of the main thread at most: enough to never wait, few enough that memory stays flat. */
export const READ_AHEAD_WINDOW = 8;

/** Files' names posted to the worker at a time: it is given the next ones while it has as many still ahead. */
export const FILE_NAMES_CHUNK = 1024;

/**
 * The documents of each file in order, read ahead by `worker` (startReadAheadWorker of the bundled
 * read-ahead-worker.ts); `next()` falls back to reading on the calling thread whenever the worker has nothing.
 */
export class ReadAhead {
  private readonly worker: Worker | undefined;
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly claims: Int32Array;
  private readonly arrived = new Map<number, LoadedDocuments | undefined>();
  private waiter: (() => void) | undefined;
  private gone = false;
  private taken = 0;
  /** Files whose documents came from the worker (`--timings` shows it). */
  fromWorker = 0;
  /** Whether the last file's documents came from the worker: structured clone gave them strings of their own. */
  lastFromWorker = false;
  /** The native findings the worker made for the last file's resources (see native-ahead.ts). */
  lastNative: readonly (NativeAhead | null)[] | undefined;
  /** Resources whose native findings the worker made (`--timings` shows it). */
  nativeAhead = 0;
  private readonly natives = new Map<number, readonly (NativeAhead | null)[]>();
  /** Texts the worker read, by file index, until their file is taken. */
  private readonly texts = new Map<number, string>();
  /** Texts already read by the scan (see provide()), by file index, until their file is taken. */
  private readonly known = new Map<number, string>();
  /** Documents a pass before (scan.ts) already parsed from a known text, by file index: this thread takes them as they are. */
  private readonly parsed = new Map<number, LoadedDocuments>();
  /** Files below this index have had their known texts posted to the worker (or were past it). */
  private fed = 0;
  /** The text of the last file (undefined when it could not be read as text): its findings are located in it. */
  lastText: string | undefined;
  /** Files whose names the worker has been given. */
  private named = 0;

  constructor(
    private files: FileList,
    private readonly read: ReadOptions & { readonly cwd: string },
    worker: Worker | undefined,
    /** The catalog cache (packs of the OpenAPI documents) for the native checks made ahead; none: the worker only reads. */
    cacheDir?: string,
    /** Files' names the worker is given at a time (a test gives a few). */
    private readonly namesChunk = FILE_NAMES_CHUNK,
  ) {
    this.claims = new Int32Array(new SharedArrayBuffer(4 * Math.max(files.length, 1)));
    if (!worker || files.length < 2) {
      void worker?.terminate();
      this.gone = true;
      return;
    }
    this.named = Math.min(files.length, 2 * namesChunk);
    const work: ReadAheadWork = {
      files: slice(files, 0, this.named),
      total: files.length,
      read: { maxFileBytes: read.maxFileBytes, maxAliasCount: read.maxAliasCount, cwd: read.cwd },
      state: this.state.buffer as SharedArrayBuffer,
      claims: this.claims.buffer as SharedArrayBuffer,
      window: READ_AHEAD_WINDOW,
      ...(cacheDir ? { cacheDir } : {}),
    };
    worker.on("message", (m: ReadAheadMessage) => {
      this.arrived.set(m.index, m.docs);
      if (m.native) this.natives.set(m.index, m.native);
      if (m.text !== undefined) this.texts.set(m.index, m.text);
      this.wake();
    });
    // a worker that fails (out of memory, a fault) leaves the rest of the files to the main thread
    worker.on("error", () => this.end());
    worker.on("exit", () => this.end());
    this.worker = worker;
    // posted at once: the worker parses the first files while the main thread scans and loads schemas (measured
    // faster overall than keeping the CPUs to the main thread until it wants its first file)
    worker.postMessage(work);
    this.name(0);
  }

  private end(): void {
    this.gone = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  /**
   * Posts the worker the names of the next files, a chunk at a time, so that it has a chunk of names past the
   * farthest file it may read (its window past `taken`): posted before TAKEN moves, so they are in its queue
   * before it may need them.
   */
  private name(taken: number): void {
    if (this.gone) return;
    const want = Math.min(this.files.length, taken + READ_AHEAD_WINDOW + this.namesChunk);
    while (this.named < want) {
      const from = this.named;
      this.named = Math.min(this.files.length, from + this.namesChunk);
      this.worker?.postMessage({ from, names: slice(this.files, from, this.named) } satisfies ReadAheadFiles);
    }
  }

  /** The documents of the next file (files in order). */
  async next(): Promise<LoadedDocuments> {
    const index = this.taken++;
    this.name(index + 1);
    const file = this.files.at(index) as string;
    const parsed = this.parsed.get(index);
    if (parsed) {
      // claimed for this thread when it was provided: the worker skips it
      this.parsed.delete(index);
      this.lastText = this.known.get(index);
      this.known.delete(index);
      this.lastNative = undefined;
      this.lastFromWorker = false;
      this.feed(index + 1);
      Atomics.store(this.state, TAKEN, index + 1);
      Atomics.notify(this.state, TAKEN);
      return parsed;
    }
    // a file the worker has not started is read here at once (at the start, while the worker is still loading;
    // later, if it falls behind): the main thread never waits for work nobody is doing
    // documents that arrived are taken even from a worker gone since (it exits once its files are posted)
    const mine = !this.arrived.has(index) && (this.gone || Atomics.compareExchange(this.claims, index, UNCLAIMED, BY_MAIN) === UNCLAIMED);
    while (!mine && !this.arrived.has(index) && !this.gone) await new Promise<void>((resolve) => (this.waiter = resolve));
    const docs = mine ? undefined : this.arrived.get(index);
    this.lastNative = docs ? this.natives.get(index) : undefined;
    if (this.lastNative) this.nativeAhead += this.lastNative.filter((n) => n !== null).length;
    const known = this.known.get(index);
    const posted = this.texts.get(index);
    this.arrived.delete(index);
    this.natives.delete(index);
    this.texts.delete(index);
    this.known.delete(index);
    // the texts of the worker's next files are in its queue before it may go on to them (posted before TAKEN moves)
    this.feed(index + 1);
    Atomics.store(this.state, TAKEN, index + 1);
    Atomics.notify(this.state, TAKEN);
    if (docs) this.fromWorker++;
    this.lastFromWorker = docs !== undefined;
    if (docs) {
      this.lastText = known ?? posted;
      return docs;
    }
    const read = loadFileText(file, this.read, known);
    this.lastText = read.text;
    return read.docs;
  }

  /**
   * Texts of files a pass before (scan.ts) has read, by path: neither this thread nor the worker reads those
   * files again. Given before the files are taken; a text of a file already taken is dropped. `parsed`: the
   * documents a pass before made of some of those texts (ScanResult.parsed), given out by next() as they are.
   */
  provide(texts: ReadonlyMap<string, string>, parsed?: ReadonlyMap<string, LoadedDocuments>): void {
    if (texts.size === 0) return;
    for (let i = this.taken; i < this.files.length; i++) {
      const file = this.files.at(i) as string;
      const text = texts.get(file);
      if (text === undefined) continue;
      this.known.set(i, text);
      // documents parsed from that text (a CRD file, see ScanResult.parsed) are used as they are, unless the worker
      // has claimed the file already (it then posts the same documents)
      const docs = parsed?.get(file);
      if (docs && (this.gone || Atomics.compareExchange(this.claims, i, UNCLAIMED, BY_MAIN) === UNCLAIMED)) this.parsed.set(i, docs);
    }
    this.feed(this.taken);
  }

  /**
   * Posts the worker the known texts of the files it may read next: those it may reach before the main thread
   * takes another file (its window past `taken`, and as many again). A few at a time, not all at once: the
   * worker holds only the texts of files just ahead, so that memory does not grow with the texts kept.
   */
  private feed(taken: number): void {
    if (this.gone || this.known.size === 0) return;
    const end = Math.min(this.files.length, taken + 2 * READ_AHEAD_WINDOW);
    const toWorker: [number, string][] = [];
    for (let i = Math.max(this.fed, taken); i < end; i++) {
      const text = this.known.get(i);
      if (text !== undefined && Atomics.load(this.claims, i) === UNCLAIMED) toWorker.push([i, text]);
    }
    this.fed = Math.max(this.fed, end);
    if (toWorker.length > 0) this.worker?.postMessage({ texts: toWorker } satisfies ReadAheadTexts);
  }

  /**
   * The catalog versions of each file, once the main thread knows them (after loading the overlays): the worker
   * then also runs the native checks of built-in objects ahead (native-ahead.ts). Files it has read before this
   * arrives are checked on the main thread.
   */
  nativeVersions(versions: readonly (CatalogVersions | null)[]): void {
    if (!this.gone) this.worker?.postMessage({ versions } satisfies ReadAheadVersions);
  }

  /** Reads the same files from `list` from now on (a spilled copy: see spill.ts), so that the caller can drop its array. */
  useFiles(list: FileList): void {
    if (list.length !== this.files.length) throw new Error("useFiles: another list of files");
    this.files = list;
  }

  /** Stops the worker (files not taken are never read). */
  close(): void {
    Atomics.store(this.state, STOP, 1);
    Atomics.notify(this.state, TAKEN);
    void this.worker?.terminate();
  }
}

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
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from "node:worker_threads";
import { loadFileText, type ReadOptions } from "./reader.ts";
import type { CatalogVersions } from "./catalog/index.ts";
import type { NativeAhead } from "./native-ahead.ts";
import type { ScanPartner } from "./scan.ts";
import { FactsByIndex, type TextFacts } from "./scan-text.ts";
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
  /** Characters of the files read but not yet taken, at most (the file after the last one taken is read whatever its size). */
  readonly windowChars: number;
  /** Once waiting at its window, the worker is woken when this many files are free in it (see READ_AHEAD_BATCH). */
  readonly batch: number;
  /** The longest the worker sleeps at its window before it looks again, though nobody woke it: a safety net only. */
  readonly waitMs: number;
  /** Where the catalog's packs are (native-ahead.ts); without it the worker only reads. */
  readonly cacheDir?: string;
  /** With the native checks: also make the cross-object facts of the objects checked (NativeAhead.fact). */
  readonly facts?: boolean;
  /**
   * The scan shared with the main thread (scanFilesShared in scan.ts): the worker scans from the first file on,
   * each file it claims first in `claims` (Int32Array, one slot per file), keeping the texts of the first files,
   * `keepChars` in all, to parse them without reading them again; the main thread scans from the last file (and
   * keeps the texts of the last files, given back to the worker as it comes near them: see provide()).
   */
  readonly scan?: { readonly claims: SharedArrayBuffer; readonly maxFileBytes: number; readonly keepChars: number };
  /**
   * Where the worker posts what it read (ReadAheadMessage, ReadAheadScanned): a channel of their own, from which the
   * main thread takes a file's message when it wants that file (see ReadAhead.pull).
   */
  readonly port: MessagePort;
}

/** Posted during a shared scan: the facts of the files the worker scanned (null: the reader's to judge); `end` with the last. */
export interface ReadAheadScanned {
  readonly scanned: readonly (readonly [number, TextFacts | null])[];
  /** The first file the worker did not scan (the main thread had claimed it): its scan is over. */
  readonly end?: number;
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
  /** Names for the worker's half of a shared scan (ReadAhead.claimScan), dropped once it has scanned them; else for its reads. */
  readonly scan?: true;
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

/**
 * Slots of the shared state: files the main thread has taken; its request to stop; the count of files taken at
 * which the worker, waiting at its window, wants to be woken (NEVER: it is not waiting).
 */
export const TAKEN = 0;
export const STOP = 1;
export const WAKE_AT = 2;
export const NEVER = 0x7fffffff;
/** Claims of a file: nobody yet, the worker (it will post it), the main thread (the worker skips it). */
export const UNCLAIMED = 0;
export const BY_WORKER = 1;
export const BY_MAIN = 2;

const slice = (list: FileList, from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => list.at(from + i) as string);

/**
 * Files read ahead of the main thread at most: enough to never wait, few enough that memory stays flat (files of
 * many objects meet READ_AHEAD_CHARS first). A window of 16, refilled 8 files at a time, left the two threads waiting
 * for each other in turn: files differ in cost on each side (a Deployment's parse and native checks in the worker,
 * its schema and CEL rules here), and 8 files did not even that out. With 64 and 16 (block 5,000: medians of 7-9
 * interleaved runs) 0.93 -> 0.90 s and 1.21 -> 1.08 s on a slower minute. 64 files still left the worker waiting
 * at its window through the first ~0.25 s, while this thread ran its code cold (each kind's first objects), and the
 * lead it could have made then was missing later, when this thread ran faster than the worker and caught up with
 * it: a CPU profile showed the worker idle early and this thread idle late. With 1,024, files of one object
 * (~1 KB) meet READ_AHEAD_CHARS first (~600 of them), and neither thread waits for the other until the end (block
 * 5,000, medians of 7-9 interleaved runs: 0.81 -> 0.76 s and 0.83 -> 0.76 s; peak RSS the same, 168-170 MB).
 */
export const READ_AHEAD_WINDOW = 1024;

/**
 * Characters of text read ahead of the main thread at most: a file of a few hundred objects (a multi-document
 * stream, a List) parses to MBs of documents, held by the worker and again, posted, by the main thread until it
 * takes the file. A window of 16 such files (50,000 objects in 182 files of ~0.2-0.4 MB) peaked at 263-277 MB
 * against ~215 MB without the worker; with 512 K characters (2-3 files) 228-245 MB, the worker still making the
 * native checks of ~36,000 of the objects (256 K: ~22,000, and the run ~0.5 s longer). Files of one object each
 * (~1-4 KB) fill the window's count of files first.
 */
export const READ_AHEAD_CHARS = 512 * 1024;

/**
 * Files the main thread takes before it wakes a worker waiting at its window's count of files, which then reads
 * that many in one go (waiting at its characters, the worker asks to be woken once a quarter of them are free: see
 * read-ahead-worker.ts). One wake-up a file (a futex call on each side, and a thread switch) cost the main thread ~60-80 us a file under
 * load (`Atomics.notify` was the largest self time of ReadAhead.next in a CPU profile of 5,000 JSON files).
 */
export const READ_AHEAD_BATCH = 16;

/** Files' names posted to the worker at a time: it is given the next ones while it has as many still ahead. */
export const FILE_NAMES_CHUNK = 1024;

/**
 * The documents of each file in order, read ahead by `worker` (startReadAheadWorker of the bundled
 * read-ahead-worker.ts); `next()` falls back to reading on the calling thread whenever the worker has nothing.
 */
export class ReadAhead implements ScanPartner {
  private readonly worker: Worker | undefined;
  /** The worker's posts (ReadAheadWork.port). */
  private readonly port: MessagePort | undefined;
  private readonly state = new Int32Array(new SharedArrayBuffer(12));
  private readonly claims: Int32Array;
  /** The worker's posts of files, by file index, until their file is taken: documents, native findings and text together. */
  private readonly arrived = new Map<number, ReadAheadMessage>();
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
  /** Texts already read by the scan (see provide()), by file index, until their file is taken. */
  private readonly known = new Map<number, string>();
  /** Documents a pass before (scan.ts) already parsed from a known text, by file index: this thread takes them as they are. */
  private readonly parsed = new Map<number, LoadedDocuments>();
  /** Files below this index have had their known texts posted to the worker (or were past it). */
  private fed = 0;
  /** The text of the last file (undefined when it could not be read as text): its findings are located in it. */
  lastText: string | undefined;
  /** Claims of the shared scan, one slot a file (undefined: no shared scan, see scanPartner()). */
  private readonly scanClaims: Int32Array | undefined;
  /**
   * The facts of the files the worker scanned, by index (files of the same facts share one object: a clone each as
   * posted), until the scan is handed over; and where its scan ended (see ReadAheadScanned).
   */
  private scanFacts: FactsByIndex | undefined;
  private scanEnd: number | undefined;
  /** Files whose names the worker has been given: for its reads (next()), and for its half of a shared scan (claimScan()). */
  private named = 0;
  private scanNamed = 0;
  private readonly namesChunk: number;

  constructor(
    private files: FileList,
    private readonly read: ReadOptions & { readonly cwd: string },
    worker: Worker | undefined,
    /** The catalog cache (packs of the OpenAPI documents) for the native checks made ahead; none: the worker only reads. */
    cacheDir?: string,
    options: {
      /** Share the scan (scanPartner()): the scan's file size limit and the characters of text the worker keeps from it. */
      readonly scan?: { readonly maxFileBytes: number; readonly keepChars: number };
      /** See ReadAheadWork.waitMs. */
      readonly waitMs?: number;
      /** See ReadAheadWork.windowChars. @default READ_AHEAD_CHARS */
      readonly windowChars?: number;
      /** See ReadAheadWork.facts. */
      readonly facts?: boolean;
      /** Files' names the worker is given at a time (a test gives a few). @default FILE_NAMES_CHUNK */
      readonly namesChunk?: number;
    } = {},
  ) {
    const { scan } = options;
    this.namesChunk = options.namesChunk ?? FILE_NAMES_CHUNK;
    this.claims = new Int32Array(new SharedArrayBuffer(4 * Math.max(files.length, 1)));
    Atomics.store(this.state, WAKE_AT, NEVER);
    if (!worker || files.length < 2) {
      void worker?.terminate();
      this.gone = true;
      this.scanClaims = undefined;
      this.port = undefined;
      return;
    }
    this.scanClaims = scan ? new Int32Array(new SharedArrayBuffer(4 * files.length)) : undefined;
    this.named = Math.min(files.length, 2 * this.namesChunk);
    this.scanNamed = this.named;
    const channel = new MessageChannel();
    this.port = channel.port1;
    const work: ReadAheadWork = {
      files: slice(files, 0, this.named),
      total: files.length,
      read: { maxFileBytes: read.maxFileBytes, maxAliasCount: read.maxAliasCount, cwd: read.cwd },
      state: this.state.buffer as SharedArrayBuffer,
      claims: this.claims.buffer as SharedArrayBuffer,
      window: READ_AHEAD_WINDOW,
      windowChars: options.windowChars ?? READ_AHEAD_CHARS,
      batch: READ_AHEAD_BATCH,
      waitMs: options.waitMs ?? 1000,
      ...(options.facts ? { facts: true } : {}),
      ...(cacheDir ? { cacheDir } : {}),
      ...(scan && this.scanClaims ? { scan: { claims: this.scanClaims.buffer as SharedArrayBuffer, maxFileBytes: scan.maxFileBytes, keepChars: scan.keepChars } } : {}),
      port: channel.port2,
    };
    // delivered by the event loop while this thread waits (posted()), else taken as wanted (pull()); like the worker
    // (read-ahead-start.ts), its channel does not keep the process alive
    this.port.on("message", (m: ReadAheadMessage | ReadAheadScanned) => this.receive(m));
    this.port.unref();
    // a worker that fails (out of memory, a fault) leaves the rest of the files to the main thread
    worker.on("error", () => this.end());
    worker.on("exit", () => this.end());
    this.worker = worker;
    // posted at once: the worker parses the first files while the main thread scans and loads schemas (measured
    // faster overall than keeping the CPUs to the main thread until it wants its first file)
    worker.postMessage(work, [channel.port2]);
    this.name(0);
  }

  /** Keeps what the worker posted, and wakes this thread if it waits for it. */
  private receive(m: ReadAheadMessage | ReadAheadScanned): void {
    if ("scanned" in m) {
      this.scanFacts ??= new FactsByIndex(this.files.length);
      for (const [i, facts] of m.scanned) this.scanFacts.set(i, facts);
      if (m.end !== undefined) this.scanEnd = m.end;
      this.wake();
      return;
    }
    this.arrived.set(m.index, m);
    this.wake();
  }

  /**
   * Takes the worker's posts synchronously until file `index` is among them (or nothing more has come). Delivered by
   * the event loop, the worker's posts reached this thread one `message` event at a time, and next() waited a turn
   * of the loop for each file even when the worker was far ahead; taken here, a file that is posted is taken at once
   * (block and JSON 5,000: ~3% less CPU, medians of 11 interleaved runs).
   */
  private pull(index: number): void {
    if (!this.port) return;
    while (!this.arrived.has(index)) {
      const m = receiveMessageOnPort(this.port);
      if (m === undefined) return;
      this.receive(m.message as ReadAheadMessage | ReadAheadScanned);
    }
  }

  /** Until the worker posts something or ends; the process is kept alive meanwhile (the channel is unref'd otherwise). */
  private async woken(): Promise<void> {
    this.port?.ref();
    try {
      await new Promise<void>((resolve) => (this.waiter = resolve));
    } finally {
      this.port?.unref();
    }
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

  /**
   * The documents of the next file (files in order): at once when they are here (or read on this thread), else a
   * promise of them, once the worker posts them (a file's wait for nothing is no turn of the event loop).
   */
  next(): LoadedDocuments | Promise<LoadedDocuments> {
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
      this.take(index + 1);
      return parsed;
    }
    // a file the worker has not started is read here at once (at the start, while the worker is still loading;
    // later, if it falls behind): the main thread never waits for work nobody is doing
    // documents that arrived are taken even from a worker gone since (it exits once its files are posted)
    this.pull(index);
    const mine = !this.arrived.has(index) && (this.gone || Atomics.compareExchange(this.claims, index, UNCLAIMED, BY_MAIN) === UNCLAIMED);
    if (!mine && !this.arrived.has(index) && !this.gone) return this.posted(index, file);
    return this.taking(index, file, mine);
  }

  /** File `index` once the worker has posted it (or has gone). */
  private async posted(index: number, file: string): Promise<LoadedDocuments> {
    while (!this.arrived.has(index) && !this.gone) {
      await this.woken();
      this.pull(index);
    }
    return this.taking(index, file, false);
  }

  /** Takes file `index`: the worker's documents, or (`mine`, or nothing came) read here. */
  private taking(index: number, file: string, mine: boolean): LoadedDocuments {
    // one map of the worker's posts, not one for each of their parts: a get and a delete per file instead of four
    // each (this runs for every file, mostly before V8 optimises it)
    const message = mine ? undefined : this.arrived.get(index);
    const docs = message?.docs;
    this.lastNative = docs ? message?.native : undefined;
    if (this.lastNative) for (const n of this.lastNative) if (n !== null) this.nativeAhead++;
    const known = this.known.size > 0 ? this.known.get(index) : undefined;
    const posted = message?.text;
    if (message) this.arrived.delete(index);
    if (known !== undefined) this.known.delete(index);
    // the texts of the worker's next files are in its queue before it may go on to them (posted before TAKEN moves)
    this.feed(index + 1);
    this.take(index + 1);
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

  /** This worker as the other half of a shared scan (scanFilesShared), when it was asked for one and runs. */
  scanPartner(): ScanPartner | undefined {
    return this.scanClaims && !this.gone ? this : undefined;
  }

  claimScan(index: number): boolean {
    if (this.gone || this.scanClaims === undefined) return true;
    this.nameScan(index);
    return Atomics.compareExchange(this.scanClaims, index, UNCLAIMED, BY_MAIN) === UNCLAIMED;
  }

  /**
   * Posts the worker's half of the scan the next names once it has scanned past the middle of the last chunk it
   * was given, up to `index` (the files from `index` on are this thread's). The worker scans only files whose names
   * it has: one it has no name for yet it waits for, until this thread posts it or claims the file itself, which
   * it does before its own scan can stop (it stops only at a file the worker claimed, below that one).
   */
  private nameScan(index: number): void {
    const claims = this.scanClaims as Int32Array;
    while (this.scanNamed < index && Atomics.load(claims, this.scanNamed - Math.ceil(this.namesChunk / 2)) === BY_WORKER) {
      const from = this.scanNamed;
      this.scanNamed = Math.min(index, from + this.namesChunk);
      this.worker?.postMessage({ from, names: slice(this.files, from, this.scanNamed), scan: true } satisfies ReadAheadFiles);
    }
  }

  async scanned(): Promise<FactsByIndex> {
    while (this.scanEnd === undefined && !this.gone) await this.woken();
    // handed over: this object lives through the run, the facts only until the scan is put together
    const facts = this.scanFacts ?? new FactsByIndex(0);
    this.scanFacts = undefined;
    return facts;
  }

  /**
   * Records that `taken` files are taken, and wakes the worker only when it waits for that count (once per batch,
   * not per file). The worker announces WAKE_AT before it checks TAKEN and waits on TAKEN's value: whichever
   * order the two threads' steps fall in, a worker never sleeps past the count it asked for (Atomics.wait returns
   * at once when TAKEN moved since the worker read it).
   */
  private take(taken: number): void {
    Atomics.store(this.state, TAKEN, taken);
    const wakeAt = Atomics.load(this.state, WAKE_AT);
    if (taken >= wakeAt && Atomics.compareExchange(this.state, WAKE_AT, wakeAt, NEVER) === wakeAt) Atomics.notify(this.state, TAKEN);
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
   * takes another file (its window past `taken`, and as many again: up to 2,048 files). Not all at once: the
   * worker holds only the texts of files ahead, so that memory does not grow with the texts kept (those texts are
   * the scan's, at most SCAN_KEEP_CHARS in all).
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
    this.port?.close();
    void this.worker?.terminate();
  }
}

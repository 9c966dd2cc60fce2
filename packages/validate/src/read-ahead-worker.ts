// The read-ahead worker's entry point (see read-ahead.ts): reads and parses the files it is given, in order,
// with the same loadFileText() the main thread would call, and posts each file's documents back (each file it
// claims first: the main thread reads a file itself rather than wait for it). It stays at
// most `window` files ahead of what the main thread has taken, so memory does not grow with the run.
import { type MessagePort, parentPort, receiveMessageOnPort } from "node:worker_threads";
import { HeapGuard } from "./heap-guard.ts";
import { nativeAhead, PackedBuiltins } from "./native-ahead.ts";
import { loadFileText } from "./reader.ts";
import { KeptTexts, scanRead, textFacts } from "./scan-text.ts";
import { BY_WORKER, type ReadAheadFiles, type ReadAheadMessage, type ReadAheadScanned, type ReadAheadTexts, type ReadAheadVersions, type ReadAheadWork, STOP, TAKEN, UNCLAIMED, WAKE_AT } from "./read-ahead.ts";
import { SAVE_CODE_CACHE } from "./read-ahead-start.ts";

/** How far into its files the worker gets before it asks for its code cache (see the loader in read-ahead-start.ts; WARM_FILES of stream.ts is the main thread's). */
const SAVE_AFTER_FILES = 64;

/** Characters of text read between two looks at the heap, at most (besides every 100 files). */
const HEAP_CHECK_CHARS = 1024 * 1024;

/** Facts of scanned files posted at a time during a shared scan (one message each, not one a file). */
const SCAN_POST_FILES = 256;

/**
 * The names of the files a chunk at a time (ReadAheadFiles, from the first ones in the work on): a chunk is dropped
 * once the worker is past it, so that it never holds the whole list.
 */
class FileNames {
  private from = 0;
  private readonly more: ReadAheadFiles[] = [];

  constructor(private names: readonly string[]) {}

  add(chunk: ReadAheadFiles): void {
    this.more.push(chunk);
  }

  /** The name of file `index` (asked for in increasing order), undefined when it has not come yet. */
  at(index: number): string | undefined {
    while (index >= this.from + this.names.length && this.more.length > 0) {
      const next = this.more.shift() as ReadAheadFiles;
      this.names = next.names;
      this.from = next.from;
    }
    return this.names[index - this.from];
  }
}

/** What the main thread posts after the work, taken from the port whenever the worker looks. */
class Inbox {
  versions: ReadAheadVersions["versions"] | undefined;
  /** Texts the main thread's scan read (by file index): parsed without reading the file again, dropped once the file is passed. */
  readonly given = new Map<number, string>();
  /** Names for the worker's reads; and for its half of a shared scan, until that ends (see ReadAhead.claimScan). */
  readonly names: FileNames;
  scanNames: FileNames | undefined;

  constructor(work: ReadAheadWork) {
    this.names = new FileNames(work.files);
    this.scanNames = work.scan ? new FileNames(work.files) : undefined;
  }

  /** Takes what was posted; texts of files before `at` are dropped. */
  receive(at: number): void {
    for (let m = receiveMessageOnPort(port as MessagePort); m; m = receiveMessageOnPort(port as MessagePort)) {
      const message = m.message as ReadAheadVersions | ReadAheadTexts | ReadAheadFiles;
      if ("versions" in message) this.versions = message.versions;
      else if ("names" in message) (message.scan ? this.scanNames : this.names)?.add(message);
      else for (const [i, text] of message.texts) if (i >= at) this.given.set(i, text);
    }
  }
}

/**
 * The worker's half of a shared scan (scanFilesShared in scan.ts): from the first file on, each file it claims
 * before the main thread (which scans from the last one), until it meets one the main thread has claimed, or stdin
 * (the main thread's). It scans only files whose names it has: the main thread posts the next ones as this scan
 * nears the end of those it has, or claims the file itself. Returns the texts it keeps, by index (KeptTexts),
 * parsed later without reading the files again.
 */
function scanFront(work: ReadAheadWork, inbox: Inbox, post: (m: ReadAheadScanned) => void): Map<number, string> {
  const kept = new Map<number, string>();
  const names = inbox.scanNames;
  if (!work.scan || !names) return kept;
  const state = new Int32Array(work.state);
  const claims = new Int32Array(work.scan.claims);
  const keep = new KeptTexts(work.scan.keepChars);
  let batch: [number, ReturnType<typeof textFacts> | null][] = [];
  let index = 0;
  scan: for (; index < work.total; index++) {
    let file = names.at(index);
    while (file === undefined) {
      inbox.receive(0);
      file = names.at(index);
      if (file !== undefined) break;
      // not posted yet: the main thread posts it, or claims the file (its scan then ends here)
      if (Atomics.load(claims, index) !== UNCLAIMED || Atomics.load(state, STOP) !== 0) break scan;
      Atomics.wait(state, TAKEN, Atomics.load(state, TAKEN), 1);
    }
    if (file === "-" || Atomics.compareExchange(claims, index, UNCLAIMED, BY_WORKER) !== UNCLAIMED) break;
    let text: string | undefined;
    try {
      text = scanRead(file, work.scan.maxFileBytes);
    } catch {
      // whatever went wrong is the main thread's to meet again (the reader reports it)
      text = undefined;
    }
    batch.push([index, text === undefined ? null : textFacts(text)]);
    if (text !== undefined && keep.take(text)) kept.set(index, text);
    if (batch.length === SCAN_POST_FILES) {
      post({ scanned: batch });
      batch = [];
    }
  }
  inbox.scanNames = undefined;
  post({ scanned: batch, end: index });
  return kept;
}

/**
 * The count of files taken at which `chars` of the characters ahead are free (`ahead`: the files read and not yet
 * taken, with their sizes, in order), or at which the last of them is; `atLeast` when none is ahead.
 */
function freedAt(ahead: readonly (readonly [number, number])[], chars: number, atLeast: number): number {
  let freed = 0;
  let at = atLeast;
  for (const [index, size] of ahead) {
    freed += size;
    at = index + 1;
    if (freed >= chars) break;
  }
  return at;
}

function run(work: ReadAheadWork, post: (m: ReadAheadMessage | ReadAheadScanned) => void): void {
  const state = new Int32Array(work.state);
  const claims = new Int32Array(work.claims);
  const builtins = work.cacheDir ? new PackedBuiltins(work.cacheDir) : undefined;
  // this isolate's garbage (every file's text and documents) piles up like the main thread's: collected as it grows
  const heap = new HeapGuard(16 * 1024 * 1024);
  const inbox = new Inbox(work);
  // the texts this worker's own half of the scan kept (their text goes back with the documents)
  const scanned = scanFront(work, inbox, post);
  // characters of the files posted and not yet taken, by index (in order): a few files of hundreds of objects
  // each fill the window's characters long before its count of files
  const ahead: [number, number][] = [];
  let aheadChars = 0;
  // text read since the heap was last looked at: files of hundreds of objects make MBs of garbage each
  let readChars = 0;
  for (let index = 0; index < work.total; index++) {
    // wait while `window` files (or `windowChars` characters of them) are read and not yet taken, until `batch` of
    // them are (the main thread notifies when TAKEN reaches WAKE_AT, and on stop); WAKE_AT is set before TAKEN is
    // read for the wait, see ReadAhead.take
    for (;;) {
      if (Atomics.load(state, STOP) !== 0) return;
      const taken = Atomics.load(state, TAKEN);
      while (ahead.length > 0 && (ahead[0] as [number, number])[0] < taken) aheadChars -= (ahead.shift() as [number, number])[1];
      const full = index - taken >= work.window;
      if (!full && aheadChars < work.windowChars) break;
      // a full count of files: woken once a batch is free; too many characters: once a quarter of them are free (the
      // next file, if it alone is that large). Files of ~1 KB meet the characters first (~600 of them): woken at
      // each file taken, the worker cost the main thread a notify (~70 us under load) up to ~100 times a run
      const wakeAt = full ? index - work.window + work.batch : freedAt(ahead, work.windowChars / 4, taken + 1);
      Atomics.store(state, WAKE_AT, wakeAt);
      const now = Atomics.load(state, TAKEN);
      if (now >= wakeAt) continue;
      Atomics.wait(state, TAKEN, now, work.waitMs);
    }
    inbox.receive(index);
    let file = inbox.names.at(index);
    // its name not here yet (the main thread posts it before it takes the file before this one): wait a little
    while (file === undefined) {
      if (Atomics.load(state, STOP) !== 0) return;
      Atomics.wait(state, TAKEN, Atomics.load(state, TAKEN), 5);
      inbox.receive(index);
      file = inbox.names.at(index);
    }
    const known = inbox.given.get(index);
    inbox.given.delete(index);
    const own = scanned.get(index);
    scanned.delete(index);
    // stdin belongs to the main thread, and so does a file the main thread claimed (it wanted it before the
    // worker got to it)
    if (file === "-" || Atomics.compareExchange(claims, index, UNCLAIMED, BY_WORKER) !== UNCLAIMED) continue;
    let read: ReturnType<typeof loadFileText> | undefined;
    try {
      read = loadFileText(file, work.read, known ?? own);
    } catch {
      // whatever went wrong is the main thread's to meet again, with its own error handling
      read = undefined;
    }
    const docs = read?.docs;
    // the file's catalog versions, when the main thread has sent them: native checks of its built-in objects too
    inbox.receive(index + 1);
    const v = inbox.versions?.[index];
    // the main thread already waits for this file: it gets the documents now and runs the checks itself
    const waited = Atomics.load(state, TAKEN) >= index;
    const native = docs && builtins && v && !waited ? docs.resources.map((r) => nativeAhead(r, builtins, v, work.facts) ?? null) : undefined;
    // the text goes back with the documents (the main thread locates findings in it), unless the main thread gave it
    const text = docs && known === undefined ? read?.text : undefined;
    post({ index, docs, ...(native ? { native } : {}), ...(text !== undefined ? { text } : {}) });
    const chars = read?.text?.length ?? 0;
    ahead.push([index, chars]);
    aheadChars += chars;
    readChars += chars;
    if (index % 100 === 99 || readChars > HEAP_CHECK_CHARS) {
      heap.check();
      readChars = 0;
    }
  }
}

// started before the files are known (while the CLI loads), the worker waits for its one piece of work
const port = parentPort;
port?.once("message", (work: ReadAheadWork) => {
  // the loader (read-ahead-start.ts) writes its V8 code cache when asked, unless the cache it ran with was written
  // by a run that got as far: once the functions that reading (and the native checks) need are compiled, after
  // the first files (half of a short run's); not at the end, where the main thread, done with the last file, may
  // already be stopping this worker
  let save = (globalThis as Record<symbol, unknown>)[Symbol.for(SAVE_CODE_CACHE)] as ((files: number) => void) | undefined;
  const saveAt = Math.min(SAVE_AFTER_FILES, Math.ceil(work.total / 2)) - 1;
  run(work, (m) => {
    work.port.postMessage(m);
    if (save && "index" in m && m.index >= saveAt) {
      save(saveAt + 1);
      save = undefined;
    }
  });
});

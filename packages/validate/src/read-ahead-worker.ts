// The read-ahead worker's entry point (see read-ahead.ts): reads and parses the files it is given, in order,
// with the same loadFileText() the main thread would call, and posts each file's documents back (each file it
// claims first: the main thread reads a file itself rather than wait for it). It stays at
// most `window` files ahead of what the main thread has taken, so memory does not grow with the run.
import { type MessagePort, parentPort, receiveMessageOnPort } from "node:worker_threads";
import { HeapGuard } from "./heap-guard.ts";
import { nativeAhead, PackedBuiltins } from "./native-ahead.ts";
import { loadFileText } from "./reader.ts";
import { BY_WORKER, type ReadAheadFiles, type ReadAheadMessage, type ReadAheadTexts, type ReadAheadVersions, type ReadAheadWork, STOP, TAKEN, UNCLAIMED } from "./read-ahead.ts";
import { SAVE_CODE_CACHE } from "./read-ahead-start.ts";

/** Files posted before the worker writes its code cache (see the loader in read-ahead-start.ts). */
const SAVE_AFTER_FILES = 64;

function run(work: ReadAheadWork, post: (m: ReadAheadMessage) => void): void {
  const state = new Int32Array(work.state);
  const claims = new Int32Array(work.claims);
  const builtins = work.cacheDir ? new PackedBuiltins(work.cacheDir) : undefined;
  let versions: ReadAheadVersions["versions"] | undefined;
  // this isolate's garbage (every file's text and documents) piles up like the main thread's: collected as it grows
  const heap = new HeapGuard(16 * 1024 * 1024);
  // texts the scan read (by file index): parsed without reading the file again, dropped once the file is passed
  const given = new Map<number, string>();
  // the names of the files from `namesFrom` on: the main thread posts the next ones before the worker needs them
  let names = work.files;
  let namesFrom = 0;
  const more: ReadAheadFiles[] = [];
  const receive = (at: number) => {
    for (let m = receiveMessageOnPort(port as MessagePort); m; m = receiveMessageOnPort(port as MessagePort)) {
      const message = m.message as ReadAheadVersions | ReadAheadTexts | ReadAheadFiles;
      if ("versions" in message) versions = message.versions;
      else if ("names" in message) more.push(message);
      else for (const [i, text] of message.texts) if (i >= at) given.set(i, text);
    }
  };
  const nameOf = (index: number): string | undefined => {
    while (index >= namesFrom + names.length && more.length > 0) {
      const next = more.shift() as ReadAheadFiles;
      names = next.names;
      namesFrom = next.from;
    }
    return names[index - namesFrom];
  };
  for (let index = 0; index < work.total; index++) {
    // wait while `window` files are read and not yet taken (the main thread notifies on each take and on stop)
    for (;;) {
      if (Atomics.load(state, STOP) !== 0) return;
      const taken = Atomics.load(state, TAKEN);
      if (index - taken < work.window) break;
      Atomics.wait(state, TAKEN, taken, 1000);
    }
    receive(index);
    let file = nameOf(index);
    // its name not here yet (the main thread posts it before it takes the file before this one): wait a little
    while (file === undefined) {
      if (Atomics.load(state, STOP) !== 0) return;
      Atomics.wait(state, TAKEN, Atomics.load(state, TAKEN), 5);
      receive(index);
      file = nameOf(index);
    }
    const known = given.get(index);
    given.delete(index);
    // stdin belongs to the main thread, and so does a file the main thread claimed (it wanted it before the
    // worker got to it)
    if (file === "-" || Atomics.compareExchange(claims, index, UNCLAIMED, BY_WORKER) !== UNCLAIMED) continue;
    let read: ReturnType<typeof loadFileText> | undefined;
    try {
      read = loadFileText(file, work.read, known);
    } catch {
      // whatever went wrong is the main thread's to meet again, with its own error handling
      read = undefined;
    }
    const docs = read?.docs;
    // the file's catalog versions, when the main thread has sent them: native checks of its built-in objects too
    receive(index + 1);
    const v = versions?.[index];
    // the main thread already waits for this file: it gets the documents now and runs the checks itself
    const waited = Atomics.load(state, TAKEN) >= index;
    const native = docs && builtins && v && !waited ? docs.resources.map((r) => nativeAhead(r, builtins, v) ?? null) : undefined;
    // the text goes back with the documents (the main thread locates findings in it), unless the main thread gave it
    const text = docs && known === undefined ? read?.text : undefined;
    post({ index, docs, ...(native ? { native } : {}), ...(text !== undefined ? { text } : {}) });
    if (index % 100 === 99) heap.check();
  }
}

// started before the files are known (while the CLI loads), the worker waits for its one piece of work
const port = parentPort;
port?.once("message", (work: ReadAheadWork) => {
  // the loader (read-ahead-start.ts) ran this bundle without a usable V8 code cache: it is written once the
  // functions that reading (and the native checks) need are compiled, after the first files (half of a short
  // run's); not at the end, where the main thread, done with the last file, may already be stopping this worker
  let save = (globalThis as Record<symbol, unknown>)[Symbol.for(SAVE_CODE_CACHE)] as (() => void) | undefined;
  const saveAt = Math.min(SAVE_AFTER_FILES, Math.ceil(work.total / 2)) - 1;
  run(work, (m) => {
    port.postMessage(m);
    if (save && m.index >= saveAt) {
      save();
      save = undefined;
    }
  });
});

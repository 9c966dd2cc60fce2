// The read-ahead worker's entry point (see read-ahead.ts): reads and parses the files it is given, in order,
// with the same loadDocuments() the main thread would call, and posts each file's documents back (each file it
// claims first: the main thread reads a file itself rather than wait for it). It stays at
// most `window` files ahead of what the main thread has taken, so memory does not grow with the run.
import { parentPort } from "node:worker_threads";
import { loadDocuments } from "./reader.ts";
import { BY_WORKER, type ReadAheadMessage, type ReadAheadWork, STOP, TAKEN, UNCLAIMED } from "./read-ahead.ts";

function run(work: ReadAheadWork, post: (m: ReadAheadMessage) => void): void {
  const state = new Int32Array(work.state);
  const claims = new Int32Array(work.claims);
  for (let index = 0; index < work.files.length; index++) {
    // wait while `window` files are read and not yet taken (the main thread notifies on each take and on stop)
    for (;;) {
      if (Atomics.load(state, STOP) !== 0) return;
      const taken = Atomics.load(state, TAKEN);
      if (index - taken < work.window) break;
      Atomics.wait(state, TAKEN, taken, 1000);
    }
    const file = work.files[index] as string;
    // stdin belongs to the main thread, and so does a file the main thread claimed (it wanted it before the
    // worker got to it)
    if (file === "-" || Atomics.compareExchange(claims, index, UNCLAIMED, BY_WORKER) !== UNCLAIMED) continue;
    let docs: ReturnType<typeof loadDocuments> | undefined;
    try {
      docs = loadDocuments([file], work.read);
    } catch {
      // whatever went wrong is the main thread's to meet again, with its own error handling
      docs = undefined;
    }
    post({ index, docs });
  }
}

// started before the files are known (while the CLI loads), the worker waits for its one piece of work
const port = parentPort;
port?.once("message", (work: ReadAheadWork) => run(work, (m) => port.postMessage(m)));

// Starting the read-ahead worker (read-ahead.ts), apart from it: the CLI starts the worker first thing, before
// it loads the validator, and this module loads nothing else.
import { type Dir, type Dirent, existsSync, lstatSync, opendirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

/** Where the worker's V8 code cache is kept: beside its (content-addressed) bundle file. */
export const workerCodeCache = (workerFile: string): string => `${workerFile}.v8`;

/** The global the loader below sets in the worker: read-ahead-worker.ts calls it once, with how far it got in its files (see SAVE_AFTER_FILES). */
export const SAVE_CODE_CACHE = "eks-gitops.save-worker-code-cache";

/**
 * Built-in modules the worker's bundle loads besides the loader's own: loaded before the launcher sets V8's flags
 * (see the loader). Node compiles a built-in module from its source instead of its code cache once they are set
 * (their hash differs from the cache's), which made the worker's boot ~38 ms instead of ~18 ms and these modules ~11
 * ms instead of ~4. One missing here is only compiled from its source, as before.
 */
const PRELOADED = ["node:os", "node:net", "node:v8"];

/**
 * The longest the worker waits for the launcher's V8 flags before it compiles its bundle anyway: a safety net (the
 * launcher sets them ~20 ms after it starts the worker; the main thread never waits for the worker meanwhile).
 */
const FLAGS_WAIT_MS = 10_000;

// The worker's bundle is run the way bin/bundle.js runs the CLI's: as a CommonJS function compiled by vm.Script
// with V8's code cache, instead of by Node's module loader, which compiles it anew in every run (measured: ~45 ms
// of the worker's CPU at each start, the whole of loading its bundle). The cache is V8's own format, checked by V8
// against the source and its flags (a foreign or stale file is rejected, `cachedDataRejected`, never run; a
// damaged one by the SHA-256 stored before it, as V8 checks no checksum in release builds); it is written once
// the worker has posted its first files (the functions reading needs are compiled then), and again by a later run
// that gets further into its files than the one that wrote it, to a temporary file renamed into place, so a
// concurrent run never reads half of one.
const LOADER = `"use strict";
const { readFileSync, writeFileSync, renameSync, rmSync } = require("node:fs");
const { dirname } = require("node:path");
const { createRequire } = require("node:module");
const { Script } = require("node:vm");
const { workerData } = require("node:worker_threads");
const { file, cacheFile, saveKey, flagsGate } = workerData;
const { createHash } = require("node:crypto");
if (flagsGate) {
  // the launcher sets its V8 flags once its own bundle is compiled (packages/cli/bin/bundle.js): the built-in modules
  // this worker's bundle loads are loaded now, while Node's code cache for them is valid (made under V8's defaults),
  // and the bundle is compiled once the flags are set, as its code cache was made
  for (const m of ${JSON.stringify(PRELOADED)}) require(m);
  Atomics.store(flagsGate, 1, 1);
  Atomics.notify(flagsGate, 1);
  Atomics.wait(flagsGate, 0, 0, ${FLAGS_WAIT_MS});
}
const digest = (b) => createHash("sha256").update(b).digest();
// the file is the SHA-256 of what follows, the files read when it was written (32-bit little-endian, in 8 bytes), then V8's
// data (the CLI's own cache is the same, see readCodeCache in packages/cli/bin/bundle.js): V8 verifies no checksum
// of a code cache in a release build (a damaged one whose header still matches would be run), so a file whose hash
// does not match is ignored
let cached;
try {
  const stored = readFileSync(cacheFile);
  if (stored.length > 40 && digest(stored.subarray(32)).equals(stored.subarray(0, 32))) cached = { coverage: stored.readUInt32LE(32), data: stored.subarray(40) };
} catch { cached = undefined; }
const bytes = readFileSync(file);
const source = bytes.toString(require("node:buffer").isAscii(bytes) ? "latin1" : "utf8");
const script = new Script("(function (exports, require, module, __filename, __dirname) {" + source + "\\n})", { filename: file, cachedData: cached && cached.data });
const usable = cached !== undefined && !script.cachedDataRejected;
// written when the worker has posted its first files (every function reading needs is compiled then), and again by
// a later run that gets further than the one that wrote it
globalThis[Symbol.for(saveKey)] = (files) => {
  if (usable && files <= cached.coverage) return;
  const tmp = cacheFile + "." + process.pid + "." + require("node:worker_threads").threadId + ".tmp";
  try {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(files);
    const body = Buffer.concat([head, script.createCachedData()]);
    writeFileSync(tmp, Buffer.concat([digest(body), body]));
    renameSync(tmp, cacheFile);
  } catch { try { rmSync(tmp, { force: true }); } catch {} }
};
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
`;

/**
 * Starts the read-ahead worker early (it loads while the caller does other work); undefined when it cannot start.
 * `flagsGate` (two slots of a SharedArrayBuffer): the launcher's, whose slot 0 it sets to 1 once it has set V8's
 * flags (packages/cli/bin/bundle.js, runBundle); the worker sets slot 1 to 1 when it waits for that.
 */
export function startReadAheadWorker(workerFile: string, flagsGate?: Int32Array): Worker | undefined {
  if (!existsSync(workerFile)) return undefined;
  try {
    // a small young generation: the worker's garbage (parsed documents, once posted) is collected early instead
    // of piling up beside the main thread's; measured at 50,000 objects: 237 MB peak instead of 257 MB
    const worker = new Worker(LOADER, {
      eval: true,
      workerData: { file: workerFile, cacheFile: workerCodeCache(workerFile), saveKey: SAVE_CODE_CACHE, ...(flagsGate ? { flagsGate } : {}) },
      stdout: true,
      stderr: true,
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    // never keeps the process alive: a run that ends before giving it work (a usage error) just exits
    worker.unref();
    // a worker that fails before it is given work is only a missed speed-up (see ReadAhead)
    worker.on("error", () => {});
    return worker;
  } catch {
    return undefined;
  }
}

/**
 * Bytes of input below which a worker does not pay for itself: starting one costs ~80 ms of CPU (Node's worker
 * bootstrap and the bundle), and a run that ends while it is still loading waits for it to stop. Measured on
 * this 2-CPU machine, medians of 7-9 interleaved runs with the worker and without (EKS_GITOPS_READ_AHEAD=0):
 * 1 file 0.20 s against 0.17 s, 5 files (4 KB) 0.25 against 0.21, 12 files 0.26 against 0.24, 25 files (24 KB)
 * 0.28 against 0.29, 50 files (44 KB) 0.32 against 0.30, 100 files (100 KB) 0.34 against 0.36, 500 files
 * (440 KB) 0.49 against 0.51; the worker's CPU was 0.08-0.3 s more each time.
 */
export const READ_AHEAD_MIN_BYTES = 64 * 1024;

/** Folder entries a look at the inputs goes through, at most, before it takes them for large (see worthReadingAhead). */
const LOOK_AT_MOST = 4096;

/**
 * Whether the files under `paths` are enough for the read-ahead worker to pay (two files or more, `minBytes` in
 * all), looked at before anything else loads: sizes are added up file by file, a folder's entries read one at a
 * time, and the look stops as soon as they are enough. It errs towards starting the worker: past LOOK_AT_MOST
 * entries, or at a link to a folder, it answers yes without looking further; a path that cannot be read is left to
 * the run to report. stdin (`-`) is always read on the main thread, so it counts for nothing.
 */
export function worthReadingAhead(paths: readonly string[], minBytes = READ_AHEAD_MIN_BYTES): boolean {
  let files = 0;
  let bytes = 0;
  let looked = 0;
  // folders being read, the innermost last: entries come one at a time (a folder of 200,000 files is never listed whole)
  const open: { dir: Dir; path: string }[] = [];
  /** Looks at one path: whether that makes enough. */
  const look = (path: string): boolean => {
    try {
      let stat = lstatSync(path);
      if (stat.isSymbolicLink()) {
        stat = statSync(path);
        // a linked folder may lead anywhere, even back up: not walked here
        if (stat.isDirectory()) return true;
      }
      if (stat.isDirectory()) open.push({ dir: opendirSync(path), path });
      else if (stat.isFile()) {
        files++;
        bytes += stat.size;
      }
    } catch {
      // unreadable (gone, no permission, a dangling link): the run reports it
    }
    return files >= 2 && bytes >= minBytes;
  };
  try {
    for (const path of paths) {
      if (path === "-") continue;
      if (++looked > LOOK_AT_MOST || look(path)) return true;
      while (open.length > 0) {
        const top = open[open.length - 1] as { dir: Dir; path: string };
        let entry: Dirent | null;
        try {
          entry = top.dir.readSync();
        } catch {
          entry = null;
        }
        if (entry === null) {
          close(top.dir);
          open.pop();
          continue;
        }
        if (++looked > LOOK_AT_MOST || look(join(top.path, entry.name))) return true;
      }
    }
    return false;
  } finally {
    for (const { dir } of open) close(dir);
  }
}

function close(dir: Dir): void {
  try {
    dir.closeSync();
  } catch {
    // closed already, or a handle the system lost: nothing left to free
  }
}

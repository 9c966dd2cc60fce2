// Starting the read-ahead worker (read-ahead.ts), apart from it: the CLI starts the worker first thing, before
// it loads the validator, and this module loads nothing else.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";

/** Where the worker's V8 code cache is kept: beside its (content-addressed) bundle file. */
export const workerCodeCache = (workerFile: string): string => `${workerFile}.v8`;

/** The global the loader below sets in the worker: read-ahead-worker.ts calls it once, with how far it got in its files (see SAVE_AFTER_FILES). */
export const SAVE_CODE_CACHE = "eks-gitops.save-worker-code-cache";

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
const { file, cacheFile, saveKey } = workerData;
const { createHash } = require("node:crypto");
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

/** Starts the read-ahead worker early (it loads while the caller does other work); undefined when it cannot start. */
export function startReadAheadWorker(workerFile: string): Worker | undefined {
  if (!existsSync(workerFile)) return undefined;
  try {
    // a small young generation: the worker's garbage (parsed documents, once posted) is collected early instead
    // of piling up beside the main thread's; measured at 50,000 objects: 237 MB peak instead of 257 MB
    const worker = new Worker(LOADER, {
      eval: true,
      workerData: { file: workerFile, cacheFile: workerCodeCache(workerFile), saveKey: SAVE_CODE_CACHE },
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

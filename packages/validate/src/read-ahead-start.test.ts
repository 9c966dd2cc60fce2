// The loader of read-ahead-start.ts runs the worker's bundle with V8's code cache: written when missing, rejected
// by V8 (and rewritten) when foreign or damaged, never what decides what the worker does.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAVE_CODE_CACHE, startReadAheadWorker, workerCodeCache, worthReadingAhead } from "./read-ahead-start.ts";

const dir = mkdtempSync(join(tmpdir(), "read-ahead-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a stand-in for the bundled read-ahead-worker.cjs: answers its one message, a number, after asking for the cache to
// be written as the real one does, with that number as the files it has read
const bundle = join(dir, "read-ahead-worker.cjs");
writeFileSync(
  bundle,
  `const { parentPort } = require("node:worker_threads");
const { basename } = require("node:path");
parentPort.once("message", (m) => {
  globalThis[Symbol.for(${JSON.stringify(SAVE_CODE_CACHE)})](m);
  parentPort.postMessage({ doubled: m * 2, file: basename(__filename) });
});
`,
);

async function ask(worker: Worker, n: number): Promise<{ doubled: number; file: string }> {
  worker.ref();
  try {
    return await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.postMessage(n);
    });
  } finally {
    await worker.terminate();
  }
}

describe("startReadAheadWorker", { timeout: 60_000 }, () => {
  it("runs the bundle, writes its code cache, uses it, and writes it again only for a run that read more files", async () => {
    const cache = workerCodeCache(bundle);
    rmSync(cache, { force: true });
    const first = startReadAheadWorker(bundle);
    if (!first) throw new Error("no worker");
    expect(await ask(first, 21)).toEqual({ doubled: 42, file: "read-ahead-worker.cjs" });
    const written = readFileSync(cache);
    // the SHA-256 of what follows it, the files read when it was written, V8's data
    expect(createHash("sha256").update(written.subarray(32)).digest().equals(written.subarray(0, 32))).toBe(true);
    expect(written.readUInt32LE(32)).toBe(21);

    // accepted by V8, and written by a run that had read more: kept as it is
    const second = startReadAheadWorker(bundle);
    if (!second) throw new Error("no worker");
    expect(await ask(second, 2)).toEqual({ doubled: 4, file: "read-ahead-worker.cjs" });
    expect(readFileSync(cache).equals(written)).toBe(true);

    // a run that read more: what it compiled by then replaces the cache
    const third = startReadAheadWorker(bundle);
    if (!third) throw new Error("no worker");
    expect(await ask(third, 30)).toEqual({ doubled: 60, file: "read-ahead-worker.cjs" });
    expect(readFileSync(cache).readUInt32LE(32)).toBe(30);
  });

  it("with a flags gate, loads its built-in modules, then runs the bundle only once the gate is open", async () => {
    // a stand-in bundle that says whether the gate was open when it ran
    const gated = join(dir, "gated", "read-ahead-worker.cjs");
    mkdirSync(join(dir, "gated"), { recursive: true });
    writeFileSync(gated, `const { parentPort, workerData } = require("node:worker_threads");\nparentPort.postMessage({ open: Atomics.load(workerData.flagsGate, 0) });\n`);
    const gate = new Int32Array(new SharedArrayBuffer(8));
    const worker = startReadAheadWorker(gated, gate);
    if (!worker) throw new Error("no worker");
    worker.ref();
    try {
      const said = new Promise<{ open: number }>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      // the worker says it waits (its built-in modules loaded): its bundle has not run (this thread must not block:
      // a worker's start needs the event loop of the thread that made it)
      // @ts-expect-error Atomics.waitAsync (Node 20) is in lib es2024, past this package's target
      const waiting: { async: boolean; value: Promise<string> | string } = Atomics.waitAsync(gate, 1, 0, 30_000);
      expect(waiting.async ? await waiting.value : waiting.value).not.toBe("timed-out");
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      expect(await said).toEqual({ open: 1 });
    } finally {
      await worker.terminate();
    }
  });

  it("ignores a damaged or foreign cache file and replaces it", async () => {
    const cache = workerCodeCache(bundle);
    for (const junk of [Buffer.from("not a code cache"), Buffer.alloc(4096, 7), readFileSync(process.execPath).subarray(0, 8192)]) {
      writeFileSync(cache, junk);
      const worker = startReadAheadWorker(bundle);
      if (!worker) throw new Error("no worker");
      expect(await ask(worker, 5)).toEqual({ doubled: 10, file: "read-ahead-worker.cjs" });
      expect(readFileSync(cache).equals(junk)).toBe(false);
      expect(readFileSync(cache).readUInt32LE(32)).toBe(5);
    }
  });

  it("rewrites a file whose hash holds but whose data V8 refuses, whatever count of files it claims", async () => {
    const cache = workerCodeCache(bundle);
    const body = Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]), Buffer.alloc(4096, 7)]);
    writeFileSync(cache, Buffer.concat([createHash("sha256").update(body).digest(), body]));
    const worker = startReadAheadWorker(bundle);
    if (!worker) throw new Error("no worker");
    expect(await ask(worker, 5)).toEqual({ doubled: 10, file: "read-ahead-worker.cjs" });
    expect(readFileSync(cache).readUInt32LE(32)).toBe(5);
  });

  it("ignores a cache file damaged inside V8's data, which V8 itself accepts (no checksum in release builds)", async () => {
    const cache = workerCodeCache(bundle);
    rmSync(cache, { force: true });
    const first = startReadAheadWorker(bundle);
    if (!first) throw new Error("no worker");
    expect((await ask(first, 1)).doubled).toBe(2);
    const damaged = Buffer.from(readFileSync(cache));
    // one bit of the serialized code, past V8's own header (magic, version, source and flag hashes, lengths)
    damaged.writeUInt8((damaged.at(-40) as number) ^ 0x01, damaged.length - 40);
    writeFileSync(cache, damaged);
    const worker = startReadAheadWorker(bundle);
    if (!worker) throw new Error("no worker");
    // as many files as the damaged file claims: written again all the same, as no cache was used
    expect(await ask(worker, 1)).toEqual({ doubled: 2, file: "read-ahead-worker.cjs" });
    expect(readFileSync(cache).equals(damaged)).toBe(false);
  });

  it("starts nothing for a missing bundle", () => {
    expect(startReadAheadWorker(join(dir, "missing.cjs"))).toBeUndefined();
  });
});

describe("worthReadingAhead", () => {
  const tree = join(dir, "inputs");
  beforeAll(() => {
    mkdirSync(join(tree, "a", "b"), { recursive: true });
    writeFileSync(join(tree, "one.yaml"), "x".repeat(40_000));
    writeFileSync(join(tree, "a", "two.yaml"), "x".repeat(10_000));
    writeFileSync(join(tree, "a", "b", "three.yaml"), "x".repeat(20_000));
  });

  it("adds up the files' sizes under files and folders, nested, and says yes at two files and the bytes asked for", () => {
    expect(worthReadingAhead([tree], 70_000)).toBe(true);
    expect(worthReadingAhead([tree], 70_001)).toBe(false);
    expect(worthReadingAhead([join(tree, "one.yaml"), join(tree, "a")], 70_000)).toBe(true);
    expect(worthReadingAhead([join(tree, "a")], 30_000)).toBe(true);
    expect(worthReadingAhead([join(tree, "a")], 30_001)).toBe(false);
  });

  it("never for one file, however large, nor for stdin, nor for paths that are not there", () => {
    expect(worthReadingAhead([join(tree, "one.yaml")], 1)).toBe(false);
    expect(worthReadingAhead(["-", join(tree, "one.yaml")], 1)).toBe(false);
    expect(worthReadingAhead([join(tree, "missing"), join(tree, "one.yaml")], 1)).toBe(false);
    expect(worthReadingAhead([], 1)).toBe(false);
  });

  it("answers yes at a link to a folder rather than follow it (it may lead back up), and counts a link to a file", () => {
    const linked = join(dir, "linked");
    mkdirSync(linked);
    writeFileSync(join(linked, "f.yaml"), "x");
    symlinkSync(tree, join(linked, "up"));
    expect(worthReadingAhead([linked], 1_000_000)).toBe(true);
    const files = join(dir, "file-links");
    mkdirSync(files);
    symlinkSync(join(tree, "one.yaml"), join(files, "l1.yaml"));
    symlinkSync(join(tree, "one.yaml"), join(files, "l2.yaml"));
    expect(worthReadingAhead([files], 80_000)).toBe(true);
    expect(worthReadingAhead([files], 80_001)).toBe(false);
  });

  it("stops looking after a few thousand entries of small files, and answers yes", () => {
    const many = join(dir, "many");
    mkdirSync(many);
    for (let i = 0; i < 4200; i++) writeFileSync(join(many, `${i}.yaml`), "");
    // a folder holding more than that (of files empty or not): answered without being read to its end
    expect(worthReadingAhead([many], 1)).toBe(true);
    expect(worthReadingAhead([join(many, "0.yaml"), join(many, "1.yaml")], 1)).toBe(false);
  });
});

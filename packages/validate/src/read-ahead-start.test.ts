// The loader of read-ahead-start.ts runs the worker's bundle with V8's code cache: written when missing, rejected
// by V8 (and rewritten) when foreign or damaged, never what decides what the worker does.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { SAVE_CODE_CACHE, startReadAheadWorker, workerCodeCache } from "./read-ahead-start.ts";

const dir = mkdtempSync(join(tmpdir(), "read-ahead-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a stand-in for the bundled read-ahead-worker.cjs: answers its one message, then writes the cache as the real one does
const bundle = join(dir, "read-ahead-worker.cjs");
writeFileSync(
  bundle,
  `const { parentPort } = require("node:worker_threads");
const { basename } = require("node:path");
parentPort.once("message", (m) => {
  const save = globalThis[Symbol.for(${JSON.stringify(SAVE_CODE_CACHE)})];
  if (typeof save === "function") save();
  parentPort.postMessage({ doubled: m * 2, file: basename(__filename), saved: typeof save === "function" });
});
`,
);

async function ask(worker: Worker, n: number): Promise<{ doubled: number; file: string; saved: boolean }> {
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
  it("runs the bundle, writes its code cache once, then uses it", async () => {
    const cache = workerCodeCache(bundle);
    rmSync(cache, { force: true });
    const first = startReadAheadWorker(bundle);
    if (!first) throw new Error("no worker");
    expect(await ask(first, 21)).toEqual({ doubled: 42, file: "read-ahead-worker.cjs", saved: true });
    expect(existsSync(cache)).toBe(true);
    const written = readFileSync(cache);

    const second = startReadAheadWorker(bundle);
    if (!second) throw new Error("no worker");
    // accepted by V8: nothing to save
    expect(await ask(second, 2)).toEqual({ doubled: 4, file: "read-ahead-worker.cjs", saved: false });
    expect(readFileSync(cache).equals(written)).toBe(true);
  });

  it("ignores a damaged or foreign cache file and replaces it", async () => {
    const cache = workerCodeCache(bundle);
    for (const junk of [Buffer.from("not a code cache"), Buffer.alloc(4096, 7), readFileSync(process.execPath).subarray(0, 8192)]) {
      writeFileSync(cache, junk);
      const worker = startReadAheadWorker(bundle);
      if (!worker) throw new Error("no worker");
      expect(await ask(worker, 5)).toEqual({ doubled: 10, file: "read-ahead-worker.cjs", saved: true });
      expect(readFileSync(cache).equals(junk)).toBe(false);
    }
  });

  it("ignores a cache file damaged inside V8's data, which V8 itself accepts (no checksum in release builds)", async () => {
    const cache = workerCodeCache(bundle);
    rmSync(cache, { force: true });
    const first = startReadAheadWorker(bundle);
    if (!first) throw new Error("no worker");
    expect((await ask(first, 1)).saved).toBe(true);
    const damaged = Buffer.from(readFileSync(cache));
    // one bit of the serialized code, past V8's own header (magic, version, source and flag hashes, lengths)
    damaged.writeUInt8((damaged.at(-40) as number) ^ 0x01, damaged.length - 40);
    writeFileSync(cache, damaged);
    const worker = startReadAheadWorker(bundle);
    if (!worker) throw new Error("no worker");
    expect(await ask(worker, 5)).toEqual({ doubled: 10, file: "read-ahead-worker.cjs", saved: true });
    expect(readFileSync(cache).equals(damaged)).toBe(false);
  });

  it("starts nothing for a missing bundle", () => {
    expect(startReadAheadWorker(join(dir, "missing.cjs"))).toBeUndefined();
  });
});

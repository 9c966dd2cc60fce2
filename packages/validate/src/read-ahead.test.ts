// ReadAhead never depends on its worker for results: whatever the worker does (nothing, dies after claiming a
// file, fails), every file's documents are those loadDocuments() gives on the calling thread.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { ReadAhead } from "./read-ahead.ts";
import { loadDocuments, parseText } from "./reader.ts";

const dir = mkdtempSync(join(tmpdir(), "read-ahead-"));
const files = [0, 1, 2, 3].map((i) => {
  const file = join(dir, `f${i}.yaml`);
  writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\n---\nkind: [broken\n`);
  return file;
});
const read = { cwd: dir };
const expected = files.map((f) => loadDocuments([f], read));

/** A worker from inline code: `work` is the ReadAhead's work message, `claims` its per-file claims. */
const worker = (code: string) =>
  new Worker(
    `const { parentPort } = require("node:worker_threads");
     parentPort.once("message", (work) => { const claims = new Int32Array(work.claims); ${code} });`,
    { eval: true },
  );

async function readAll(ahead: ReadAhead) {
  const out = [];
  for (let i = 0; i < files.length; i++) out.push(await ahead.next());
  ahead.close();
  return out;
}

describe("ReadAhead", () => {
  it("reads everything itself without a worker", async () => {
    const ahead = new ReadAhead(files, read, undefined);
    expect(await readAll(ahead)).toEqual(expected);
    expect(ahead.fromWorker).toBe(0);
  });

  it("reads itself the files a worker that does nothing never claimed", async () => {
    const ahead = new ReadAhead(files, read, worker("/* idle */"));
    expect(await readAll(ahead)).toEqual(expected);
    expect(ahead.fromWorker).toBe(0);
  });

  it("reads a file itself when the worker claimed it and then exited without posting it", async () => {
    const w = worker("Atomics.store(claims, 0, 1); process.exit(0);");
    const exited = new Promise((resolve) => w.once("exit", resolve));
    const ahead = new ReadAhead(files, read, w);
    // the worker has claimed file 0 when the main thread asks for it
    await exited;
    expect(await readAll(ahead)).toEqual(expected);
    expect(ahead.fromWorker).toBe(0);
  });

  it("reads a file itself when the worker threw after claiming it", async () => {
    const w = worker('Atomics.store(claims, 0, 1); Atomics.store(claims, 1, 1); throw new Error("boom");');
    const exited = new Promise((resolve) => w.once("exit", resolve));
    const ahead = new ReadAhead(files, read, w);
    await exited;
    expect(await readAll(ahead)).toEqual(expected);
    expect(ahead.fromWorker).toBe(0);
  });

  it("takes what the worker posts for the files it claimed", async () => {
    // a worker that claims file 1 and posts a marker for it (the real worker posts loadDocuments' result)
    const marker = { resources: [], unreadable: [], iam: [] };
    const w = worker(`Atomics.store(claims, 1, 1); work.port.postMessage({ index: 1, docs: ${JSON.stringify(marker)} }); parentPort.postMessage("posted");`);
    const posted = new Promise((resolve) => w.once("message", resolve));
    const ahead = new ReadAhead(files, read, w);
    await posted;
    const first = await ahead.next();
    const second = await ahead.next();
    expect(first).toEqual(expected[0]);
    expect(second).toEqual(marker);
    expect(ahead.lastFromWorker).toBe(true);
    ahead.close();
  });

  it("takes a file the worker posted on its channel at once, without a turn of the event loop", () => {
    const marker = { resources: [], unreadable: [], iam: [] };
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const w = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       parentPort.once("message", (work) => {
         Atomics.store(new Int32Array(work.claims), 0, 1);
         work.port.postMessage({ index: 0, docs: ${JSON.stringify(marker)} });
         const flag = new Int32Array(workerData);
         Atomics.store(flag, 0, 1);
         Atomics.notify(flag, 0);
       });`,
      { eval: true, workerData: flag.buffer },
    );
    const ahead = new ReadAhead(files, read, w);
    // this thread blocks until the worker has posted: nothing is delivered to it by its event loop meanwhile
    Atomics.wait(flag, 0, 0, 30_000);
    const docs = ahead.next();
    expect(docs).not.toBeInstanceOf(Promise);
    expect(docs).toEqual(marker);
    expect(ahead.lastFromWorker).toBe(true);
    ahead.close();
  });

  it("gives the text each file was read from, for locating its findings", async () => {
    const ahead = new ReadAhead(files, read, undefined);
    for (const f of files) {
      await ahead.next();
      expect(ahead.lastText).toBe(readFileSync(f, "utf8"));
    }
    ahead.close();
  });

  it("gives documents parsed before as they are, and the worker skips their files", async () => {
    // the worker claims every file it can and posts a marker for each: a file given parsed is never its
    const w = worker(`for (let i = 0; i < claims.length; i++) if (Atomics.compareExchange(claims, i, 0, 1) === 0) work.port.postMessage({ index: i, docs: { resources: [], unreadable: [], iam: [{ file: "marker", index: i }] } });`);
    const ahead = new ReadAhead(files, read, w);
    const text = readFileSync(files[0] as string, "utf8");
    const given = { resources: [], unreadable: [], iam: [] };
    ahead.provide(new Map([[files[0] as string, text]]), new Map([[files[0] as string, given]]));
    expect(await ahead.next()).toBe(given);
    expect(ahead.lastText).toBe(text);
    expect(ahead.lastFromWorker).toBe(false);
    ahead.close();
    // without a worker too
    const alone = new ReadAhead(files, read, undefined);
    alone.provide(new Map([[files[1] as string, text]]), new Map([[files[1] as string, given]]));
    expect(await alone.next()).toEqual(expected[0]);
    expect(await alone.next()).toBe(given);
    alone.close();
  });

  it("parses the texts it was given without reading their files again", async () => {
    // the files are gone: what is parsed can only come from the texts given
    const gone = mkdtempSync(join(tmpdir(), "read-ahead-gone-"));
    const paths = [0, 1].map((i) => join(gone, `g${i}.yaml`));
    const texts = paths.map((_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: given${i}\n`);
    rmSync(gone, { recursive: true, force: true });
    const ahead = new ReadAhead(paths, { cwd: gone }, undefined);
    ahead.provide(new Map(paths.map((p, i) => [p, texts[i] as string])));
    for (const [i, p] of paths.entries()) {
      const docs = await ahead.next();
      expect(docs.unreadable).toEqual([]);
      expect(docs.resources).toEqual(parseText({ file: p.slice(gone.length + 1), text: texts[i] as string }).resources);
      expect(ahead.lastText).toBe(texts[i]);
    }
    ahead.close();
  });
});

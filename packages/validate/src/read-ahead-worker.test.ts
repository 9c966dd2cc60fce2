// The real read-ahead worker (read-ahead-worker.ts, run from its sources through tsx) reads the files it is given
// and posts each file's documents, which ReadAhead hands out as loadDocuments() on the calling thread would.
// No race decides the outcome: the main thread asks for its first file only once the worker has posted a whole
// window, so those files come from the worker on any machine, however busy.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { READ_AHEAD_WINDOW, ReadAhead } from "./read-ahead.ts";
import { loadDocuments } from "./reader.ts";

const dir = mkdtempSync(join(tmpdir(), "read-ahead-worker-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files = Array.from({ length: READ_AHEAD_WINDOW + 4 }, (_, i) => {
  const file = join(dir, `f${String(i).padStart(2, "0")}.yaml`);
  const broken = i % 3 === 0 ? "---\nkind: [broken\n" : "";
  writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  on: yes\n${broken}`);
  return file;
});
const read = { cwd: dir };

describe("the read-ahead worker", { timeout: 120_000 }, () => {
  it("posts every file of its window before the main thread asks, and those documents are loadDocuments' own", async () => {
    // tsx's loader registered in the worker, then the worker's own entry point (the CLI runs a bundled copy)
    const entry = JSON.stringify(new URL("./read-ahead-worker.ts", import.meta.url).href);
    const worker = new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); });`, { eval: true });
    const posted: number[] = [];
    const windowPosted = new Promise<void>((resolve, reject) => {
      worker.on("message", (m: { index: number }) => {
        posted.push(m.index);
        if (posted.length === READ_AHEAD_WINDOW) resolve();
      });
      worker.once("error", reject);
    });
    const ahead = new ReadAhead(files, read, worker);
    await windowPosted;
    expect(posted).toEqual(Array.from({ length: READ_AHEAD_WINDOW }, (_, i) => i));
    const got = [];
    for (let i = 0; i < files.length; i++) {
      got.push(await ahead.next());
      if (i < READ_AHEAD_WINDOW) expect(ahead.lastFromWorker, `file ${i}`).toBe(true);
    }
    ahead.close();
    await worker.terminate();
    expect(got).toEqual(files.map((f) => loadDocuments([f], read)));
    // the files after the window: whichever thread claimed each first read it, with the same result
    expect(ahead.fromWorker).toBeGreaterThanOrEqual(READ_AHEAD_WINDOW);
  });

  it("parses the texts the main thread gives it instead of reading the files", async () => {
    // files that no longer exist: the worker can only have parsed the texts given
    const gone = join(dir, "gone");
    const paths = Array.from({ length: 3 }, (_, i) => join(gone, `g${i}.yaml`));
    const texts = paths.map((_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: given${i}\n`);
    const entry = JSON.stringify(new URL("./read-ahead-worker.ts", import.meta.url).href);
    const worker = new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); });`, { eval: true });
    const posted: { index: number; text?: string }[] = [];
    const allPosted = new Promise<void>((resolve, reject) => {
      worker.on("message", (m: { index: number; text?: string }) => {
        posted.push(m);
        if (posted.length === paths.length) resolve();
      });
      worker.once("error", reject);
    });
    const ahead = new ReadAhead(paths, { cwd: gone }, worker);
    // given at once, before the worker has loaded its modules (it takes its messages before each file)
    ahead.provide(new Map(paths.map((p, i) => [p, texts[i] as string])));
    await allPosted;
    for (const [i, p] of paths.entries()) {
      const docs = await ahead.next();
      expect(ahead.lastFromWorker, `file ${i}`).toBe(true);
      expect(docs.unreadable).toEqual([]);
      expect(docs.resources.map((r) => r.name)).toEqual([`given${i}`]);
      expect(ahead.lastText).toBe(texts[i]);
      expect(p.startsWith(gone)).toBe(true);
    }
    // a text it was given is not posted back: the main thread has it
    expect(posted.every((m) => m.text === undefined)).toBe(true);
    ahead.close();
    await worker.terminate();
  });

  it("is given the files' names a few at a time, never the whole list, and reads every file", async () => {
    const entry = JSON.stringify(new URL("./read-ahead-worker.ts", import.meta.url).href);
    const worker = new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); });`, { eval: true });
    // what the main thread posts it: the work (its first names) and then the next names as the files are taken
    const sent: unknown[] = [];
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (m: unknown) => {
      sent.push(m);
      post(m);
    };
    const windowPosted = new Promise<void>((resolve, reject) => {
      let n = 0;
      worker.on("message", () => {
        if (++n === READ_AHEAD_WINDOW) resolve();
      });
      worker.once("error", reject);
    });
    // chunks of 2 names: the worker, a window of 8 ahead, has names for 4 files at a time (2 chunks)
    const ahead = new ReadAhead(files, read, worker, undefined, 2);
    const got = [];
    for (let i = 0; i < files.length; i++) {
      got.push(await ahead.next());
      // after the first file, wait for the worker's window: the later files then come from it
      if (i === 0) await windowPosted;
    }
    ahead.close();
    await worker.terminate();
    expect(got).toEqual(files.map((f) => loadDocuments([f], read)));
    const work = sent[0] as { files: string[]; total: number };
    expect(work.files).toEqual(files.slice(0, 4));
    expect(work.total).toBe(files.length);
    const names = sent.filter((m): m is { from: number; names: string[] } => typeof m === "object" && m !== null && "names" in m);
    expect(names.flatMap((m) => m.names)).toEqual(files.slice(4));
    expect(names.every((m) => m.names.length <= 2)).toBe(true);
    // files past the first four came from the worker too: it had their names when it reached them
    expect(ahead.fromWorker).toBeGreaterThan(4);
  });
});

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
});

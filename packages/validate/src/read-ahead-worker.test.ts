// The real read-ahead worker (read-ahead-worker.ts, run from its sources through tsx) reads the files it is given
// and posts each file's documents, which ReadAhead hands out as loadDocuments() on the calling thread would.
// No race decides the outcome: the main thread asks for its first file only once the worker has posted a whole
// window, so those files come from the worker on any machine, however busy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventEmitter } from "node:events";
import { MessageChannel, MessagePort, type TransferListItem, Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { NEVER, READ_AHEAD_BATCH, READ_AHEAD_CHARS, READ_AHEAD_WINDOW, ReadAhead, UNCLAIMED, WAKE_AT } from "./read-ahead.ts";
import { loadDocuments } from "./reader.ts";
import { scanFiles, scanFilesShared } from "./scan.ts";
import { textFacts } from "./scan-text.ts";
import { SAVE_CODE_CACHE } from "./read-ahead-start.ts";

const dir = mkdtempSync(join(tmpdir(), "read-ahead-worker-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files = Array.from({ length: READ_AHEAD_WINDOW + 4 }, (_, i) => {
  const file = join(dir, `f${String(i).padStart(2, "0")}.yaml`);
  const broken = i % 3 === 0 ? "---\nkind: [broken\n" : "";
  writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  on: yes\n${broken}`);
  return file;
});
const read = { cwd: dir };

/**
 * What `worker` posts on the channel ReadAhead gives it (ReadAheadWork.port), as `message` events of the emitter
 * returned: the worker is given a channel of the test's instead, whose messages go on to ReadAhead's. `sent`: what
 * the worker was posted.
 */
function watchPosts(worker: Worker, sent: unknown[] = []): EventEmitter {
  const posts = new EventEmitter();
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (m: unknown, transfer?: readonly TransferListItem[]) => {
    sent.push(m);
    const port = (m as { port?: unknown } | null)?.port;
    if (!(port instanceof MessagePort)) return post(m, transfer);
    const spy = new MessageChannel();
    spy.port1.on("message", (posted: unknown) => {
      port.postMessage(posted);
      posts.emit("message", posted);
    });
    spy.port1.unref();
    post({ ...(m as object), port: spy.port2 }, [spy.port2]);
  };
  return posts;
}

/** The real worker, run from its sources through tsx's loader (the CLI runs a bundled copy); `posts`: what it posts (watchPosts), `sent`: what it was posted. */
function startWorker(): { worker: Worker; posts: EventEmitter; sent: unknown[] } {
  const entry = JSON.stringify(new URL("./read-ahead-worker.ts", import.meta.url).href);
  const worker = new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); });`, { eval: true });
  const sent: unknown[] = [];
  return { worker, posts: watchPosts(worker, sent), sent };
}

/**
 * Records the files `worker` posts, and takes every file of `ahead` in order, each only once the worker has posted it
 * (the main thread never reads one itself), checking that it came from the worker.
 */
function postedFiles(posts: EventEmitter): { posted: Set<number>; takeEach: (ahead: ReadAhead, count: number) => Promise<void> } {
  const posted = new Set<number>();
  let waiting: { index: number; resolve: () => void } | undefined;
  posts.on("message", (m: { index: number }) => {
    posted.add(m.index);
    if (waiting?.index === m.index) waiting.resolve();
  });
  const takeEach = async (ahead: ReadAhead, count: number) => {
    for (let i = 0; i < count; i++) {
      if (!posted.has(i)) await new Promise<void>((resolve) => (waiting = { index: i, resolve }));
      await ahead.next();
      expect(ahead.lastFromWorker, `file ${i}`).toBe(true);
    }
  };
  return { posted, takeEach };
}

describe("the read-ahead worker", { timeout: 120_000 }, () => {
  it("posts every file of its window before the main thread asks, and those documents are loadDocuments' own", async () => {
    const { worker, posts } = startWorker();
    const posted: number[] = [];
    const windowPosted = new Promise<void>((resolve, reject) => {
      posts.on("message", (m: { index: number }) => {
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

  /**
   * The real worker over `list`, with the loader's global (read-ahead-start.ts) stood in for: [calls, last count]
   * of its asks for its code cache, in memory both threads share. `first` files are posted before any is taken.
   */
  async function codeCacheAsks(list: readonly string[], first: number): Promise<number[]> {
    const box = new Int32Array(new SharedArrayBuffer(8));
    const entry = JSON.stringify(new URL("./read-ahead-worker.ts", import.meta.url).href);
    const worker = new Worker(
      `const { workerData } = require("node:worker_threads");
       const box = new Int32Array(workerData);
       globalThis[Symbol.for(${JSON.stringify(SAVE_CODE_CACHE)})] = (files) => { Atomics.add(box, 0, 1); Atomics.store(box, 1, files); };
       import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); });`,
      { eval: true, workerData: box.buffer },
    );
    const posts = watchPosts(worker);
    let posted = 0;
    const firstPosted = new Promise<void>((resolve, reject) => {
      posts.on("message", () => ++posted === first && resolve());
      worker.once("error", reject);
    });
    const ahead = new ReadAhead(list, read, worker);
    await firstPosted;
    for (let i = 0; i < list.length; i++) await ahead.next();
    ahead.close();
    await worker.terminate();
    return [...box];
  }

  it("asks once for its code cache to be written, at its 64th file (SAVE_AFTER_FILES), or half way through a shorter list", async () => {
    // its whole window posted before the main thread takes any: the count is the worker's own
    expect(await codeCacheAsks(files, READ_AHEAD_WINDOW)).toEqual([1, 64]);
    const short = files.slice(0, 40);
    expect(await codeCacheAsks(short, short.length)).toEqual([1, 20]);
  });

  it("reads files of ~1 KB ahead up to its window's characters (hundreds of files), and is woken once a quarter of them are taken", async () => {
    const sub = join(dir, "kilobyte");
    mkdirSync(sub);
    const text = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k${String(i).padStart(4, "0")}\ndata:\n  a: "${"x".repeat(960)}"\n`;
    const length = text(0).length;
    const count = Math.ceil(READ_AHEAD_CHARS / length) + 100;
    const many = Array.from({ length: count }, (_, i) => {
      const file = join(sub, `k${String(i).padStart(4, "0")}.yaml`);
      writeFileSync(file, text(i));
      return file;
    });
    const { worker, posts, sent } = startWorker();
    const { posted, takeEach } = postedFiles(posts);
    // the worker never looks again by itself (waitMs: an hour): a wake-up missed would leave a file unposted, and
    // this test waiting for it until vitest's timeout
    const ahead = new ReadAhead(many, read, worker, undefined, { waitMs: 3_600_000 });
    const state = new Int32Array((sent[0] as { state: SharedArrayBuffer }).state);
    // bounded by its characters, not by a count of files: the file that takes it past 512 K characters is the last
    // one read (hundreds of them: a window of 64 files stopped it long before)
    const lead = Math.ceil(READ_AHEAD_CHARS / length);
    expect(lead).toBeGreaterThan(64);
    expect(lead).toBeLessThan(READ_AHEAD_WINDOW);
    // waiting at its window (WAKE_AT set), every file before it posted
    while (Atomics.load(state, WAKE_AT) === NEVER || posted.size < lead) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(posted.size).toBe(lead);
    // woken when the files holding a quarter of those characters are taken, not at every file
    expect(Atomics.load(state, WAKE_AT)).toBe(Math.ceil(READ_AHEAD_CHARS / 4 / length));
    await takeEach(ahead, many.length);
    ahead.close();
    await worker.terminate();
  });

  it("parses the texts the main thread gives it instead of reading the files", async () => {
    // files that no longer exist: the worker can only have parsed the texts given
    const gone = join(dir, "gone");
    const paths = Array.from({ length: 3 }, (_, i) => join(gone, `g${i}.yaml`));
    const texts = paths.map((_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: given${i}\n`);
    const { worker, posts } = startWorker();
    const posted: { index: number; text?: string }[] = [];
    const allPosted = new Promise<void>((resolve, reject) => {
      posts.on("message", (m: { index: number; text?: string }) => {
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

  it("reads on, woken once a batch of its window is taken, without missing a wake-up", async () => {
    // the worker never looks again by itself (waitMs: an hour): a wake-up missed would leave the next file unposted,
    // and this test waiting for it until vitest's timeout
    const many = Array.from({ length: READ_AHEAD_WINDOW + 3 * READ_AHEAD_BATCH + 1 }, (_, i) => {
      const file = join(dir, `w${String(i).padStart(3, "0")}.yaml`);
      writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: w${i}\n`);
      return file;
    });
    const { worker, posts } = startWorker();
    const { takeEach } = postedFiles(posts);
    const ahead = new ReadAhead(many, read, worker, undefined, { waitMs: 3_600_000 });
    await takeEach(ahead, many.length);
    expect(ahead.fromWorker).toBe(many.length);
    ahead.close();
    await worker.terminate();
  });

  it("scans the files with the main thread, and parses the texts it scanned without reading them again", async () => {
    const crd =
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ws.example.com}\nspec:\n  group: example.com\n  names: {kind: W, plural: ws}\n  scope: Namespaced\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n";
    const sub = join(dir, "scan");
    mkdirSync(sub);
    // a window of files, then the files this test changes once the worker has scanned them (it reads no file past
    // its window before the main thread takes one): the CRD file among them
    const count = READ_AHEAD_WINDOW + 6;
    const crdAt = READ_AHEAD_WINDOW + 2;
    const texts = Array.from({ length: count }, (_, i) => (i === crdAt ? crd : `apiVersion: v${i}\nkind: K${i}\nmetadata:\n  name: s${i}\n`));
    const paths = texts.map((t, i) => {
      const file = join(sub, `s${String(i).padStart(2, "0")}.yaml`);
      writeFileSync(file, t);
      return file;
    });
    const { worker, posts } = startWorker();
    // the worker scans every file when the main thread claims none before the worker's scan has ended
    const scanned: [number, unknown][] = [];
    const posted = new Set<number>();
    let waiting: { index: number; resolve: () => void } | undefined;
    const scanEnded = new Promise<number>((resolve, reject) => {
      posts.on("message", (m: { scanned?: [number, unknown][]; end?: number; index?: number }) => {
        if (m.scanned) scanned.push(...m.scanned);
        if (m.end !== undefined) resolve(m.end);
        if (m.index !== undefined) posted.add(m.index);
        if (m.index !== undefined && waiting?.index === m.index) waiting.resolve();
      });
      worker.once("error", reject);
    });
    const until = async (i: number) => {
      if (!posted.has(i)) await new Promise<void>((resolve) => (waiting = { index: i, resolve }));
    };
    const ahead = new ReadAhead(paths, { cwd: sub }, worker, undefined, { scan: { maxFileBytes: 1 << 20, keepChars: 1 << 20 } });
    expect(await scanEnded).toBe(count);
    expect(scanned).toEqual(texts.map((t, i) => [i, textFacts(t)]));
    const options = { maxFileBytes: 1 << 20, text: () => undefined, show: (f: string) => f.slice(sub.length + 1) };
    const partner = ahead.scanPartner();
    expect(partner).toBeDefined();
    const shared = await scanFilesShared(paths, options, partner as NonNullable<typeof partner>);
    const alone = scanFiles(paths, options);
    expect([...shared.kindsByFile]).toEqual([...alone.kindsByFile]);
    expect(shared.crdTypes).toEqual(alone.crdTypes);
    ahead.provide(shared.texts, shared.parsed);
    await until(READ_AHEAD_WINDOW - 1);
    // changed on disk now: what the worker hands out past its window can only come from the texts it scanned
    for (let i = READ_AHEAD_WINDOW; i < count; i++) writeFileSync(paths[i] as string, "changed: [\n");
    for (const [i, t] of texts.entries()) {
      // the CRD file's documents are the ones the scan made (parsed once, given by provide()); the others the worker's
      if (i !== crdAt) await until(i);
      const docs = await ahead.next();
      expect(docs.unreadable, `file ${i}`).toEqual([]);
      expect(docs.resources.length, `file ${i}`).toBe(1);
      expect(ahead.lastText).toBe(t);
      expect(ahead.lastFromWorker, `file ${i}`).toBe(i !== crdAt);
    }
    ahead.close();
    await worker.terminate();
  });

  it("is given the files' names a few at a time, never the whole list, and reads every file", async () => {
    // what the main thread posts it: the work (its first names) and then the next names as the files are taken
    const { worker, posts, sent } = startWorker();
    const windowPosted = new Promise<void>((resolve, reject) => {
      let n = 0;
      posts.on("message", () => {
        if (++n === READ_AHEAD_WINDOW) resolve();
      });
      worker.once("error", reject);
    });
    // chunks of 2 names: the worker, a window ahead, is given 4 names first (2 chunks), then 2 at a time
    const ahead = new ReadAhead(files, read, worker, undefined, { namesChunk: 2 });
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

  it("scans only files whose names it has: the main thread posts the next ones as it nears their end, up to its own claims", async () => {
    const sub = join(dir, "scan-names");
    mkdirSync(sub);
    const count = 12;
    const texts = Array.from({ length: count }, (_, i) => `apiVersion: v${i}\nkind: K${i}\nmetadata:\n  name: n${i}\n`);
    const paths = texts.map((t, i) => {
      const file = join(sub, `n${String(i).padStart(2, "0")}.yaml`);
      writeFileSync(file, t);
      return file;
    });
    const { worker, posts, sent } = startWorker();
    const scanned: [number, unknown][] = [];
    const scanEnded = new Promise<number>((resolve, reject) => {
      posts.on("message", (m: { scanned?: [number, unknown][]; end?: number }) => {
        if (m.scanned) scanned.push(...m.scanned);
        if (m.end !== undefined) resolve(m.end);
      });
      worker.once("error", reject);
    });
    // chunks of 2 names: the worker is given the first 4, then 2 at a time
    const ahead = new ReadAhead(paths, { cwd: sub }, worker, undefined, { scan: { maxFileBytes: 1 << 20, keepChars: 1 << 20 }, namesChunk: 2 });
    const work = sent[0] as { files: string[]; scan: { claims: SharedArrayBuffer } };
    expect(work.files).toEqual(paths.slice(0, 4));
    const claims = new Int32Array(work.scan.claims);
    const scanNames = () => sent.filter((m): m is { from: number; names: string[]; scan?: true } => typeof m === "object" && m !== null && "names" in m && "scan" in m);
    // no race decides the meeting point: before each file the main thread claims, the worker has scanned every file it
    // has a name for (it then waits for the next names, which claimScan posts)
    const partner = ahead.scanPartner() as NonNullable<ReturnType<typeof ahead.scanPartner>>;
    const paced = {
      claimScan(i: number) {
        const named = Math.min(i + 1, Math.max(4, ...scanNames().map((m) => m.from + m.names.length)));
        while (Atomics.load(claims, named - 1) === UNCLAIMED) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        return partner.claimScan(i);
      },
      scanned: () => partner.scanned(),
    };
    const options = { maxFileBytes: 1 << 20, text: () => undefined, show: (f: string) => f.slice(sub.length + 1) };
    const shared = await scanFilesShared(paths, options, paced);
    // main claimed 11, 10, 9 (posting 4-5, 6-7, then 8 alone: 9 is its own), and met the worker at 8
    expect(await scanEnded).toBe(9);
    expect(scanned).toEqual(texts.slice(0, 9).map((t, i) => [i, textFacts(t)]));
    expect(scanNames().map((m) => [m.from, m.names])).toEqual([
      [4, paths.slice(4, 6)],
      [6, paths.slice(6, 8)],
      [8, paths.slice(8, 9)],
    ]);
    expect([...shared.kindsByFile]).toEqual([...scanFiles(paths, options).kindsByFile]);
    // the texts of the files this thread scanned are kept, and given to the worker as the stream comes near them
    expect([...shared.texts.keys()]).toEqual(paths.slice(9));
    ahead.provide(shared.texts, shared.parsed);
    // its reads then start again from the first file, with the names given for them
    for (const [i, t] of texts.entries()) {
      const docs = await ahead.next();
      expect(docs.resources.map((r) => r.name), `file ${i}`).toEqual([`n${i}`]);
      expect(ahead.lastText).toBe(t);
    }
    ahead.close();
    await worker.terminate();
  });

  it("stops at the window's characters before its count of files: files of many objects are read one or two ahead", async () => {
    const sub = join(dir, "chars");
    mkdirSync(sub);
    // ~2,000 characters a file, a window of 3,000: two files read, then it waits for the main thread to take one
    const big = Array.from({ length: 6 }, (_, i) => {
      const file = join(sub, `b${i}.yaml`);
      writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b${i}\ndata:\n  a: "${"x".repeat(2000)}"\n`);
      return file;
    });
    const { worker, posts, sent } = startWorker();
    const posted: number[] = [];
    posts.on("message", (m: { index: number }) => posted.push(m.index));
    const ahead = new ReadAhead(big, { cwd: sub }, worker, undefined, { windowChars: 3000 });
    const state = new Int32Array((sent[0] as { state: SharedArrayBuffer }).state);
    // the worker asks to be woken when the first file is taken (its count of files alone would not stop it here);
    // waiting there, it cannot have posted a third file
    while (Atomics.load(state, WAKE_AT) !== 1 || posted.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(posted).toEqual([0, 1]);
    for (const [i, f] of big.entries()) expect(await ahead.next(), `file ${i}`).toEqual(loadDocuments([f], { cwd: sub }));
    ahead.close();
    await worker.terminate();
  });
});

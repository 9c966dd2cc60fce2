// Progress lines on a (fake) terminal: the first schema download and bootstrap's discovery; nothing when stderr is not a terminal.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetchPinned } from "@eks-gitops/validate";
import { describe, expect, it } from "vitest";
import { discoveryProgress, progressLine, schemaDownloadProgress } from "./progress.ts";

const CLEAR = "\r\x1b[2K";
/** A terminal that records what is written to it. */
const fakeTerminal = (isTTY = true) => {
  const writes: string[] = [];
  return { writes, isTTY, write: (s: string) => writes.push(s) };
};

describe("progressLine", () => {
  it("exists only on a terminal, unless told otherwise", () => {
    expect(progressLine(fakeTerminal(false))).toBeUndefined();
    expect(progressLine(fakeTerminal(true), false)).toBeUndefined();
    expect(progressLine(fakeTerminal(false), true)).toBeDefined();
  });

  it("redraws one line in place, skips unchanged text, and clears it at the end", () => {
    const t = fakeTerminal();
    const line = progressLine(t)!;
    line.show("a");
    line.show("a");
    line.show("b");
    line.end("finished");
    expect(t.writes).toEqual([`${CLEAR}a`, `${CLEAR}b`, CLEAR, "finished\n"]);
  });
});

describe("schemaDownloadProgress with fetchPinned (HTTP server on 127.0.0.1, empty cache)", () => {
  // 3 MB the server sends in 1 MB writes, pinned by their SHA-256 like a catalog file
  const body = Buffer.alloc(3_000_000, "k");
  const file = { path: "org/repo/0123/big-crd.yaml", sha256: createHash("sha256").update(body).digest("hex"), format: "crd" } as const;

  async function withServer<T>(fn: (url: string) => Promise<T>): Promise<T> {
    const server = createServer((_, res) => {
      res.writeHead(200, { "content-length": String(body.length) });
      for (let i = 0; i < body.length; i += 1_000_000) res.write(body.subarray(i, i + 1_000_000));
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }

  it("shows files and megabytes as they arrive, then what was downloaded", async () => {
    const t = fakeTerminal();
    const progress = schemaDownloadProgress(progressLine(t));
    const cacheDir = mkdtempSync(join(tmpdir(), "progress-cache-"));
    await withServer((mirror) => fetchPinned(file, { mirror, cacheDir, onProgress: progress.onProgress }));
    progress.finish();
    expect(readdirSync(cacheDir)).toEqual([file.sha256]);
    expect(t.writes[0]).toBe(`${CLEAR}downloading pinned schemas: 0 of 1 files, 0.0 of 3.0 MB`);
    expect(t.writes.at(-3)).toBe(`${CLEAR}downloading pinned schemas: 1 of 1 files, 3.0 of 3.0 MB`);
    expect(t.writes.slice(-2)).toEqual([CLEAR, "downloaded 1 pinned schema files (3.0 MB) into the cache; later runs read them from there\n"]);
    // the megabytes only grow, one redraw per change
    const received = t.writes.slice(0, -2).map((w) => Number(/, ([\d.]+) of/.exec(w)?.[1]));
    expect(received).toEqual([...received].sort((a, b) => a - b));
    expect(new Set(t.writes).size).toBe(t.writes.length);

    // the second run reads the cache: no download, no progress
    const again = fakeTerminal();
    const quiet = schemaDownloadProgress(progressLine(again));
    await fetchPinned(file, { mirror: "http://127.0.0.1:9", cacheDir, onProgress: quiet.onProgress });
    quiet.finish();
    expect(again.writes).toEqual([]);
  });

  it("writes nothing when stderr is not a terminal", async () => {
    const t = fakeTerminal(false);
    const progress = schemaDownloadProgress(progressLine(t));
    expect(progress.onProgress).toBeUndefined();
    await withServer((mirror) => fetchPinned(file, { mirror, cacheDir: mkdtempSync(join(tmpdir(), "progress-cache-")), onProgress: progress.onProgress }));
    progress.finish();
    expect(t.writes).toEqual([]);
  });
});

describe("discoveryProgress", () => {
  it("names each read as it finishes and is gone once the last one is", () => {
    const t = fakeTerminal();
    const progress = discoveryProgress(progressLine(t));
    progress.onProgress?.({ step: "caller identity", done: 1, total: 3 });
    progress.onProgress?.({ step: "cluster", done: 2, total: 3 });
    progress.onProgress?.({ step: "IAM roles", done: 3, total: 3 });
    progress.finish();
    expect(t.writes).toEqual([
      `${CLEAR}discovering what exists in AWS: 1 of 3 reads done (caller identity)`,
      `${CLEAR}discovering what exists in AWS: 2 of 3 reads done (cluster)`,
      CLEAR,
    ]);
  });

  it("clears the line when discovery stops part way (a refusal)", () => {
    const t = fakeTerminal();
    const progress = discoveryProgress(progressLine(t));
    progress.onProgress?.({ step: "caller identity", done: 1, total: 11 });
    progress.finish();
    expect(t.writes).toEqual([`${CLEAR}discovering what exists in AWS: 1 of 11 reads done (caller identity)`, CLEAR]);
  });
});

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareTrees, readTree, recoverRendered, replaceTree } from "./tree.ts";

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "tree-test-"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("replaceTree", () => {
  it("replaces the folder exactly and leaves no temporary folders", () => {
    const dir = join(base, "rendered");
    mkdirSync(join(dir, "old"), { recursive: true });
    writeFileSync(join(dir, "old/gone.yaml"), "x");
    replaceTree(dir, new Map([["a/b.yaml", "b"], ["c.json", "{}"]]));
    expect([...readTree(dir)]).toEqual([["a/b.yaml", "b"], ["c.json", "{}"]]);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });

  it("leaves the previous output untouched when writing fails half-way", () => {
    const dir = join(base, "rendered");
    mkdirSync(dir);
    writeFileSync(join(dir, "keep.yaml"), "previous");
    // "a" as a file and then as a folder: the second write fails after the first succeeded.
    expect(() => replaceTree(dir, new Map([["a", "file"], ["a/b.yaml", "nested"]]))).toThrow();
    expect([...readTree(dir)]).toEqual([["keep.yaml", "previous"]]);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });
});

describe("compareTrees", () => {
  it("reports changed, added and removed paths", () => {
    const current = new Map([["same", "1"], ["changed", "old"], ["removed", "x"]]);
    const wanted = new Map([["same", "1"], ["changed", "new"], ["added", "y"]]);
    expect(compareTrees(current, wanted)).toEqual({ changed: ["changed"], added: ["added"], removed: ["removed"] });
  });
});

/** The id of a process that has exited (its leftovers are a dead writer's). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid;
}

describe("replaceTree after an interrupted swap (a synth killed part-way)", () => {
  const previous = new Map([["a/b.yaml", "previous"]]);
  const next = new Map([["a/b.yaml", "next"], ["c.json", "{}"]]);
  const writeTree = (dir: string, tree: Map<string, string>) => {
    for (const [p, c] of tree) {
      mkdirSync(join(dir, p, ".."), { recursive: true });
      writeFileSync(join(dir, p), c);
    }
  };

  it("removes a half-written rendered.tmp-PID of a dead process and keeps rendered/ as it was", () => {
    const dir = join(base, "rendered");
    writeTree(dir, previous);
    const pid = deadPid();
    writeTree(`${dir}.tmp-${pid}`, new Map([["a/b.yaml", "half"]]));
    expect(recoverRendered(dir)).toEqual([`removed rendered.tmp-${pid}, left by an interrupted synth (process ${pid})`]);
    expect([...readTree(dir)]).toEqual([...previous]);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });

  it("finishes a swap killed between the two renames: rendered.tmp-PID (complete) becomes rendered/", () => {
    const dir = join(base, "rendered");
    const pid = deadPid();
    writeTree(`${dir}.old-${pid}`, previous);
    writeTree(`${dir}.tmp-${pid}`, next);
    expect(recoverRendered(dir)).toEqual([
      `finished the swap of an interrupted synth (process ${pid}): rendered.tmp-${pid} is now rendered`,
      `removed rendered.old-${pid}, left by an interrupted synth (process ${pid})`,
    ]);
    expect([...readTree(dir)]).toEqual([...next]);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });

  it("restores rendered.old-PID when rendered/ is missing and there is nothing newer", () => {
    const dir = join(base, "rendered");
    const pid = deadPid();
    writeTree(`${dir}.old-${pid}`, previous);
    expect(recoverRendered(dir)).toEqual([`restored rendered from rendered.old-${pid}, left by an interrupted synth (process ${pid})`]);
    expect([...readTree(dir)]).toEqual([...previous]);
  });

  it("removes rendered.old-PID left after the swap, and replaceTree recovers before it writes", () => {
    const dir = join(base, "rendered");
    writeTree(dir, next);
    const pid = deadPid();
    writeTree(`${dir}.old-${pid}`, previous);
    writeTree(`${dir}.tmp-${pid + 1}`, previous);
    replaceTree(dir, previous);
    expect([...readTree(dir)]).toEqual([...previous]);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });

  it("takes over the lock of a dead process, and removes it when done", () => {
    const dir = join(base, "rendered");
    writeFileSync(`${dir}.lock`, `${deadPid()}\n`);
    replaceTree(dir, next);
    expect([...readTree(dir)]).toEqual([...next]);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });

  it("removes the lock's private files of a process killed while it took the lock", () => {
    const dir = join(base, "rendered");
    writeTree(dir, previous);
    const pid = deadPid();
    writeFileSync(`${dir}.lock.${pid}`, `${pid}\n`);
    writeFileSync(`${dir}.lock.stale-${pid}`, "1\n");
    recoverRendered(dir);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });

  it("refuses to write while a live process holds the lock, naming it and the lock file", () => {
    const dir = join(base, "rendered");
    writeTree(dir, previous);
    writeFileSync(`${dir}.lock`, `${process.ppid}\n`);
    expect(() => replaceTree(dir, next)).toThrow(
      `${dir}.lock: another eks-gitops (process ${process.ppid}) is writing ${dir}; wait for it to finish; if process ${process.ppid} is not an eks-gitops command, delete ${dir}.lock`,
    );
    expect(() => recoverRendered(dir)).toThrow(`another eks-gitops (process ${process.ppid})`);
    expect([...readTree(dir)]).toEqual([...previous]);
  });
});

import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasLeftovers } from "./swap.ts";
import { compareTrees, readTree, recoverRendered, removePrevious, replaceTree } from "./tree.ts";

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

describe("replaceTree of a folder that has output already", () => {
  const inode = (p: string) => statSync(p).ino;

  it.skipIf(process.platform === "win32")("keeps each unchanged file as a link to the previous one (no new file made) and writes the changed ones", () => {
    const dir = join(base, "rendered");
    replaceTree(dir, new Map([["a/same.yaml", "same\n"], ["a/changed.yaml", "old\n"], ["b/longer.json", "{}\n"]]));
    const before = { same: inode(join(dir, "a/same.yaml")), changed: inode(join(dir, "a/changed.yaml")), longer: inode(join(dir, "b/longer.json")) };
    replaceTree(dir, new Map([["a/same.yaml", "same\n"], ["a/changed.yaml", "new\n"], ["b/longer.json", '{ "a": 1 }\n']]));
    expect([...readTree(dir)]).toEqual([["a/changed.yaml", "new\n"], ["a/same.yaml", "same\n"], ["b/longer.json", '{ "a": 1 }\n']]);
    expect(inode(join(dir, "a/same.yaml"))).toBe(before.same);
    expect(inode(join(dir, "a/changed.yaml"))).not.toBe(before.changed);
    expect(inode(join(dir, "b/longer.json"))).not.toBe(before.longer);
    // the previous tree is gone: the kept file has one link again
    expect(statSync(join(dir, "a/same.yaml")).nlink).toBe(1);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });

  it.skipIf(process.platform === "win32")("writes an unchanged file anew when the previous one differs in permissions or has another link", () => {
    const dir = join(base, "rendered");
    replaceTree(dir, new Map([["read-only.yaml", "x\n"], ["linked.yaml", "y\n"], ["plain.yaml", "z\n"]]));
    const fresh = statSync(join(dir, "plain.yaml")).mode;
    chmodSync(join(dir, "read-only.yaml"), 0o444);
    const elsewhere = join(base, "elsewhere.yaml");
    linkSync(join(dir, "linked.yaml"), elsewhere);
    const before = { readOnly: inode(join(dir, "read-only.yaml")), linked: inode(join(dir, "linked.yaml")) };
    replaceTree(dir, new Map([["read-only.yaml", "x\n"], ["linked.yaml", "y\n"], ["plain.yaml", "z\n"]]));
    expect(inode(join(dir, "read-only.yaml"))).not.toBe(before.readOnly);
    expect(statSync(join(dir, "read-only.yaml")).mode).toBe(fresh);
    expect(inode(join(dir, "linked.yaml"))).not.toBe(before.linked);
    expect(inode(elsewhere)).toBe(before.linked);
  });

  it("with keepPrevious, leaves the previous output for removePrevious (the caller holds the lock)", () => {
    const dir = join(base, "rendered");
    replaceTree(dir, new Map([["a.yaml", "previous\n"]]));
    expect(() => replaceTree(dir, new Map([["a.yaml", "next\n"]]), { keepPrevious: true })).toThrow("keepPrevious needs the caller to hold the lock");
    const old = replaceTree(dir, new Map([["a.yaml", "next\n"]]), { locked: true, keepPrevious: true });
    expect(old).toBe(`${dir}.old-${process.pid}`);
    expect([...readTree(dir)]).toEqual([["a.yaml", "next\n"]]);
    expect([...readTree(old!)]).toEqual([["a.yaml", "previous\n"]]);
    removePrevious(old!);
    expect(existsSync(old!)).toBe(false);
    expect(readdirSync(base)).toEqual(["rendered"]);
  });
});

describe("hasLeftovers (whether synth's recovery has anything to do)", () => {
  it("is true only for what a swap or a lock leaves beside the folder", () => {
    const dir = join(base, "rendered");
    mkdirSync(dir);
    writeFileSync(join(base, "cluster.ts"), "");
    writeFileSync(join(base, "rendered.txt"), "");
    mkdirSync(join(base, "rendered-x.tmp-12"));
    expect(hasLeftovers(dir)).toBe(false);
    for (const leftover of ["rendered.lock", "rendered.lock.42", "rendered.lock.stale-42", "rendered.tmp-12", "rendered.old-12"]) {
      writeFileSync(join(base, leftover), "");
      expect({ leftover, found: hasLeftovers(dir) }).toEqual({ leftover, found: true });
      rmSync(join(base, leftover));
    }
    rmSync(dir, { recursive: true });
    expect(hasLeftovers(dir)).toBe(false);
    expect(hasLeftovers(join(base, "missing/rendered"))).toBe(true);
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

// Caches of compiled artefacts are pruned of files unused for a month, at most once a day (cache-prune.ts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CacheNames, markUsed, PRUNE_STAMP, pruneUnused, UNUSED_DAYS } from "./cache-prune.ts";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 11, 5, 12);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), "cache-prune-"));
  dirs.push(d);
  return d;
}

/** A file `name` in `dir` last modified `daysAgo` days before NOW. */
function file(dir: string, name: string, daysAgo: number, bytes = 10): string {
  const path = join(dir, name);
  writeFileSync(path, "x".repeat(bytes));
  const at = new Date(NOW - daysAgo * DAY);
  utimesSync(path, at, at);
  return path;
}

const sha = (c: string) => c.repeat(64);
/** Names as the validator cache writes them (packages/validate, schema/compile.ts). */
const NAMES: CacheNames = { kept: /^[0-9a-f]{64}\.(?:cjs|[A-Za-z0-9._-]+\.v8)$/, temporary: /^[0-9a-f]{64}\.[A-Za-z0-9._-]+\.\d+\.tmp$/ };
const mtime = (path: string) => statSync(path).mtimeMs;

describe("markUsed", () => {
  it("moves a file's mark to now when it is over a day old, and leaves a fresher one alone", () => {
    const dir = folder();
    const old = file(dir, `${sha("a")}.cjs`, 40);
    const fresh = file(dir, `${sha("b")}.cjs`, 0.5);
    markUsed(old, NOW);
    markUsed(fresh, NOW);
    expect(mtime(old)).toBe(NOW);
    expect(mtime(fresh)).toBe(NOW - 0.5 * DAY);
  });

  it("says whether the file is there", () => {
    const dir = folder();
    expect(markUsed(file(dir, `${sha("a")}.cjs`, 40), NOW)).toBe(true);
    expect(markUsed(join(dir, "gone.cjs"), NOW)).toBe(false);
  });
});

describe("pruneUnused", () => {
  it("only stamps a folder never pruned: the next day's runs mark what they use first", () => {
    const dir = folder();
    const old = file(dir, `${sha("a")}.cjs`, 400);
    expect(pruneUnused(dir, NAMES, NOW)).toBeUndefined();
    expect(existsSync(old)).toBe(true);
    expect(mtime(join(dir, PRUNE_STAMP))).toBe(NOW);
  });

  it("removes the validators and code caches unused for a month and old temporary files, nothing else", () => {
    const dir = folder();
    file(dir, PRUNE_STAMP, 2);
    const unusedCode = file(dir, `${sha("a")}.cjs`, UNUSED_DAYS + 1, 100);
    const unusedCache = file(dir, `${sha("a")}.node-11.3.244.8_node.38-x64.v8`, UNUSED_DAYS + 1, 50);
    const used = file(dir, `${sha("b")}.cjs`, UNUSED_DAYS - 1);
    const oldTemporary = file(dir, `${sha("c")}.cjs.4242.tmp`, 2, 7);
    const newTemporary = file(dir, `${sha("d")}.cjs.4243.tmp`, 0.1);
    const foreign = file(dir, "notes.txt", 400);
    const foreignLike = file(dir, "abc.cjs", 400);
    expect(pruneUnused(dir, NAMES, NOW)).toEqual({ files: 3, bytes: 157 });
    for (const gone of [unusedCode, unusedCache, oldTemporary]) expect(existsSync(gone), gone).toBe(false);
    for (const kept of [used, newTemporary, foreign, foreignLike]) expect(existsSync(kept), kept).toBe(true);
    expect(mtime(join(dir, PRUNE_STAMP))).toBe(NOW);
  });

  it("prunes at most once a day", () => {
    const dir = folder();
    file(dir, PRUNE_STAMP, 0.9);
    const unused = file(dir, `${sha("a")}.cjs`, 400);
    expect(pruneUnused(dir, NAMES, NOW)).toBeUndefined();
    expect(existsSync(unused)).toBe(true);
    expect(pruneUnused(dir, NAMES, NOW + 0.2 * DAY)).toEqual({ files: 1, bytes: 10 });
    expect(readdirSync(dir)).toEqual([PRUNE_STAMP]);
  });

  it("prunes when the stamp is from the future (a clock set back), and stamps now", () => {
    const dir = folder();
    file(dir, PRUNE_STAMP, -5);
    const unused = file(dir, `${sha("a")}.cjs`, 400);
    expect(pruneUnused(dir, NAMES, NOW)).toEqual({ files: 1, bytes: 10 });
    expect(existsSync(unused)).toBe(false);
    expect(mtime(join(dir, PRUNE_STAMP))).toBe(NOW);
  });

  it("follows no link: a stamp that is a link stops pruning, a link named as the cache's files is kept, and so is its target", () => {
    const dir = folder();
    const elsewhere = folder();
    const target = file(elsewhere, "precious.txt", 400, 5);
    symlinkSync(target, join(dir, PRUNE_STAMP));
    const unused = file(dir, `${sha("a")}.cjs`, 400);
    expect(pruneUnused(dir, NAMES, NOW)).toBeUndefined();
    expect(existsSync(unused)).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("xxxxx");
    expect(mtime(target)).toBe(NOW - 400 * DAY);

    const other = folder();
    file(other, PRUNE_STAMP, 2);
    symlinkSync(target, join(other, `${sha("b")}.cjs`));
    expect(pruneUnused(other, NAMES, NOW)).toEqual({ files: 0, bytes: 0 });
    expect(existsSync(join(other, `${sha("b")}.cjs`))).toBe(true);
    expect(existsSync(target)).toBe(true);
  });

  it("does nothing for a folder that does not exist", () => {
    expect(pruneUnused(join(folder(), "missing", "validators"), NAMES, NOW)).toBeUndefined();
  });
});

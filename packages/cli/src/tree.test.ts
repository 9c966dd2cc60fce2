import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareTrees, readTree, replaceTree } from "./tree.ts";

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

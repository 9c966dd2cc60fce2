// The fast scanner must agree with `yaml` wherever it answers: every pointer (and missing children) of every
// document of the bench corpus, the fixtures and the rendered overlays.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildCorpus, corpusFiles } from "./bench/corpus.ts";
import { shapeFiles } from "./bench/world.ts";
import { fastOffset } from "./positions-fast.ts";
import { compareWithYaml } from "./testing/scanner-agreement.ts";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));
const REPO = fileURLToPath(new URL("../../../", import.meta.url));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === "node_modules" ? [] : yamlFiles(join(dir, e.name))) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}


describe("fastOffset", () => {
  it("agrees with yaml on every pointer of the bench corpus, and answers nearly all of them", () => {
    let answered = 0;
    let total = 0;
    for (const [name, text] of corpusFiles(buildCorpus(600), 100)) {
      const r = compareWithYaml(text, fastOffset, "fast");
      expect(r.mismatches, name).toEqual([]);
      answered += r.answered;
      total += r.total;
    }
    // the rest use anchors and aliases (yaml.stringify shares repeated objects), which are left to yaml
    expect(answered / total).toBeGreaterThan(0.9);
  }, 180_000);

  it("agrees with yaml on every pointer of the fixtures and the rendered overlays", () => {
    const files = [...yamlFiles(join(PACKAGE, "fixtures")), ...yamlFiles(join(REPO, "clusters"))];
    expect(files.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const file of files) for (const m of compareWithYaml(readFileSync(file, "utf8"), fastOffset, "fast").mismatches) problems.push(`${file}: ${m}`);
    expect(problems).toEqual([]);
  }, 180_000);

  // a List's sequence of items and the extent of its `items` value are kept per document (large nodes only): every
  // pointer of Lists of 50-500 items, asked in document order as the findings of its items are, must still agree
  it("agrees with yaml on every pointer of large `kind: List` documents", () => {
    let answered = 0;
    let files = 0;
    for (const [name, text] of shapeFiles("list", 600, 7)) {
      files++;
      const r = compareWithYaml(text, fastOffset, "fast");
      expect(r.mismatches, name).toEqual([]);
      answered += r.answered;
    }
    expect(files).toBeGreaterThan(1);
    expect(answered).toBeGreaterThan(10_000);
  }, 180_000);

  it("answers an item of a large sequence alike in any order of questions (the kept items and extents)", () => {
    const items = Array.from({ length: 120 }, (_, i) => `  - name: item-${i}\n    spec:\n      size: ${i}\n`).join("");
    const text = `kind: List\nitems:\n${items}tail: 1\n`;
    const asked = [119, 0, 57, 120, 3, 119].map((i) => `/items/${i}/spec/size`);
    const fresh = asked.map((p) => fastOffset(`${text}`.slice(0), 0, text.length, p));
    // the same questions again (now from the kept items), and on a copy of the text (nothing kept)
    expect(asked.map((p) => fastOffset(text, 0, text.length, p))).toEqual(fresh);
    expect(asked.reverse().map((p) => fastOffset(` ${text}`.slice(1), 0, text.length, p))).toEqual([...fresh].reverse());
    expect(fresh[1]).toBe(text.indexOf("size: 0"));
    expect(fresh[3]).toBe(text.indexOf("items:"));
    expect(fastOffset(text, 0, text.length, "/tail")).toBe(text.indexOf("tail:"));
  });

  it("hands a flow collection on the path to the flow scanner", () => {
    expect(fastOffset("a: {b: 1}\n", 0, 10, "/a/b")).toBe(4);
    expect(fastOffset("a:\n- {b: [x, y]}\n", 0, 18, "/a/0/b/1")).toBe(13);
  });

  it("leaves what it is not sure of to yaml", () => {
    expect(fastOffset("a: {b: &x 1}\n", 0, 13, "/a/b/c")).toBeUndefined();
    expect(fastOffset("\"a\": 1\n", 0, 7, "/a")).toBeUndefined();
    expect(fastOffset("a: &x\n  b: 1\n", 0, 13, "/a/b")).toBeUndefined();
  });
});

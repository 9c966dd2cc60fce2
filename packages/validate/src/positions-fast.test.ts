// The fast scanner must agree with `yaml` wherever it answers: every pointer (and missing children) of every
// document of the bench corpus, the fixtures and the rendered overlays.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildCorpus, corpusFiles } from "./bench/corpus.ts";
import { pointerSegment } from "./pointer.ts";
import { fastOffset } from "./positions-fast.ts";
import { documentSpans, yamlOffset } from "./positions.ts";
import { yamlLib } from "./yaml-lib.ts";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));
const REPO = fileURLToPath(new URL("../../../", import.meta.url));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === "node_modules" ? [] : yamlFiles(join(dir, e.name))) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every pointer of a value, plus a missing key below each map and a missing index below each list. */
function pointers(value: unknown, at = ""): string[] {
  const out = [at];
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push(...pointers(v, `${at}/${i}`));
    });
    out.push(`${at}/${value.length}`);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...pointers(v, `${at}/${pointerSegment(k)}`));
    out.push(`${at}/no-such-key`);
  }
  return out;
}

function compare(text: string): { answered: number; total: number; mismatches: string[] } {
  const lib = yamlLib();
  let answered = 0;
  let total = 0;
  const mismatches: string[] = [];
  for (const span of documentSpans(text)) {
    const doc = lib.parseDocument(text.slice(span.start, span.end), { prettyErrors: false, uniqueKeys: false });
    if (doc.errors.length > 0) continue;
    for (const p of pointers(doc.toJS({ maxAliasCount: 100 }))) {
      total++;
      const fast = fastOffset(text, span.start, span.end, p);
      if (fast === undefined) continue;
      answered++;
      const slow = yamlOffset(doc, p);
      if (slow === undefined || fast !== span.start + slow) mismatches.push(`${p}: fast ${fast}, yaml ${slow === undefined ? "none" : span.start + slow}`);
    }
  }
  return { answered, total, mismatches };
}

describe("fastOffset", () => {
  it("agrees with yaml on every pointer of the bench corpus, and answers nearly all of them", () => {
    let answered = 0;
    let total = 0;
    for (const [name, text] of corpusFiles(buildCorpus(600), 100)) {
      const r = compare(text);
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
    for (const file of files) for (const m of compare(readFileSync(file, "utf8")).mismatches) problems.push(`${file}: ${m}`);
    expect(problems).toEqual([]);
  }, 180_000);

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

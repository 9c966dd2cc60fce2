// The mutation corpus is deterministic per seed, large enough, spread over every category and kind, and really mutated.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadRenderedObjects } from "../rendered.ts";
import { extraBases } from "./bases.ts";
import { MUTATED_KINDS } from "./catalog.ts";
import { CATEGORIES, generateMutations } from "./generate.ts";

const bases = [...loadRenderedObjects().map((r) => ({ file: r.file, object: r.object })), ...extraBases()];
const digest = (seed: number) =>
  createHash("sha256").update(JSON.stringify(generateMutations(bases, { seed, count: 300 }))).digest("hex");

describe("generateMutations", { timeout: 60_000 }, () => {
  const corpus = generateMutations(bases, { seed: 20260901, count: 2400 });

  it("is the same corpus for the same seed and a different one for another seed", () => {
    expect(digest(7)).toBe(digest(7));
    expect(digest(7)).not.toBe(digest(8));
  });

  it("makes 2,400 distinct mutations with unique ids", () => {
    expect(corpus).toHaveLength(2400);
    expect(new Set(corpus.map((m) => m.id)).size).toBe(2400);
    expect(new Set(corpus.map((m) => `${m.baseFile}\n${JSON.stringify(m.object)}`)).size).toBe(2400);
  });

  it("covers every category with at least 400 mutations, and every mutated kind", () => {
    for (const category of CATEGORIES) {
      expect(corpus.filter((m) => m.category === category).length, category).toBeGreaterThanOrEqual(400);
    }
    expect(new Set(corpus.map((m) => m.object.kind))).toEqual(new Set(MUTATED_KINDS));
  });

  it("changes every object, and never its identity", () => {
    const byFile = new Map(bases.map((b) => [b.file, b.object]));
    for (const m of corpus) {
      const base = byFile.get(m.baseFile);
      expect(JSON.stringify(m.object), m.id).not.toBe(JSON.stringify(base));
      expect([m.object.apiVersion, m.object.kind, m.object.metadata?.name, m.object.metadata?.namespace]).toEqual([
        base?.apiVersion,
        base?.kind,
        base?.metadata?.name,
        base?.metadata?.namespace,
      ]);
    }
  });

  it("describes each edit by its JSON Pointer", () => {
    const outOfRange = corpus.find((m) => m.category === "out-of-range" && m.path === "/spec/maxReplicas");
    expect(outOfRange?.description).toMatch(/^set \/spec\/maxReplicas to -?[\d.e+]+$/);
    const unknown = corpus.find((m) => m.category === "unknown-field");
    expect(unknown?.description).toBe(`add unknown field ${unknown?.path}`);
  });

  it("refuses input with nothing to mutate", () => {
    expect(() => generateMutations([], { seed: 1 })).toThrow(
      `no object of kind ${MUTATED_KINDS.join(", ")} to mutate`,
    );
  });
});

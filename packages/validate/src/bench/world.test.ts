// The bench's shapes corpus: deterministic, of the promised mix, and every shape holds the same objects.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseText } from "../reader.ts";
import { buildWorld, describeShape, type SHAPES, shapeFiles, WORLD_KINDS } from "./world.ts";

const digest = (shape: (typeof SHAPES)[number], count: number, seed?: number) => {
  const h = createHash("sha256");
  for (const [name, text] of shapeFiles(shape, count, seed)) h.update(name).update(text);
  return h.digest("hex");
};

describe("the shapes corpus", () => {
  it("is the same bytes for the same seed, and other bytes for another", { timeout: 120_000 }, () => {
    expect(digest("block", 400)).toBe(digest("block", 400));
    expect(digest("block", 400, 7)).not.toBe(digest("block", 400));
  });

  it("mixes every kind, 10–20% invalid with several defects each, and some dangling references", { timeout: 120_000 }, () => {
    const world = buildWorld({ count: 3000 });
    expect(new Set(world.map((w) => w.object.kind))).toEqual(new Set(WORLD_KINDS));
    const invalid = world.filter((w) => w.defects.length > 0);
    expect(invalid.length / world.length).toBeGreaterThan(0.1);
    expect(invalid.length / world.length).toBeLessThan(0.2);
    expect(invalid.every((w) => w.defects.length >= 2)).toBe(true);
    expect(world.filter((w) => w.dangling).length).toBeGreaterThan(10);
  });

  it("writes the same objects in every one-object-per-file shape, and in multi-document and List files", { timeout: 120_000 }, () => {
    const read = (shape: (typeof SHAPES)[number]) =>
      [...shapeFiles(shape, 300)].flatMap(([name, text]) => parseText({ file: name, text }).resources.flatMap((r) => (r.kind === "List" ? (r.object.items as unknown[]) : [r.object])));
    const block = read("block");
    expect(block).toHaveLength(300);
    for (const shape of ["flow", "json-in-yaml", "json", "multi-doc", "list"] as const) expect(read(shape), shape).toEqual(block);
    expect(describeShape("crd-heavy", 300).objects).toBe(300);
    const crds = [...shapeFiles("crd-heavy", 300)].filter(([name]) => name.startsWith("crds/"));
    expect(crds.length).toBeGreaterThan(0);
    // each CRD's schema its own, as in a real set (one validator for all of them would flatter the figures)
    const schemas = crds.map(([, text]) => JSON.stringify(parseText({ file: "crd.yaml", text }).resources.map((r) => (r.object.spec as { versions: unknown }).versions)));
    expect(new Set(schemas).size).toBe(crds.length);
  });
});

// Spilling (spill.ts): strings written past the budget read back as they were, the file leaves nothing on disk, a
// run under its budget never touches the disk, and a run forced to spill everything (a budget of 0 rows and a
// write buffer of a few bytes, so every string is read back from the file) reports byte for byte what the
// in-memory run reports, in every format, on the fixtures, the real-world corpus and generated sets with hostile
// names.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { shapeFiles } from "./bench/world.ts";
import { formatReport, OUTPUT_FORMATS } from "./output/format.ts";
import { writeReport } from "./output/write.ts";
import { factExtra, packExtra } from "./cross-object/compact.ts";
import type { NativeAhead } from "./native-ahead.ts";
import type { ReadAhead } from "./read-ahead.ts";
import { loadDocuments } from "./reader.ts";
import { lazyRows } from "./result-store.ts";
import { type RunOptions, runValidation } from "./run.ts";
import { listArray, SparseSpillColumn, SpillColumn, SpillFile, spilledList } from "./spill.ts";
import { SchemaRegistry } from "./schema/registry.ts";
import { compileSelection } from "./selection.ts";
import { validateFiles } from "./stream.ts";
import { MIRROR, TEST_CACHE } from "./testing.ts";
import { ObjectValidator } from "./validate.ts";
import { type CrossObjectOptions, crossObjectChecks } from "./cross-object/index.ts";
import type { ParsedResource, Report } from "./types.ts";

const HOSTILE = ["", "a", "\u0000", "\u001b[31mred", "line\u2028sep\u2029", "\ud800", "x\udfffy", "\ud83d\ude00", "__proto__", "-0", "é".repeat(40)];

describe("SpillFile and SpillColumn", () => {
  it("give back every string (lone surrogates, NUL, U+2028, long ones) in order and out of order", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.oneof(fc.string({ unit: "binary", maxLength: 30 }), fc.constantFrom(...HOSTILE), fc.string({ minLength: 40, maxLength: 200 })), { nil: undefined }), { maxLength: 60 }), fc.nat(5), fc.integer({ min: 2, max: 64 }), (strings, budget, bufferBytes) => {
        let file: SpillFile | undefined;
        const column = new SpillColumn(() => (file ??= new SpillFile(bufferBytes)), budget);
        for (const s of strings) column.push(s);
        expect(column.size).toBe(strings.length);
        for (let i = 0; i < strings.length; i++) expect(column.at(i)).toBe(strings[i]);
        for (let i = strings.length - 1; i >= 0; i--) expect(column.at(i)).toBe(strings[i]);
        file?.close();
      }),
      { numRuns: 300 },
    );
  });

  it("keeps strings of some indices only (SparseSpillColumn), and a list of files (spilledList)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(200)), fc.array(fc.constantFrom(...HOSTILE), { minLength: 201, maxLength: 201 }), fc.nat(4), (indices, values, budget) => {
        let file: SpillFile | undefined;
        const sparse = new SparseSpillColumn(() => (file ??= new SpillFile(8)), budget);
        const sorted = [...indices].sort((a, b) => a - b);
        for (const i of sorted) sparse.set(i, values[i] as string);
        for (let i = 0; i <= 200; i++) expect(sparse.get(i)).toBe(sorted.includes(i) ? values[i] : undefined);
        const list = spilledList(values, { after: budget, bufferBytes: 8 });
        expect(list).not.toBe(values);
        expect(listArray(list)).toEqual(values);
        expect(spilledList(values.slice(0, budget), { after: budget })).toEqual(values.slice(0, budget));
        file?.close();
      }),
      { numRuns: 100 },
    );
  });

  it("reads strings longer than its read block and its write buffer", () => {
    const file = new SpillFile(16);
    const column = new SpillColumn(() => file, 0);
    const long = ["x".repeat(70_000), "\ud800".repeat(40_000), "short", "y".repeat(33_000)];
    for (const s of long) column.push(s);
    expect(long.map((_, i) => column.at(i))).toEqual(long);
    expect(file.onDisk).toBe(true);
    file.close();
  });

  it("writes a column's spilled strings a block at a time, one after the other, and reads them back in any order", () => {
    const file = new SpillFile(1 << 20);
    const column = new SpillColumn(() => file, 2);
    const strings = Array.from({ length: 300 }, (_, i) => (i % 7 === 3 ? undefined : i % 11 === 5 ? "" : `name-${i}-${"z".repeat(i % 13)}`));
    // kept in memory (the budget), then held until a block of 64 spilled strings is full: nothing written yet
    for (const s of strings.slice(0, 2 + 63)) column.push(s);
    expect(file.size).toBe(0);
    column.push(strings[2 + 63]);
    expect(file.size).toBeGreaterThan(0);
    for (const s of strings.slice(2 + 64)) column.push(s);
    for (let i = 0; i < strings.length; i++) expect(column.at(i)).toBe(strings[i]);
    const shuffled = strings.map((_, i) => (i * 7919) % strings.length);
    for (const i of shuffled) expect(column.at(i)).toBe(strings[i]);
    file.close();
  });

  it("leaves no file behind, and opens none until its buffer is full", () => {
    const dir = mkdtempSync(join(tmpdir(), "spill-tmp-"));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      const file = new SpillFile(64);
      file.append("in the buffer");
      expect(file.onDisk).toBe(false);
      const at = file.append("z".repeat(100));
      expect(file.onDisk).toBe(true);
      // the file's name (and its folder) are removed as soon as it is open: only the descriptor holds it
      expect(readdirSync(dir)).toEqual([]);
      expect(file.read(at, 200)).toBe("z".repeat(100));
      file.close();
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const VALIDATE = resolve(import.meta.dirname, "..");
const FIXTURES = join(VALIDATE, "fixtures");
const work = mkdtempSync(join(tmpdir(), "spill-runs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every format (and `-v` text), written row by row and formatted whole, with the summary: what the CLI prints and its exit code follow from them. */
function outputs(report: Report): string[] {
  const out = [JSON.stringify(report.summary)];
  for (const format of OUTPUT_FORMATS) {
    for (const verbose of [false, true]) {
      const written: string[] = [];
      writeReport(report, format, { verbose }, (c) => written.push(c));
      out.push(written.join(""), formatReport(report, format, { verbose }));
    }
  }
  return out;
}

async function both(root: string, paths: string[], extra: Partial<RunOptions> = {}): Promise<{ memory: string[]; spilled: string[]; onDisk: boolean }> {
  const base = { root, paths, mirror: MIRROR, cacheDir: TEST_CACHE, read: { cwd: root }, ...extra } satisfies RunOptions;
  const memory = await runValidation(base);
  expect(lazyRows(memory.report)?.onDisk ?? false, "a run under its budget never writes to the disk").toBe(false);
  const spilled = await runValidation({ ...base, spill: { after: 0, bufferBytes: 8 } });
  return { memory: outputs(memory.report), spilled: outputs(spilled.report), onDisk: lazyRows(spilled.report)?.onDisk ?? false };
}

describe("a run that spills reports what the in-memory run reports", { timeout: 600_000 }, () => {
  const folders = [
    ...readdirSync(join(FIXTURES, "cross-object")).map((f) => join(FIXTURES, "cross-object", f)),
    join(FIXTURES, "karpenter"),
    join(FIXTURES, "structural"),
    join(FIXTURES, "defaulting"),
    join(VALIDATE, "corpus", "real-world"),
  ];
  it.each(folders.map((f) => [f.slice(VALIDATE.length + 1), f]))("%s", async (_, folder) => {
    const { memory, spilled, onDisk } = await both(folder, [folder]);
    expect(onDisk).toBe(true);
    expect(spilled).toEqual(memory);
  });

  it("the native fixtures, strict and with acknowledged findings", async () => {
    const folder = join(FIXTURES, "native");
    const { memory, spilled, onDisk } = await both(folder, [folder], { strict: true, acknowledge: [{ rule: "hpa-target-missing", reason: "known" }] });
    expect(onDisk).toBe(true);
    expect(spilled).toEqual(memory);
  });

  it.each(["block", "list", "json", "crd-heavy"] as const)("generated %s corpus (HPAs and their targets, lists)", async (shape) => {
    const dir = join(work, shape);
    for (const [name, text] of shapeFiles(shape, 400, 7)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const { memory, spilled, onDisk } = await both(dir, [dir]);
    expect(onDisk).toBe(true);
    expect(spilled).toEqual(memory);
  });

  it("hands the cross-object checks the subjects past the budget lazily: no object held, the same object when read", async () => {
    const dir = join(work, "lazy");
    for (const [name, text] of shapeFiles("block", 400, 7)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const seen = (lazy: boolean[], objects: unknown[]) =>
      Object.assign((resources: readonly ParsedResource[], context: CrossObjectOptions) => {
        for (const r of resources) {
          lazy.push(Object.getOwnPropertyDescriptor(r, "object") === undefined);
          objects.push(JSON.stringify(r.object));
        }
        return crossObjectChecks(resources, context);
      }, { subjects: crossObjectChecks.subjects });
    const base = { root: dir, paths: [dir], mirror: MIRROR, cacheDir: TEST_CACHE, read: { cwd: dir } } satisfies RunOptions;
    const inMemory: [boolean[], unknown[]] = [[], []];
    const spilled: [boolean[], unknown[]] = [[], []];
    await runValidation({ ...base, crossObjectChecks: seen(inMemory[0], inMemory[1]) });
    await runValidation({ ...base, crossObjectChecks: seen(spilled[0], spilled[1]), spill: { after: 5, bufferBytes: 8 } });
    expect(inMemory[0].length).toBeGreaterThan(20);
    expect(inMemory[0].every((l) => !l)).toBe(true);
    // the first 5 facts are made objects (the budget); every one after is restored each time it is read
    expect(spilled[0].length).toBe(inMemory[0].length);
    expect(spilled[0].filter((l) => !l).length).toBeLessThanOrEqual(5);
    expect(spilled[1]).toEqual(inMemory[1]);
  });

  it("hostile names, pointers and facts (control characters, U+2028, lone surrogates, -0, __proto__)", async () => {
    const dir = join(work, "hostile");
    mkdirSync(dir, { recursive: true });
    HOSTILE.forEach((name, i) => {
      const target = `web${name}`;
      // JSON text: lone surrogates and NUL survive into names only through escapes
      writeFileSync(
        join(dir, `d${i}\u2028.json`),
        JSON.stringify({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: target, namespace: "shop" }, spec: { replicas: i % 2 === 0 ? 1 : 2, selector: { matchLabels: { a: "b" } }, template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: `c${name}`, image: "x", resources: i % 3 === 0 ? {} : { requests: { cpu: "1" } } }] } } } }),
      );
      writeFileSync(
        join(dir, `h${i}.json`),
        JSON.stringify({ apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler", metadata: { name: `h${name}`, namespace: "shop" }, spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: i % 4 === 0 ? "gone" : target }, minReplicas: 1, maxReplicas: 3 } }),
      );
      writeFileSync(join(dir, `l${i}.yaml`), `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: ${JSON.stringify(`cm${name}`)}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: "cm2"}, data: {__proto__: "x"}}\n`);
    });
    // -0 and a __proto__ key in what the cross-object checks keep of a workload: kept as objects, not JSON text
    writeFileSync(join(dir, "z-odd.yaml"), "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: odd, namespace: shop}\nspec:\n  replicas: -0\n  template:\n    spec:\n      containers: [{name: c, image: x, __proto__: {a: 1}}]\n");
    writeFileSync(join(dir, "z-odd-hpa.yaml"), "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: odd, namespace: shop}\nspec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: odd}, maxReplicas: 2}\n");
    const { memory, spilled, onDisk } = await both(dir, [dir]);
    expect(onDisk).toBe(true);
    expect(spilled).toEqual(memory);
    // the set holds what it is meant to: cross-object findings on hostile names, list items
    expect(memory[1]).toContain("hpa-target-");
    expect(memory[1]).toContain("/items/1");
  });

  it("takes the cross-object facts the read-ahead worker made (NativeAhead.fact) through the spilled column", async () => {
    const dir = join(work, "worker-facts");
    mkdirSync(dir, { recursive: true });
    const files = Array.from({ length: 6 }, (_, i) => {
      const file = join(dir, `d${i}.yaml`);
      writeFileSync(file, `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web${i}, namespace: shop}\nspec: {replicas: 1}\n`);
      return file;
    });
    // the worker's fact of each Deployment says 7 replicas (the file says 1): the checks can only see 7 through it
    const made = (r: ParsedResource) => packExtra(factExtra({ ...r, object: { ...r.object, spec: { replicas: 7 } } }) ?? {}) as string;
    const seenBy = async (spill?: { after: number; bufferBytes: number }) => {
      let taken = 0;
      const ahead = {
        lastFromWorker: false,
        lastText: undefined,
        lastNative: undefined as (NativeAhead | null)[] | undefined,
        async next() {
          const docs = loadDocuments([files[taken++] as string], { cwd: dir });
          this.lastNative = docs.resources.map((r) => ({ documentId: "worker", gvk: "apps/v1/Deployment", findings: [], undecodable: false, fact: made(r) }));
          return docs;
        },
        close() {},
      };
      const seen: unknown[] = [];
      const checks = Object.assign(
        (resources: readonly ParsedResource[]) => {
          for (const r of resources) seen.push((r.object as { spec?: unknown }).spec);
          return [];
        },
        { subjects: undefined },
      );
      const report = await validateFiles({
        files,
        read: { cwd: dir },
        selection: compileSelection({ checks: ["cross-object"] }),
        registryFor: () => new SchemaRegistry(),
        crossObjectChecks: checks,
        validator: new ObjectValidator(),
        readAhead: ahead as unknown as ReadAhead,
        ...(spill ? { spill } : {}),
        readText: () => undefined,
      });
      return { seen, onDisk: lazyRows(report)?.onDisk ?? false };
    };
    const memory = await seenBy();
    const spilled = await seenBy({ after: 0, bufferBytes: 8 });
    expect(memory).toEqual({ seen: files.map(() => ({ replicas: 7 })), onDisk: false });
    expect(spilled).toEqual({ seen: files.map(() => ({ replicas: 7 })), onDisk: true });
  });
});

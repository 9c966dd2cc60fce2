// Repeated subschemas compiled once (share.ts): the validator must answer every object exactly as the schema written
// out in full does (the same errors, in the same order), on the pinned CRDs and on generated schemas and objects.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { CATALOG } from "../catalog/index.ts";
import { MIRROR, TEST_CACHE } from "../testing.ts";
import { compilerAjv, SchemaCompiler } from "./compile.ts";
import { convertCrdRoot } from "./convert.ts";
import type { TypeSchema } from "./model.ts";
import { catalogLayer } from "./registry.ts";
import { SHARED_PREFIX, shareRepeatedSubschemas } from "./share.ts";

type Json = Record<string, unknown>;

/** What a finding is made of, in order: everything ajv says but the schema path (which sharing changes, and no finding shows). */
function verdict(schema: Json, objects: readonly unknown[]): unknown[] {
  const validate = compilerAjv(false).compile(schema);
  return objects.map((o) => (validate(o) ? true : (validate.errors ?? []).map(({ schemaPath: _, ...e }) => e)));
}

const big = (name: string) => ({
  type: "object",
  required: ["name"],
  additionalProperties: false,
  properties: { name: { type: "string", maxLength: 63, pattern: "^[a-z0-9-]+$" }, port: { type: "integer", minimum: 1, maximum: 65535 }, tags: { type: "object", additionalProperties: { type: "string" } }, [name]: { type: "array", items: { type: "string", enum: ["a", "b", "c"] } } },
});

describe("shareRepeatedSubschemas", () => {
  it("moves a subschema that repeats to $defs once, refers to it where it was, and shares what repeats inside it", () => {
    const inner = big("inner");
    const outer = { type: "object", additionalProperties: false, properties: { a: inner, b: { ...inner }, note: { type: "string" } } };
    const schema = { type: "object", properties: { first: outer, second: { type: "array", items: outer }, third: { allOf: [outer, { required: ["a"] }] }, fourth: inner } };
    const input = JSON.stringify(schema);
    const shared = shareRepeatedSubschemas(schema);
    expect(JSON.stringify(schema)).toBe(input);
    const ref = (n: number) => ({ $ref: `#/$defs/${SHARED_PREFIX}${n}` });
    expect(shared.properties).toEqual({ first: ref(0), second: { type: "array", items: ref(0) }, third: { allOf: [ref(0), { required: ["a"] }] }, fourth: ref(1) });
    expect(shared.$defs).toEqual({ [`${SHARED_PREFIX}0`]: { ...outer, properties: { a: ref(1), b: ref(1), note: { type: "string" } } }, [`${SHARED_PREFIX}1`]: inner });
  });

  it("leaves data alone (enum values, required names), small subschemas, and a schema with nothing repeated", () => {
    const value = { a: "x".repeat(300) };
    const small = { type: "string", maxLength: 5 };
    const schema = { type: "object", properties: { e: { enum: [value, { ...value }] }, f: { enum: [value] }, s: small, t: { ...small } }, required: ["e", "f"] };
    expect(shareRepeatedSubschemas(schema)).toBe(schema);
    const withRepeat = { ...schema, properties: { ...schema.properties, x: big("x"), y: big("x") } };
    const shared = shareRepeatedSubschemas(withRepeat);
    expect(shared.properties).toMatchObject({ e: schema.properties.e, f: schema.properties.f, s: small, t: small });
    expect(Object.keys(shared.$defs as Json)).toEqual([`${SHARED_PREFIX}0`]);
  });

  it("counts an object that appears at two places (a YAML alias) twice", () => {
    const inner = big("alias");
    const schema = { type: "object", properties: { a: inner, b: inner } };
    expect(shareRepeatedSubschemas(schema).properties).toEqual({ a: { $ref: `#/$defs/${SHARED_PREFIX}0` }, b: { $ref: `#/$defs/${SHARED_PREFIX}0` } });
  });

  it("gives every generated schema and object the errors of the schema written out in full, in order", () => {
    // a pool of subschemas placed at several places: what sharing meets in generated CRDs
    const leaf = fc.oneof(
      fc.record({ type: fc.constant("string"), maxLength: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ type: fc.constant("integer"), minimum: fc.integer({ min: -2, max: 2 }) }),
      fc.record({ type: fc.constant("string"), enum: fc.constant(["a", "b"]) }),
      fc.record({ type: fc.constant("boolean") }),
    );
    const names = fc.constantFrom("a", "b", "c", "d");
    const node: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        leaf,
        fc.record({ type: fc.constant("object"), properties: fc.dictionary(names, tie("node"), { maxKeys: 3 }), additionalProperties: fc.constantFrom(false, true), required: fc.subarray(["a", "b"]) }),
        fc.record({ type: fc.constant("array"), items: tie("node"), maxItems: fc.integer({ min: 0, max: 3 }) }),
        fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
        fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
        fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
        fc.record({ not: tie("node") }),
      ),
    })).node;
    const schemas = fc.tuple(fc.array(node, { minLength: 1, maxLength: 3 }), fc.array(fc.tuple(names, fc.nat()), { minLength: 2, maxLength: 6 })).map(([pool, places]) => {
      // padded past MIN_SHARED_CHARS (a description is not converted; a long enum keeps the subschema's meaning)
      const padded = pool.map((p) => ({ ...p, properties: { ...(p.properties as Json | undefined), pad: { type: "string", enum: ["x".repeat(300)] } } }));
      const properties: Json = {};
      for (const [i, [name, n]] of places.entries()) properties[`${name}${i}`] = n % 2 === 0 ? padded[n % padded.length] : { type: "array", items: padded[n % padded.length] };
      return { type: "object", properties };
    });
    const objects = fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 8 }).map((values) =>
      values.map((v, i) => (i % 2 === 0 && typeof v === "object" && v !== null && !Array.isArray(v) ? v : { a0: v, b1: [v], c2: { a: v, b: v }, d3: v })),
    );
    let sharedSome = 0;
    fc.assert(
      fc.property(schemas, objects, (schema, values) => {
        const shared = shareRepeatedSubschemas(schema);
        if (shared !== schema) sharedSome++;
        expect(verdict(shared, values)).toEqual(verdict(schema, values));
      }),
      { numRuns: 300 },
    );
    expect(sharedSome).toBeGreaterThan(100);
  });
});

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const REAL_WORLD = fileURLToPath(new URL("../../corpus/real-world/", import.meta.url));

/** Every YAML document of the fixtures and the real-world corpus with an apiVersion and a kind. */
function corpusObjects(): Json[] {
  const out: Json[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ya?ml|json)$/.test(name)) {
        for (const doc of parseAllDocuments(readFileSync(path, "utf8"))) {
          const value = doc.errors.length === 0 ? (doc.toJS() as unknown) : undefined;
          const items = value && typeof value === "object" && (value as Json).kind === "List" ? ((value as Json).items as unknown[]) : [value];
          for (const o of items ?? []) if (o && typeof o === "object" && typeof (o as Json).kind === "string") out.push(o as Json);
        }
      }
    }
  };
  walk(FIXTURES);
  walk(REAL_WORLD);
  return out;
}

/** `object` with the value at each of a few of its paths replaced by something of another type (deterministic). */
function mutations(object: Json, seed: number): Json[] {
  const paths: (string | number)[][] = [];
  const collect = (v: unknown, path: (string | number)[]) => {
    paths.push(path);
    if (Array.isArray(v)) for (const [i, c] of v.entries()) collect(c, [...path, i]);
    else if (v && typeof v === "object") for (const [k, c] of Object.entries(v)) collect(c, [...path, k]);
  };
  collect(object, []);
  const replacements: unknown[] = [42, "x", true, null, {}, [], { unexpected: 1 }, -1, ["x"]];
  const out: Json[] = [];
  for (let i = 0; i < 12 && paths.length > 1; i++) {
    const path = paths[1 + ((seed * 7919 + i * 104729) % (paths.length - 1))] as (string | number)[];
    const copy = structuredClone(object);
    let at: Record<string | number, unknown> = copy;
    for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
    at[path[path.length - 1] as string | number] = replacements[(seed + i) % replacements.length];
    out.push(copy);
  }
  return out;
}

describe("the pinned CRDs, shared", () => {
  it("give every object of their kinds in the fixtures and the real-world corpus, and mutations of each, the errors of the full schema", async () => {
    const types = new Map<string, TypeSchema>();
    for (const release of CATALOG) {
      const layer = await catalogLayer({ [release.project]: release.version }, { mirror: MIRROR, cacheDir: TEST_CACHE });
      for (const t of layer.types.values()) if (t.flavour === "crd" && t.contentId) types.set(`${t.gvk.group}/${t.gvk.version}/${t.gvk.kind}`, t);
    }
    const objects = corpusObjects();
    let compared = 0;
    let withErrors = 0;
    const sharedKinds: string[] = [];
    for (const [gvk, type] of types) {
      const schema = convertCrdRoot(type.root, { flavour: "crd" }) as Json;
      const shared = shareRepeatedSubschemas(schema);
      if (shared !== schema) sharedKinds.push(type.gvk.kind);
      const own = objects.filter((o) => `${o.apiVersion}/${o.kind}` === gvk.replace(/^\//, ""));
      const cases = own.flatMap((o, i) => [o, ...mutations(o, i)]);
      if (cases.length === 0) continue;
      const expected = verdict(schema, cases);
      expect(verdict(shared, cases), gvk).toEqual(expected);
      compared += cases.length;
      withErrors += expected.filter((v) => v !== true).length;
    }
    // Argo CD's and Karpenter's CRDs repeat types; the corpus has objects of them, valid and not
    expect(sharedKinds).toEqual(expect.arrayContaining(["Application", "ApplicationSet", "NodePool"]));
    expect(compared).toBeGreaterThan(500);
    expect(withErrors).toBeGreaterThan(200);
  }, 120_000);

  it("are compiled by the validator's compiler into code of their own size, not of every copy (ApplicationSet: under 1 MB, was 8.2 MB)", async () => {
    // what the cache keeps is what every later run loads: the sharing must reach ajv's code (a compiler that
    // skipped share.ts would answer the same and weigh 8 MB; with it, ~290 KB)
    const layer = await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE });
    const type = [...layer.types.values()].find((t) => t.flavour === "crd" && t.gvk.group === "argoproj.io" && t.gvk.kind === "ApplicationSet") as TypeSchema;
    expect(type).toBeDefined();
    const cacheDir = mkdtempSync(join(tmpdir(), "share-compiled-"));
    try {
      new SchemaCompiler({ cacheDir }).validator(type);
      const files = readdirSync(join(cacheDir, "validators")).filter((f) => f.endsWith(".cjs"));
      expect(files).toHaveLength(1);
      expect(statSync(join(cacheDir, "validators", files[0] as string)).size).toBeLessThan(1024 * 1024);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 120_000);
});

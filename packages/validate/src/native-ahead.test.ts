// The native checks the read-ahead worker makes ahead (native-ahead.ts) are those the main thread would make, and
// are only taken for the very schema the worker used.
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { nativeFindings, undecodable } from "./native/index.ts";
import { type NativeAhead, nativeAhead, PackedBuiltins, usableAhead, usableSchemaAhead } from "./native-ahead.ts";
import { cloneWithoutNulls } from "./nulls.ts";
import { loadDocuments } from "./reader.ts";
import { SchemaCompiler } from "./schema/compile.ts";
import { catalogLayer, SchemaRegistry } from "./schema/registry.ts";
import { MIRROR, TEST_CACHE } from "./testing.ts";
import type { ParsedResource } from "./types.ts";
import { ObjectValidator } from "./validate.ts";

const deployment = (containers: unknown[]): ParsedResource => ({
  file: "d.yaml",
  index: 0,
  apiVersion: "apps/v1",
  kind: "Deployment",
  name: "web",
  namespace: "",
  object: {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", labels: { app: "web" } },
    spec: { selector: { matchLabels: { app: "other" } }, template: { metadata: { labels: { app: "web" } }, spec: { containers } } },
  },
});

describe("native checks made ahead", () => {
  it("are the main thread's findings, for the schema of the same pinned document", async () => {
    // the catalog layer writes the packs the worker reads
    const layer = await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, [{ apiVersion: "apps/v1", kind: "Deployment" }]);
    const type = layer.types.get("apps/v1/Deployment");
    expect(type?.flavour).toBe("builtin");
    const builtins = new PackedBuiltins(TEST_CACHE);
    expect(builtins.type({}, "apps/v1/Deployment")?.documentId).toBe(type?.documentId);
    const r = deployment([{ name: "web", image: "nginx", ports: [{ containerPort: 70000 }], imagePullPolicy: "Sometimes", resources: { requests: { memory: null } } }]);
    const ahead = nativeAhead(r, builtins, {});
    const direct = nativeFindings(cloneWithoutNulls(r.object) as Record<string, unknown>, type as NonNullable<typeof type>, []);
    expect(direct.length).toBeGreaterThan(2);
    expect(ahead?.findings).toEqual(direct);
    expect(usableAhead(ahead, type as NonNullable<typeof type>)).toEqual(direct);
  });

  it("are not taken for another schema of the kind (a --crd, the cluster's, another version) nor for other kinds", async () => {
    const layer = await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, [{ apiVersion: "apps/v1", kind: "Deployment" }]);
    const type = layer.types.get("apps/v1/Deployment") as NonNullable<ReturnType<typeof layer.types.get>>;
    const builtins = new PackedBuiltins(TEST_CACHE);
    const ahead = nativeAhead(deployment([{ name: "web", image: "nginx" }]), builtins, {});
    expect(ahead).toBeDefined();
    expect(usableAhead(ahead, { ...type, documentId: "crd:deployment.json" })).toBeUndefined();
    expect(usableAhead(ahead, { ...type, gvk: { ...type.gvk, version: "v1beta2" } })).toBeUndefined();
    expect(usableAhead(ahead, { ...type, flavour: "jsonschema" })).toBeUndefined();
    expect(nativeAhead({ ...deployment([]), apiVersion: "example.com/v1", kind: "Widget" }, builtins, {})).toBeUndefined();
  });

  it("say whether the object holds a null, and the main thread then validates it as it would have", async () => {
    const layer = await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, [{ apiVersion: "apps/v1", kind: "Deployment" }]);
    const type = layer.types.get("apps/v1/Deployment") as NonNullable<ReturnType<typeof layer.types.get>>;
    const builtins = new PackedBuiltins(TEST_CACHE);
    // a null anywhere (a nested one too) is seen; without one the object is said to be free of them
    const withNull = deployment([{ name: "web", image: "nginx", imagePullPolicy: "Sometimes", resources: { requests: { memory: null } } }]);
    const without = deployment([{ name: "web", image: "nginx", imagePullPolicy: "Sometimes", resources: { requests: { memory: "1x" } } }]);
    expect(nativeAhead(withNull, builtins, {})?.nullFree).toBe(false);
    expect(nativeAhead(without, builtins, {})?.nullFree).toBe(true);
    const validator = new ObjectValidator();
    for (const r of [withNull, without]) {
      const ahead = nativeAhead(r, builtins, {});
      const alone = validator.validate(r.object, type);
      expect(alone.length).toBeGreaterThan(1);
      expect(validator.validate(r.object, type, undefined, undefined, undefined, ahead)).toEqual(alone);
    }
  });

  it("are not made without the packs (a cache the catalog has not filled)", () => {
    expect(new PackedBuiltins("/nonexistent-cache").type({}, "apps/v1/Deployment")).toBeUndefined();
  });
});

// The schema stage made ahead (the worker's compiled validators, loaded from the same cache) over every fixture and
// hostile-looking object: the worker's schema findings are the main thread's, and the main thread's result with them
// is the one it makes alone.
const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.(ya?ml|json)$/.test(e.name) ? [join(dir, e.name)] : []));

describe("schema findings made ahead", () => {
  let registry: SchemaRegistry;
  beforeAll(async () => {
    registry = new SchemaRegistry();
    registry.layers.push(await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }));
  }, 120_000);

  it("are the main thread's for every built-in object of every fixture, and its results with them are its own", () => {
    const builtins = new PackedBuiltins(TEST_CACHE);
    // the worker's compiler: a separate instance, as in the worker's isolate, sharing only the on-disk cache
    const compiler = new SchemaCompiler({ cacheDir: TEST_CACHE });
    const validator = new ObjectValidator({ cacheDir: TEST_CACHE });
    let checked = 0;
    let invalid = 0;
    let undecodableSeen = 0;
    for (const file of yamlFiles(FIXTURES)) {
      const docs = loadDocuments([file], { cwd: FIXTURES });
      for (const r of docs.resources) {
        const type = registry.lookup(r.apiVersion, r.kind);
        const ahead = nativeAhead(r, builtins, {}, compiler);
        if (type?.flavour !== "builtin") {
          // custom resources (and CRDs' kinds) are never made ahead: they depend on what the run learns
          if (type) expect(usableSchemaAhead(ahead, type), `${file} ${r.kind}`).toBeUndefined();
          continue;
        }
        const where = `${relative(FIXTURES, file)} ${r.kind}/${r.name}`;
        expect(ahead?.schema, where).toBeDefined();
        const schemaOnly = validator.validate(r.object, type, registry, undefined, { schema: true, cel: false, native: false });
        expect(ahead?.schema, where).toEqual(schemaOnly);
        expect(usableSchemaAhead(ahead, type), where).toEqual(schemaOnly);
        const alone = validator.validate(r.object, type, registry);
        expect(validator.validate(r.object, type, registry, undefined, undefined, ahead), where).toEqual(alone);
        // with the stage switched off, neither is taken: the same as alone too
        const noSchema = { schema: false, cel: true, native: true };
        expect(validator.validate(r.object, type, registry, undefined, noSchema, ahead), where).toEqual(validator.validate(r.object, type, registry, undefined, noSchema));
        checked++;
        if (schemaOnly.length > 0) invalid++;
        if (undecodable(schemaOnly)) undecodableSeen++;
      }
    }
    // the fixtures hold hundreds of built-in objects, many of them invalid, some undecodable
    expect(checked).toBeGreaterThan(300);
    expect(invalid).toBeGreaterThan(40);
    expect(undecodableSeen).toBeGreaterThan(0);
  }, 300_000);

  it("are taken by the main thread instead of running the validator, only for the schema they were made with", () => {
    const type = registry.lookup("apps/v1", "Deployment") as NonNullable<ReturnType<SchemaRegistry["lookup"]>>;
    const r = deployment([{ name: "web", image: "nginx", ports: [{ containerPort: "http" }] }]);
    const ahead = nativeAhead(r, new PackedBuiltins(TEST_CACHE), {}, new SchemaCompiler({ cacheDir: TEST_CACHE }));
    expect(ahead?.schema?.length).toBeGreaterThan(0);
    // a marker in place of the worker's findings shows which ones the main thread reports
    const marker = { severity: "error" as const, path: "/spec", message: "marker", rule: "schema:type" };
    const marked = { ...(ahead as NativeAhead), schema: [marker] };
    const validator = new ObjectValidator({ cacheDir: TEST_CACHE });
    expect(validator.validate(r.object, type, registry, undefined, undefined, marked)).toContainEqual(marker);
    // another document's schema of the kind: the main thread validates itself
    expect(validator.validate(r.object, { ...type, documentId: "crd:other.json" }, registry, undefined, undefined, marked)).not.toContainEqual(marker);
  });

  it("decide whether the native findings made ahead apply: those made given no schema finding are not taken for an undecodable object", () => {
    const type = registry.lookup("apps/v1", "Deployment") as NonNullable<ReturnType<SchemaRegistry["lookup"]>>;
    // a port of the wrong type: the API server cannot decode the object, and the native stage reports decode errors only
    const r = deployment([{ name: "web", image: "nginx", ports: [{ containerPort: "http" }] }]);
    const builtins = new PackedBuiltins(TEST_CACHE);
    const compiler = new SchemaCompiler({ cacheDir: TEST_CACHE });
    const withSchema = nativeAhead(r, builtins, {}, compiler) as NativeAhead;
    const withoutSchema = nativeAhead(r, builtins, {}) as NativeAhead;
    expect(undecodable(withSchema.schema ?? [])).toBe(true);
    expect(usableAhead(withSchema, type, withSchema.schema)).toEqual(withSchema.findings);
    expect(usableAhead(withoutSchema, type, withSchema.schema)).toBeUndefined();
    expect(usableAhead(withSchema, type, [])).toBeUndefined();
  });
});

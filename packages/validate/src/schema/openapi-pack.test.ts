// A packed OpenAPI document gives the same types as the document, and its components on demand.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { typesFromOpenApiPack, writeOpenApiPack } from "./openapi-pack.ts";
import { typesFromOpenApi } from "./sources.ts";

const doc = {
  openapi: "3.0.0",
  paths: { "/apis/example.com/v1/widgets": { get: { description: "large and never needed" } } },
  components: {
    schemas: {
      "com.example.v1.Widget": {
        type: "object",
        "x-kubernetes-group-version-kind": [{ group: "example.com", version: "v1", kind: "Widget" }],
        properties: { spec: { $ref: "#/components/schemas/com.example.v1.WidgetSpec" }, note: { type: "string", description: "µ and 😀 and \u2028" } },
      },
      "com.example.v1.WidgetSpec": { type: "object", properties: { size: { type: "integer" } } },
      "com.example.v1.WidgetList": { type: "object", "x-kubernetes-group-version-kind": [{ group: "example.com", version: "v1", kind: "WidgetList" }] },
    },
  },
};

describe("OpenAPI packs", () => {
  it("give the document's types, with every component as in the document, parsed when asked for", () => {
    const dir = mkdtempSync(join(tmpdir(), "pack-"));
    const file = join(dir, "doc.pack");
    writeOpenApiPack(file, doc);
    const packed = typesFromOpenApiPack(file, "src", "catalog:x");
    const direct = typesFromOpenApi(doc, "src", "catalog:x");
    expect(packed?.map((t) => [t.gvk, t.root, t.documentId, t.flavour])).toEqual(direct.map((t) => [t.gvk, t.root, t.documentId, t.flavour]));
    const components = packed?.[0]?.components as Record<string, unknown>;
    expect(Object.keys(components)).toEqual(Object.keys(doc.components.schemas));
    expect("com.example.v1.WidgetSpec" in components).toBe(true);
    expect("nope" in components).toBe(false);
    expect(components.nope).toBeUndefined();
    expect(components["com.example.v1.Widget"]).toEqual(doc.components.schemas["com.example.v1.Widget"]);
    // the same object each time (schemas are keyed by identity: plans, derefs)
    expect(components["com.example.v1.WidgetSpec"]).toBe(components["com.example.v1.WidgetSpec"]);
    expect(Object.fromEntries(Object.entries(components))).toEqual(doc.components.schemas);
  });

  it("is not used when missing, truncated or of another version", () => {
    const dir = mkdtempSync(join(tmpdir(), "pack-"));
    expect(typesFromOpenApiPack(join(dir, "missing.pack"), "src", "x")).toBeUndefined();
    writeFileSync(join(dir, "bad.pack"), '{"v": 1, "types": [');
    expect(typesFromOpenApiPack(join(dir, "bad.pack"), "src", "x")).toBeUndefined();
    writeFileSync(join(dir, "old.pack"), '{"v": 0, "types": [], "components": {}}\n');
    expect(typesFromOpenApiPack(join(dir, "old.pack"), "src", "x")).toBeUndefined();
    // a damaged component (one byte changed) would break validation later: the pack is passed over
    const file = join(dir, "damaged.pack");
    writeOpenApiPack(file, doc);
    const text = readFileSync(file, "latin1");
    writeFileSync(file, text.replace('"integer"', '"integeR"'), "latin1");
    expect(typesFromOpenApiPack(file, "src", "x")).toBeUndefined();
  });
});

// Compiled validators and schema-check verdicts of pinned CRDs are kept on disk under the CRD's content id
// (TypeSchema.contentId) and CACHE_VERSION, and the validators of built-in kinds under their document's id and kind,
// not under the converted schema's text: a change to the conversion (convert.ts, sources.ts, the enum tables, the
// sharing of repeated subschemas in share.ts, the shared definitions of compile.ts) must come with a new
// CACHE_VERSION, or later runs would load validators compiled from the old conversion. This test notices a
// conversion that changed.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATALOG } from "../catalog/index.ts";
import { CACHE_VERSION, SHARED_DEFS } from "./compile.ts";
import { convertComponents, convertCrdRoot } from "./convert.ts";
import type { SchemaNode, TypeSchema } from "./model.ts";
import { catalogLayer } from "./registry.ts";
import { shareRepeatedSubschemas } from "./share.ts";

/** The conversion digest each CACHE_VERSION was released with (add a line when CACHE_VERSION changes). */
const DIGESTS = JSON.parse(readFileSync(new URL("./cache-version.json", import.meta.url), "utf8")) as Record<string, string>;

describe("CACHE_VERSION", () => {
  it("names one conversion of the pinned CRDs and OpenAPI documents: a changed conversion needs a new CACHE_VERSION", async () => {
    const types = new Map<string, TypeSchema>();
    const documents = new Map<string, TypeSchema>();
    for (const release of CATALOG) {
      const layer = await catalogLayer({ [release.project]: release.version }, {});
      for (const t of layer.types.values()) {
        if (t.flavour === "crd" && t.contentId) types.set(t.contentId, t);
        if (t.flavour === "builtin" && t.components && t.documentId && !documents.has(t.documentId)) documents.set(t.documentId, t);
      }
    }
    expect(documents.size).toBeGreaterThan(5);
    const hash = createHash("sha256");
    // the pinned OpenAPI documents as compiled (their validators are keyed by document and kind, not by the conversion)
    for (const id of [...documents.keys()].sort()) {
      hash.update(`${id}\n${JSON.stringify(convertComponents((documents.get(id) as TypeSchema).components as Record<string, SchemaNode>, id, { shared: SHARED_DEFS }))}\n`);
    }
    for (const id of [...types.keys()].sort()) {
      const t = types.get(id) as TypeSchema;
      // what is compiled: the converted schema with its repeated subschemas shared (share.ts)
      hash.update(`${id}\n${JSON.stringify(shareRepeatedSubschemas(convertCrdRoot(t.root, { flavour: "crd", objectMetaRef: "catalog:meta#/$defs/ObjectMeta", objectMetaShared: "meta catalog:meta#/$defs/ObjectMeta" })))}\n`);
    }
    const digest = hash.digest("hex");
    expect(
      DIGESTS[CACHE_VERSION],
      `the conversion of the pinned CRDs and documents is now ${digest}: bump CACHE_VERSION in compile.ts and add it with this digest to cache-version.json`,
    ).toBe(digest);
  });
});

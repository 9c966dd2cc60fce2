// Data-driven test: every single-object fixture (Karpenter CEL rules, structural, defaulting) through the validator,
// against the pinned catalog, compared with the outcome its leading comment states.
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadDocuments } from "./reader.ts";
import { makeDeref, type SchemaNode } from "./schema/model.ts";
import { catalogLayer, SchemaRegistry } from "./schema/registry.ts";
import { walk } from "./schema/walk.ts";
import { compareFindings, readHeader } from "./testing/fixture-header.ts";
import type { ParsedResource } from "./types.ts";
import { ObjectValidator } from "./validate.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const FOLDERS = ["karpenter", "structural", "defaulting", "native"];

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? yamlFiles(join(dir, e.name)) : e.name.endsWith(".yaml") ? [join(dir, e.name)] : []));
}

function readOne(file: string): ParsedResource {
  const docs = loadDocuments([file], { cwd: FIXTURES });
  expect(docs.unreadable, `${file} reads`).toEqual([]);
  expect(docs.resources, `${file} holds one manifest`).toHaveLength(1);
  return docs.resources[0]!;
}

/** The value at a JSON Pointer. */
function at(value: unknown, pointer: string): unknown {
  let cur = value;
  for (const seg of pointer.slice(1).split("/")) {
    const key = seg.replaceAll("~1", "/").replaceAll("~0", "~");
    cur = cur === null || typeof cur !== "object" ? undefined : (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * Fixtures the engine does not get right yet. Each runs as `it.fails`, so once the engine is fixed the test
 * turns red until its entry is removed here: a gap can be listed, never silently forgotten.
 */
const KNOWN_ENGINE_GAPS: Readonly<Record<string, string>> = {};

let registry: SchemaRegistry;
const validator = new ObjectValidator();

beforeAll(async () => {
  registry = new SchemaRegistry();
  registry.layers.push(await catalogLayer({}, {}));
}, 120_000);

describe.each(FOLDERS)("fixtures/%s", (folder) => {
  for (const file of yamlFiles(join(FIXTURES, folder))) {
    const name = relative(FIXTURES, file);
    const gap = KNOWN_ENGINE_GAPS[name];
    (gap ? it.fails : it)(gap ? `${relative(join(FIXTURES, folder), file)} (known engine gap: ${gap})` : relative(join(FIXTURES, folder), file), () => {
      const header = readHeader(file);
      const resource = readOne(file);
      const type = registry.lookup(resource.apiVersion, resource.kind);
      expect(type, `schema for ${resource.apiVersion} ${resource.kind}`).toBeDefined();
      const previous = header.old ? readOne(join(dirname(file), header.old)).object : undefined;
      const findings = validator.validate(resource.object, type!, registry, previous);
      expect(compareFindings(header, findings)).toEqual([]);
      if (header.defaults.length > 0) {
        const deref = type!.components ? makeDeref(type!.components) : (n: SchemaNode) => n;
        // walk() returns the object as the API server's decoder sees it: nulls pruned, defaults set.
        const defaulted = walk(resource.object, type!.root, "", undefined, { defaults: true, cel: false, deref }, { findings: [], tasks: [] });
        for (const d of header.defaults) expect(at(defaulted, d.path), `default at ${d.path}`).toEqual(d.value);
      }
    }, 60_000);
  }
});

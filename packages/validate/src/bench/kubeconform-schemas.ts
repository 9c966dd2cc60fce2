// Converts the pinned catalog into kubeconform's schema layout (`<kind><-group-prefix>-<version>.json`), strict, with the
// same OpenAPI -> JSON Schema conversion the validator itself uses, so both tools check the same schemas.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { fetchPinned, selectReleases } from "../catalog/index.ts";
import { convertComponents, convertCrdRoot, OBJECT_META } from "../schema/convert.ts";
import type { SchemaNode } from "../schema/model.ts";
import { typesFromCrd, typesFromOpenApi } from "../schema/sources.ts";

const DRAFT = "http://json-schema.org/draft-07/schema#";
type Json = Record<string, unknown>;

/** kubeconform's file name for a kind: lower-case kind, the group's first label, the version (its `{{ .KindSuffix }}`). */
export function kubeconformFileName(group: string, version: string, kind: string): string {
  const prefix = group === "" ? "" : `-${group.split(".")[0]!.toLowerCase()}`;
  return `${kind.toLowerCase()}${prefix}-${version.toLowerCase()}.json`;
}

/** The `$defs` a schema needs: the transitive closure of its `#/$defs/...` references. */
function closure(defs: Json, roots: readonly string[]): Json {
  const out: Json = {};
  const todo = [...roots];
  while (todo.length > 0) {
    const name = todo.pop()!;
    if (name in out || !(name in defs)) continue;
    out[name] = defs[name];
    for (const m of JSON.stringify(defs[name]).matchAll(/"#\/\$defs\/([^"]+)"/g)) todo.push(m[1]!);
  }
  return out;
}

/**
 * Writes one JSON Schema file per kind of the default catalog into `dir`; returns the number of files.
 * `goEnums: false`: without the Go types' enums the validator adds (the schemas as upstream publishes them).
 */
export async function writeKubeconformSchemas(
  dir: string,
  kinds?: ReadonlySet<string>,
  /** `extraCrds`: CRDs beyond the catalog's (the bench's own), converted the same way. */
  options: { readonly goEnums?: boolean; readonly extraCrds?: readonly unknown[] } = {},
): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const builtinDefs: Json = {};
  const crds: unknown[] = [];
  let written = 0;
  const write = (group: string, version: string, kind: string, schema: Json) => {
    writeFileSync(join(dir, kubeconformFileName(group, version, kind)), JSON.stringify(schema));
    written++;
  };
  for (const release of selectReleases()) {
    for (const file of release.files) {
      const text = (await fetchPinned(file)).toString("utf8");
      if (file.format === "crd") {
        crds.push(parseYaml(text, { maxAliasCount: 100 }));
        continue;
      }
      const doc = JSON.parse(text) as { components: { schemas: Record<string, SchemaNode> } };
      const defs = (convertComponents(doc.components.schemas, "kubeconform", options).$defs ?? {}) as Json;
      Object.assign(builtinDefs, defs);
      for (const t of typesFromOpenApi(doc, file.path, "kubeconform")) {
        if (kinds && !kinds.has(t.gvk.kind)) continue;
        const root = String((t.root as { $ref: string }).$ref).replace("#/components/schemas/", "");
        write(t.gvk.group, t.gvk.version, t.gvk.kind, { $schema: DRAFT, $ref: `#/$defs/${root}`, $defs: closure(defs, [root]) });
      }
    }
  }
  crds.push(...(options.extraCrds ?? []));
  const metaDefs = closure(builtinDefs, [OBJECT_META]);
  for (const crd of crds) {
    for (const t of typesFromCrd(crd, "kubeconform")) {
      if (kinds && !kinds.has(t.gvk.kind)) continue;
      const schema = convertCrdRoot(t.root, { flavour: "crd", objectMetaRef: `#/$defs/${OBJECT_META}` });
      write(t.gvk.group, t.gvk.version, t.gvk.kind, { $schema: DRAFT, ...schema, $defs: metaDefs });
    }
  }
  return written;
}

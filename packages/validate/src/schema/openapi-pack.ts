// A pinned Kubernetes OpenAPI document kept in the cache as a "pack": its top-level kinds and each component's
// JSON, by offset, so a run parses only the components it uses. core/v1 is 2 MB of JSON with ~300 components;
// a run over Services needs a dozen of them (the Service closure, ObjectMeta): parsing the whole document cost
// every run ~10 ms and its garbage. Compiled validators are cached by document and component name, so the full
// set of components is only read when a validator must be compiled (ajv walks them all then).
//
// File layout (ASCII): one header line of JSON `{ "v": 1, "sha256": <of the rest>, "types": [[group, version,
// kind, component]...], "components": { name: [start, end] } }`, then the components' JSON texts; offsets count
// from the line after the header. Written (atomically) only from a document whose SHA-256 was checked, and read
// only when the rest still has its SHA-256 (a damaged pack is passed over for the verified document).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { asciiJson } from "../ascii-text.ts";
import type { Gvk, SchemaNode, TypeSchema } from "./model.ts";
import { typesFromOpenApi } from "./sources.ts";

const PACK_VERSION = 1;
const REF_PREFIX = "#/components/schemas/";

interface PackHeader {
  readonly v: number;
  /** SHA-256 of what follows the header line: a damaged pack is not used (the verified document is read instead). */
  readonly sha256: string;
  readonly types: readonly (readonly [string, string, string, string])[];
  readonly components: Readonly<Record<string, readonly [number, number]>>;
}

/** Where the pack of the pinned document with this SHA-256 is kept in a catalog cache folder. */
export const packPath = (cacheDir: string, sha256: string): string => join(cacheDir, `${sha256}.pack`);

/** Writes the pack of a parsed OpenAPI document (a read-only cache only costs speed: errors are ignored). */
export function writeOpenApiPack(path: string, doc: unknown): void {
  const types = typesFromOpenApi(doc, "", "");
  const schemas = ((doc as { components?: { schemas?: Record<string, SchemaNode> } } | null)?.components?.schemas ?? {}) as Record<string, SchemaNode>;
  const parts: string[] = [];
  const components: Record<string, [number, number]> = {};
  let at = 0;
  for (const [name, schema] of Object.entries(schemas)) {
    const text = asciiJson(schema);
    components[name] = [at, at + text.length];
    parts.push(text);
    at += text.length;
  }
  const body = parts.join("");
  const header: PackHeader = {
    v: PACK_VERSION,
    sha256: createHash("sha256").update(body, "latin1").digest("hex"),
    types: types.map((t) => [t.gvk.group, t.gvk.version, t.gvk.kind, (t.root.$ref as string).slice(REF_PREFIX.length)] as const),
    components,
  };
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${asciiJson(header)}\n${body}`);
    renameSync(tmp, path);
  } catch {
    // a read-only cache only costs speed
  }
}

/**
 * The types of a packed document, their `components` parsed on first use, one component at a time; undefined
 * when there is no usable pack (then the document itself is read).
 */
export function typesFromOpenApiPack(path: string, source: string, documentId: string): TypeSchema[] | undefined {
  let bytes: Buffer;
  let header: PackHeader;
  let base: number;
  try {
    bytes = readFileSync(path);
    const newline = bytes.indexOf(10);
    if (newline < 0) return undefined;
    header = JSON.parse(bytes.toString("latin1", 0, newline)) as PackHeader;
    base = newline + 1;
    if (header.v !== PACK_VERSION || !Array.isArray(header.types) || typeof header.components !== "object" || header.components === null) return undefined;
    if (createHash("sha256").update(bytes.subarray(base)).digest("hex") !== header.sha256) return undefined;
  } catch {
    return undefined;
  }
  const index = header.components;
  const has = (name: string | symbol): name is string => typeof name === "string" && Object.hasOwn(index, name);
  const parsed = new Map<string, SchemaNode>();
  const component = (name: string): SchemaNode => {
    let node = parsed.get(name);
    if (!node) {
      const [start, end] = index[name] as readonly [number, number];
      node = JSON.parse(bytes.toString("latin1", base + start, base + end)) as SchemaNode;
      parsed.set(name, node);
    }
    return node;
  };
  // a read-only map of the document's components: each parsed when first asked for, then the same object
  const components = new Proxy({} as Record<string, SchemaNode>, {
    get: (_, name) => (has(name) ? component(name) : undefined),
    has: (_, name) => has(name),
    ownKeys: () => Object.keys(index),
    getOwnPropertyDescriptor: (_, name) => (has(name) ? { value: component(name), enumerable: true, configurable: true, writable: false } : undefined),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  return header.types.map(([group, version, kind, name]) => ({
    gvk: { group, version, kind } satisfies Gvk,
    flavour: "builtin" as const,
    root: { $ref: `${REF_PREFIX}${name}` },
    components,
    documentId,
    source,
  }));
}

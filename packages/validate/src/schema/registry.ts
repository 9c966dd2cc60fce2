// Schema sources in their visible priority order: --crd, CRDs among the documents, the cluster, the pinned catalog.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CORE_SCHEMA, load } from "js-yaml";
import { type CatalogVersions, loadCatalog, type PinnedFile, selectReleases } from "../catalog/index.ts";
import { defaultCacheDir, type FetchOptions } from "../catalog/fetch.ts";
import { asciiJson, readText } from "../ascii-text.ts";
import { ANCHOR, expandPaths, parseText } from "../reader.ts";
import { yamlLib } from "../yaml-lib.ts";
import type { ParsedResource } from "../types.ts";
import { type Gvk, gvkKey, gvkKeyOf, parseApiVersion, type TypeSchema } from "./model.ts";
import { packPath, typesFromOpenApiPack, writeOpenApiPack } from "./openapi-pack.ts";
import { documentSource, isCrd, typesFromCrd, typesFromJsonSchema, typesFromOpenApi } from "./sources.ts";

export interface SchemaLayer {
  /** e.g. `--crd`, `documents`, `cluster`, `catalog`. */
  readonly name: string;
  readonly types: ReadonlyMap<string, TypeSchema>;
  /**
   * What a type of this layer gives way to: `documents` (the CRDs among the validated documents) may define new
   * kinds but never replace a built-in kind (from any later layer) or a pinned one (the catalog's), see
   * claimedKind. @default nothing: the first layer that knows a kind wins
   */
  readonly role?: "documents" | "pinned";
}

/** The layer options of addLayer. */
export interface LayerOptions {
  readonly role?: SchemaLayer["role"];
}

const lower = (g: Gvk) => gvkKey({ ...g, kind: g.kind.toLowerCase() });

/** An ordered list of layers; the first layer that knows a kind wins. */
export class SchemaRegistry {
  readonly layers: SchemaLayer[] = [];
  private readonly memo = new Map<string, TypeSchema | null>();
  private builtin: TypeSchema | null | undefined;

  /** Adds a layer (lowest priority so far); within it, the first type of a kind wins (a later CRD cannot redefine it). */
  addLayer(name: string, types: readonly TypeSchema[], options: LayerOptions = {}): this {
    this.memo.clear();
    this.builtin = undefined;
    const map = new Map<string, TypeSchema>();
    for (const t of types) {
      const key = t.flavour === "jsonschema" ? lower(t.gvk) : gvkKey(t.gvk);
      if (!map.has(key)) map.set(key, t);
    }
    this.layers.push({ name, types: map, ...(options.role ? { role: options.role } : {}) });
    return this;
  }

  /** Appends an already-built layer (lowest priority so far). */
  pushLayer(layer: SchemaLayer): this {
    this.memo.clear();
    this.builtin = undefined;
    this.layers.push(layer);
    return this;
  }

  /** A registry that asks `this` first, then `next` (used to put a per-overlay catalog behind shared layers). */
  with(layers: readonly SchemaLayer[]): SchemaRegistry {
    const r = new SchemaRegistry();
    r.layers.push(...this.layers, ...layers);
    return r;
  }

  lookup(apiVersion: string, kind: string): TypeSchema | undefined {
    const memoKey = `${apiVersion}\u0000${kind}`;
    const hit = this.memo.get(memoKey);
    if (hit !== undefined) return hit ?? undefined;
    const found = this.find(apiVersion, kind);
    this.memo.set(memoKey, found ?? null);
    return found;
  }

  private find(apiVersion: string, kind: string): TypeSchema | undefined {
    const gvk = { ...parseApiVersion(apiVersion), kind };
    const key = gvkKey(gvk);
    const key2 = lower(gvk);
    // a document CRD's type is a candidate until no later layer has a built-in or pinned type of that kind
    let candidate: TypeSchema | undefined;
    for (const layer of this.layers) {
      const t = layer.types.get(key) ?? layer.types.get(key2);
      if (!t) continue;
      if (candidate === undefined && layer.role === "documents") candidate = t;
      else if (candidate === undefined || overrulesDocuments(layer, t)) return t;
    }
    return candidate;
  }

  /** Any builtin type (to borrow ObjectMeta's schema for custom resources). */
  anyBuiltin(): TypeSchema | undefined {
    if (this.builtin === undefined) {
      this.builtin = null;
      search: for (const layer of this.layers) {
        for (const t of layer.types.values()) {
          if (t.flavour === "builtin" && t.components) {
            this.builtin = t;
            break search;
          }
        }
      }
    }
    return this.builtin ?? undefined;
  }
}

/** Whether a type outranks a CRD among the documents that defines the same kind: a built-in kind, or one of the pinned catalog. */
const overrulesDocuments = (layer: SchemaLayer, t: TypeSchema): boolean => t.flavour === "builtin" || layer.role === "pinned";

/** Schemas from --crd paths: CRD YAML/JSON, /openapi/v3 JSON documents, or JSON Schema files. */
export function typesFromPaths(paths: readonly string[]): TypeSchema[] {
  const out: TypeSchema[] = [];
  for (const file of expandPaths(paths)) {
    const text = readFileSync(file, "utf8");
    const source = `--crd ${file}`;
    if (file.toLowerCase().endsWith(".json")) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        throw new Error(`--crd ${file}: invalid JSON: ${(err as Error).message}`);
      }
      if (isCrd(json)) out.push(...typesFromCrd(json, source));
      else if (typeof json === "object" && json !== null && "components" in json) out.push(...typesFromOpenApi(json, source, `crd:${file}`));
      else out.push(...typesFromJsonSchema(json, file, source));
      continue;
    }
    const { resources, unreadable } = parseText({ file, text });
    if (unreadable.length > 0) throw new Error(`--crd ${file}: ${unreadable[0]?.findings[0]?.message}`);
    for (const r of resources) out.push(...typesFromCrd(r.object, source));
  }
  return out;
}

/** CRDs that are themselves among the validated documents (layer 2). */
export function typesFromDocuments(resources: readonly ParsedResource[]): TypeSchema[] {
  return resources.filter((r) => isCrd(r.object)).flatMap((r) => typesFromCrd(r.object, documentSource(r)));
}

/**
 * A catalog file as data. YAML parsing of the large Argo CD CRDs takes seconds, and decoding and parsing the
 * Kubernetes OpenAPI documents tens of milliseconds, so the parsed form is cached beside the verified file (same
 * SHA-256 name, `.json`, ASCII-escaped), and later runs read it instead. It is written only from bytes whose
 * SHA-256 was checked, so reading it needs neither the original text nor another hash of it.
 */
function cachedParsed(sha: string, fetch: FetchOptions): unknown {
  try {
    return JSON.parse(readText(join(fetch.cacheDir ?? defaultCacheDir(), `${sha}.json`)));
  } catch {
    return undefined;
  }
}

/** Parses a catalog CRD's verified text (its cached parsed form was missing: see cachedParsed) and caches it. */
function parseCrd(file: PinnedFile, text: string, fetch: FetchOptions): unknown {
  // js-yaml reads the multi-megabyte CRDs about ten times faster; yaml (with its alias limit) if anchors appear
  const value = ANCHOR.test(text) ? yamlLib().parse(text, { maxAliasCount: 100 }) : load(text, { schema: CORE_SCHEMA });
  const cached = join(fetch.cacheDir ?? defaultCacheDir(), `${file.sha256}.json`);
  try {
    mkdirSync(dirname(cached), { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, asciiJson(value));
    renameSync(tmp, cached);
  } catch {
    // a read-only cache only costs speed
  }
  return value;
}

/** The kinds a catalog file defines (gvkKey of each type), cached beside it once it has been read. */
export function readKindIndex(sha: string, fetch: FetchOptions): string[] | undefined {
  try {
    const kinds: unknown = JSON.parse(readFileSync(join(fetch.cacheDir ?? defaultCacheDir(), `${sha}.kinds.json`), "utf8"));
    return Array.isArray(kinds) && kinds.every((k) => typeof k === "string") ? kinds : undefined;
  } catch {
    return undefined;
  }
}

function writeKindIndex(sha: string, types: readonly TypeSchema[], fetch: FetchOptions): void {
  try {
    const file = join(fetch.cacheDir ?? defaultCacheDir(), `${sha}.kinds.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify(types.map((t) => gvkKey(t.gvk))));
    renameSync(`${file}.${process.pid}.tmp`, file);
  } catch {
    // a read-only cache only costs speed
  }
}

/** The bytes of a cached catalog file, or Infinity when it is not cached yet. */
function cachedSize(sha: string, fetch: FetchOptions): number {
  try {
    return statSync(join(fetch.cacheDir ?? defaultCacheDir(), sha)).size;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * The pinned catalog for a set of versions (layer 4). With `wanted` (apiVersion + kind of the documents to
 * validate), files whose cached kind index shows none of them are not read: a run over NodePools does not
 * parse the Argo CD ApplicationSet CRD. One Kubernetes OpenAPI document is always kept, for the ObjectMeta
 * schema that custom resources borrow.
 */
export async function catalogLayer(versions: CatalogVersions, fetch: FetchOptions, wanted?: Iterable<{ apiVersion: string; kind: string }>): Promise<SchemaLayer> {
  const releases = selectReleases(versions);
  const all = releases.flatMap((r) => r.files);
  let files = all;
  if (wanted) {
    const keys = new Set<string>();
    for (const w of wanted) keys.add(gvkKeyOf(w.apiVersion, w.kind));
    const indexes = all.map((f) => readKindIndex(f.sha256, fetch));
    if (indexes.every((i) => i !== undefined)) {
      files = all.filter((_, i) => (indexes[i] as string[]).some((k) => keys.has(k)));
      if (!files.some((f) => f.format === "openapi-v3")) {
        const donor = all.filter((f) => f.format === "openapi-v3").sort((a, b) => cachedSize(a.sha256, fetch) - cachedSize(b.sha256, fetch))[0];
        if (donor) files = [donor, ...files];
      }
    }
  }
  const sourceOf = (file: PinnedFile) => {
    const release = releases.find((r) => r.files.includes(file));
    return `catalog ${release?.project}@${release?.version} ${file.path.replace(/^.*\//, "")}`;
  };
  const packOf = (file: PinnedFile) => packPath(fetch.cacheDir ?? defaultCacheDir(), file.sha256);
  // a file already parsed into the cache is not read again (see cachedParsed and openapi-pack.ts)
  const ready = new Map<PinnedFile, TypeSchema[]>();
  for (const f of files) {
    const id = `catalog:${f.sha256}`;
    if (f.format === "openapi-v3") {
      const packed = typesFromOpenApiPack(packOf(f), sourceOf(f), id);
      if (packed) ready.set(f, packed);
    } else {
      const value = cachedParsed(f.sha256, fetch);
      if (value !== undefined) ready.set(f, typesFromCrd(value, sourceOf(f), id));
    }
  }
  const loaded = await loadCatalog(releases.map((r) => ({ ...r, files: r.files.filter((f) => files.includes(f) && !ready.has(f)) })), fetch);
  const types: TypeSchema[] = [];
  const inputs = [...loaded, ...[...ready.keys()].map((file) => ({ file, text: "" }))].sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file));
  for (const { file, text } of inputs) {
    const source = sourceOf(file);
    const id = `catalog:${file.sha256}`;
    let fileTypes = ready.get(file);
    if (!fileTypes && file.format === "openapi-v3") {
      const doc: unknown = JSON.parse(text);
      fileTypes = typesFromOpenApi(doc, source, id);
      writeOpenApiPack(packOf(file), doc);
    }
    fileTypes ??= typesFromCrd(parseCrd(file, text, fetch), source, id);
    if (readKindIndex(file.sha256, fetch) === undefined) writeKindIndex(file.sha256, fileTypes, fetch);
    types.push(...fileTypes);
  }
  const r = new SchemaRegistry().addLayer(`catalog ${releases.map((x) => `${x.project}@${x.version}`).join(" ")}`, types, { role: "pinned" });
  return r.layers[0] as SchemaLayer;
}

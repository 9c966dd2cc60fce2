// The native stage of built-in objects, run ahead in the read-ahead worker (read-ahead.ts) while the main thread
// validates earlier files. The native checks of a built-in kind depend on the object and on its kind's OpenAPI
// schema only (plus whether the schema stage found a decode error, which the main thread knows and checks), so
// the worker runs the same nativeFindings() on the same object with the same pinned schema, read from the cached
// packs (openapi-pack.ts). The main thread takes the worker's findings only when it resolved the object to the
// very schema the worker used (same content-addressed document, same group/version/kind) and the schema stage
// found no decode error; otherwise it runs the checks itself. Measured on the 5,000-object bench: the native
// stage is about 0.1 s of the main thread's time on a cold start (dozens of small functions run a few hundred
// times each, never warm).
import { type CatalogVersions, selectReleases } from "./catalog/index.ts";
import { factExtra, packExtra } from "./cross-object/compact.ts";
import { builtinFindings } from "./native/index.ts";
import { cloneWithoutNulls } from "./nulls.ts";
import { gvkKey, gvkKeyOf, type TypeSchema } from "./schema/model.ts";
import { packPath, typesFromOpenApiPack } from "./schema/openapi-pack.ts";
import { readKindIndex } from "./schema/registry.ts";
import type { Finding, ParsedResource } from "./types.ts";

/** The worker's native findings for one object, and the schema they were made with. */
export interface NativeAhead {
  readonly documentId: string;
  readonly gvk: string;
  readonly findings: Finding[];
  /**
   * `findings` are the object's decode findings (it does not decode, so nothing else was checked); false: it
   * decodes. With a schema stage that finds a decode error, the native answer is then `findings` or none.
   */
  readonly undecodable: boolean;
  /**
   * The object holds no null property (the worker looked while dropping them): the main thread then validates
   * it as it is, without walking it again to look (nulls.ts). About the object alone, whatever its schema.
   */
  readonly nullFree?: boolean;
  /**
   * The resource's cross-object fact (factExtra, packed by packExtra), made here as the main thread would make it
   * (a built-in object is never changed by its validation): false when it has none beyond its identity; absent
   * when the main thread makes it (not asked for, or a fact that does not pack as a string).
   */
  readonly fact?: string | false;
}

/**
 * Built-in types of the pinned Kubernetes documents of a set of versions, from the cache only (never a download):
 * each kind's document is found by the kind index the catalog keeps beside it, and only its pack is read.
 */
export class PackedBuiltins {
  /** gvkKey → SHA-256 of the first document defining it, per set of versions (null: an index is missing). */
  private readonly plans = new Map<string, Map<string, string> | null>();
  private readonly packs = new Map<string, Map<string, TypeSchema> | null>();

  constructor(private readonly cacheDir: string) {}

  /** The plan of the versions object asked last: files come with one versions object per overlay (asked for each object). */
  private last: { versions: CatalogVersions; plan: Map<string, string> | undefined } | undefined;

  private plan(versions: CatalogVersions): Map<string, string> | undefined {
    if (this.last?.versions === versions) return this.last.plan;
    const plan = this.planOf(versions);
    this.last = { versions, plan };
    return plan;
  }

  private planOf(versions: CatalogVersions): Map<string, string> | undefined {
    const key = JSON.stringify(versions);
    let plan = this.plans.get(key);
    if (plan === undefined) {
      plan = new Map();
      try {
        for (const release of selectReleases(versions)) {
          for (const file of release.files) {
            if (file.format !== "openapi-v3") continue;
            const kinds = readKindIndex(file.sha256, { cacheDir: this.cacheDir });
            if (!kinds) throw new Error("no kind index");
            // the first document defining a kind wins, as in the catalog layer
            for (const k of kinds) if (!plan.has(k)) plan.set(k, file.sha256);
          }
        }
      } catch {
        plan = null;
      }
      this.plans.set(key, plan);
    }
    return plan ?? undefined;
  }

  /** The type of `gvk` (a gvkKey) in these versions, or undefined when its document has no pack yet (the main thread then does the work). */
  type(versions: CatalogVersions, gvk: string): TypeSchema | undefined {
    const sha = this.plan(versions)?.get(gvk);
    if (!sha) return undefined;
    let pack = this.packs.get(sha);
    if (pack === undefined) {
      const types = typesFromOpenApiPack(packPath(this.cacheDir, sha), "", `catalog:${sha}`);
      pack = types ? new Map(types.map((t) => [gvkKey(t.gvk), t])) : null;
      this.packs.set(sha, pack);
    }
    return pack?.get(gvk);
  }
}

/** The native findings of a built-in object, made as the main thread would make them; undefined for other kinds. */
export function nativeAhead(r: ParsedResource, builtins: PackedBuiltins, versions: CatalogVersions, facts = false): NativeAhead | undefined {
  const gvk = gvkKeyOf(r.apiVersion, r.kind);
  const type = builtins.type(versions, gvk);
  if (type?.flavour !== "builtin" || !type.documentId) return undefined;
  try {
    const object = cloneWithoutNulls(r.object) as Record<string, unknown>;
    const { findings, undecodable } = builtinFindings(object, type);
    const ahead = { documentId: type.documentId, gvk, findings, undecodable, nullFree: object === r.object };
    if (!facts) return ahead;
    const extra = factExtra(r);
    // not flattened here: posting it to the main thread copies it into one flat string there
    const packed = extra === undefined ? false : packExtra(extra, false);
    return typeof packed === "object" ? ahead : { ...ahead, fact: packed };
  } catch {
    // whatever went wrong, the main thread meets again with its own error handling
    return undefined;
  }
}

/** The worker's findings when they are the ones the main thread would make for `type` (see the top of this file). */
export function usableAhead(ahead: NativeAhead | undefined, type: TypeSchema, schemaUndecodable: boolean): Finding[] | undefined {
  if (!ahead || type.flavour !== "builtin" || ahead.documentId !== type.documentId || ahead.gvk !== gvkKey(type.gvk)) return undefined;
  if (!schemaUndecodable) return ahead.findings;
  // the schema stage found a decode error: the native answer is the decode findings alone (nativeFindings), which
  // the worker made from the same object and schema, or found none of
  return ahead.undecodable ? ahead.findings : [];
}

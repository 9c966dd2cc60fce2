// One ajv instance with Kubernetes formats and RE2 patterns; compiled validators cached per schema.
import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Script } from "node:vm";
import { type CacheNames, markUsed, type Pruned, pruneUnused } from "@eks-gitops/config/cache-prune";
import { _, Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { callRef } from "ajv/dist/vocabularies/core/ref.js";
import af from "ajv-formats";
import { RE2JS } from "re2js";
import { re2AsRegExp } from "./re2-fast.ts";
import { shareRepeatedSubschemas } from "./share.ts";
import { convertComponents, convertCrdRoot, OBJECT_META, SHARED_KEYWORD, sharedValue, type ConvertContext, withoutSharedKeyword } from "./convert.ts";
import { DERIVED_FILES, readDerived, writeDerived } from "../derived-cache.ts";
import { ENUM_VALUES_SOURCE } from "./enum-values.ts";
import type { TypeSchema } from "./model.ts";

const addFormats = af.default;

// OpenAPI `pattern` is matched with Go's RE2 by the API server, not with JavaScript RegExp.
// Results are memoised per pattern (bounded): the same values (label keys, names) recur across objects.
const re2Engine = Object.assign(
  (pattern: string) => {
    // compiled on first use: validator code creates every pattern of a schema when it loads, most never run
    let re: RE2JS | undefined;
    // V8's RegExp where it reads the pattern as RE2 does (re2-fast.ts; null: RE2JS only)
    let fast: RegExp | null | undefined;
    const memo = new Map<string, boolean>();
    return {
      // ajv keys its compiled-pattern cache by toString()
      toString: () => `re2:${pattern}`,
      test(s: string): boolean {
        // schemas reaching a validator passed checkSchema, which compiles every pattern with RE2JS
        fast ??= re2AsRegExp(pattern) ?? null;
        if (fast) return fast.test(s);
        // long values are not memoised: each would hold its whole text in the memo
        if (s.length > 512) {
          re ??= RE2JS.compile(pattern);
          return re.test(s);
        }
        let hit = memo.get(s);
        if (hit === undefined) {
          re ??= RE2JS.compile(pattern);
          hit = re.test(s);
          if (memo.size >= 10_000) memo.clear();
          memo.set(s, hit);
        }
        return hit;
      },
    };
  },
  // how standalone (cached) validator code gets the engine: see SchemaCompiler.load
  { code: 'require("eks-gitops:re2")' },
);

const nodeRequire = createRequire(import.meta.url);
/** V8 code caches are only valid for the V8 that made them. */
const V8_TAG = `node-${process.versions.v8.replace(/[^0-9a-z.]/gi, "_")}-${process.arch}`;
/**
 * What the validator cache writes, and pruneCache may remove: `<key>.cjs` (validator code), `<key>.<V8 tag>.v8` (V8's
 * code cache of it), and `<file>.<pid>.tmp` while either is written.
 */
export const VALIDATOR_FILES: CacheNames = { kept: /^[0-9a-f]{64}\.(?:cjs|[A-Za-z0-9._-]+\.v8)$/, temporary: /^[0-9a-f]{64}\.[A-Za-z0-9._-]+\.\d+\.tmp$/ };
/** Bump when conversion or ajv options change: cached validator code is keyed by it. */
export const CACHE_VERSION = `eks-gitops-validate/9 ajv@8.20.0 verbose=false optimize=1 enums=${ENUM_VALUES_SOURCE}`;
const standalone = (standaloneCode as unknown as { default?: typeof standaloneCode }).default ?? standaloneCode;
/**
 * Definitions every built-in validator calls as one shared validator (SHARED_KEYWORD) instead of carrying a copy of
 * their code: ObjectMeta is in every kind, PodSpec in every workload kind of a document (Deployment, StatefulSet,
 * DaemonSet and ReplicaSet of apps/v1; Job and CronJob of batch/v1).
 */
export const SHARED_DEFS: ReadonlySet<string> = new Set([OBJECT_META, "io.k8s.api.core.v1.PodSpec"]);
/** The document id of a `documentId#/$defs/...` reference. */
const documentOf = (ref: string): string => ref.slice(0, ref.indexOf("#"));
/** How standalone validator code asks for a shared validator: `require(SHARED_PREFIX + value)` (SchemaCompiler.shared). */
const SHARED_PREFIX = "eks-gitops:shared:";

// Formats the API server's format checker knows beyond ajv-formats; unknown formats pass, as there.
const K8S_FORMATS: Record<string, RegExp | true> = {
  duration: /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*(ns|us|µs|ms|s|m|h|d|w|[a-z]+)(\s*(\d+(\.\d*)?|\.\d+)\s*(ns|us|µs|ms|s|m|h|d|w|[a-z]+))*\s*$/i,
  cidr: /^((\d{1,3}\.){3}\d{1,3}\/\d{1,2}|[0-9a-f:.]+\/\d{1,3})$/i,
  mac: /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i,
  bsonobjectid: /^[0-9a-f]{24}$/i,
  hexcolor: /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i,
};

export interface CompilerOptions {
  /**
   * Folder for compiled validator code, keyed by a hash of the schema: later runs load it instead of
   * compiling (ajv needs seconds for the largest CRDs). Only content-addressed schemas are cached.
   * @default no disk cache
   */
  readonly cacheDir?: string;
}

/**
 * A validator file is its code after one header line naming its key and the SHA-256 of the code: a file that is
 * not the one this key names (damaged, truncated, written by something else, or under another key) is ignored
 * and compiled anew, never run. Hashing the ~4 MB of validators a run loads costs ~3 ms.
 */
const HEADER = "// eks-gitops validator ";
const withHeader = (code: string, key: string): string => `${HEADER}${key} sha256=${createHash("sha256").update(code).digest("hex")}\n${code}`;

/** The text of a validator file if its header names `key` and the hash of the code after it, else undefined. */
export function verifiedCode(bytes: Buffer, key: string): string | undefined {
  const eol = bytes.indexOf(10);
  if (eol < 0 || eol > 256) return undefined;
  const match = /^\/\/ eks-gitops validator ([0-9a-f]{64}) sha256=([0-9a-f]{64})$/.exec(bytes.toString("latin1", 0, eol));
  if (!match || match[1] !== key) return undefined;
  const body = bytes.subarray(eol + 1);
  if (createHash("sha256").update(body).digest("hex") !== match[2]) return undefined;
  // the whole file, header (a comment) included: the same source as earlier versions ran, whose V8 code caches
  // beside it stay valid. ajv's standalone code is ASCII (latin1 is then the same text, copied), else UTF-8
  return bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
}

/**
 * A V8 code cache file is the SHA-256 of V8's data, then the data. V8 checks a cache against its version, flags and
 * the source's length, but verifies no checksum of the data in a release build: a damaged file that still passes
 * those checks would be deserialized and its bytecode run. One whose data does not match its hash is not used.
 */
const withCodeCacheHash = (data: Buffer): Buffer => Buffer.concat([createHash("sha256").update(data).digest(), data]);

/** The V8 data of a code cache file written by withCodeCacheHash, if it is intact, else undefined. */
export function verifiedCodeCache(stored: Buffer): Buffer | undefined {
  if (stored.length <= 32) return undefined;
  const data = stored.subarray(32);
  return createHash("sha256").update(data).digest().equals(stored.subarray(0, 32)) ? data : undefined;
}

/** The ajv instance validators are compiled with (`source`: keep the code, to store it). */
export function compilerAjv(source: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    validateFormats: true,
    validateSchema: false,
    // a referenced schema stays one function: share.ts's shared subschemas too (ajv would copy those without
    // references of their own into each place: ApplicationSet 334 KB instead of 290 KB)
    inlineRefs: false,
    code: { regExp: re2Engine, optimize: 1, source, formats: _`require("eks-gitops:formats")` },
  });
  addFormats(ajv, ["date-time", "date", "byte", "uuid", "ipv4", "ipv6", "email", "hostname", "int32", "int64", "float", "double"]);
  for (const [name, re] of Object.entries(K8S_FORMATS)) ajv.addFormat(name, re);
  for (const name of ["uri", "password", "int-or-string", "quantity", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "rgbcolor", "url"]) {
    ajv.addFormat(name, true);
  }
  return ajv;
}

export class SchemaCompiler {
  private readonly ajv: Ajv;
  private readonly cacheDir: string | undefined;
  /** Values derived from pinned schemas (derived()), beside the validators. */
  private readonly derivedDir: string | undefined;
  private readonly documents = new Set<string>();
  private readonly compiled = new WeakMap<TypeSchema, ValidateFunction>();
  /**
   * Validators by cache key (a hash of the converted schema): types with the same schema share one. CRD sets
   * repeat a schema under many kinds (the bench's 40 CRDs are one schema), and each load of the same file
   * cost ~1.5 ms (read, V8 code cache, evaluating its constants): 60 ms of a cold crd-heavy run.
   */
  private readonly byKey = new Map<string, ValidateFunction>();
  /** `documentId#/$defs/ObjectMeta` of the first builtin document that defines it. */
  private objectMetaRef: string | undefined;
  private readonly uncachedScripts = new Map<string, Script>();
  private readonly sharedById = new Map<string, ValidateFunction>();
  /** SHARED_KEYWORD's value for the ObjectMeta CRD `metadata` borrows, once made. */
  private objectMetaValue: string | undefined;
  /** A builtin type of each document met, to add the document when a shared validator of it must be compiled. */
  private readonly typeOfDocument = new Map<string, TypeSchema>();

  constructor(options: CompilerOptions = {}) {
    this.cacheDir = options.cacheDir ? join(options.cacheDir, "validators") : undefined;
    this.derivedDir = options.cacheDir ? join(options.cacheDir, "derived") : undefined;
    this.ajv = compilerAjv(this.cacheDir !== undefined);
    // SHARED_KEYWORD: the call ajv makes for a `$ref` compiled into a function of its own (callRef), to a validator
    // compiled or loaded once per run instead of a copy in each schema's code. The errors are the referenced
    // schema's, at the same instancePath, in the same place: the findings are the same as with the `$ref`.
    this.ajv.addKeyword({
      keyword: SHARED_KEYWORD,
      schemaType: "string",
      code: (cxt) => {
        const value = cxt.schema as string;
        // keyed by the value, not by the function: a kind's code names its own document's definition (the one to
        // compile the shared validator from if its file is missing), even when another document's was met first
        const fn = cxt.gen.scopeValue("func", { ref: this.shared(value), key: value, code: _`require(${SHARED_PREFIX + value})` });
        callRef(cxt, fn, undefined, false);
      },
    });
  }

  /**
   * The validator a SHARED_KEYWORD value names (convert.ts sharedValue: a content id, then the `$ref` to compile it
   * from), one per run for every schema that calls it: ObjectMeta and PodSpec instead of a copy of their code in each
   * kind's validator (custom resources of 40 CRDs ran 40 copies of ObjectMeta's code, each loaded from the cache and
   * each cold in V8), and one for every document that holds the same definitions. Cached on disk like the others.
   */
  private shared(value: string): ValidateFunction {
    const space = value.indexOf(" ");
    const id = value.slice(0, space);
    const ref = value.slice(space + 1);
    let fn = this.sharedById.get(id);
    if (fn) return fn;
    const key = this.cacheDir ? createHash("sha256").update(`${CACHE_VERSION}\nshared ${id}`).digest("hex") : undefined;
    fn = key ? this.load(key) : undefined;
    if (!fn) {
      // compiled and stored under its content id only when the value is the one convert.ts makes for that definition
      // (a value written by hand would store another schema's validator under the id)
      const documentId = documentOf(ref);
      const document = this.typeOfDocument.get(documentId);
      const name = ref.slice(ref.indexOf("#/$defs/") + "#/$defs/".length);
      if (!document?.components || sharedValue(document.components, documentId, name) !== value) throw new Error(`${value} names no shared definition`);
      this.addDocument(document);
      fn = this.ajv.getSchema(ref);
      if (!fn) throw new Error(`no schema ${ref} to share`);
      if (key && this.store(key, fn)) fn = this.load(key) ?? fn;
    }
    this.sharedById.set(id, fn);
    return fn;
  }

  /** The builtin type whose document holds the ObjectMeta custom resources borrow (added to ajv only when a CRD is compiled). */
  private objectMetaDocument(): TypeSchema | undefined {
    return this.objectMetaRef ? this.typeOfDocument.get(documentOf(this.objectMetaRef)) : undefined;
  }

  /** SHARED_KEYWORD's value for the ObjectMeta custom resources borrow (made once per run). */
  private objectMetaShared(): string | undefined {
    const document = this.objectMetaDocument();
    if (this.objectMetaValue === undefined && document?.components) this.objectMetaValue = sharedValue(document.components, document.documentId as string, OBJECT_META);
    return this.objectMetaValue;
  }

  /** Registers a builtin OpenAPI document once (its components become `$defs` of one schema resource). */
  private addDocument(type: TypeSchema): void {
    const id = type.documentId as string;
    if (this.documents.has(id) || !type.components) return;
    this.ajv.addSchema(convertComponents(type.components, id, { shared: SHARED_DEFS }));
    this.documents.add(id);
  }

  /** Makes ObjectMeta of a builtin document available to CRD `metadata` (call with any builtin type). */
  useObjectMetaFrom(type: TypeSchema): void {
    if (type.flavour !== "builtin" || this.objectMetaRef || !type.components?.[OBJECT_META]) return;
    this.objectMetaRef = `${type.documentId}#/$defs/${OBJECT_META}`;
    this.typeOfDocument.set(type.documentId as string, type);
  }

  validator(type: TypeSchema): ValidateFunction {
    const hit = this.compiled.get(type);
    if (hit) return hit;
    if (type.flavour === "builtin" && type.documentId && type.components && !this.typeOfDocument.has(type.documentId)) this.typeOfDocument.set(type.documentId, type);
    // the JSON Schema ajv compiles, made only when needed (converting a large CRD's schema takes milliseconds)
    let converted: Record<string, unknown> | undefined;
    const schemaOf = (): Record<string, unknown> => {
      if (converted) return converted;
      if (type.flavour === "builtin") {
        const ref = (type.root.$ref as string).replace("#/components/schemas/", "#/$defs/");
        converted = { $ref: `${type.documentId}${ref}` };
      } else {
        const ctx: ConvertContext = { flavour: type.flavour, objectMetaRef: this.objectMetaRef, objectMetaShared: this.objectMetaShared() };
        const { $schema: _ignored, $id: _id, ...root } = type.root as Record<string, unknown>;
        converted = type.flavour === "crd" ? convertCrdRoot(root, ctx) : withoutSharedKeyword(root);
      }
      return converted;
    };
    const cacheable = type.flavour === "builtin" ? (type.documentId?.startsWith("catalog:") ?? false) : !this.objectMetaRef || this.objectMetaRef.startsWith("catalog:");
    // a pinned CRD's content id (with the ObjectMeta it borrows) names the same schema as its converted JSON would
    const identity = type.flavour === "crd" && type.contentId ? `content ${type.contentId} meta ${this.objectMetaRef ?? ""}` : undefined;
    const key = this.cacheDir && cacheable ? createHash("sha256").update(`${CACHE_VERSION}\n${identity ?? JSON.stringify(schemaOf())}`).digest("hex") : undefined;
    let fn = key ? (this.byKey.get(key) ?? this.load(key)) : undefined;
    if (!fn) {
      const schema = schemaOf();
      const document = type.flavour === "builtin" ? type : this.objectMetaDocument();
      if (document) this.addDocument(document);
      // a CRD's repeated subschemas compiled once each (share.ts); the cache key is the schema as converted
      fn = this.ajv.compile(type.flavour === "crd" ? shareRepeatedSubschemas(schema) : schema);
      // reloaded from the stored code so that this first run already leaves V8's code cache beside it
      if (key && this.store(key, fn)) fn = this.load(key) ?? fn;
    }
    this.compiled.set(type, fn);
    if (key) this.byKey.set(key, fn);
    return fn;
  }

  /**
   * `compute(type)`, kept on disk for a type with a content id (a pinned catalog CRD), so that later runs read
   * it instead: `name` says what it is and must change (with a version) whenever `compute` would answer differently.
   */
  derived<T>(name: string, type: TypeSchema, compute: () => T): T {
    if (!this.derivedDir || !type.contentId) return compute();
    const id = createHash("sha256").update(`${CACHE_VERSION}\n${name}\n${type.contentId}`).digest("hex");
    const stored = readDerived(this.derivedDir, id);
    if (stored) return stored.value as T;
    const value = compute();
    writeDerived(this.derivedDir, id, value);
    return value;
  }

  private requireForCode = (id: string): unknown => {
    if (id === "eks-gitops:re2") return re2Engine;
    if (id === "eks-gitops:formats") return this.ajv.formats;
    if (id.startsWith(SHARED_PREFIX)) return this.shared(id.slice(SHARED_PREFIX.length));
    return nodeRequire(id);
  };

  private load(key: string): ValidateFunction | undefined {
    const file = join(this.cacheDir as string, `${key}.cjs`);
    let code: string;
    try {
      const verified = verifiedCode(readFileSync(file), key);
      if (verified === undefined) return undefined;
      code = verified;
    } catch {
      return undefined;
    }
    markUsed(file);
    // V8's code cache for this file (bytecode of the functions compiled in an earlier run), if this Node made it
    const v8File = join(this.cacheDir as string, `${key}.${V8_TAG}.v8`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = verifiedCodeCache(readFileSync(v8File));
      if (cachedData) markUsed(v8File);
    } catch {
      cachedData = undefined;
    }
    try {
      const mod: { exports: unknown } = { exports: {} };
      // the cached file is code ajv generated from a schema whose hash is its name, in our own cache folder
      const script = new Script(`(function (require, module, exports) {${code}\n})`, { filename: file, cachedData });
      (script.runInThisContext() as (r: unknown, m: unknown, e: unknown) => void)(this.requireForCode, mod, mod.exports);
      if (cachedData === undefined || script.cachedDataRejected) this.uncachedScripts.set(v8File, script);
      return typeof mod.exports === "function" ? (mod.exports as ValidateFunction) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Writes V8's code cache of validators loaded without one. Call after validating: the cache then holds
   * every function the run compiled, and the next run skips compiling them (the largest CRDs' validators
   * are megabytes of code).
   */
  saveCodeCache(): void {
    for (const [file, script] of this.uncachedScripts) {
      try {
        writeFileSync(`${file}.${process.pid}.tmp`, withCodeCacheHash(script.createCachedData()));
        renameSync(`${file}.${process.pid}.tmp`, file);
      } catch {
        // a read-only cache only costs speed
      }
    }
    this.uncachedScripts.clear();
  }

  /**
   * Removes the cached validators no run has used for a month (see @eks-gitops/config's cache-prune.ts), at most once
   * a day; undefined when it did not prune now (or there is no cache).
   */
  pruneCache(now?: number): Pruned | undefined {
    if (!this.cacheDir || !this.derivedDir) return undefined;
    // the values derived from pinned schemas beside it (derived()), keyed by CACHE_VERSION too
    const derived = pruneUnused(this.derivedDir, DERIVED_FILES, now);
    const validators = pruneUnused(this.cacheDir, VALIDATOR_FILES, now);
    if (!derived) return validators;
    return { files: derived.files + (validators?.files ?? 0), bytes: derived.bytes + (validators?.bytes ?? 0) };
  }

  private store(key: string, fn: ValidateFunction): boolean {
    try {
      const code = standalone(this.ajv, fn);
      mkdirSync(this.cacheDir as string, { recursive: true });
      const file = join(this.cacheDir as string, `${key}.cjs`);
      writeFileSync(`${file}.${process.pid}.tmp`, withHeader(code, key));
      renameSync(`${file}.${process.pid}.tmp`, file);
      return true;
    } catch {
      // a read-only cache (or code ajv cannot emit standalone) only costs speed
      return false;
    }
  }
}

export type { ErrorObject };

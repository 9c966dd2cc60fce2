// runValidation(): the whole `eks-gitops validate` pipeline as a library call (paths → schemas → report).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
// subpaths, not the package index: validate loads the overlay checks (zod) only with an overlay
import { CLUSTERS_DIR, RENDERED_DIR } from "@eks-gitops/config/layout";
import { listClusters, loadCluster } from "@eks-gitops/config/load";
import { type CatalogVersions, defaultCacheDir } from "./catalog/index.ts";
import type { FetchOptions } from "./catalog/fetch.ts";
import { loadDocuments, parseText, type ReadOptions } from "./reader.ts";
import { missingRenderedOutput } from "./missing-output.ts";
import { crossObjectChecks } from "./cross-object/index.ts";
import { clusterLayer } from "./schema/cluster.ts";
import { catalogLayer, type SchemaLayer, SchemaRegistry, typesFromDocuments, typesFromPaths } from "./schema/registry.ts";
import type { CrossObjectChecks, LoadedDocuments, ParsedResource, Report } from "./types.ts";
import { ObjectValidator, validateDocuments } from "./validate.ts";

export interface RunOptions {
  /** Repository root: default paths (every clusters/<name>/rendered) and overlay versions come from it. */
  readonly root: string;
  /** Files, folders or `-`. @default every clusters/<name>/rendered of the root */
  readonly paths?: readonly string[];
  /** Documents already in memory (synth's render, see validate-render.ts), validated instead of `paths`. */
  readonly documents?: LoadedDocuments;
  /** --crd FILE|DIR (highest priority). */
  readonly crd?: readonly string[];
  /** Ask the current kubeconfig's cluster (CRDs and /openapi/v3). @default false */
  readonly fromCluster?: boolean;
  /** Use the pinned catalog. @default true */
  readonly catalog?: boolean;
  readonly mirror?: string;
  readonly cacheDir?: string;
  /** Progress of catalog downloads (the first run downloads the pinned schemas). */
  readonly onProgress?: FetchOptions["onProgress"];
  /** Versions for files outside any overlay. @default the newest pinned */
  readonly versions?: CatalogVersions;
  /** Git ref of the previous rendered output; enables `oldSelf` rules. */
  readonly base?: string;
  readonly read?: ReadOptions;
  /** Replaces the cross-object checks found in ./cross-object (tests). */
  readonly crossObjectChecks?: CrossObjectChecks | false;
  /** Lint rendered/iam/*.json with the policies package. @default true */
  readonly iamLint?: boolean;
  readonly validator?: ObjectValidator;
}

/** Wall time of each phase of a run, in order (shown by `--timings`). */
export type Timings = { readonly phase: string; readonly ms: number }[];

/** A problem with the command line or the repository (exit 2), not with the validated documents. */
export class RunUsageError extends Error {
  override name = "RunUsageError";
}

interface OverlayFacts {
  readonly clusterName: string;
  readonly kubernetesVersion: string;
  readonly karpenterVersion: string;
}

/** `clusters/<name>/...` → name, for a path relative to the root. */
function overlayOf(root: string, cwd: string, file: string): string | undefined {
  if (file === "-") return undefined;
  const rel = relative(root, resolve(cwd, file)).split(sep);
  return rel[0] === CLUSTERS_DIR && rel.length > 2 ? rel[1] : undefined;
}

export function defaultPaths(root: string): string[] {
  return listClusters(root)
    .map((n) => join(root, CLUSTERS_DIR, n, RENDERED_DIR))
    .filter((p) => existsSync(p));
}

/** The previously committed version of each resource at `ref` (matched by apiVersion, kind, namespace, name). */
function previousFrom(root: string, cwd: string, ref: string): (r: ParsedResource) => Record<string, unknown> | undefined {
  const files = new Map<string, ParsedResource[]>();
  return (r) => {
    if (r.file === "-") return undefined;
    let docs = files.get(r.file);
    if (!docs) {
      const rel = relative(root, resolve(cwd, r.file)).split(sep).join("/");
      let text = "";
      try {
        text = execFileSync("git", ["-C", root, "show", `${ref}:${rel}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 });
      } catch {
        // new in this change: no previous object
      }
      docs = parseText({ file: r.file, text }).resources;
      files.set(r.file, docs);
    }
    return docs.find((d) => d.apiVersion === r.apiVersion && d.kind === r.kind && d.name === r.name && d.namespace === r.namespace)?.object as Record<string, unknown> | undefined;
  };
}

function checkRef(root: string, ref: string): void {
  try {
    execFileSync("git", ["-C", root, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (err) {
    if (/not a git repository/i.test(String((err as { stderr?: Buffer }).stderr ?? ""))) {
      throw new RunUsageError(`--base ${ref}: ${root} is not a git repository; --base reads the previously committed objects from git: run inside a clone, or drop --base`);
    }
    throw new RunUsageError(`--base ${ref}: not a commit in ${root}; pass a branch, tag or commit (e.g. --base origin/main)`);
  }
}

/** Loads, validates and reports. Throws RunUsageError for bad options, CatalogError/ClusterSchemaError when schemas cannot be had. */
export async function runValidation(options: RunOptions): Promise<{ report: Report; documents: LoadedDocuments; layers: string[]; timings: Timings }> {
  const timings: Timings = [];
  let mark = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    timings.push({ phase: name, ms: now - mark });
    mark = now;
  };
  const root = resolve(options.root);
  // shown paths are relative to the repository root: stable in CI and what GitHub annotations need
  const cwd = options.read?.cwd ?? root;
  const paths = options.documents ? [] : options.paths && options.paths.length > 0 ? [...options.paths] : defaultPaths(root);
  // with no paths, an overlay without rendered output is an error, not silently skipped
  const missing = options.documents || (options.paths && options.paths.length > 0) ? [] : missingRenderedOutput(root);
  if (paths.length === 0 && !options.documents && missing.length === 0) throw new RunUsageError(`nothing to validate: no paths given and no ${CLUSTERS_DIR}/*/${RENDERED_DIR} under ${root}; run \`pnpm synth\` first or pass files`);
  for (const p of paths) if (p !== "-" && !existsSync(p)) throw new RunUsageError(`no such file or folder: ${p}`);
  if (options.base) checkRef(root, options.base);

  const loaded = options.documents ?? loadDocuments(paths, { ...options.read, cwd });
  const documents = missing.length > 0 ? { ...loaded, unreadable: [...loaded.unreadable, ...missing] } : loaded;
  phase("read");

  const facts: Record<string, OverlayFacts> = {};
  // documents come many to a file: the overlay of each file is worked out once
  const overlays = new Map<string, string | undefined>();
  const overlayOfFile = (file: string) => {
    if (!overlays.has(file)) overlays.set(file, overlayOf(root, cwd, file));
    return overlays.get(file);
  };
  for (const name of new Set([...documents.resources, ...documents.iam].map((d) => overlayOfFile(d.file)))) {
    if (name === undefined) continue;
    const config = await loadCluster(root, name);
    facts[name] = { clusterName: config.name, kubernetesVersion: config.kubernetesVersion, karpenterVersion: config.karpenter.version };
  }
  phase("overlays");
  // catalog versions follow each file's overlay; worked out once per file
  const versionsByFile = new Map<string, { versions: CatalogVersions; key: string }>();
  const versionsOf = (file: string) => {
    let v = versionsByFile.get(file);
    if (!v) {
      const f = facts[overlayOfFile(file) ?? ""];
      const versions = f ? { ...options.versions, kubernetes: f.kubernetesVersion, karpenter: f.karpenterVersion } : (options.versions ?? {});
      v = { versions, key: JSON.stringify(versions) };
      versionsByFile.set(file, v);
    }
    return v;
  };

  const shared = new SchemaRegistry();
  if (options.crd && options.crd.length > 0) {
    for (const p of options.crd) if (!existsSync(p)) throw new RunUsageError(`--crd ${p}: no such file or folder`);
    let types: ReturnType<typeof typesFromPaths>;
    try {
      types = typesFromPaths(options.crd);
    } catch (err) {
      // an unreadable, binary, unparsable or cyclic --crd file is a bad option, named in the message
      const message = (err as Error)?.message ?? String(err);
      throw new RunUsageError(message.startsWith("--crd ") ? message : `--crd ${message}`);
    }
    shared.addLayer(`--crd ${options.crd.join(", ")}`, types);
  }
  shared.addLayer("CRDs among the documents", typesFromDocuments(documents.resources));
  if (options.fromCluster) shared.pushLayer(await clusterLayer(documents.resources.map((r) => r.apiVersion)));

  const registries = new Map<string, SchemaRegistry>();
  if (options.catalog !== false) {
    // the kinds each set of versions is asked for: catalog files defining none of them are not read
    const wanted = new Map<string, { versions: CatalogVersions; kinds: Map<string, { apiVersion: string; kind: string }> }>();
    for (const r of documents.resources) {
      const { versions, key } = versionsOf(r.file);
      let entry = wanted.get(key);
      if (!entry) {
        entry = { versions, kinds: new Map() };
        wanted.set(key, entry);
      }
      entry.kinds.set(`${r.apiVersion}\u0000${r.kind}`, { apiVersion: r.apiVersion, kind: r.kind });
    }
    for (const [key, { versions, kinds }] of wanted) {
      const layer: SchemaLayer = await catalogLayer(versions, { mirror: options.mirror, cacheDir: options.cacheDir, onProgress: options.onProgress }, kinds.values());
      registries.set(key, shared.with([layer]));
    }
  }
  const registryFor = (r: ParsedResource) => registries.get(versionsOf(r.file).key) ?? shared;

  phase("schemas");
  const checks = options.crossObjectChecks === false ? undefined : (options.crossObjectChecks ?? crossObjectChecks);
  const validator = options.validator ?? new ObjectValidator({ cacheDir: options.cacheDir ?? defaultCacheDir() });
  const report = await validateDocuments(
    documents,
    {
      registry: registryFor,
      previous: options.base ? previousFrom(root, cwd, options.base) : undefined,
      crossObjectChecks: checks,
      crossObjectContext: { overlays: facts },
      iamLint: options.iamLint,
    },
    validator,
  );
  phase("validate");
  validator.compiler.saveCodeCache();
  phase("code cache");
  const layers = [...new Set([...registries.values(), shared].flatMap((r) => r.layers.map((l) => l.name)))];
  return { report, documents, layers, timings };
}

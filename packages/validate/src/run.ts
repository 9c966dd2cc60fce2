// runValidation(): the whole `eks-gitops validate` pipeline as a library call (paths → schemas → report).
import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
// subpaths, not the package index: validate loads the overlay checks (zod) only with an overlay
import { CLUSTERS_DIR, RENDERED_DIR } from "@eks-gitops/config/layout";
import { listClusters, loadCluster } from "@eks-gitops/config/load";
import { loadChartValues } from "./catalog/charts.ts";
import { type CatalogVersions, defaultCacheDir } from "./catalog/index.ts";
import type { FetchOptions } from "./catalog/fetch.ts";
import { collectPaths, readRegularFile, readStdinLimited } from "./hostile/fs.ts";
import { DEFAULT_MAX_FILE_BYTES, loadDocuments, parseText, type ReadOptions } from "./reader.ts";
import { isNormalAbsolute, shownPath } from "./shown-path.ts";
import { missingRenderedOutput } from "./missing-output.ts";
import { crossObjectChecks } from "./cross-object/index.ts";
import { CONFIG_FILE } from "./config-file.ts";
import { SCAN_KEEP_CHARS, type ScanResult, scanDocuments, scanFiles, scanFilesShared } from "./scan.ts";
import { CHECKS, type CompiledSelection, compileSelection, fileFilter, type Selection, SelectionError } from "./selection.ts";
import type { Worker } from "node:worker_threads";
import { validateFiles } from "./stream.ts";
import { ReadAhead } from "./read-ahead.ts";
import { clusterLayer } from "./schema/cluster.ts";
import { catalogLayer, type SchemaLayer, SchemaRegistry, typesFromPaths } from "./schema/registry.ts";
import type { CrossObjectChecks, LoadedDocuments, ParsedResource, Report, UnreadableDocument } from "./types.ts";
import { ObjectValidator } from "./validate.ts";
import { type Acknowledgement, applyLevels } from "./levels.ts";
import { withNotChecked } from "./result-store.ts";
import { HeapGuard } from "./heap-guard.ts";
import { type FileList, listArray, type SpillBudget, spilledList } from "./spill.ts";

export interface RunOptions {
  /** Repository root: default paths (every clusters/<name>/rendered) and overlay versions come from it. */
  readonly root: string;
  /** Files, folders or `-`. @default every clusters/<name>/rendered of the root */
  readonly paths?: readonly string[];
  /** Documents already in memory (synth's render, see validate-render.ts), validated instead of `paths`. */
  readonly documents?: LoadedDocuments;
  /** The text of each in-memory document's file (by its shown path), for finding positions. */
  readonly texts?: ReadonlyMap<string, string>;
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
  /** Lint rendered/iam/*.json with the policies package. @default true (same as `iam` in selection.checks) */
  readonly iamLint?: boolean;
  /** What runs and what is skipped (`--checks`, `--skip`, `--reject`, `--ignore-missing-schemas`, `--ignore-filename-pattern`). @default everything */
  readonly selection?: Selection;
  readonly validator?: ObjectValidator;
  /** Warnings become errors (`--strict`). @default false */
  readonly strict?: boolean;
  /** Findings accepted with a reason (`.eks-gitops.yaml` `validate.acknowledge`): reported as acknowledged, counted as nothing. */
  readonly acknowledge?: readonly Acknowledgement[];
  /** Overlays the caller already loaded (synth's), by name: used as they are instead of loading each `cluster.ts` again. */
  readonly loadedOverlays?: ReadonlyMap<string, LoadedOverlay>;
  /** A worker started with startReadAheadWorker (see read-ahead.ts), handed the files to read ahead; without it every file is read on the calling thread. */
  readonly readAheadWorker?: Worker;
  /** See StreamOptions.onWarm: called once the run's first files are validated (the CLI records the count; its code cache is written at the end of the run). */
  readonly onWarm?: (files: number) => void;
  /** Rows kept in memory before the rest of a run's names and cross-object facts go to a temporary file (see spill.ts); the report is the same either way. @default 10,000 rows, 1 MiB buffered */
  readonly spill?: SpillBudget;
}

/** Wall time of each phase of a run, in order (shown by `--timings`). */
export type Timings = { readonly phase: string; readonly ms: number }[];

/** A problem with the command line or the repository (exit 2), not with the validated documents. */
export class RunUsageError extends Error {
  override name = "RunUsageError";
}

/** What validation needs of a loaded overlay (a ClusterConfig has it). */
export interface LoadedOverlay {
  readonly name: string;
  readonly kubernetesVersion: string;
  readonly karpenter: { readonly version: string };
}

interface OverlayFacts {
  readonly clusterName: string;
  readonly kubernetesVersion: string;
  readonly karpenterVersion: string;
}

/** `clusters/<name>/...` → name, for a path relative to the root. */
function overlayOf(root: string, cwd: string, file: string): string | undefined {
  if (file === "-") return undefined;
  // shown relative to the root (absolute outside it, where no overlay is); a plain relative path is joined
  // without node:path (asked once a file during the stream too, see loadOverlays)
  const absolute = isNormalAbsolute(file) ? file : cwd !== "/" && isNormalAbsolute(cwd) && isNormalAbsolute(`/${file}`) ? `${cwd}/${file}` : resolve(cwd, file);
  const rel = shownPath(root, absolute).split("/");
  return rel[0] === CLUSTERS_DIR && rel.length > 2 ? rel[1] : undefined;
}

export function defaultPaths(root: string): string[] {
  return listClusters(root)
    .map((n) => join(root, CLUSTERS_DIR, n, RENDERED_DIR))
    .filter((p) => existsSync(p));
}

/** git, through node:child_process loaded on first use (only --base needs it; loading it cost each run ~3 ms). */
const git = () => process.getBuiltinModule("node:child_process");

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
        text = git().execFileSync("git", ["-C", root, "show", `${ref}:${rel}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 });
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
    git().execFileSync("git", ["-C", root, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (err) {
    if (/not a git repository/i.test(String((err as { stderr?: Buffer }).stderr ?? ""))) {
      throw new RunUsageError(`--base ${ref}: ${root} is not a git repository; --base reads the previously committed objects from git: run inside a clone, or drop --base`);
    }
    throw new RunUsageError(`--base ${ref}: not a commit in ${root}; pass a branch, tag or commit this clone has (a remote branch is fetched first: \`git fetch origin main\`, then --base origin/main)`);
  }
}

/** The rendered files of `overlays` that `files` leave out, read (undefined when nothing is left out). */
function overlayContext(root: string, files: readonly string[], overlays: readonly string[], read: ReadOptions): LoadedDocuments | undefined {
  // files outside every overlay (no overlay to complete): no path work per file
  if (overlays.length === 0) return undefined;
  const given = new Set(files.filter((f) => f !== "-").map((f) => (isNormalAbsolute(f) ? f : resolve(f))));
  const rest = overlays.flatMap((name) => collectPaths([join(root, CLUSTERS_DIR, name, RENDERED_DIR)]).files.filter((f) => !given.has(resolve(f))));
  return rest.length > 0 ? loadDocuments(rest, read) : undefined;
}

/** The text of what readRegularFile read (never a FIFO or device: reading one would wait), or undefined. */
const textOf = (read: ReturnType<typeof readRegularFile>) => (Buffer.isBuffer(read) ? read.toString("utf8") : undefined);

/** What the select stage settles before anything is read: the files, the problems met finding them, and how paths are shown. */
interface Selected {
  readonly root: string;
  /** Shown paths are relative to it. */
  readonly cwd: string;
  readonly selection: CompiledSelection;
  /** Regular files to read (and `-` for stdin), filtered. */
  readonly files: string[];
  /** Paths that cannot be read and overlays without rendered output: one error each. */
  readonly unreadable: UnreadableDocument[];
  readonly maxFileBytes: number;
  /** The text of stdin, read once (empty when it could not be read). */
  readonly stdin: () => string;
  /** A path as reports show it. */
  readonly show: (file: string) => string;
  /** Drops show()'s memo (show() still answers, working each path out again). */
  readonly forgetShown: () => void;
}

/** What the catalog stage gives the stream: a registry per resource, and the layers used (for the report). */
interface Catalog {
  readonly registryFor: (r: ParsedResource) => SchemaRegistry | Promise<SchemaRegistry>;
  readonly chartValues: unknown;
  readonly layers: () => string[];
}

/**
 * Milliseconds on the monotonic clock. Not `performance.now()`: its first use loads node:perf_hooks, ~3 ms of every
 * run's start-up.
 */
const clockMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Loads, validates and reports. Throws RunUsageError for bad options, CatalogError/ClusterSchemaError when schemas cannot be had. */
export async function runValidation(options: RunOptions): Promise<{ report: Report; files: string[]; layers: string[]; timings: Timings; readAhead: { files: number; fromWorker: number; nativeAhead: number } }> {
  const timings: Timings = [];
  let mark = clockMs();
  const phase = (name: string) => {
    const now = clockMs();
    timings.push({ phase: name, ms: now - mark });
    mark = now;
  };
  const { readAhead, selected, list, files, catalog, overlays, validator, context } = await prepare(options, phase);
  try {
    const report = await stream(options, selected, list, catalog, overlays, validator, readAhead, context);
    phase("validate");
    validator.compiler.saveCodeCache();
    // at most once a day: the validators no run has used for a month
    validator.compiler.pruneCache();
    phase("code cache");
    const { fromWorker, nativeAhead: nativeMade } = readAhead;
    // `files` made again from the spilled list only if asked for (the CLI does not)
    let listed = files;
    return {
      report,
      get files() {
        listed ??= listArray(list);
        return listed;
      },
      layers: catalog.layers(),
      timings,
      readAhead: { files: list.length, fromWorker, nativeAhead: nativeMade },
    };
  } finally {
    readAhead.close();
  }
}

/** What the stages before the stream hand it. */
interface Prepared {
  /** Reading ahead from the first file on (the caller closes it). */
  readonly readAhead: ReadAhead;
  readonly selected: Selected;
  /** The files the stream reads, in order. */
  readonly list: FileList;
  /** The files as an array: undefined when `list` is a spilled copy of them (the array is then dropped). */
  readonly files: string[] | undefined;
  readonly catalog: Catalog;
  readonly overlays: Overlays;
  readonly validator: ObjectValidator;
  readonly context: LoadedDocuments | undefined;
}

/**
 * The stages before the stream (select, overlays, scan, schemas), in a function of their own: an async function's
 * suspended frame keeps every value its registers last held, and runValidation's held the array of every file's
 * name through the stream's awaits (~15 MB of names at 200,000 files, long after the list was spilled).
 */
async function prepare(options: RunOptions, phase: (name: string) => void): Promise<Prepared> {
  const heap = new HeapGuard();
  let selected = select(options);
  const { cwd, selection, stdin } = selected;
  let files: string[] | undefined = selected.files;
  // the worker starts reading now, while the main thread scans the files and loads their schemas
  // with the pinned catalog, the worker also runs the native checks of built-in objects ahead (native-ahead.ts)
  const nativeAhead = options.catalog !== false && selection.checks.has("native");
  // the worker also takes the first half of the scan (scanFilesShared), from the first file on, while this thread
  // loads the overlays and then scans from the last file
  const scanOptions = { maxFileBytes: selected.maxFileBytes, text: stdin, show: selected.show, maxAliasCount: options.read?.maxAliasCount };
  const readAhead = new ReadAhead(
    files,
    { ...options.read, cwd, readStdin: stdin },
    options.readAheadWorker,
    nativeAhead ? (options.cacheDir ?? defaultCacheDir()) : undefined,
    {
      ...(options.documents ? {} : { scan: { maxFileBytes: selected.maxFileBytes, keepChars: SCAN_KEEP_CHARS } }),
      // the cross-object facts of built-in objects are made with their native checks (stream.ts takes them)
      facts: selection.checks.has("cross-object"),
    },
  );
  try {
    // the overlays first: their catalog versions let the worker run the native checks from its first file on
    const overlays = await loadOverlays(options, selected);
    // a file given inside an overlay's rendered folder: the overlay's other files are context for the cross-object
    // checks (an HPA's target, a NodePool's EC2NodeClass), never reported on themselves
    const context =
      selection.checks.has("cross-object") && options.paths?.length
        ? overlayContext(selected.root, files, Object.keys(overlays.facts), { ...options.read, cwd, maxFileBytes: selected.maxFileBytes })
        : undefined;
    if (nativeAhead) readAhead.nativeVersions(files.map((f) => (f === "-" ? null : overlays.versionsOf(selected.show(f)).versions)));
    phase("overlays");
    // the scan's kinds by file are dropped once the catalog is loaded: not held through the stream
    const partner = options.documents ? undefined : readAhead.scanPartner();
    let scan: ScanResult | undefined = options.documents
      ? scanDocuments(options.documents)
      : partner
        ? await scanFilesShared(files, scanOptions, partner)
        : scanFiles(files, scanOptions);
    // the texts the scan read are parsed without reading their files again (each file read once), and the CRD files
    // it parsed are not parsed again
    readAhead.provide(scan.texts, scan.parsed);
    scan.texts.clear();
    scan.parsed.clear();
    phase("scan");
    const catalog = await loadCatalog(options, selected, scan, overlays);
    scan = undefined;
    // no stage after the catalog shows a path through it: its memo (a string and an entry a file) is dropped too
    selected.forgetShown();
    overlays.forget();
    phase("schemas");
    const validator = options.validator ?? new ObjectValidator({ cacheDir: options.cacheDir ?? defaultCacheDir() });
    // from here on the files are read by index, one after the other: a long list is kept in a temporary file
    // (spill.ts), not as strings held through the stream
    const list = spilledList(files, options.spill);
    if (list !== files) {
      readAhead.useFiles(list);
      files = undefined;
      selected = { ...selected, files: [] };
    }
    // what the scan and the catalog left (the kinds of every file, shown paths, texts read) is garbage now: collected
    // before the stream when it grew the heap by the slack (long runs), or the stream's own garbage piles on top of it
    // (the stream's HeapGuard starts from the heap as it is)
    heap.check();
    return { readAhead, selected, list, files, catalog, overlays, validator, context };
  } catch (err) {
    readAhead.close();
    throw err;
  }
}

/** The select stage: checks the options and works out which files are read (nothing is parsed yet). */
function select(options: RunOptions): Selected {
  const root = resolve(options.root);
  // shown paths are relative to the repository root: stable in CI and what GitHub annotations need
  const cwd = options.read?.cwd ?? root;
  const paths = options.documents ? [] : options.paths && options.paths.length > 0 ? [...options.paths] : defaultPaths(root);
  // with no paths, an overlay without rendered output is an error, not silently skipped
  const missing = options.documents || (options.paths && options.paths.length > 0) ? [] : missingRenderedOutput(root);
  if (paths.length === 0 && !options.documents && missing.length === 0) throw new RunUsageError(`nothing to validate: no paths given and no ${CLUSTERS_DIR}/*/${RENDERED_DIR} under ${root}; run \`pnpm synth\` first or pass files`);
  for (const p of paths) if (p !== "-" && !existsSync(p)) throw new RunUsageError(`no such file or folder: ${p}`);
  if (options.base) checkRef(root, options.base);
  const { selection, keep } = compileRunSelection(options, cwd);

  const maxFileBytes = options.read?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const readStdin = stdinReader(options, maxFileBytes);
  const stdin = () => {
    const read = readStdin();
    return typeof read === "string" ? read : "";
  };
  // worked out once per file: the scan, the overlays and the catalog each ask for every file's
  const shown = new Map<string, string>();
  const show = (file: string) => {
    if (file === "-") return file;
    let s = shown.get(file);
    if (s === undefined) {
      s = shownPath(cwd, file);
      shown.set(file, s);
    }
    return s;
  };
  // paths that cannot be read (permissions, dangling or looping links, FIFOs): one error each, the rest is validated
  const collected = collectPaths(paths);
  const unreadable: UnreadableDocument[] = collected.problems
    .filter((p) => keep(p.file))
    .map((p) => ({ file: show(p.file), index: 0, findings: [{ severity: "error", path: "", message: p.message, rule: p.rule }] }));
  unreadable.push(...missing);
  // the repository's validate defaults are not a manifest
  let files = collected.files.filter((f) => keep(f) && !f.endsWith(`/${CONFIG_FILE}`) && f !== CONFIG_FILE);
  if (files.includes("-")) {
    const read = readStdin();
    if (typeof read !== "string") {
      unreadable.push(read);
      files = files.filter((f) => f !== "-");
    }
  }
  return { root, cwd, selection, files, unreadable, maxFileBytes, stdin, show, forgetShown: () => shown.clear() };
}

/** `--checks`, `--skip`, `--reject`... compiled, and the `--ignore-filename-pattern` filter; a bad one is a usage error. */
function compileRunSelection(options: RunOptions, cwd: string): { selection: CompiledSelection; keep: (path: string) => boolean } {
  try {
    const checks = options.selection?.checks ?? [...CHECKS];
    const selection = compileSelection({
      ...options.selection,
      checks: checks.filter((c) => !(c === "iam" && options.iamLint === false) && !(c === "cross-object" && options.crossObjectChecks === false)),
    });
    return { selection, keep: fileFilter(options.selection?.ignoreFilenamePatterns ?? [], cwd) };
  } catch (err) {
    if (err instanceof SelectionError) throw new RunUsageError(err.message);
    throw err;
  }
}

/**
 * stdin cannot be read twice: its text is kept for the scan, the reader and the positions of its findings
 * (real stdin is read up to the byte limit, never more; a test's text is checked against it by the reader).
 */
function stdinReader(options: RunOptions, maxFileBytes: number): () => string | UnreadableDocument {
  let stdinRead: string | UnreadableDocument | undefined;
  return () => {
    if (stdinRead === undefined) {
      const read = options.read?.readStdin ? options.read.readStdin() : readStdinLimited(maxFileBytes);
      stdinRead = typeof read === "string" ? read : Buffer.isBuffer(read) ? read.toString("utf8") : { file: "-", index: 0, findings: [{ severity: "error", path: "", message: read.message, rule: read.rule }] };
    }
    return stdinRead;
  };
}

/** The overlays the files lie in: their facts (for the cross-object checks) and the catalog versions of each file. */
interface Overlays {
  readonly facts: Record<string, OverlayFacts>;
  readonly versionsOf: (file: string) => { versions: CatalogVersions; key: string };
  /**
   * Drops the memo of each file's overlay (an entry and a path a file): the stream asks for the files in turn,
   * each once per document, and a memo of the last file answers that.
   */
  readonly forget: () => void;
}

/** Loads each overlay a file lies in, once. */
async function loadOverlays(options: RunOptions, selected: Selected): Promise<Overlays> {
  const { root, cwd, files, show } = selected;
  const facts: Record<string, OverlayFacts> = {};
  // once per file, like show(): asked again by versionsOf
  let overlays: Map<string, string | undefined> | undefined = new Map();
  let last: { file: string; name: string | undefined } | undefined;
  // the overlay depends on a file's folder only: files of one folder come in turn (the stream asks for each of
  // its objects, 50,000 files asked overlayOf() ~0.1 s), so the last folder's answer serves the next file in it.
  // A name starting with `.` (`..x.yaml`, shown differently by shownPath) is asked for itself.
  let lastFolder: { folder: string; name: string | undefined } | undefined;
  const overlayOfFile = (file: string) => {
    if (last?.file === file) return last.name;
    let name: string | undefined;
    const slash = file.lastIndexOf("/");
    const folder = slash > 0 && file.charCodeAt(slash + 1) !== 0x2e ? file.slice(0, slash + 1) : undefined;
    if (folder !== undefined && lastFolder?.folder === folder) name = lastFolder.name;
    else if (overlays) {
      if (!overlays.has(file)) overlays.set(file, overlayOf(root, cwd, file));
      name = overlays.get(file);
    } else name = overlayOf(root, cwd, file);
    if (folder !== undefined) lastFolder = { folder, name };
    last = { file, name };
    return name;
  };
  const shownFiles = [...files.map(show), ...(options.documents ? [...options.documents.resources, ...options.documents.unreadable, ...options.documents.iam].map((d) => d.file) : [])];
  for (const name of new Set(shownFiles.map(overlayOfFile))) {
    if (name === undefined) continue;
    const config = options.loadedOverlays?.get(name) ?? (await loadCluster(root, name));
    facts[name] = { clusterName: config.name, kubernetesVersion: config.kubernetesVersion, karpenterVersion: config.karpenter.version };
  }
  // catalog versions follow each file's overlay (shown path: what resources carry); worked out once per overlay,
  // not per file: a run of 50,000 files holds one entry per overlay
  const versionsByOverlay = new Map<string, { versions: CatalogVersions; key: string }>();
  const versionsOf = (file: string) => {
    const name = overlayOfFile(file) ?? "";
    let v = versionsByOverlay.get(name);
    if (!v) {
      const f = facts[name];
      const versions = f ? { ...options.versions, kubernetes: f.kubernetesVersion, karpenter: f.karpenterVersion } : (options.versions ?? {});
      v = { versions, key: JSON.stringify(versions) };
      versionsByOverlay.set(name, v);
    }
    return v;
  };
  return {
    facts,
    versionsOf,
    forget: () => {
      overlays = undefined;
      last = undefined;
      lastFolder = undefined;
    },
  };
}

/** The `--crd` layer, or a usage error naming the file that cannot be used. */
function crdTypes(crd: readonly string[]): ReturnType<typeof typesFromPaths> {
  for (const p of crd) if (!existsSync(p)) throw new RunUsageError(`--crd ${p}: no such file or folder`);
  try {
    return typesFromPaths(crd);
  } catch (err) {
    // an unreadable, binary, unparsable or cyclic --crd file is a bad option, named in the message
    const message = (err as Error)?.message ?? String(err);
    throw new RunUsageError(message.startsWith("--crd ") ? message : `--crd ${message}`);
  }
}

/** The catalog stage: schema layers in priority order (--crd, CRDs among the documents, cluster, pinned catalog), read for the kinds the scan saw. */
async function loadCatalog(options: RunOptions, selected: Selected, scan: ScanResult, overlays: Overlays): Promise<Catalog> {
  const { show, selection } = selected;
  const { versionsOf } = overlays;
  const shared = new SchemaRegistry();
  if (options.crd && options.crd.length > 0) shared.addLayer(`--crd ${options.crd.join(", ")}`, crdTypes(options.crd));
  shared.addLayer("CRDs among the documents", scan.crdTypes, { role: "documents" });
  if (options.fromCluster) shared.pushLayer(await clusterLayer([...scan.kindsByFile.values()].flat().map((k) => k.apiVersion)));

  const fetchOptions = { mirror: options.mirror, cacheDir: options.cacheDir, onProgress: options.onProgress };
  const registries = new Map<string, { registry: SchemaRegistry; versions: CatalogVersions; asked: Set<string> }>();
  const kindKey = (apiVersion: string, kind: string) => `${apiVersion}\u0000${kind}`;
  if (options.catalog !== false) {
    // the kinds each set of versions may be asked for: catalog files defining none of them are not read
    const wanted = new Map<string, { versions: CatalogVersions; kinds: Map<string, { apiVersion: string; kind: string }> }>();
    for (const [file, kinds] of scan.kindsByFile) {
      const { versions, key } = versionsOf(show(file));
      let entry = wanted.get(key);
      if (!entry) {
        entry = { versions, kinds: new Map() };
        wanted.set(key, entry);
      }
      for (const k of kinds) entry.kinds.set(kindKey(k.apiVersion, k.kind), k);
    }
    for (const [key, { versions, kinds }] of wanted) {
      const layer: SchemaLayer = await catalogLayer(versions, fetchOptions, kinds.values());
      registries.set(key, { registry: shared.with([layer]), versions, asked: new Set(kinds.keys()) });
    }
  }
  const registryFor = (r: ParsedResource): SchemaRegistry | Promise<SchemaRegistry> => {
    if (options.catalog === false) return shared;
    const { versions, key } = versionsOf(r.file);
    let entry = registries.get(key);
    if (!entry) {
      entry = { registry: shared.with([]), versions, asked: new Set() };
      registries.set(key, entry);
    }
    // a kind the scan did not see (flow-style YAML, unusual quoting): its catalog files are read now
    const k = kindKey(r.apiVersion, r.kind);
    if (entry.asked.has(k)) return entry.registry;
    entry.asked.add(k);
    if (entry.registry.lookup(r.apiVersion, r.kind)) return entry.registry;
    const { registry } = entry;
    return catalogLayer(versions, fetchOptions, [{ apiVersion: r.apiVersion, kind: r.kind }]).then((layer) => registry.pushLayer(layer));
  };

  // the Karpenter Application's helm values are checked against the pinned chart values.yaml
  const chartValues = options.catalog !== false && selection.checks.has("cross-object") && scan.charts.has("karpenter") ? await loadChartValues(fetchOptions) : undefined;
  const layers = () => [...new Set([...[...registries.values()].map((e) => e.registry), shared].flatMap((r) => r.layers.map((l) => l.name)))];
  return { registryFor, chartValues, layers };
}

/** `fn` asked once per argument (a file's key is asked for each of its findings). */
function memoised(fn: (file: string) => string): (file: string) => string {
  const known = new Map<string, string>();
  return (file) => {
    let v = known.get(file);
    if (v === undefined) {
      v = fn(file);
      known.set(file, v);
    }
    return v;
  };
}

/** The stream stage: every file read, validated and located in turn (stream.ts), then the cross-object checks. */
async function stream(
  options: RunOptions,
  selected: Selected,
  /** The selected files (selected.files, or a spilled copy of them). */
  files: FileList,
  catalog: Catalog,
  overlays: Overlays,
  validator: ObjectValidator,
  readAhead: ReadAhead,
  /** An overlay's rendered files that were not given, read for the cross-object checks only. */
  context: LoadedDocuments | undefined,
): Promise<Report> {
  const { root, cwd, stdin, maxFileBytes } = selected;
  const checks = options.crossObjectChecks === false ? undefined : (options.crossObjectChecks ?? crossObjectChecks);
  const notChecked = new Set<string>();
  const streamed = await validateFiles({
    files,
    ...(options.documents ? { documents: options.documents } : {}),
    unreadable: selected.unreadable,
    read: { ...options.read, cwd, readStdin: stdin },
    selection: selected.selection,
    registryFor: catalog.registryFor,
    previous: options.base ? previousFrom(root, cwd, options.base) : undefined,
    crossObjectChecks: checks,
    ...(context ? { crossObjectOnly: context } : {}),
    crossObjectContext: { overlays: overlays.facts, notChecked: (what: string) => notChecked.add(what), ...(catalog.chartValues ? { chartValues: catalog.chartValues } : {}) },
    validator,
    readAhead,
    ...(options.spill ? { spill: options.spill } : {}),
    ...(options.onWarm ? { onWarm: options.onWarm } : {}),
    // in-memory documents are located in their own text, never in a file of the same name on disk
    readText: options.documents ? (file) => options.texts?.get(file) : (file) => (file === "-" ? stdin() : textOf(readRegularFile(resolve(cwd, file), maxFileBytes))),
  });
  // warning or error per rule, `--strict`, acknowledged findings (levels.ts)
  return applyLevels(notChecked.size > 0 ? withNotChecked(streamed, [...notChecked].sort()) : streamed, {
    strict: options.strict,
    acknowledge: options.acknowledge,
    // asked for each finding's file only when a finding may be acknowledged (node:path's work once per such file)
    ...(options.acknowledge?.length ? { fileKey: memoised((file) => (file === "-" ? file : relative(root, resolve(cwd, file)).split(sep).join("/"))) } : {}),
  });
}

// The CLI's sources, compiled once into one CommonJS bundle and rebuilt when a source changes (a build
// cache, like tsc --incremental), then run with V8's code cache. Running the bundle skips tsx's per-module
// loader round trips, and the code cache skips compiling what an earlier run of the same command compiled:
// `validate` starts several hundred milliseconds sooner. Plain JavaScript: it runs before any TypeScript
// loader exists.
//
// - Workspace sources (.ts under the repository, outside node_modules) are bundled; `import.meta.url` in them
//   keeps naming the original file, so createRequire()/URL lookups next to a source still work.
// - Plain-JavaScript packages from node_modules are bundled too (one module graph instead of hundreds of
//   files to resolve and load). Packages that find files next to themselves at run time, or are large and
//   loaded only by some commands (EXTERNAL), stay external as absolute paths resolved from the importing
//   source (pnpm's strict layout: each package sees its own dependencies only) and load natively: with
//   require() (their CommonJS build) where imported statically, with import() where imported dynamically.
// - CommonJS, not ESM: Node 20 can give a CommonJS script (vm.Script) V8's code cache, not an ES module.
//   Commands reached through dynamic import() are initialised lazily by esbuild, so a command only
//   evaluates its own modules. One code cache per command, written after its first run (every function
//   that run compiled is in it).
// - The build is checked against every input's size and mtime on each start (about a millisecond), written
//   to a content-addressed folder, and published by an atomic rename of its manifest, so concurrent runs
//   never see half a bundle.
"use strict";
const { isAscii } = require("node:buffer");
const { spawnSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname, join, relative, resolve, sep } = require("node:path");
const { pathToFileURL } = require("node:url");
const { Script } = require("node:vm");
const { resetV8Flags, v8DefaultsFrom } = require("./v8-flags.js");

const CLI_DIR = resolve(__dirname, "..");
const REPO_ROOT = resolve(CLI_DIR, "..", "..");
const ENTRY = join(CLI_DIR, "src", "bin.ts");
/** `validate` parses files in this worker while it validates earlier ones (packages/validate/src/read-ahead.ts). */
const READ_AHEAD_WORKER = join(REPO_ROOT, "packages", "validate", "src", "read-ahead-worker.ts");
// `validate`'s worker is started from this small bundle before bin.cjs loads (see runBundle)
const READ_AHEAD_START = join(CLI_DIR, "src", "read-ahead.ts");
/** Where bundles are kept; EKS_GITOPS_BUNDLE_DIR overrides it (tests). */
const BUNDLE_DIR = process.env.EKS_GITOPS_BUNDLE_DIR || join(CLI_DIR, "node_modules", ".cache", "eks-gitops-cli");
const MANIFEST = join(BUNDLE_DIR, "manifest.json");
/** Written by every `pnpm install`: a changed dependency means a new bundle. */
const INSTALL_STATE = join(REPO_ROOT, "node_modules", ".pnpm", "lock.yaml");

/** What a bundle depends on besides the sources: this builder, esbuild, Node and the installed packages. */
function buildKey(esbuildVersion) {
  let installed = "none";
  try {
    const st = statSync(INSTALL_STATE);
    installed = `${st.size}:${st.mtimeMs}`;
  } catch {
    // not a pnpm install: sources alone decide
  }
  const builder = createHash("sha256").update(readFileSync(__filename)).digest("hex");
  return `${builder} esbuild@${esbuildVersion} node@${process.version} install@${installed}`;
}

// cdk8s, cdk8s-plus-30 and constructs are bundled: loaded natively they cost a one-overlay synth ~0.15 CPU s of
// module resolution and compiling on every run, which the code cache removes. The one file cdk8s finds beside
// itself (`_loadurl.mjs`, for `Yaml.load` of a URL or `Include`) is never used here: overlays render from data.
const EXTERNAL = /^(?:@cloud-copilot\/[^/]+|@kubernetes\/client-node|@aws-sdk\/[^/]+|@smithy\/[^/]+|tsx|esbuild)(?:$|\/)/;

const isWorkspaceSource = (path) => !path.split(sep).includes("node_modules") && !relative(REPO_ROOT, path).startsWith("..");

/**
 * V8's defaults of the launcher's flags (v8-flags.js), as the bundle's manifest has them (read from `node
 * --v8-options` when the bundle was built, and the build key names the Node version): `validate` sets the flags only
 * after its bundle is compiled, and back to these before it writes the bundle's code cache (see runBundle). Null when
 * they could not be read: the flags are then set before the bundle is compiled, as for every other command.
 */
let v8Defaults = null;

/** The manifest's bundle entry if every input is unchanged since it was built, else undefined. */
function freshEntry(esbuildVersion) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
  } catch {
    return undefined;
  }
  if (manifest.key !== buildKey(esbuildVersion)) return undefined;
  for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
    let st;
    try {
      // inputs are stored as relative() made them (normalised): joined without path.join's normalising, which
      // cost ~3 ms per start over the bundle's ~700 inputs
      st = statSync(`${REPO_ROOT}${sep}${file}`);
    } catch {
      return undefined;
    }
    if (st.size !== size || st.mtimeMs !== mtimeMs) return undefined;
  }
  v8Defaults = Array.isArray(manifest.v8Defaults) ? manifest.v8Defaults : null;
  return join(BUNDLE_DIR, manifest.dir, "bin.cjs");
}

/** esbuild plugin: workspace sources keep their own import.meta.url; EXTERNAL packages stay external. */
const workspacePlugin = {
  name: "eks-gitops-workspace",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === "inner" || args.kind === "entry-point" || args.path.startsWith("node:")) return undefined;
      const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "inner" });
      if (r.errors.length > 0 || r.external) return undefined;
      // sideEffects as esbuild read it from package.json: a plugin's result would otherwise count as having side
      // effects, and unused re-exports (e.g. @eks-gitops/config's zod schemas) would land in every command
      if (isWorkspaceSource(r.path) || !EXTERNAL.test(args.path)) return { path: r.path, sideEffects: r.sideEffects };
      if (args.kind === "dynamic-import") return { path: pathToFileURL(r.path).href, external: true };
      // the bundle require()s a statically imported package: its CommonJS build
      const cjs = await build.resolve(args.path, { kind: "require-call", resolveDir: args.resolveDir, importer: args.importer, pluginData: "inner" });
      return { path: cjs.errors.length > 0 ? r.path : cjs.path, external: true };
    });
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8").replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href));
      return { contents: text, loader: "ts" };
    });
  },
};

async function build(esbuild) {
  const result = await esbuild.build({
    // bin.cjs, read-ahead-worker.cjs beside it (a worker thread runs a file of its own), and read-ahead-start.cjs
    // (what starts the worker, run before bin.cjs loads)
    entryPoints: { bin: ENTRY, "read-ahead-worker": READ_AHEAD_WORKER, "read-ahead-start": READ_AHEAD_START },
    bundle: true,
    format: "cjs",
    platform: "node",
    // resolve packages as Node does ("node" before "import"); esbuild's default "module" condition picks
    // bundler-only ESM builds (extension-less imports) that Node cannot load
    conditions: ["node"],
    target: `node${process.versions.node.split(".")[0]}`,
    write: false,
    absWorkingDir: REPO_ROOT,
    outdir: join(BUNDLE_DIR, "out"),
    outExtension: { ".js": ".cjs" },
    metafile: true,
    logLevel: "silent",
    plugins: [workspacePlugin],
  });
  // import() does not work in a vm.Script on Node 20: every package must be bundled or require()d, and
  // run-time URLs (cluster.ts) go through the launcher's import (@eks-gitops/config's importModule)
  for (const output of Object.values(result.metafile.outputs)) {
    const dynamic = output.imports.filter((i) => i.kind === "dynamic-import" && i.external);
    if (dynamic.length > 0) throw new Error(`the bundle would import() ${dynamic.map((i) => i.path).join(", ")}; require() it instead`);
  }
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    const abs = resolve(REPO_ROOT, file);
    if (!isWorkspaceSource(abs)) continue;
    const st = statSync(abs);
    inputs[relative(REPO_ROOT, abs)] = [st.size, st.mtimeMs];
  }
  // ASCII only, so that a run reads the bundle as latin1 (a plain copy, ~1 ms) instead of decoding UTF-8 (~9 ms
  // for 2.8 MB). esbuild already escapes strings, templates and identifiers; what is left is in comments and
  // regular expression literals, where a \uXXXX escape of each UTF-16 unit means the same character (in both
  // `u` and plain mode). A character after a backslash is left alone (the run then decodes UTF-8, as before).
  const outputs = result.outputFiles.map((f) => ({
    path: f.path,
    contents: Buffer.from(f.text.replace(/(?<!\\)[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)),
  }));
  const hash = createHash("sha256");
  for (const f of outputs) hash.update(f.path).update(f.contents);
  const dir = `bundle-${hash.digest("hex").slice(0, 16)}`;
  const target = join(BUNDLE_DIR, dir);
  const staging = `${target}.${process.pid}.tmp`;
  mkdirSync(staging, { recursive: true });
  const outRoot = join(BUNDLE_DIR, "out");
  for (const f of outputs) writeFileSync(join(staging, relative(outRoot, f.path)), f.contents);
  try {
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another process published the same bundle
  }
  let previous;
  try {
    previous = JSON.parse(readFileSync(MANIFEST, "utf8")).dir;
  } catch {
    previous = undefined;
  }
  // once per build: ~40 ms (a second Node process)
  const options = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  v8Defaults = (options.status === 0 && v8DefaultsFrom(options.stdout)) || null;
  const manifestTmp = `${MANIFEST}.${process.pid}.tmp`;
  writeFileSync(manifestTmp, JSON.stringify({ key: buildKey(esbuild.version), dir, inputs, v8Defaults }));
  renameSync(manifestTmp, MANIFEST);
  // A run that started from the bundle just replaced may still be reading it or writing its code cache:
  // the replaced bundle is marked (mtime = now) and removed by a later build, an hour on.
  const now = new Date();
  if (previous && previous !== dir) {
    try {
      utimesSync(join(BUNDLE_DIR, previous), now, now);
    } catch {
      // already gone
    }
  }
  for (const old of readdirSync(BUNDLE_DIR)) {
    if (!old.startsWith("bundle-") || old === dir || old === previous || old.endsWith(".tmp")) continue;
    try {
      if (statSync(join(BUNDLE_DIR, old)).mtimeMs < now.getTime() - 3_600_000) rmSync(join(BUNDLE_DIR, old), { recursive: true, force: true });
    } catch {
      // removed by a concurrent build
    }
  }
  return join(target, "bin.cjs");
}

/** Path of an up-to-date bundle of src/bin.ts (building it if needed), or undefined when it cannot be had. */
async function bundledEntry() {
  let esbuildVersion;
  try {
    // the version decides freshness; esbuild itself is only loaded to build
    esbuildVersion = JSON.parse(readFileSync(require.resolve("esbuild/package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
  const fresh = freshEntry(esbuildVersion);
  if (fresh) return fresh;
  try {
    mkdirSync(BUNDLE_DIR, { recursive: true });
    return await build(require("esbuild"));
  } catch (err) {
    // a source that does not compile, or a read-only checkout: the caller runs the sources through tsx,
    // which reports compile errors with their file and line; it says so once (every start is then slower)
    exports.bundleFailure = String(err?.message ?? err).split("\n")[0];
    return undefined;
  }
}

const sha256 = (data) => createHash("sha256").update(data).digest();

/** Why the last bundledEntry() could not build a bundle (its first line), if it could not: read it as `exports.bundleFailure` after the call. */
exports.bundleFailure = undefined;

/**
 * The global a command calls with how far it got (`validate`: the files it validated, up to WARM_FILES of
 * packages/validate/src/stream.ts): a run that gets further than the one that wrote the code cache writes it again.
 */
const CODE_CACHE_CHECKPOINT = "eks-gitops.code-cache-checkpoint";

/**
 * Reads a code cache file: the SHA-256 of what follows, the files the run that wrote it had validated when it was
 * written (32-bit little-endian), then V8's data. V8 checks a code cache's version, flags and source length but no
 * checksum of its data in a release build, so a damaged file whose header still matches would be run: a file whose
 * hash does not match is no cache at all (written again). The count takes 8 bytes (the data starts 8-byte aligned).
 */
function readCodeCache(file) {
  try {
    const stored = readFileSync(file);
    if (stored.length > 40 && sha256(stored.subarray(32)).equals(stored.subarray(0, 32))) return { coverage: stored.readUInt32LE(32), data: stored.subarray(40) };
  } catch {
    // none yet, or unreadable: the run compiles from source
  }
  return undefined;
}

/** Writes a code cache file (see readCodeCache) through a temporary file renamed into place: a concurrent run never reads half of one. */
function writeCodeCache(file, coverage, data) {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    // 8 bytes, so that V8's data starts 8-byte aligned (V8 copies a misaligned cache before reading it)
    const head = Buffer.alloc(8);
    head.writeUInt32LE(coverage);
    const body = Buffer.concat([head, data]);
    writeFileSync(tmp, Buffer.concat([sha256(body), body]));
    renameSync(tmp, file);
  } catch {
    // a read-only or replaced bundle folder only costs speed
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing to clean up, or nowhere to write
    }
  }
}

/** The global naming the folder of the bundle being run (packages/cli/src/read-ahead.ts finds the worker's file there). */
const BUNDLE_DIR_GLOBAL = "eks-gitops.bundle-dir";

/** The global holding what startReadAhead (packages/cli/src/read-ahead.ts) returned, when the launcher started the worker. */
const READ_AHEAD_STARTED = "eks-gitops.read-ahead-started";

/**
 * Starts `validate`'s read-ahead worker before bin.cjs loads: from read-ahead-start.cjs (~15 KB: the CLI's
 * startReadAhead and what it decides with, nothing else), so that the worker's own start (~60 ms of Node's worker
 * bootstrap, then its bundle) runs on the other CPU while this thread compiles the CLI's 4.6 MB (~30-40 ms) and
 * sets up the run. Started after it, the worker joined the shared scan of the files when this thread had done most
 * of it. Block 5,000, medians of 9 interleaved runs on 2 CPUs: 0.83 -> 0.79 s. The decision is the same
 * startReadAhead the command would make (input size, CPUs); when this fails (a bundle without the file), the
 * command starts the worker itself.
 */
function startReadAheadEarly(dir, args, flagsGate) {
  try {
    const { startReadAhead } = createRequire(join(dir, "bin.cjs"))(join(dir, "read-ahead-start.cjs"));
    globalThis[Symbol.for(READ_AHEAD_STARTED)] = { ...startReadAhead(args, undefined, flagsGate), early: true };
  } catch {
    // the command starts it (or says why not) as it would have
  }
}

/**
 * Runs the bundle's `main(argv)` with V8's code cache for this command (`<bundle>.<command>.v8`, beside the
 * content-addressed bundle), written at the end of the run, when every function the run needed is compiled. What
 * it holds is what the run that wrote it compiled: written after a run of one file, it lacked what validating many
 * needs, for every later run (~10-15% more CPU over 5,000 objects, measured), so a run that got further than the
 * one that wrote it (CODE_CACHE_CHECKPOINT) writes it again, until one has validated WARM_FILES files; a command
 * that does not say how far it got is cached once, after its first run. Files are what is counted, not what they
 * exercised: 64 files of one shape (block YAML, JSON) make a cache without the other's paths, compiled by each run
 * that meets them. Concurrent runs: the last to finish writes; a smaller one's cache is replaced by the next larger run. (V8 flushes the bytecode of functions unused for
 * a while: see `--no-flush-bytecode` in v8-flags.js, without which a long run's cache lacked its start.)
 * `setFlagsLater`: the launcher's V8 flags, not yet set (`validate`, see v8-flags.js): set here, after the bundle is
 * compiled and its top level has run, and the read-ahead worker told (it compiles its own bundle then).
 */
async function runBundle(file, argv, setFlagsLater) {
  const command = /^[a-z]+$/.test(argv[0] ?? "") ? argv[0] : "none";
  // where the bundle's own files are (the read-ahead worker): the CLI hands it to `validate`
  globalThis[Symbol.for(BUNDLE_DIR_GLOBAL)] = dirname(file);
  // V8's flags, left unset by the launcher for `validate` (see eks-gitops.js): set after this bundle is compiled when
  // their defaults are known (to set them back before the code cache is written), else now
  const defaults = setFlagsLater && command === "validate" ? v8Defaults : null;
  if (setFlagsLater && !defaults) setFlagsLater();
  // the worker compiles its bundle once they are set (its code cache is made under them): this says when
  const flagsGate = defaults ? new Int32Array(new SharedArrayBuffer(8)) : undefined;
  if (command === "validate") startReadAheadEarly(dirname(file), argv.slice(1), flagsGate);
  const cacheFile = `${file}.${command}.v8`;
  const cached = readCodeCache(cacheFile);
  const bytes = readFileSync(file);
  // built ASCII-only (see build): latin1 is the same text, read without decoding UTF-8
  const source = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cached ? { cachedData: cached.data } : {}),
  });
  const usable = cached !== undefined && !script.cachedDataRejected;
  let files = 0;
  globalThis[Symbol.for(CODE_CACHE_CHECKPOINT)] = (done) => {
    files = Math.max(files, done);
  };
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  if (defaults) {
    setFlagsLater();
    Atomics.store(flagsGate, 0, 1);
    Atomics.notify(flagsGate, 0);
  }
  const exitCode = await module.exports.main(argv);
  if (!usable || files > cached.coverage) {
    // compiled under V8's defaults, cached under them: the next run compiles before it sets the flags again
    if (defaults) resetV8Flags(defaults);
    writeCodeCache(cacheFile, files, script.createCachedData());
  }
  return exitCode;
}

// CommonJS (bin/package.json, see eks-gitops.js): named like this, ES modules that import this file (tests) see these names
exports.bundledEntry = bundledEntry;
exports.readCodeCache = readCodeCache;
exports.writeCodeCache = writeCodeCache;
exports.runBundle = runBundle;
exports.BUNDLE_DIR = BUNDLE_DIR;
exports.CODE_CACHE_CHECKPOINT = CODE_CACHE_CHECKPOINT;
exports.BUNDLE_DIR_GLOBAL = BUNDLE_DIR_GLOBAL;
exports.READ_AHEAD_STARTED = READ_AHEAD_STARTED;

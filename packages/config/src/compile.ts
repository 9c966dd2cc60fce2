// Overlays compiled once: esbuild bundles clusters/<name>/cluster.ts (and whatever it imports, except this
// package) into one plain ES module, cached by the content of every input; a later load imports the cached
// module directly, with no TypeScript loader in the process. `@eks-gitops/config` in the overlay resolves
// to this process's own copy of the package (a generated module that reads it from a global), so the overlay
// and its checks share one `defineCluster` and nothing of this package is evaluated twice.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { type CacheNames, markUsed, pruneUnused } from "./cache-prune.ts";

/** The global the generated `@eks-gitops/config` module reads this package's exports from. */
export const CONFIG_MODULE = Symbol.for("eks-gitops.config-module");
const PACKAGE = "@eks-gitops/config";

/** @default $XDG_CACHE_HOME/eks-gitops/overlays or ~/.cache/eks-gitops/overlays; EKS_GITOPS_OVERLAY_CACHE overrides it. */
export function overlayCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.EKS_GITOPS_OVERLAY_CACHE) return env.EKS_GITOPS_OVERLAY_CACHE;
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "eks-gitops", "overlays");
}

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/** What a compiled overlay was built from: each input file and the hash of its content. */
interface Manifest {
  readonly inputs: Readonly<Record<string, string>>;
  readonly module: string;
}

/**
 * What this cache writes, and pruneUnused may remove (cache-prune.ts): each overlay's manifest (`<key>.json`) and its
 * modules (`<key>-<hash of the code>.mjs`, one per content: an edit of cluster.ts leaves the last one unused), and
 * their temporary files, and those of the `@eks-gitops/config` shims. The shims (`config-<hash>.mjs`, one per set of
 * this package's export names, a few hundred bytes) are never removed: esbuild reads one while it builds, and a
 * pruning by another process then would fail the build.
 */
const OVERLAY_FILES: CacheNames = {
  kept: /^(?:[0-9a-f]{32}\.json|[0-9a-f]{32}-[0-9a-f]{16}\.mjs)$/,
  temporary: /^(?:[0-9a-f]{32}\.json|[0-9a-f]{32}-[0-9a-f]{16}\.mjs|config-[0-9a-f]{16}\.mjs)\.\d+\.\d+\.tmp$/,
};

/** The cached module's path if every input still has the content it was built from and the module is there; both marked used. */
function cached(dir: string, key: string): string | undefined {
  let manifest: Manifest;
  const manifestFile = join(dir, `${key}.json`);
  try {
    manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    for (const [file, hash] of Object.entries(manifest.inputs)) if (sha256(readFileSync(file)) !== hash) return undefined;
  } catch {
    return undefined;
  }
  const module = join(dir, manifest.module);
  // a pruning may have removed the module and not its manifest (the module is written first): built again
  if (!markUsed(module)) return undefined;
  markUsed(manifestFile);
  return module;
}

/** Writes `content` to `path` through a temporary file and a rename: a concurrent reader never sees half of it. */
function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/**
 * The path of the overlay compiled to a plain ES module (built now, or taken from the cache). `exportNames`
 * are this package's exports, which the generated `@eks-gitops/config` module re-exports from {@link CONFIG_MODULE}.
 * Throws esbuild's error (`file:line:col: ERROR: reason` lines) when the overlay does not compile.
 */
export function compileOverlay(file: string, exportNames: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const dir = overlayCacheDir(env);
  const names = [...exportNames].sort();
  // one entry per overlay path and shape of this package; the manifest says whether its inputs still match
  const key = sha256(`${resolve(file)}\n${names.join(",")}\n${COMPILER_VERSION}`).slice(0, 32);
  // at most once a day: the modules no load has used for a month (older contents of overlays, overlays gone). Before
  // the lookup: a load that cannot mark what it uses (files another user owns) must not remove it after finding it
  pruneUnused(dir, OVERLAY_FILES);
  const hit = cached(dir, key);
  if (hit) return hit;

  // require(), not import(): the CLI's bundle runs as a script, where Node 20 offers no import() of a package.
  // buildSync: no esbuild service process outlives the build (an overlay may end the process at any time).
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  mkdirSync(dir, { recursive: true });
  const shim = `const m = globalThis[Symbol.for("eks-gitops.config-module")];\n${names.map((n) => `export const ${n} = m.${n};`).join("\n")}\n`;
  const shimFile = join(dir, `config-${sha256(shim).slice(0, 16)}.mjs`);
  writeAtomic(shimFile, shim);
  const result = esbuild.buildSync({
    entryPoints: [file],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    target: "node20",
    metafile: true,
    logLevel: "silent",
    absWorkingDir: dirname(resolve(file)),
    alias: { [PACKAGE]: shimFile },
  });
  const code = result.outputFiles[0]?.text ?? "";
  const base = dirname(resolve(file));
  const inputs: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const path = resolve(base, input);
    if (path === shimFile) continue;
    inputs[path] = sha256(readFileSync(path));
  }
  const module = `${key}-${sha256(code).slice(0, 16)}.mjs`;
  writeAtomic(join(dir, module), code);
  writeAtomic(join(dir, `${key}.json`), `${JSON.stringify({ source: relative(dir, resolve(file)), inputs, module }, null, 2)}\n`);
  return join(dir, module);
}

/** Changes when the compiled form changes (the shim, esbuild's options): old cache entries are then ignored. */
const COMPILER_VERSION = "1";

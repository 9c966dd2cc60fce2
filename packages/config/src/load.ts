// Finds and loads cluster overlays (clusters/<name>/cluster.ts). The only file access in this package.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError, type ConfigProblem } from "./errors.ts";
import { CLUSTER_FILE, CLUSTERS_DIR } from "./layout.ts";
import { describeLoadError, guardLaterExits, withoutProcessExit } from "./load-error.ts";
import type { ClusterConfig } from "./resolve.ts";

/** Overlay names under `<root>/clusters`, sorted (folders that hold a cluster.ts). */
export function listClusters(root: string): string[] {
  const dir = join(root, CLUSTERS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, CLUSTER_FILE)))
    .map((d) => d.name)
    .sort();
}

/** Path of an overlay's cluster.ts. */
export function clusterFile(root: string, name: string): string {
  return join(root, CLUSTERS_DIR, name, CLUSTER_FILE);
}

/** Set by the eks-gitops launcher: registers a TypeScript loader (tsx) on first use. */
const REGISTER_TYPESCRIPT = Symbol.for("eks-gitops.register-typescript");

/** Set by the eks-gitops launcher: import() from the launcher's ES module (the CLI bundle runs as a script without one). */
const IMPORT = Symbol.for("eks-gitops.import");

function importModule(url: string): Promise<{ default?: unknown }> {
  const viaLauncher = (globalThis as Record<symbol, unknown>)[IMPORT];
  return (typeof viaLauncher === "function" ? (viaLauncher as (u: string) => Promise<unknown>)(url) : import(url)) as Promise<{ default?: unknown }>;
}

/** Imports a .ts module; registers the launcher's TypeScript loader first if the process has none yet. */
async function importTypeScript(url: string): Promise<{ default?: unknown }> {
  try {
    return await importModule(url);
  } catch (err) {
    const register = (globalThis as Record<symbol, unknown>)[REGISTER_TYPESCRIPT];
    if ((err as NodeJS.ErrnoException).code !== "ERR_UNKNOWN_FILE_EXTENSION" || typeof register !== "function") throw err;
    await (register as () => Promise<void>)();
    // the failed import stays cached under its URL: a query makes the retry a new module
    return await importModule(`${url}?typescript`);
  }
}

/**
 * Imports an overlay: compiled once to a plain ES module and cached by content (compile.ts), so a load needs
 * no TypeScript loader; through the loader when the compiler is missing or EKS_GITOPS_OVERLAY_CACHE=off.
 */
async function importOverlay(file: string, shown: string): Promise<{ default?: unknown }> {
  const url = pathToFileURL(file).href;
  if (process.env.EKS_GITOPS_OVERLAY_CACHE === "off") return importTypeScript(url);
  const [config, { CONFIG_MODULE, compileOverlay }] = await Promise.all([import("./index.ts"), import("./compile.ts")]);
  const slot = globalThis as Record<symbol, unknown>;
  slot[CONFIG_MODULE] ??= config;
  let compiled: string;
  try {
    compiled = compileOverlay(file, Object.keys(config));
  } catch (err) {
    // a syntax error is the overlay's (esbuild says where); a compiler that cannot run is not: load it the other way
    if (Array.isArray((err as { errors?: unknown }).errors) && (err as { errors: unknown[] }).errors.length > 0) throw err;
    return importTypeScript(url);
  }
  // stack traces name the compiled module: the process.exit guards know it as this overlay
  guardLaterExits(compiled, shown);
  try {
    return await importModule(pathToFileURL(compiled).href);
  } catch (err) {
    // another process's pruning (cache-prune.ts) removed the module between the lookup and this import: built again,
    // imported under a new URL (the failed import stays cached under its own)
    if ((err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND" || existsSync(compiled)) throw err;
    const again = compileOverlay(file, Object.keys(config));
    guardLaterExits(again, shown);
    return importModule(`${pathToFileURL(again).href}?rebuilt`);
  }
}

/**
 * Imports `clusters/<name>/cluster.ts`, checks it and applies defaults.
 * The importing process needs a TypeScript loader (the CLI registers tsx on first use; vitest has its own).
 */
export async function loadCluster(root: string, name: string): Promise<ClusterConfig> {
  const file = clusterFile(root, name);
  const shown = relative(root, file);
  if (!existsSync(file)) {
    throw new ConfigError(shown, [{ path: "", message: `no such overlay; known overlays: ${listClusters(root).join(", ") || "(none)"}` }]);
  }
  let mod: { default?: unknown };
  try {
    guardLaterExits(file, shown);
    mod = await withoutProcessExit(file, () => importOverlay(file, shown));
  } catch (err) {
    const message = `cannot load: ${describeLoadError(err)}`;
    const at = /syntax error at line (\d+), column (\d+)/.exec(message);
    throw new ConfigError(shown, [{ path: "", message, rule: "overlay:syntax", ...(at ? { line: Number(at[1]), column: Number(at[2]) } : {}) }]);
  }
  if (mod.default === undefined) {
    throw new ConfigError(shown, [{ path: "", message: "must `export default defineCluster({...})`" }]);
  }
  // the checks (zod) load with the first overlay: commands that never load one (validate of loose files) skip them
  const { checkCluster } = await import("./resolve.ts");
  try {
    const config = checkCluster(mod.default, shown);
    if (config.name !== name) {
      throw new ConfigError(shown, [
        { path: "name", segments: ["name"], message: `is '${config.name}' but the overlay folder is '${name}'; they must match`, rule: "overlay:name", hint: `\`name: "${name}"\`` },
      ]);
    }
    return config;
  } catch (err) {
    if (err instanceof ConfigError) throw await locateProblems(err, file);
    throw err;
  }
}

/** The same error with each problem's line and column in the overlay's source, sorted by them. */
export async function locateProblems(err: ConfigError, file: string): Promise<ConfigError> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return err;
  }
  const { parseOverlay } = await import("./locate.ts");
  const source = parseOverlay(file, text);
  const problems: ConfigProblem[] = err.problems.map((p) => {
    if (p.line !== undefined || !p.segments) return p;
    const at = source.locate(p.segments, p.target);
    return at ? { ...p, line: at.line, column: at.column } : p;
  });
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return new ConfigError(err.file, problems);
}

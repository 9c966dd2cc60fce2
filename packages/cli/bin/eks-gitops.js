#!/usr/bin/env node
// Runs the CLI in-process: from its bundle (built on first use and whenever a source changes, see
// bundle.js) or, with EKS_GITOPS_FROM_SOURCE=1 or when no bundle can be built, from the TypeScript
// sources through tsx's loader. Either way, cluster overlays (clusters/<name>/cluster.ts) are TypeScript:
// the loader for them is registered on first use.
import { setFlagsFromString } from "node:v8";
import { bundledEntry, bundleFailure, runBundle } from "./bundle.js";
import { invocationDir } from "./invocation-dir.js";

// A run of this CLI lasts a second or so: V8's default tiering (start optimising a function after ~130 KB of
// its bytecode has run) spends much of that second compiling code in background threads that compete for the
// CPUs with the run itself, for functions that finish before the optimised code pays off. Waiting three times
// longer before optimising was measured faster on a 2-CPU machine: `validate` of 5,000 objects 0.69 s -> 0.59 s
// median of 7, and 50,000 objects no slower (`pnpm --filter @eks-gitops/validate bench`). Set before any
// bundle code is compiled, so V8's code caches (checked against the flags) stay valid from run to run.
setFlagsFromString("--interrupt-budget=400000");
// V8 drops the bytecode of functions unused for a while (after a few full collections): in a run of 200,000
// objects, those of the start (loading overlays, the scan, the catalog) were gone by the end, where the code cache
// is written (bin/bundle.js), and a cache of 1.2 MB instead of 1.8 MB made every later run compile them again.
// Kept, they are a few MB of a long run's heap; a short run never gets to drop them.
setFlagsFromString("--no-flush-bytecode");

// Root scripts (`pnpm validate clusters/aws-cn/rendered`) run in the repository root: work from the folder
// the command was typed in, as a directly run command would.
const typedIn = invocationDir();
if (typedIn) process.chdir(typedIn);

let tsLoader;
/** Registers tsx once; @eks-gitops/config calls it (through a global) before importing a cluster.ts. */
async function registerTypeScript() {
  tsLoader ??= import("tsx/esm/api").then(({ register }) => {
    register();
  });
  await tsLoader;
}
globalThis[Symbol.for("eks-gitops.register-typescript")] = registerTypeScript;
// the bundle runs as a CommonJS script (for V8's code cache), where Node 20 offers no import(): it borrows this one
globalThis[Symbol.for("eks-gitops.import")] = (url) => import(url);

const argv = process.argv.slice(2);
const entry = process.env.EKS_GITOPS_FROM_SOURCE === "1" ? undefined : await bundledEntry();
if (entry) process.exitCode = await runBundle(entry, argv);
else {
  // never silently slower: a bundle that cannot be built is said once, with why (a source that does not compile
  // is then reported by tsx with its file and line)
  if (bundleFailure !== undefined) process.stderr.write(`eks-gitops: running from the TypeScript sources, slower: the CLI bundle could not be built (${bundleFailure})\n`);
  await registerTypeScript();
  const { main } = await import("../src/bin.ts");
  process.exitCode = await main(argv);
}

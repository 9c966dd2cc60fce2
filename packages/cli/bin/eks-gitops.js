#!/usr/bin/env node
// Runs the CLI in-process: from its bundle (built on first use and whenever a source changes, see
// bundle.js) or, with EKS_GITOPS_FROM_SOURCE=1 or when no bundle can be built, from the TypeScript
// sources through tsx's loader. Either way, cluster overlays (clusters/<name>/cluster.ts) are TypeScript:
// the loader for them is registered on first use.
// first: the machine's running threads before this process starts its own (see running-at-start.js)
import "./running-at-start.js";
import { bundledEntry, bundleFailure, runBundle } from "./bundle.js";
import { invocationDir } from "./invocation-dir.js";
import { setV8Flags } from "./v8-flags.js";

// before any bundle code is compiled (see v8-flags.js)
setV8Flags();

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

#!/usr/bin/env node
// Runs the CLI in-process: from its bundle (built on first use and whenever a source changes, see
// bundle.js) or, with EKS_GITOPS_FROM_SOURCE=1 or when no bundle can be built, from the TypeScript
// sources through tsx's loader. Either way, cluster overlays (clusters/<name>/cluster.ts) are TypeScript:
// the loader for them is registered on first use.
//
// The launcher is CommonJS (bin/package.json says so for this folder): started from an ES module, Node set up its
// ES module loader in every run, before any of our code ran, though only a cluster overlay needs it (import(), on
// first use). Measured, 40 interleaved runs each: `--version` 101 -> 92 ms, `validate` of one loose file
// 142 -> 129 ms; a run that loads an overlay sets the loader up then, as before (the rendered overlay: 283 -> 286 ms).
"use strict";
// first: the machine's running threads before this process starts its own (see running-at-start.js)
require("./running-at-start.js");
// NODE_EXTRA_CA_CERTS, when eks-gitops.sh moved it aside: put back, its certificates trusted on first need (see extra-ca.js)
const trustExtraCaCerts = require("./extra-ca.js").restoreExtraCaCerts();
const bundle = require("./bundle.js");
const { invocationDir } = require("./invocation-dir.js");
const { flagsGivenAtStart, setV8Flags } = require("./v8-flags.js");

// before any bundle code is compiled (see v8-flags.js); `validate`'s from its bundle: once the bundle is compiled,
// when the read-ahead worker has had time to boot under V8's defaults (see bundle.js, runBundle)
const flagsLater = process.argv[2] === "validate" && process.env.EKS_GITOPS_FROM_SOURCE !== "1" && !flagsGivenAtStart();
if (!flagsLater) setV8Flags();

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

async function main(argv) {
  const entry = process.env.EKS_GITOPS_FROM_SOURCE === "1" ? undefined : await bundle.bundledEntry();
  if (entry) return bundle.runBundle(entry, argv, flagsLater ? setV8Flags : undefined);
  if (flagsLater) setV8Flags();
  // never silently slower: a bundle that cannot be built is said once, with why (a source that does not compile
  // is then reported by tsx with its file and line)
  if (bundle.bundleFailure !== undefined) process.stderr.write(`eks-gitops: running from the TypeScript sources, slower: the CLI bundle could not be built (${bundle.bundleFailure})\n`);
  // the sources are ES modules, whose imports of node:https pass by extra-ca.js's hooks
  trustExtraCaCerts?.();
  await registerTypeScript();
  const { main: run } = await import("../src/bin.ts");
  return run(argv);
}

// a rejection (an internal fault) is left unhandled: Node prints its stack and exits 1, as it did for the launcher's
// top-level await when it was an ES module
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

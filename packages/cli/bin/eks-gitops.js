#!/usr/bin/env node
// Runs the CLI in-process: from its bundle (built on first use and whenever a source changes, see
// bundle.js) or, with EKS_GITOPS_FROM_SOURCE=1 or when no bundle can be built, from the TypeScript
// sources through tsx's loader. Either way, cluster overlays (clusters/<name>/cluster.ts) are TypeScript:
// the loader for them is registered on first use.
import { pathToFileURL } from "node:url";
import { bundledEntry } from "./bundle.js";

let tsLoader;
/** Registers tsx once; @eks-gitops/config calls it (through a global) before importing a cluster.ts. */
async function registerTypeScript() {
  tsLoader ??= import("tsx/esm/api").then(({ register }) => {
    register();
  });
  await tsLoader;
}
globalThis[Symbol.for("eks-gitops.register-typescript")] = registerTypeScript;

const entry = process.env.EKS_GITOPS_FROM_SOURCE === "1" ? undefined : await bundledEntry();
if (!entry) await registerTypeScript();
const { main } = await import(entry ? pathToFileURL(entry).href : "../src/bin.ts");
process.exitCode = await main(process.argv.slice(2));

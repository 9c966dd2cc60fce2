// The read-ahead worker of `validate` (packages/validate/src/read-ahead.ts), started before the validator loads.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Worker } from "node:worker_threads";
import { CLUSTERS_DIR, RENDERED_DIR } from "@eks-gitops/config/layout";
import { startReadAheadWorker, worthReadingAhead } from "@eks-gitops/validate/read-ahead-start";
import { VALIDATE_OPTIONS } from "./commands/validate-options.ts";
import { findRepoRoot } from "./repo.ts";

/**
 * The paths `validate` will read, as typed (or, with none, every clusters/<name>/rendered of the root), for a
 * first look at how much there is; undefined when the arguments cannot be read (the command reports why).
 */
function typedPaths(argv: readonly string[]): string[] | undefined {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: VALIDATE_OPTIONS, strict: false, allowPositionals: true });
    if (positionals.length > 0) return positionals;
    // validate's own defaultPaths() would load the validator (and listClusters the overlay checks) before the
    // worker starts: the folders are listed here, a folder too many only making the worker start
    const root = typeof values.root === "string" ? values.root : findRepoRoot();
    const clusters = join(root, CLUSTERS_DIR);
    if (!existsSync(clusters)) return [];
    return readdirSync(clusters)
      .map((name) => join(clusters, name, RENDERED_DIR))
      .filter((p) => existsSync(p));
  } catch {
    return undefined;
  }
}

/**
 * bin/bundle.js builds the worker beside bin.cjs and names the folder; run from the sources
 * (EKS_GITOPS_FROM_SOURCE=1), or with EKS_GITOPS_READ_AHEAD=0, every file is read on the main thread, with the
 * same results. Inputs too small for a worker to pay (READ_AHEAD_MIN_BYTES) are read there too, unless
 * EKS_GITOPS_READ_AHEAD=1 asks for the worker whatever the input (tests compare both ways on small inputs).
 */
export function startReadAhead(argv: readonly string[]): Worker | undefined {
  const dir = (globalThis as Record<symbol, unknown>)[Symbol.for("eks-gitops.bundle-dir")];
  const wanted = process.env.EKS_GITOPS_READ_AHEAD;
  if (typeof dir !== "string" || wanted === "0") return undefined;
  if (wanted !== "1") {
    const paths = typedPaths(argv);
    if (paths !== undefined && !worthReadingAhead(paths)) return undefined;
  }
  return startReadAheadWorker(join(dir, "read-ahead-worker.cjs"));
}

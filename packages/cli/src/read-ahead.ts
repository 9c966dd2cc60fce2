// The read-ahead worker of `validate` (packages/validate/src/read-ahead.ts), started before the validator loads.
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { startReadAheadWorker } from "@eks-gitops/validate/read-ahead-start";

/**
 * bin/bundle.js builds the worker beside bin.cjs and names the folder; run from the sources
 * (EKS_GITOPS_FROM_SOURCE=1), or with EKS_GITOPS_READ_AHEAD=0, every file is read on the main thread, with the
 * same results.
 */
export function startReadAhead(): Worker | undefined {
  const dir = (globalThis as Record<symbol, unknown>)[Symbol.for("eks-gitops.bundle-dir")];
  if (typeof dir !== "string" || process.env.EKS_GITOPS_READ_AHEAD === "0") return undefined;
  return startReadAheadWorker(join(dir, "read-ahead-worker.cjs"));
}

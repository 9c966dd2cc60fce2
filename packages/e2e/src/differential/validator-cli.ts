// Runs `eks-gitops validate --output json` (what `pnpm validate` runs) over files and returns its per-document results.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "../harness/repo.ts";
import type { ValidatorResource } from "./verdicts.ts";

const BIN = join(REPO_ROOT, "packages", "cli", "bin", "eks-gitops.js");

/** Whether this checkout's CLI has the `validate` command (packages/validate merged). */
export function validatorAvailable(): boolean {
  return spawnSync(process.execPath, [BIN, "validate", "--help"], { cwd: REPO_ROOT, encoding: "utf8" }).status === 0;
}

export interface ValidatorRun {
  readonly exitCode: number;
  readonly resources: readonly ValidatorResource[];
}

/**
 * `validate --output json ...args paths`; exit 0 (all valid) and 1 (some invalid) are answers,
 * 2 (usage) and 3 (internal) throw with the command's stderr.
 */
export function runValidator(
  paths: readonly string[],
  options: { args?: readonly string[]; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): ValidatorRun {
  const args = options.args ?? [];
  const run = spawnSync(process.execPath, [BIN, "validate", "--output", "json", ...args, ...paths], {
    cwd: options.cwd ?? REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0 && run.status !== 1) {
    throw new Error(`eks-gitops validate ${args.join(" ")} exited ${run.status}: ${run.stderr.trim().slice(0, 2000)}`);
  }
  const report = JSON.parse(run.stdout) as { resources: ValidatorResource[] };
  return { exitCode: run.status, resources: report.resources };
}

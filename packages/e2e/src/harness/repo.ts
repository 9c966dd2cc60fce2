// Where the repository, its test-tools and the upstream schema mirror are, for the harness and the tests.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo root (this file is packages/e2e/src/harness/repo.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/**
 * The upstream schema mirror: `$EKS_GITOPS_MIRROR`, else `../shared/mirror` beside the clone (as .ci/run sets it).
 * Throws, saying how to fix it, when neither exists.
 */
export function mirrorRoot(env: NodeJS.ProcessEnv = process.env): string {
  const candidate = env.EKS_GITOPS_MIRROR ?? join(REPO_ROOT, "..", "shared", "mirror");
  if (!existsSync(candidate)) {
    throw new Error(
      `schema mirror not found at ${candidate}: set EKS_GITOPS_MIRROR to the mirror folder (see shared/mirror/README.md)`,
    );
  }
  return candidate;
}

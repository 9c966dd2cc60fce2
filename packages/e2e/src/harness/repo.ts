// Where the repository is, for the harness and the tests.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo root (this file is packages/e2e/src/harness/repo.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

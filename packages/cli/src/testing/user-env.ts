// The environment of a user's shell for a command a test runs as the user types it: nothing that the `pnpm test`
// running the test adds (pnpm's INIT_CWD and npm_* variables, vitest's, a forced colour), nor the names in `drop`.
export function userEnv(drop: readonly string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === "INIT_CWD" || k === "PNPM_SCRIPT_SRC_DIR" || k === "FORCE_COLOR" || k.startsWith("npm_") || k.startsWith("VITEST") || drop.includes(k)) continue;
    env[k] = v;
  }
  return env;
}

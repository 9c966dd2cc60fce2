// Locates a Go test peer built by test-tools/build.sh (kubectl-validate, kubeconform) without building it.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

export type TestTool = "kubectl-validate" | "kubeconform";

/** Env variable that may point at the binary directly (e.g. KUBECTL_VALIDATE). */
const ENV: Readonly<Record<TestTool, string>> = { "kubectl-validate": "KUBECTL_VALIDATE", kubeconform: "KUBECONFORM" };

/** The pinned version of a tool, as build.sh reports it. */
export function toolVersion(tool: TestTool): string {
  const out = execFileSync("bash", [join(REPO_ROOT, "test-tools/build.sh"), "--versions"], { encoding: "utf8" });
  const line = out.split("\n").find((l) => l.startsWith(`${tool} `));
  if (!line) throw new Error(`test-tools/build.sh --versions does not list ${tool}`);
  return line.slice(tool.length + 1).trim();
}

/** Path of the binary when it is already built, else undefined (callers skip with `howToBuild`). */
export function findTool(tool: TestTool, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env[ENV[tool]];
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  // the same folder test-tools/build.sh builds into: per user, shared by every clone
  const cache = env.TEST_TOOLS_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "eks-gitops", "test-tools");
  const bin = join(cache, `${tool}-${toolVersion(tool)}`, tool);
  return existsSync(bin) ? bin : undefined;
}

export function howToBuild(tool: TestTool): string {
  return `${tool} is not built: run \`test-tools/build.sh ${tool}\` (needs Go; see test-tools/README.md), or set ${ENV[tool]}=/path/to/${tool} or TEST_TOOLS_CACHE`;
}

let canUnshare: boolean | undefined;

/**
 * The peer tools fall back to downloading schemas from GitHub (and kubectl-validate probes the default
 * kubeconfig's cluster) when a flag is off; run them in an empty network namespace where the machine
 * allows it, and with an empty kubeconfig, so a slip can never send traffic off this machine.
 */
export function offline(bin: string, args: readonly string[]): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  canUnshare ??= spawnSync("unshare", ["-n", "true"]).status === 0;
  const env = { ...process.env, KUBECONFIG: "/dev/null" };
  return canUnshare ? { command: "unshare", args: ["-n", bin, ...args], env } : { command: bin, args: [...args], env };
}

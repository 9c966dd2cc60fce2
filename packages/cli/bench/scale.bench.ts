// `pnpm bench` for large HPA ranges: whole-process `eks-gitops simulate` and `eks-gitops diff --output markdown` on the
// eksworkshop overlay with nginx-deployment's maxReplicas at 12, 1,000 and 2,147,483,647 (target: under 2 s each).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { checkCluster } from "@eks-gitops/config";
import eksworkshop from "../../../clusters/eksworkshop/cluster.ts";
import { renderCluster } from "../src/render.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const CLI = join(REPO, "packages/cli/bin/eks-gitops.js");
const FILE = "clusters/eksworkshop/cluster.ts";
const MAXES = [12, 1_000, 2_147_483_647];
const RUNS = 3;

const repo = mkdtempSync(join(tmpdir(), "scale-bench-"));
const env = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.com" };
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env }).toString().trim();
const write = (path: string, content: string) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
};

/** The overlay with nginx's maxReplicas at `max`, as TypeScript and rendered. */
function writeOverlay(max: number): void {
  const input = structuredClone(eksworkshop) as unknown as { workloads: { autoscaling: { maxReplicas: number } }[] };
  input.workloads[0]!.autoscaling.maxReplicas = max;
  write(FILE, readFileSync(join(REPO, FILE), "utf8").replace("maxReplicas: 12,", `maxReplicas: ${max},`));
  rmSync(join(repo, "clusters/eksworkshop/rendered"), { recursive: true, force: true });
  for (const [path, content] of renderCluster(checkCluster(input, FILE))) write(`clusters/eksworkshop/rendered/${path}`, content);
}

function median(args: readonly string[]): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd: repo, encoding: "utf8", maxBuffer: 1 << 28 });
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
    if (r.status !== 0) throw new Error(`eks-gitops ${args.join(" ")} exited ${r.status}:\n${r.stderr}`);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

try {
  git("init", "-q", "-b", "main");
  write("pnpm-workspace.yaml", "packages: []\n");
  write("clusters/package.json", '{ "type": "module" }\n');
  symlinkSync(join(REPO, "clusters/node_modules"), join(repo, "clusters/node_modules"), "dir");
  cpSync(join(REPO, "clusters/eksworkshop/capacity"), join(repo, "clusters/eksworkshop/capacity"), { recursive: true });
  writeOverlay(12);
  git("add", "-A");
  git("commit", "-qm", "base");
  spawnSync(process.execPath, [CLI, "simulate", "--root", repo, "--cluster", "eksworkshop"], { cwd: repo }); // bundle + code cache once
  for (const max of MAXES) {
    writeOverlay(max);
    const simulate = median(["simulate", "--root", repo, "--cluster", "eksworkshop"]);
    const diff = median(["diff", "--root", repo, "--base", "main", "--output", "markdown"]);
    console.log(`maxReplicas ${max.toLocaleString("en-US")}: simulate ${simulate.toFixed(2)} s, diff --output markdown ${diff.toFixed(2)} s (whole process, median of ${RUNS}; target < 2 s)`);
  }
} finally {
  rmSync(repo, { recursive: true, force: true });
}

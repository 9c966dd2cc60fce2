// `pnpm bench` for diff: in-process diffRendered + Markdown over a 100-cluster tree, and a whole-process
// `eks-gitops diff` between two commits of a generated repository; prints wall time and peak RSS.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { diffRendered } from "../src/diff/changes.ts";
import { formatMarkdown } from "../src/diff/format.ts";
import { readTree } from "../src/tree.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const CLI = join(REPO, "packages/cli/bin/eks-gitops.js");
const CLUSTERS = 100;

/** The committed eksworkshop render copied to `count` clusters; `variant` changes a NodePool limit, an IAM trust policy and drops a file in every tenth. */
function tree(count: number, variant: boolean): Map<string, string> {
  const source = readTree(join(REPO, "clusters/eksworkshop/rendered"));
  const out = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const name = `bench-${String(i).padStart(3, "0")}`;
    for (const [path, content] of source) {
      const touched = variant && i % 10 === 0;
      if (touched && path.startsWith("workload-nlb-app-ondemand/core_v1_service")) continue;
      let c = content.replaceAll("eksworkshop", name);
      if (touched && path.startsWith("karpenter-nodepools/karpenter.sh_v1_nodepool")) c = c.replace('cpu: "1000"', 'cpu: "2000"');
      if (touched && path.endsWith(".trust-policy.json")) c = c.replace("kube-system:karpenter", "karpenter:karpenter");
      out.set(`clusters/${name}/rendered/${path}`, c);
    }
  }
  return out;
}

function time<T>(f: () => T): { value: T; ms: number } {
  const start = process.hrtime.bigint();
  const value = f();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

const base = tree(CLUSTERS, false);
const head = tree(CLUSTERS, true);
diffRendered(base, head); // warm-up (JIT, yaml parser)
const inProcess = time(() => diffRendered(base, head));
const md = time(() => formatMarkdown(inProcess.value, { base: "base", head: "head" }));
console.log(
  `diff in-process: ${base.size} files x 2, ${inProcess.value.changes.length} changed objects: ${inProcess.ms.toFixed(1)} ms diff, ${md.ms.toFixed(1)} ms markdown (${md.value.length} chars)`,
);

const repo = mkdtempSync(join(tmpdir(), "diff-bench-"));
try {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.com" } });
  const write = (t: Map<string, string>) => {
    rmSync(join(repo, "clusters"), { recursive: true, force: true });
    for (const [path, content] of t) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), content);
    }
  };
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "pnpm-workspace.yaml"), "packages: []\n");
  write(base);
  git("add", "-A");
  git("commit", "-qm", "base");
  write(head);
  git("add", "-A");
  git("commit", "-qm", "head");
  const start = process.hrtime.bigint();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, CLI, "diff", "--root", repo, "--base", "HEAD~1", "--head", "HEAD", "--output", "markdown"], { encoding: "utf8" });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) throw new Error(`eks-gitops diff failed: ${r.stderr}`);
  const kb = Number(r.stderr.trim().split("\n").at(-1));
  console.log(`diff whole process (git cat-file of ${base.size * 2} files): ${seconds.toFixed(2)} s, peak RSS ${(kb / 1024).toFixed(0)} MB`);
} finally {
  rmSync(repo, { recursive: true, force: true });
}

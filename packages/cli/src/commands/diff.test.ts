// `eks-gitops diff` on a temporary git repository: added, changed and removed objects, an IAM change, a diff over the comment limit.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../bin.ts";
import { COMMENT_MARKER, GITHUB_COMMENT_LIMIT } from "../diff/format.ts";
import { diff, type DiffOptions } from "./diff.ts";

// Each case runs git or a WebAssembly linter: slow on a loaded machine, and not a timing test.
vi.setConfig({ testTimeout: 300_000 });

let repo: string;
const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env }).toString().trim();
const write = (path: string, content: string) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
};
const R = "clusters/demo/rendered";

const nodePool = (cpu: string) =>
  `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\nspec:\n  taints:\n    - key: a\n  limits:\n    cpu: "${cpu}"\n`;
const trust = (sub: string) => `${JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Condition: { StringEquals: { "oidc:sub": sub } } }] }, null, 2)}\n`;
/** A ConfigMap with `n` data lines, each long enough that a full rewrite exceeds the comment limit. */
const bigConfigMap = (tag: string, n: number) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: web\ndata:\n${Array.from({ length: n }, (_, i) => `  key${i}: ${tag}-${"x".repeat(80)}`).join("\n")}\n`;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "eks-gitops-diff-"));
  git("init", "-q", "-b", "main");
  write("pnpm-workspace.yaml", "packages: []\n");
  write(`${R}/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml`, nodePool("100"));
  write(`${R}/workload-web/apps_v1_deployment_web_web.yaml`, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: web\n");
  write(`${R}/workload-web/core_v1_configmap_web_big.yaml`, bigConfigMap("old", 400));
  write(`${R}/iam/KarpenterControllerRole-demo.trust-policy.json`, trust("system:serviceaccount:kube-system:karpenter"));
  write("clusters/other/rendered/argocd/argoproj.io_v1alpha1_appproject_argocd_other.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata:\n  name: other\n");
  write("README.md", "not rendered\n");
  git("add", "-A");
  git("commit", "-qm", "base");

  git("checkout", "-qb", "feature");
  write(`${R}/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml`, nodePool("200"));
  write(`${R}/karpenter-nodepools/karpenter.k8s.aws_v1_ec2nodeclass_default.yaml`, "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: default\n");
  rmSync(join(repo, `${R}/workload-web/apps_v1_deployment_web_web.yaml`));
  write(`${R}/workload-web/core_v1_configmap_web_big.yaml`, bigConfigMap("new", 400));
  write(`${R}/iam/KarpenterControllerRole-demo.trust-policy.json`, trust("system:serviceaccount:karpenter:karpenter"));
  write(`${R}/iam/KarpenterControllerRole-demo.KarpenterControllerNodeLifecyclePolicy-demo.json`, '{ "Version": "2012-10-17" }\n');
  write("README.md", "changed but not rendered\n");
  git("add", "-A");
  git("commit", "-qm", "feature");
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

async function run(options: Omit<DiffOptions, "root" | "out">): Promise<string> {
  let text = "";
  const code = await diff({
    root: repo,
    ...options,
    out: (t) => {
      text += t;
    },
  });
  expect(code).toBe(0);
  return text;
}

describe("eks-gitops diff between two refs", () => {
  it("lists IAM changes first, then each cluster and component with [+] [~] [-], per-kind counts and a summary", async () => {
    const text = await run({ base: "main", head: "feature", output: "text" });
    const lines = text.split("\n");
    const main = git("rev-parse", "main").slice(0, 12);
    const feature = git("rev-parse", "feature").slice(0, 12);
    expect(lines[0]).toBe(`Rendered diff: main (${main}) -> feature (${feature})`);
    const iam = lines.indexOf("IAM changes");
    const demo = lines.indexOf("demo");
    expect(iam).toBeGreaterThan(0);
    expect(demo).toBeGreaterThan(iam);
    expect(lines[iam + 1]).toBe("  [+] IAM policy KarpenterControllerRole-demo/KarpenterControllerNodeLifecyclePolicy-demo  (demo/iam)");
    expect(lines).toContain("  [~] IAM trust policy KarpenterControllerRole-demo  (demo/iam)");
    expect(lines).toContain('      -          "oidc:sub": "system:serviceaccount:kube-system:karpenter"');
    expect(lines).toContain('      +          "oidc:sub": "system:serviceaccount:karpenter:karpenter"');
    expect(lines.filter((l) => l === "demo")).toHaveLength(1);
    expect(lines).toContain("  karpenter-nodepools");
    expect(lines).toContain("    [+] EC2NodeClass default");
    expect(lines).toContain("    [~] NodePool default");
    expect(lines).toContain('        -    cpu: "100"');
    expect(lines).toContain('        +    cpu: "200"');
    expect(lines).toContain("    [-] Deployment web/web");
    expect(lines).toContain("    [~] ConfigMap web/big");
    expect(lines).toContain("        @@ -1,406 +1,406 @@ rewritten (more than 200 lines differ)");
    expect(text).not.toContain("other");
    expect(text).not.toContain("README");
    expect(lines).toContain(`  ${"ConfigMap".padEnd(28)} +0 ~1 -0`);
    expect(lines).toContain(`  ${"Deployment".padEnd(28)} +0 ~0 -1`);
    expect(lines).toContain(`  ${"EC2NodeClass".padEnd(28)} +1 ~0 -0`);
    expect(lines).toContain(`  ${"IAM policy".padEnd(28)} +1 ~0 -0`);
    expect(lines).toContain(`  ${"IAM trust policy".padEnd(28)} +0 ~1 -0`);
    expect(lines).toContain(`  ${"NodePool".padEnd(28)} +0 ~1 -0`);
    expect(lines.at(-2)).toBe("Summary: 2 added, 3 changed, 1 removed (6 objects in 1 cluster)");
  });

  it("gives machines JSON with the IAM change first", async () => {
    const json = JSON.parse(await run({ base: "main", head: "feature", output: "json" }));
    expect(json.totals).toEqual({ added: 2, changed: 3, removed: 1 });
    expect(json.kinds.NodePool).toEqual({ added: 0, changed: 1, removed: 0 });
    expect(json.changes.map((c: { change: string; kind: string; iam: boolean }) => [c.change, c.kind, c.iam])).toEqual([
      ["added", "IAM policy", true],
      ["changed", "IAM trust policy", true],
      ["added", "EC2NodeClass", false],
      ["changed", "NodePool", false],
      ["removed", "Deployment", false],
      ["changed", "ConfigMap", false],
    ]);
    expect(json.changes[3].path).toBe(`${R}/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml`);
    expect(json.changes[3].hunks).toEqual([
      "@@ -6,4 +6,4 @@",
      "   taints:",
      "     - key: a",
      "   limits:",
      '-    cpu: "100"',
      '+    cpu: "200"',
    ]);
  });

  it("cuts the Markdown comment at GitHub's limit with a notice and a link, and writes the full diff", async () => {
    const full = join(repo, "rendered-diff.md");
    const url = "https://github.example/o/r/actions/runs/42";
    const md = await run({ base: "main", head: "feature", output: "markdown", full, url });
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md.split("\n")[0]).toBe(COMMENT_MARKER);
    expect(md).toContain("**2 added, 3 changed, 1 removed (6 objects in 1 cluster)**");
    expect(md).toContain("| IAM trust policy | 0 | 1 | 0 |");
    expect(md.indexOf("### IAM changes")).toBeLessThan(md.indexOf("### demo"));
    expect(md).toContain("<code>[~]</code> NodePool <code>default</code>");
    expect(md).toContain("<code>[-]</code> Deployment <code>web/web</code>");
    // The ConfigMap's 800-line rewrite does not fit and is left out.
    expect(md).not.toContain("ConfigMap <code>web/big</code>");
    expect(md.match(/^### demo$/gm)).toHaveLength(1);
    expect(md.trimEnd().endsWith(
      `> Cut at 65,536 characters to fit one GitHub comment: 5 of 6 changed objects shown. The full diff is in the \`rendered-diff\` artifact of [this workflow run](${url}).`,
    )).toBe(true);
    const whole = readFileSync(full, "utf8");
    expect(whole.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    expect(whole).toContain("ConfigMap <code>web/big</code>");
    expect(whole).not.toContain("Cut at");
  });

  it("colours markers and hunk lines only when asked (a TTY)", async () => {
    const text = await run({ base: "main", head: "feature", output: "text", color: true });
    expect(text).toContain("\x1b[32m    [+] EC2NodeClass default\x1b[39m");
    expect(text).toContain("\x1b[33m    [~] NodePool default\x1b[39m");
    expect(text).toContain("\x1b[31m    [-] Deployment web/web\x1b[39m");
    expect(text).toContain('\x1b[31m        -    cpu: "100"\x1b[39m');
    // A context line is never coloured, even when the YAML line starts with "-".
    expect(text).toContain("\n             - key: a\n");
    expect(await run({ base: "main", head: "feature", output: "text" })).not.toContain("\x1b[");
  });

  it("says so when nothing rendered changed", async () => {
    const text = await run({ base: "feature", head: "feature" });
    expect(text.split("\n")[1]).toBe("No changes to rendered output.");
  });
});

describe("eks-gitops diff against the working tree", () => {
  it("defaults to the merge base with main and reads uncommitted files", async () => {
    const forkPoint = git("rev-parse", "main");
    git("checkout", "-q", "main");
    write("later-on-main.txt", "moves main past the fork point\n");
    git("add", "-A");
    git("commit", "-qm", "main moves on");
    git("checkout", "-q", "feature");
    write(`${R}/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml`, nodePool("300"));
    const text = await run({});
    expect(text.split("\n")[0]).toBe(`Rendered diff: merge base with main (${forkPoint.slice(0, 12)}) -> working tree`);
    expect(text).toContain('        +    cpu: "300"');
    git("checkout", "-q", "--", ".");
  });

  it("exits 2 and names an unknown revision", async () => {
    const cwd = process.cwd();
    let err = "";
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => {
      err += s;
      return true;
    }) as typeof process.stderr.write;
    try {
      expect(await main(["diff", "--root", repo, "--base", "no-such-ref"])).toBe(2);
      expect(await main(["diff", "--root", repo, "--base", "main", "--output", "html"])).toBe(2);
    } finally {
      process.stderr.write = write;
      process.chdir(cwd);
    }
    expect(err).toContain(`eks-gitops: unknown git revision 'no-such-ref' in ${repo}`);
    expect(err).toContain("eks-gitops: --output must be one of text, markdown, json, not 'html'");
  });
});

describe("eks-gitops diff --exit-code", () => {
  /** main() with stdout and stderr swallowed: the exit code is what is tested. */
  async function exitOf(...argv: string[]): Promise<number> {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      return await main(["diff", "--root", repo, ...argv]);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }

  it("exits 1 when the rendered output differs, 0 when it does not, as git diff --exit-code", async () => {
    expect(await exitOf("--base", "main", "--head", "feature", "--exit-code")).toBe(1);
    expect(await exitOf("--base", "main", "--head", "feature", "--exit-code", "-o", "json")).toBe(1);
    expect(await exitOf("--base", "feature", "--head", "feature", "--exit-code")).toBe(0);
    // without it a diff only informs
    expect(await exitOf("--base", "main", "--head", "feature")).toBe(0);
  });

  it("counts only rendered files: a change elsewhere is no difference", async () => {
    git("checkout", "-q", "feature");
    write("README.md", "edited in the working tree\n");
    try {
      expect(await exitOf("--base", "feature", "--exit-code")).toBe(0);
      write(`${R}/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml`, nodePool("400"));
      expect(await exitOf("--base", "feature", "--exit-code")).toBe(1);
    } finally {
      git("checkout", "-q", "--", ".");
    }
  });
});

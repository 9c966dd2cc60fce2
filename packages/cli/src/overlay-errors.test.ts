// Overlays that fail to load: exit 2 with the file, the line and the reason, never exit 3 or a silent exit 0 (real CLI processes).
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: 300_000 });

const REPO = resolve(import.meta.dirname, "../../..");
const CLI = join(REPO, "packages/cli/bin/eks-gitops.js");
let work: string;

/** A repository root with both real overlays; `edit` changes the given overlay's cluster.ts. */
function repoWith(name: string, overlay: string, edit: (source: string) => string): string {
  const root = join(work, name);
  mkdirSync(join(root, "clusters"), { recursive: true });
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
  writeFileSync(join(root, "clusters/package.json"), '{ "type": "module" }\n');
  for (const c of ["aws-cn", "eksworkshop"]) cpSync(join(REPO, "clusters", c), join(root, "clusters", c), { recursive: true });
  symlinkSync(join(REPO, "clusters/node_modules"), join(root, "clusters/node_modules"));
  const file = join(root, "clusters", overlay, "cluster.ts");
  writeFileSync(file, edit(readFileSync(file, "utf8")));
  return root;
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "overlay-errors-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

// independent repositories and processes: run side by side
describe.concurrent("an overlay that cannot be loaded", () => {
  it("throwing a non-Error: exit 2 naming the file and what it threw", async () => {
    const root = repoWith("throws", "eksworkshop", (s) => `${s}\nthrow "x";\n`);
    const r = await run(["synth", "--root", root, "--check"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr:
        "clusters/eksworkshop/cluster.ts: (root): cannot load: it threw \"x\" (a string, not an Error) while being imported; an overlay only exports `defineCluster({...})`\n" +
        "1 problem in clusters/eksworkshop/cluster.ts; nothing was written.\n",
    });
  });

  it("a TypeScript syntax error: exit 2 with the line, column and reason", async () => {
    const root = repoWith("syntax", "eksworkshop", (s) => s.replace('name: "eksworkshop"', 'name:: "eksworkshop"'));
    const line = readFileSync(join(root, "clusters/eksworkshop/cluster.ts"), "utf8").split("\n").findIndex((l) => l.includes("name::")) + 1;
    const r = await run(["synth", "--root", root, "--check"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr:
        `clusters/eksworkshop/cluster.ts:${line}:8 Cluster/eksworkshop invalid /: cannot load: syntax error at line ${line}, column 8: Unexpected ":" [overlay:syntax]\n` +
        "Summary: 1 resources found - Valid: 0, Invalid: 1, Errors: 0, Skipped: 0\n" +
        "1 problem in clusters/eksworkshop/cluster.ts; nothing was written.\n",
    });
  });

  it("a misspelt key: exit 2, a GitHub annotation on the line and column of cluster.ts with the suggestion (the CLI as run)", async () => {
    const root = repoWith("typo", "eksworkshop", (s) => s.replace("maxReplicas: 12", "maxReplica: 12"));
    const source = readFileSync(join(root, "clusters/eksworkshop/cluster.ts"), "utf8").split("\n");
    const line = source.findIndex((l) => l.includes("maxReplica: 12")) + 1;
    const column = (source[line - 1] ?? "").indexOf("maxReplica:") + 1;
    const r = await run(["synth", "--root", root, "--check", "--output", "github"]);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 2,
      stdout:
        `::error file=clusters/eksworkshop/cluster.ts,line=${line},col=${column},title=Cluster/eksworkshop overlay%3Aunknown-key::workloads[0].autoscaling.maxReplica: unknown key 'maxReplica' (fix: did you mean \`maxReplicas\`?)\n` +
        "Summary: 1 resources found - Valid: 0, Invalid: 1, Errors: 0, Skipped: 0\n",
      stderr: "1 problem in clusters/eksworkshop/cluster.ts; nothing was written.\n",
    });
  });

  it("two bad overlays: both are reported in one run (text and json), exit 2", async () => {
    const root = repoWith("two", "eksworkshop", (s) => s.replace("maxReplicas: 12", "maxReplica: 12"));
    const cn = join(root, "clusters/aws-cn/cluster.ts");
    writeFileSync(cn, readFileSync(cn, "utf8").replace(/count: (\d+)/, "count: -$1"));
    const text = await run(["synth", "--root", root, "--check"]);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^clusters\/aws-cn\/cluster\.ts:\d+:\d+ Cluster\/aws-cn invalid nodeGroups\[0\]\.count: must not be negative/m);
    expect(text.stderr).toMatch(/^clusters\/eksworkshop\/cluster\.ts:\d+:\d+ Cluster\/eksworkshop invalid workloads\[0\]\.autoscaling\.maxReplica: unknown key 'maxReplica'/m);
    expect(text.stderr).toContain("Summary: 2 resources found - Valid: 0, Invalid: 2, Errors: 0, Skipped: 0\n");
    expect(text.stderr.endsWith("2 problems in 2 overlays (clusters/aws-cn/cluster.ts, clusters/eksworkshop/cluster.ts); nothing was written.\n")).toBe(true);
    const json = await run(["synth", "--root", root, "--check", "--output", "json"]);
    expect(json.code).toBe(2);
    expect((JSON.parse(json.stdout) as { resources: { name: string }[] }).resources.map((r) => r.name)).toEqual(["aws-cn", "eksworkshop"]);
  });

  it("calling process.exit(0) does not end synth --check with 0 while another overlay is stale", async () => {
    const root = repoWith("exits", "aws-cn", (s) => `${s}\nprocess.exit(0);\n`);
    writeFileSync(join(root, "clusters/eksworkshop/rendered/karpenter-nodepools/stale.yaml"), "kind: Old\n");
    const r = await run(["synth", "--root", root, "--check"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr:
        "clusters/aws-cn/cluster.ts: (root): cannot load: it called process.exit(0) while being imported; an overlay must not end the process: remove the call\n" +
        "1 problem in clusters/aws-cn/cluster.ts; nothing was written.\n",
    });
  });

  it("commands that write nothing do not say 'nothing was written' (validate, simulate)", async () => {
    const root = repoWith("readers", "eksworkshop", (s) => s.replace("maxReplicas: 12", "maxReplica: 12"));
    const validate = await run(["validate", "--root", root]);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toMatch(/invalid workloads\[0\]\.autoscaling\.maxReplica: unknown key 'maxReplica'/);
    expect(validate.stderr.endsWith("1 problem in clusters/eksworkshop/cluster.ts; nothing was validated.\n")).toBe(true);
    const simulate = await run(["simulate", "--root", root, "--cluster", "eksworkshop"]);
    expect(simulate.code).toBe(2);
    expect(simulate.stderr).toMatch(/maxReplica: unknown key 'maxReplica'/);
    expect(simulate.stderr.endsWith("1 problem in clusters/eksworkshop/cluster.ts; nothing was done.\n")).toBe(true);
  });

  it("calling process.exit(0) later (from a timer) ends the command with 2 and names the overlay, not 0", async () => {
    const root = repoWith("exits-later", "aws-cn", (s) => `${s}\nsetTimeout(() => process.exit(0), 0);\n`);
    writeFileSync(join(root, "clusters/eksworkshop/rendered/karpenter-nodepools/stale.yaml"), "kind: Old\n");
    const r = await run(["synth", "--root", root, "--check"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("clusters/aws-cn/cluster.ts: called process.exit(0) after it was loaded; an overlay must not end the process: remove the call\n");
  });
});

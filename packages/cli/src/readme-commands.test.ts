// Every command of the README, typed as a user types it (`pnpm <script> ...` in a shell, from the repository
// root or from a folder inside it), checked by exit code and output: the root scripts must reach the real CLI.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { userEnv } from "./testing/user-env.ts";

// Each case starts pnpm and the CLI (and some render or validate everything): seconds each, not a timing test.
vi.setConfig({ testTimeout: 120_000 });

const REPO = resolve(import.meta.dirname, "../../..");

interface Typed {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `line` (words separated by spaces, as typed) in `dir` (relative to the repository root). */
function type(line: string, dir = ".", env: NodeJS.ProcessEnv = {}): Typed {
  const [cmd, ...args] = line.split(" ");
  const r = spawnSync(cmd as string, args, { cwd: join(REPO, dir), env: { ...userEnv(), ...env }, encoding: "utf8", timeout: 110_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** pnpm's own header for a script it runs (`> name@ script dir` and `> command`), printed to stdout unless -s. */
const PNPM_HEADER = /^\n> [^\n]+\n> [^\n]+\n\n/;
/** pnpm's line after a script that failed, also on stdout unless -s. */
const PNPM_FAILED = /\n\s*ELIFECYCLE\s+Command failed with exit code 1\.\n$/;

const INVALID = "packages/validate/fixtures/karpenter/nodepool/invalid-static-weight.yaml";
const INVALID_MESSAGE = "'weight' is not supported on static NodePools";

interface Case {
  /** The command line exactly as typed. */
  readonly typed: string;
  /** The folder it is typed in, relative to the repository root. @default "." */
  readonly in?: string;
  readonly status: number;
  /** Checks of the output, beyond the exit code. */
  readonly expect: (r: Typed) => void;
}

// One row per README command (and the folders it must work from). `pnpm simulate` (issue 12) adds its rows here.
const CASES: Case[] = [
  {
    typed: "pnpm eks-gitops --help",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^\n> [^\n]+\n> [^\n]+\n\nUsage: eks-gitops <command> \[options\]\n/),
  },
  {
    typed: "pnpm -s eks-gitops --version",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^eks-gitops \d+\.\d+\.\d+\n$/),
  },
  {
    // README: `pnpm --filter @eks-gitops/validate bench --cpus 0`; the bench itself needs the Go test peers and
    // minutes, so the option is shown reaching it by its refusal of a list taskset would not take
    typed: "pnpm -s --filter @eks-gitops/validate bench --cpus all",
    status: 2,
    expect: (r) => expect(r.stderr).toBe("bench: --cpus all: a list of CPUs as taskset -c takes it, e.g. 0 or 0,1 or 0-3\n"),
  },
  {
    // typed in the package, pnpm passes the `--` on: the options after it still reach the bench (they were words of
    // no meaning, and the whole bench ran without them)
    typed: "pnpm -s bench -- --cpus all",
    in: "packages/validate",
    status: 2,
    expect: (r) => expect(r.stderr).toBe("bench: --cpus all: a list of CPUs as taskset -c takes it, e.g. 0 or 0,1 or 0-3\n"),
  },
  {
    // a misspelt option or a stray word is a usage error, never a stack trace or a bench run without it
    typed: "pnpm -s --filter @eks-gitops/validate bench --shapes-onyl",
    status: 2,
    expect: (r) => expect(r.stderr).toMatch(/^bench: Unknown option '--shapes-onyl'/),
  },
  {
    typed: "pnpm -s --filter @eks-gitops/validate bench shapes-only",
    status: 2,
    expect: (r) => expect(r.stderr).toMatch(/^bench: Unexpected argument 'shapes-only'/),
  },
  {
    // a count that is not one is refused before anything runs (Number() made it NaN, and the bench measured nothing)
    typed: "pnpm -s --filter @eks-gitops/validate bench --shapes-only --sizes 5000,x",
    status: 2,
    expect: (r) => expect(r.stderr).toBe("bench: --sizes 5000,x: a comma list of whole numbers of objects, each at least 1\n"),
  },
  {
    typed: "pnpm -s synth --chek",
    status: 2,
    expect: (r) => expect(r.stderr).toBe("eks-gitops: synth --chek: unknown option; did you mean --check? (eks-gitops synth --help lists the options)\n"),
  },
  {
    typed: "pnpm -s eks-gitops",
    status: 2,
    expect: (r) => expect(r.stdout).toMatch(/^Usage: eks-gitops <command> \[options\]\n/),
  },
  {
    typed: "pnpm -s eks-gitops frobnicate",
    status: 2,
    expect: (r) => expect(r.stderr).toMatch(/^eks-gitops: unknown command 'frobnicate'\n/),
  },
  {
    typed: "pnpm -s synth --check",
    status: 0,
    expect: (r) =>
      expect(r.stdout.replace(/\(\d+ files/g, "(N files")).toBe(
        "ok      clusters/aws-cn/rendered (N files up to date)\nok      clusters/eksworkshop/rendered (N files up to date)\n",
      ),
  },
  {
    typed: "pnpm -s synth --check --cluster eksworkshop",
    in: "clusters/eksworkshop",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^ok {6}clusters\/eksworkshop\/rendered \(\d+ files up to date\)\n$/),
  },
  {
    typed: "pnpm -s synth --help",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^Usage: eks-gitops synth /),
  },
  {
    typed: "pnpm -s validate",
    status: 0,
    expect: (r) => {
      expect(r.stdout).toMatch(/\nSummary: \d+ resources found - Valid: \d+, Invalid: 0, Errors: 0, Skipped: 0/);
      // both overlays' folders, found from the root
      expect(r.stdout).toContain("clusters/aws-cn/rendered/iam/");
      expect(r.stdout).toContain("clusters/eksworkshop/rendered/iam/");
    },
  },
  {
    typed: "pnpm -s validate clusters/aws-cn/rendered",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/\nSummary: 23 resources found - Valid: 23, Invalid: 0, Errors: 0, Skipped: 0/),
  },
  {
    typed: "pnpm -s validate aws-cn/rendered",
    in: "clusters",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/\nSummary: 23 resources found - Valid: 23, Invalid: 0, Errors: 0, Skipped: 0/),
  },
  {
    // one committed file of an overlay: its EC2NodeClass is read from the overlay as context
    typed: "pnpm -s validate clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^Summary: 1 resources found - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0/),
  },
  {
    typed: "pnpm -s validate --strict",
    status: 0,
    // the zonal-shift statement's RESOURCE_STAR_SCOPABLE is info: shown, never an error
    expect: (r) => expect(r.stdout).toMatch(/ info \/Statement\/0\/Resource: .*\[iam:RESOURCE_STAR_SCOPABLE\]\n[\s\S]*Invalid: 0, Errors: 0/),
  },
  {
    typed: "pnpm -s validate rendered/iam",
    in: "clusters/aws-cn",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/\nSummary: 10 resources found - Valid: 10, Invalid: 0, Errors: 0, Skipped: 0/),
  },
  {
    // a package folder has no `validate` script of its own: -w runs the root's, still from this folder
    typed: "pnpm -s -w validate ../../clusters/eksworkshop/rendered/iam",
    in: "packages/validate",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/\nSummary: 8 resources found - Valid: 8, Invalid: 0, Errors: 0, Skipped: 0/),
  },
  {
    typed: `pnpm validate ${INVALID}`,
    status: 1,
    expect: (r) => {
      expect(r.stdout).toContain(`${INVALID}`);
      expect(r.stdout).toContain(`NodePool/static-weight invalid /spec: Invalid value: "object": ${INVALID_MESSAGE}`);
      expect(r.stdout).toContain("\nSummary: 1 resources found - Valid: 0, Invalid: 1, Errors: 0, Skipped: 0");
    },
  },
  {
    typed: "pnpm -s -w validate karpenter/nodepool/invalid-static-weight.yaml",
    in: "packages/validate/fixtures",
    status: 1,
    expect: (r) => expect(r.stdout).toContain(INVALID_MESSAGE),
  },
  {
    typed: "pnpm -s validate -o json clusters/eksworkshop/rendered",
    status: 0,
    expect: (r) => {
      const report = JSON.parse(r.stdout) as { summary: { resources: number; invalid: number } };
      expect(report.summary.resources).toBe(25);
      expect(report.summary.invalid).toBe(0);
    },
  },
  {
    // without -s, pnpm adds its two-line header (and, on failure, an ELIFECYCLE line) to stdout; between them
    // is the CLI's JSON and nothing else (no turbo banner)
    typed: `pnpm validate -o json ${INVALID}`,
    status: 1,
    expect: (r) => {
      expect(r.stdout).toMatch(PNPM_HEADER);
      expect(r.stdout).toMatch(PNPM_FAILED);
      const report = JSON.parse(r.stdout.replace(PNPM_HEADER, "").replace(PNPM_FAILED, "")) as { summary: { invalid: number }; resources: { name: string; status: string }[] };
      expect(report.summary.invalid).toBe(1);
      expect(report.resources.map((x) => `${x.name} ${x.status}`)).toEqual(["static-weight invalid"]);
    },
  },
  {
    typed: `pnpm -s validate -o sarif ${INVALID}`,
    status: 1,
    expect: (r) => {
      const sarif = JSON.parse(r.stdout) as { version: string; runs: { results: { message: { text: string } }[] }[] };
      expect(sarif.version).toBe("2.1.0");
      expect(sarif.runs[0]?.results.some((x) => x.message.text.includes(INVALID_MESSAGE))).toBe(true);
    },
  },
  {
    typed: "pnpm -s diff --base HEAD",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^Rendered diff: HEAD \([0-9a-f]{12}\) -> working tree\n/),
  },
  {
    // the hint names what to do, not the form that just failed (`--base origin/main` in a clone without that branch)
    typed: "pnpm -s validate --base no-such-ref",
    status: 2,
    expect: (r) => expect(r.stderr).toMatch(/^eks-gitops: --base no-such-ref: not a commit in .*; pass a branch, tag or commit this clone has \(a remote branch is fetched first: `git fetch origin main`, then --base origin\/main\)\n$/),
  },
  {
    typed: "pnpm -s diff --help",
    in: "clusters/aws-cn",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^Usage: eks-gitops diff /),
  },
  {
    typed: "pnpm -s eks-gitops --help",
    in: "clusters",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^Usage: eks-gitops <command> \[options\]\n/),
  },
  {
    // `pnpm fuzz -- --runs N`: a mistyped count once ran 0 inputs and exited 0 (a check that did nothing)
    typed: "pnpm -s fuzz -- --runs x",
    status: 2,
    expect: (r) => expect(r.stderr).toMatch(/^fuzz: --runs "x": expected a whole number >= 1\nusage: pnpm fuzz -- --runs N /),
  },
  {
    typed: "pnpm -s fuzz -- --rusn 100",
    status: 2,
    expect: (r) => expect(r.stderr).toMatch(/^fuzz: Unknown option '--rusn'/),
  },
  {
    typed: "pnpm -s bootstrap --help",
    in: "clusters",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^Usage: eks-gitops bootstrap plan\|apply\|destroy --cluster NAME/),
  },
  {
    typed: "pnpm -s bootstrap --help",
    status: 0,
    expect: (r) => expect(r.stdout).toMatch(/^Usage: eks-gitops bootstrap plan\|apply\|destroy --cluster NAME/),
  },
];

describe("README commands, typed as a user types them", () => {
  it.each(CASES.map((c) => [`${c.in ?? "."}$ ${c.typed}`, c] as const))("%s", (_, c) => {
    const r = type(c.typed, c.in);
    expect({ status: r.status, stderr: r.status === c.status ? "" : r.stderr }).toEqual({ status: c.status, stderr: "" });
    c.expect(r);
  });
});

describe("the checks CI runs fail when they should (they never pass by doing nothing)", () => {
  const root = mkdtempSync(join(tmpdir(), "readme-commands-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("pnpm synth --check exits 1 on a stale render, listing the file and the fix", () => {
    writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
    mkdirSync(join(root, "clusters"));
    writeFileSync(join(root, "clusters/package.json"), '{ "type": "module" }\n');
    cpSync(join(REPO, "clusters/eksworkshop"), join(root, "clusters/eksworkshop"), { recursive: true });
    symlinkSync(join(REPO, "clusters/node_modules"), join(root, "clusters/node_modules"));
    rmSync(join(root, "clusters/eksworkshop/rendered/iam/index.json"));
    const r = type(`pnpm -s synth --check --root ${root}`);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(
      [
        "stale   clusters/eksworkshop/rendered: 1 file differs (0 changed, 1 missing, 0 extra)",
        "  [+] clusters/eksworkshop/rendered/iam/index.json",
        "  fix: pnpm synth --cluster eksworkshop",
        "1 of 1 overlay has stale rendered output; run `pnpm synth` and commit the result.",
        "",
      ].join("\n"),
    );
  });
});

describe("documented environment switches leave the checkout as it was", () => {
  it("EKS_GITOPS_OVERLAY_CACHE=off pnpm -s synth --check (packages/config/README.md) writes no folder named 'off'", () => {
    const dir = "clusters/eksworkshop";
    const before = readdirSync(join(REPO, dir)).sort();
    try {
      const r = type("pnpm -s synth --check --cluster eksworkshop", dir, { EKS_GITOPS_OVERLAY_CACHE: "off" });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
      expect(r.stdout).toMatch(/^ok {6}clusters\/eksworkshop\/rendered \(\d+ files up to date\)\n$/);
      // --check writes nothing: not even a cache (the SDK's region table once went to `./off/regions-*.json`)
      expect(readdirSync(join(REPO, dir)).sort()).toEqual(before);
    } finally {
      if (!before.includes("off") && existsSync(join(REPO, dir, "off"))) rmSync(join(REPO, dir, "off"), { recursive: true, force: true });
    }
  });
});

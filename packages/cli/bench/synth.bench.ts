// `pnpm bench` for synth: cold whole-process render of eksworkshop and 100 generated overlays in one
// process, each with the in-memory validation that precedes the write and without it (--no-validate),
// and `pnpm synth --check` as typed; prints wall time and peak RSS against the targets.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../../..");
const CLI = join(REPO, "packages/cli/bin/eks-gitops.js");

interface Measure {
  readonly seconds: number;
  readonly peakRssMb: number;
}

/** Runs a command under GNU time when present (peak RSS of the whole process tree's largest member). */
function measure(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Measure {
  const start = process.hrtime.bigint();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", cmd, ...args], { cwd, env, encoding: "utf8" });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.error || r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.error?.message ?? r.stderr}`);
  const kb = Number(r.stderr.trim().split("\n").at(-1));
  return { seconds, peakRssMb: kb / 1024 };
}

/** A repository root with `count` overlays generated from eksworkshop (names, accounts and pools varied). */
function generatedRepo(count: number): string {
  const root = mkdtempSync(join(tmpdir(), "synth-bench-"));
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
  mkdirSync(join(root, "clusters"));
  writeFileSync(join(root, "clusters/package.json"), '{ "type": "module" }\n');
  symlinkSync(join(REPO, "clusters/node_modules"), join(root, "clusters/node_modules"));
  const template = readFileSync(join(REPO, "clusters/eksworkshop/cluster.ts"), "utf8");
  for (let i = 0; i < count; i++) {
    const name = `bench-${String(i).padStart(3, "0")}`;
    mkdirSync(join(root, "clusters", name));
    const source = template
      .replace('name: "eksworkshop"', `name: "${name}"`)
      .replace('"133129065110"', `"${String(100000000000 + i)}"`)
      .replace("limits: { cpu: 1000,", `limits: { cpu: ${100 + i},`)
      .replace('values: ["c", "m", "r"]', i % 2 ? 'values: ["c", "m"]' : 'values: ["c", "m", "r"]');
    writeFileSync(join(root, "clusters", name, "cluster.ts"), source);
  }
  return root;
}

function row(label: string, m: Measure, target: string, ok: boolean): string {
  return `${label.padEnd(44)} ${m.seconds.toFixed(2).padStart(6)} s ${m.peakRssMb.toFixed(0).padStart(5)} MB   target ${target.padEnd(22)} ${ok ? "ok" : "MISSED"}`;
}

const lines: string[] = [];
const single = generatedRepo(0);
cpSync(join(REPO, "clusters/eksworkshop"), join(single, "clusters/eksworkshop"), { recursive: true });
rmSync(join(single, "clusters/eksworkshop/rendered"), { recursive: true, force: true });
// interleaved, best of 3 each: with the in-memory validation (the default) and without
const cold = (extra: string[]) => {
  rmSync(join(single, "clusters/eksworkshop/rendered"), { recursive: true, force: true });
  return measure(process.execPath, [CLI, "synth", "--cluster", "eksworkshop", "--root", single, ...extra], single);
};
const pairs = [0, 1, 2].map(() => ({ validated: cold([]), plain: cold(["--no-validate"]) }));
const fastest = (ms: Measure[]) => ms.reduce((a, b) => (a.seconds < b.seconds ? a : b));
const best = fastest(pairs.map((p) => p.validated));
const bestPlain = fastest(pairs.map((p) => p.plain));
lines.push(row("eks-gitops synth --cluster eksworkshop (cold)", best, "< 1.5 s", best.seconds < 1.5));
lines.push(row("  the same, --no-validate", bestPlain, `(validation +${(best.seconds - bestPlain.seconds).toFixed(2)} s)`, true));
rmSync(single, { recursive: true, force: true });

const many = generatedRepo(100);
const hundred = measure(process.execPath, [CLI, "synth", "--root", many], many);
lines.push(row("eks-gitops synth, 100 overlays, one process", hundred, "< 10 s and < 400 MB", hundred.seconds < 10 && hundred.peakRssMb < 400));
rmSync(many, { recursive: true, force: true });
const manyPlain = generatedRepo(100);
const hundredPlain = measure(process.execPath, [CLI, "synth", "--root", manyPlain, "--no-validate"], manyPlain);
lines.push(row("  the same, --no-validate", hundredPlain, `(validation +${(hundred.seconds - hundredPlain.seconds).toFixed(2)} s)`, true));
rmSync(manyPlain, { recursive: true, force: true });

// as typed: pnpm's start-up, then the CLI directly (no turbo); --check compares without writing
const viaPnpm = measure("pnpm", ["-s", "synth", "--check", "--cluster", "eksworkshop"], REPO);
lines.push(row("pnpm synth --check --cluster eksworkshop", viaPnpm, "(pnpm start-up incl.)", true));

process.stdout.write(`synth benchmark (${new Date().toISOString().slice(0, 10)}, node ${process.version})\n${lines.join("\n")}\n`);

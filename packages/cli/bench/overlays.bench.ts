// `pnpm bench` for overlay loading: the time `synth` spends loading 1 and 100 overlays (its own --timings),
// with the compiled-overlay cache cold, warm, and switched off (TypeScript loader); the whole one-overlay and
// 100-overlay synth (issue 19's targets); and the overlays phase of `validate` over the committed tree.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../../..");
const CLI = join(REPO, "packages/cli/bin/eks-gitops.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** A repository root with `count` overlays generated from eksworkshop, rendered once. */
function generatedRepo(count: number): string {
  const root = mkdtempSync(join(tmpdir(), "overlays-bench-"));
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
  mkdirSync(join(root, "clusters"));
  writeFileSync(join(root, "clusters/package.json"), '{ "type": "module" }\n');
  symlinkSync(join(REPO, "clusters/node_modules"), join(root, "clusters/node_modules"));
  const template = readFileSync(join(REPO, "clusters/eksworkshop/cluster.ts"), "utf8");
  for (let i = 0; i < count; i++) {
    const name = count === 1 ? "eksworkshop" : `bench-${String(i).padStart(3, "0")}`;
    mkdirSync(join(root, "clusters", name));
    if (count === 1) cpSync(join(REPO, "clusters/eksworkshop/capacity"), join(root, "clusters", name, "capacity"), { recursive: true });
    writeFileSync(join(root, "clusters", name, "cluster.ts"), template.replace('name: "eksworkshop"', `name: "${name}"`).replace("limits: { cpu: 1000,", `limits: { cpu: ${100 + i},`));
  }
  run(["synth", "--root", root, "--no-validate"], root, {});
  return root;
}

interface Run {
  readonly wall: number;
  /** `synth --timings` / `validate --timings` phases, in ms. */
  readonly phases: Record<string, number>;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env }, encoding: "utf8" });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0 && r.status !== 1) throw new Error(`eks-gitops ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  const phases: Record<string, number> = {};
  for (const m of (r.stderr.split("\n").find((l) => l.startsWith("timings: ")) ?? "").matchAll(/(\w[\w ]*?) (\d+) ms/g)) phases[m[1] as string] = Number(m[2]);
  return { wall, phases };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Median of RUNS runs: the overlays phase and the wall time; `fresh` gives each run an empty overlay cache. */
function measure(args: string[], cwd: string, cache: "warm" | "cold" | "off"): { overlays: number; wall: number } {
  const dir = mkdtempSync(join(tmpdir(), "overlay-cache-"));
  const env = { EKS_GITOPS_OVERLAY_CACHE: cache === "off" ? "off" : dir };
  if (cache === "warm") run(args, cwd, env);
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (cache === "cold") rmSync(dir, { recursive: true, force: true });
    runs.push(run(args, cwd, env));
  }
  rmSync(dir, { recursive: true, force: true });
  return { overlays: median(runs.map((r) => r.phases.overlays ?? Number.NaN)), wall: median(runs.map((r) => r.wall)) };
}

const lines: string[] = [];
const row = (label: string, m: { overlays: number; wall: number }, target = "") =>
  lines.push(`${label.padEnd(52)} overlays ${String(m.overlays).padStart(5)} ms   whole run ${m.wall.toFixed(2).padStart(5)} s   ${target}`);

for (const count of [1, 100]) {
  const root = generatedRepo(count);
  const check = ["synth", "--check", "--timings", "--root", root];
  const warm = measure(check, root, "warm");
  row(`synth --check, ${count} overlay(s), cache warm`, warm, count === 1 ? `target: overlays < 300 ms ${warm.overlays < 300 ? "ok" : "MISSED"}` : "");
  row(`synth --check, ${count} overlay(s), cache cold`, measure(check, root, "cold"));
  row(`synth --check, ${count} overlay(s), TypeScript loader (cache off)`, measure(check, root, "off"));
  const synth = measure(["synth", "--timings", "--root", root], root, "warm");
  const target = count === 1 ? 0.7 : 3;
  row(`synth (validated), ${count} overlay(s), cache warm`, synth, `issue 19 target: < ${target} s ${synth.wall < target ? "ok" : "MISSED"}`);
  rmSync(root, { recursive: true, force: true });
}
const validate = measure(["validate", "--timings"], REPO, "warm");
row("validate of the committed tree, cache warm", validate, `target: overlays < 300 ms ${validate.overlays < 300 ? "ok" : "MISSED"}`);

process.stdout.write(
  `overlay loading benchmark (${new Date().toISOString().slice(0, 10)}, node ${process.version}, median of ${RUNS}; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})\n${lines.join("\n")}\n`,
);

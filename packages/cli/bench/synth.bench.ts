// `pnpm bench` for synth (issue 19's targets: one overlay in 0.7 s, 100 overlays in 3 s, idle 2-core machine):
// whole-process `eks-gitops synth` of one overlay (eksworkshop) and of 100 overlays generated from it, each with
// the in-memory validation that precedes the write and without it (--no-validate), every run writing its whole
// output (rendered/ moved aside first, into a folder removed at the end: see `aside` below). The four are interleaved, RUNS rounds (default 5); each row is the median
// wall time, CPU time (user + system, all threads) and peak RSS, with the load average around the runs: on a
// shared machine the wall time says more about the neighbours than about synth, the CPU time does not.
// Then `pnpm synth --check` as typed (pnpm's start-up included), once.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../../..");
const CLI = join(REPO, "packages/cli/bin/eks-gitops.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Measure {
  readonly wall: number;
  /** User + system CPU seconds of the process and its threads. */
  readonly cpu: number;
  readonly peakRssMb: number;
}

/** Runs a command under GNU time: wall, CPU and peak RSS. */
function measure(args: string[], cwd: string): Measure {
  const start = process.hrtime.bigint();
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S %M", ...args], { cwd, encoding: "utf8" });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.error || r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.error?.message ?? r.stderr}`);
  const [user, system, kb] = (r.stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number) as [number, number, number];
  return { wall, cpu: user + system, peakRssMb: kb / 1024 };
}

/** A repository root with `count` overlays generated from eksworkshop (names, accounts and pools varied). */
function generatedRepo(count: number): { root: string; names: string[] } {
  const root = mkdtempSync(join(tmpdir(), "synth-bench-"));
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
  mkdirSync(join(root, "clusters"));
  writeFileSync(join(root, "clusters/package.json"), '{ "type": "module" }\n');
  symlinkSync(join(REPO, "clusters/node_modules"), join(root, "clusters/node_modules"));
  if (count === 1) {
    cpSync(join(REPO, "clusters/eksworkshop"), join(root, "clusters/eksworkshop"), { recursive: true });
    return { root, names: ["eksworkshop"] };
  }
  const template = readFileSync(join(REPO, "clusters/eksworkshop/cluster.ts"), "utf8");
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `bench-${String(i).padStart(3, "0")}`;
    names.push(name);
    mkdirSync(join(root, "clusters", name));
    const source = template
      .replace('name: "eksworkshop"', `name: "${name}"`)
      .replace('"133129065110"', `"${String(100000000000 + i)}"`)
      .replace("limits: { cpu: 1000,", `limits: { cpu: ${100 + i},`)
      .replace('values: ["c", "m", "r"]', i % 2 ? 'values: ["c", "m"]' : 'values: ["c", "m", "r"]');
    writeFileSync(join(root, "clusters", name, "cluster.ts"), source);
  }
  return { root, names };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

interface Case {
  readonly label: string;
  readonly repo: { root: string; names: string[] };
  readonly args: string[];
  /** Issue 19's wall-time target on an idle 2-core machine, in seconds. */
  readonly target?: number;
  readonly runs: Measure[];
}

const one = generatedRepo(1);
const hundred = generatedRepo(100);
const cases: Case[] = [
  { label: "synth --cluster eksworkshop", repo: one, args: ["--cluster", "eksworkshop"], target: 0.7, runs: [] },
  { label: "  the same, --no-validate", repo: one, args: ["--cluster", "eksworkshop", "--no-validate"], runs: [] },
  { label: "synth, 100 overlays, one process", repo: hundred, args: [], target: 3, runs: [] },
  { label: "  the same, --no-validate", repo: hundred, args: ["--no-validate"], runs: [] },
];
// the first run of a command builds the CLI bundle and its code cache, and compiles the overlays: not measured
for (const c of cases) measure([process.execPath, CLI, "synth", "--root", c.repo.root, ...c.args], c.repo.root);

// The previous output is moved aside, not removed, before each run: on an ext4 without a journal (this machine's)
// the kernel does not reuse an inode freed less than 30 s ago, and each file made then walks past every such inode
// (`recently_deleted()`), so removing 2,500 files just before a run added 1-2 s of system time to its writes,
// which measured the bench's own removal rather than synth. Everything moved aside is removed at the end.
const aside = mkdtempSync(join(tmpdir(), "synth-bench-aside-"));
let moved = 0;
const loadBefore = loadAverage();
for (let round = 0; round < RUNS; round++) {
  for (const c of cases) {
    for (const name of c.repo.names) {
      const output = join(c.repo.root, "clusters", name, "rendered");
      if (existsSync(output)) renameSync(output, join(aside, String(moved++)));
    }
    c.runs.push(measure([process.execPath, CLI, "synth", "--root", c.repo.root, ...c.args], c.repo.root));
  }
}
const loadAfter = loadAverage();
rmSync(aside, { recursive: true, force: true });
rmSync(one.root, { recursive: true, force: true });
rmSync(hundred.root, { recursive: true, force: true });

const lines = cases.map((c) => {
  const wall = median(c.runs.map((m) => m.wall));
  const cpu = median(c.runs.map((m) => m.cpu));
  const rss = median(c.runs.map((m) => m.peakRssMb));
  const target = c.target === undefined ? "" : `target < ${c.target} s wall on an idle machine: ${wall < c.target ? "ok" : cpu < c.target ? "MISSED here (CPU time within it)" : "MISSED"}`;
  return `${c.label.padEnd(36)} wall ${wall.toFixed(2).padStart(5)} s   cpu ${cpu.toFixed(2).padStart(5)} s ${rss.toFixed(0).padStart(5)} MB   ${target}`;
});

// as typed: pnpm's start-up, then the CLI directly (no turbo); --check compares without writing
const viaPnpm = measure(["pnpm", "-s", "synth", "--check", "--cluster", "eksworkshop"], REPO);
lines.push(`${"pnpm synth --check --cluster eksworkshop".padEnd(36)} wall ${viaPnpm.wall.toFixed(2).padStart(5)} s   cpu ${viaPnpm.cpu.toFixed(2).padStart(5)} s ${viaPnpm.peakRssMb.toFixed(0).padStart(5)} MB   (pnpm start-up incl., one run)`);

process.stdout.write(
  `synth benchmark (${new Date().toISOString().slice(0, 10)}, node ${process.version}; median of ${RUNS} interleaved runs, each writing its whole output; load average ${loadBefore} before, ${loadAfter} after)\n${lines.join("\n")}\n`,
);

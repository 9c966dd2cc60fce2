// Measuring one run of a validator: its own process under GNU time (wall and CPU seconds, peak RSS), its report counted.
import { spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { offline } from "../testing/test-tools.ts";

export interface Measurement {
  readonly tool: string;
  readonly wallSeconds: number;
  /** User + system CPU seconds of the process (all its threads): steadier than wall time on a busy machine. */
  readonly cpuSeconds: number;
  readonly peakRssMb: number;
  readonly invalid: number;
  readonly objects: number;
}

export const TIME = "/usr/bin/time";

/**
 * How our CLI is started: `sh packages/cli/bin/eks-gitops.sh`, as the root scripts (`pnpm validate`) and the
 * package's bin start it (it moves NODE_EXTRA_CA_CERTS aside, see packages/cli/bin/extra-ca.js), or `cli` (a
 * launcher script run with sh, or a Node entry point: a frozen bundle of an earlier commit, for before/after figures).
 */
export function ourCommand(repoRoot: string, cli?: string): string[] {
  const entry = cli ?? join(repoRoot, "packages/cli/bin/eks-gitops.sh");
  return entry.endsWith(".sh") ? ["sh", entry] : [process.execPath, entry];
}

/** The run with the median wall time (the lower middle one for an even count). */
export function median(runs: readonly Measurement[]): Measurement {
  const sorted = [...runs].sort((a, b) => a.wallSeconds - b.wallSeconds);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Measurement;
}

/**
 * The median of the rounds' own ratios (`ours[i] / theirs[i]` of wall times, each pair run back to back): a host
 * whose speed drifts by a third within minutes (seen here) moves both runs of a round alike, so this is steadier than
 * the ratio of the two medians, which may come from different minutes. For an even count, the lower middle one,
 * as median().
 */
export function medianRoundRatio(ours: readonly Measurement[], theirs: readonly Measurement[]): number | undefined {
  const n = Math.min(ours.length, theirs.length);
  if (n === 0) return undefined;
  const ratios = Array.from({ length: n }, (_, i) => (ours[i] as Measurement).wallSeconds / (theirs[i] as Measurement).wallSeconds).sort((a, b) => a - b);
  return ratios[Math.floor((n - 1) / 2)] as number;
}

/**
 * A list of CPUs for `taskset -c` ("0", "0,2", "0-3"), checked: the bench runs every tool on those CPUs only, to
 * give figures of a machine with fewer (a 1-vCPU CI runner). Undefined when none is given; throws when the list is
 * not one or `taskset` (util-linux) cannot pin a process to it here.
 */
export function checkCpuList(list: string | undefined): string | undefined {
  if (list === undefined) return undefined;
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(list)) throw new Error(`--cpus ${list}: a list of CPUs as taskset -c takes it, e.g. 0 or 0,1 or 0-3`);
  const probe = spawnSync("taskset", ["-c", list, "true"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) throw new Error(`--cpus ${list}: taskset cannot run a process on those CPUs here (${probe.error?.message ?? probe.stderr.trim()})`);
  return list;
}

/** Runs a command with stdout to a file, under GNU time for elapsed seconds and max RSS; on `cpus` only (checkCpuList) when given. */
export function measure(tool: string, argv: readonly string[], work: string, count: (stdout: string) => { objects: number; invalid: number }, cpus?: string): Measurement {
  const slug = tool.replace(/[^a-z0-9]+/gi, "-");
  const out = join(work, `${slug}.stdout`);
  const timing = join(work, `${slug}.time`);
  const fd = openSync(out, "w");
  const [bin, ...rest] = argv as [string, ...string[]];
  const peer = tool.startsWith("@eks-gitops") ? { command: bin, args: rest, env: process.env } : offline(bin, rest);
  // taskset execs the command in its own process: GNU time measures the command itself
  const pinned = cpus === undefined ? [peer.command, ...peer.args] : ["taskset", "-c", cpus, peer.command, ...peer.args];
  const run = spawnSync(TIME, ["-f", "%e %M %U %S", "-o", timing, ...pinned], { env: peer.env, stdio: ["ignore", fd, "pipe"], encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  closeSync(fd);
  if (run.status !== 0 && run.status !== 1) throw new Error(`${tool} exited with ${run.status}: ${run.stderr.slice(-2000)}`);
  const [elapsed, rssKb, user, system] = readFileSync(timing, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number) as [number, number, number, number];
  return { tool, wallSeconds: elapsed, cpuSeconds: user + system, peakRssMb: rssKb / 1024, ...count(readFileSync(out, "utf8")) };
}

export function countOurs(stdout: string) {
  const s = (JSON.parse(stdout) as { summary: { resources: number; invalid: number; error: number } }).summary;
  return { objects: s.resources, invalid: s.invalid + s.error };
}
export function countKubeconform(stdout: string) {
  const s = (JSON.parse(stdout) as { summary: { valid: number; invalid: number; errors: number; skipped: number } }).summary;
  return { objects: s.valid + s.invalid + s.errors + s.skipped, invalid: s.invalid + s.errors };
}

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

/** Runs a command with stdout to a file, under GNU time for elapsed seconds and max RSS. */
export function measure(tool: string, argv: readonly string[], work: string, count: (stdout: string) => { objects: number; invalid: number }): Measurement {
  const slug = tool.replace(/[^a-z0-9]+/gi, "-");
  const out = join(work, `${slug}.stdout`);
  const timing = join(work, `${slug}.time`);
  const fd = openSync(out, "w");
  const [bin, ...rest] = argv as [string, ...string[]];
  const peer = tool.startsWith("@eks-gitops") ? { command: bin, args: rest, env: process.env } : offline(bin, rest);
  const run = spawnSync(TIME, ["-f", "%e %M %U %S", "-o", timing, peer.command, ...peer.args], { env: peer.env, stdio: ["ignore", fd, "pipe"], encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
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

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkCpuList, type Measurement, measure, median, medianRoundRatio, TIME } from "./measure.ts";

const run = (wallSeconds: number): Measurement => ({ tool: "t", wallSeconds, cpuSeconds: wallSeconds, peakRssMb: 1, invalid: 0, objects: 1 });

describe("medianRoundRatio", () => {
  it("takes each round's own ratio, not the ratio of the medians", () => {
    // a host that slows down by half in the middle rounds: every round is 0.8x, the medians come from different minutes
    const ours = [0.8, 1.2, 1.2, 0.8, 0.8].map(run);
    const theirs = [1.0, 1.5, 1.5, 1.0, 1.0].map(run);
    expect(medianRoundRatio(ours, theirs)).toBeCloseTo(0.8, 10);
    expect(median(ours).wallSeconds / median(theirs).wallSeconds).toBeCloseTo(0.8, 10);
    // the medians of rounds from different minutes: 1.2 of a slow round against 1.0 of a fast one
    const drift = [1.2, 1.2, 1.2, 0.8, 0.8].map(run);
    const peer = [1.5, 1.5, 1.0, 1.0, 1.0].map(run);
    expect(median(drift).wallSeconds / median(peer).wallSeconds).toBeCloseTo(1.2, 10);
    expect(medianRoundRatio(drift, peer)).toBeCloseTo(0.8, 10);
  });

  it("takes the lower middle of an even count (as median()), uses the rounds both ran, and is undefined without a peer", () => {
    expect(medianRoundRatio([1, 2, 3, 4].map(run), [1, 1, 1, 1].map(run))).toBe(2);
    expect(medianRoundRatio([1, 3, 9].map(run), [1, 1].map(run))).toBe(1);
    expect(medianRoundRatio([1].map(run), [])).toBeUndefined();
  });
});

// `pnpm bench -- --cpus LIST`: every tool pinned with taskset (util-linux), for figures of a machine with fewer CPUs
const firstCpu = process.platform === "linux" ? /^Cpus_allowed_list:\s*(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] : undefined;
const canPin = firstCpu !== undefined && existsSync(TIME) && spawnSync("taskset", ["-V"]).status === 0;

describe("--cpus", () => {
  it("refuses what taskset -c would not take, naming the option", () => {
    expect(checkCpuList(undefined)).toBeUndefined();
    for (const bad of ["", "all", "0;1", "-1", "0,", "1-"]) expect(() => checkCpuList(bad)).toThrow(/^--cpus .*: a list of CPUs as taskset -c takes it/);
  });

  it.skipIf(!canPin)("runs the measured command on those CPUs only", () => {
    expect(checkCpuList(firstCpu)).toBe(firstCpu);
    const work = mkdtempSync(join(tmpdir(), "eks-gitops-bench-cpus-"));
    try {
      // the command reports how many CPUs it may run on, as the objects it counted
      const argv = [process.execPath, "-e", "console.log(require('node:os').availableParallelism())"];
      const count = (stdout: string) => ({ objects: Number(stdout.trim()), invalid: 0 });
      expect(measure("@eks-gitops/cpus", argv, work, count, firstCpu).objects).toBe(1);
      expect(measure("@eks-gitops/cpus", argv, work, count).objects).toBe(availableParallelism());
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

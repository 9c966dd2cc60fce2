// `validate` reads files ahead in a worker thread (packages/validate/src/read-ahead.ts): the report must be the
// same byte for byte as when every file is read on the main thread (EKS_GITOPS_READ_AHEAD=0), on every fixture
// and on hostile input, whichever thread happens to read each file (the real worker's reading is shown without a
// race in packages/validate/src/read-ahead-worker.test.ts).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cgroupCpuQuota, LOADAVG_AT_START, machineCpus } from "./cpu-budget.ts";
import { BUNDLE_DIR, READ_AHEAD_MIN_CPUS, READ_AHEAD_STARTED, startReadAhead, takeLauncherReadAhead } from "./read-ahead.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const BIN = join(ROOT, "packages/cli/bin/eks-gitops.js");
const tmp = mkdtempSync(join(tmpdir(), "eks-gitops-read-ahead-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The CPUs `validate` is started on: `taskset -c` with a list (to give it fewer), else as this process has them. */
function validate(args: string[], env: Record<string, string> = {}, cpus?: string) {
  // EKS_GITOPS_READ_AHEAD as each test says, never as the caller's environment has it
  const { EKS_GITOPS_READ_AHEAD: _, ...inherited } = process.env;
  const command = [process.execPath, BIN, "validate", ...args, "--timings", "--root", ROOT];
  const [bin, ...rest] = cpus === undefined ? command : ["taskset", "-c", cpus, ...command];
  const r = spawnSync(bin as string, rest, { cwd: ROOT, encoding: "utf8", env: { ...inherited, ...env }, maxBuffer: 64 * 1024 * 1024 });
  const worker = /files read ahead in a worker started \d+\.\d\d s after the process( by the launcher)?: (\d+) of (\d+), native checks made there: (\d+) objects/.exec(r.stderr);
  const none = /no read-ahead worker(?: \(([^)]*)\))?: (\d+) files read on the main thread/.exec(r.stderr);
  expect(worker ?? none, r.stderr).not.toBeNull();
  return {
    status: r.status,
    stdout: r.stdout,
    started: worker !== null,
    early: worker?.[1] !== undefined,
    without: none?.[1],
    fromWorker: Number(worker?.[2] ?? 0),
    files: Number(worker?.[3] ?? none?.[2]),
    nativeAhead: Number(worker?.[4] ?? 0),
  };
}

/** A folder of four small ConfigMaps (under the 64 KiB a worker needs to pay), for the launcher's tests. */
function fourConfigMaps(name: string): string {
  const files = join(tmp, name);
  mkdirSync(files);
  for (let i = 0; i < 4; i++) writeFileSync(join(files, `c${i}.yaml`), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\n`);
  return files;
}

/** The first CPU this process may run on (/proc/self/status), when `taskset` is there to start a command on it alone. */
function oneCpu(): string | undefined {
  if (process.platform !== "linux" || spawnSync("taskset", ["-V"]).status !== 0) return undefined;
  return /^Cpus_allowed_list:\s*(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
}

/**
 * `run` in this process as the bundled CLI runs (a pretend bundle folder, EKS_GITOPS_READ_AHEAD unset, no launcher's
 * read of /proc/loadavg), all put back after: no bundle is beside the folder, so a worker that would be started is
 * not there to start (startReadAheadWorker gives undefined), and no case starts one.
 */
function inBundle(run: () => void): void {
  const BUNDLE_DIR = Symbol.for("eks-gitops.bundle-dir");
  const global = globalThis as Record<symbol, unknown>;
  const saved = { dir: global[BUNDLE_DIR], start: global[LOADAVG_AT_START], env: process.env.EKS_GITOPS_READ_AHEAD };
  global[BUNDLE_DIR] = join(tmp, "no-bundle-here");
  delete global[LOADAVG_AT_START];
  delete process.env.EKS_GITOPS_READ_AHEAD;
  try {
    run();
  } finally {
    global[BUNDLE_DIR] = saved.dir;
    global[LOADAVG_AT_START] = saved.start;
    if (saved.env === undefined) delete process.env.EKS_GITOPS_READ_AHEAD;
    else process.env.EKS_GITOPS_READ_AHEAD = saved.env;
  }
}

/** Both ways, compared: the same exit code and output; returns the worker's run (started whatever the input's size). */
function bothWays(args: string[]) {
  const ahead = validate(args, { EKS_GITOPS_READ_AHEAD: "1" });
  const inThread = validate(args, { EKS_GITOPS_READ_AHEAD: "0" });
  expect(ahead.status).toBe(inThread.status);
  expect(ahead.stdout).toBe(inThread.stdout);
  expect(ahead.started).toBe(true);
  expect(inThread.started).toBe(false);
  return ahead;
}

describe("validate's read-ahead worker", () => {
  it("reports every fixture exactly as the main thread alone does, with the worker started and given every file", () => {
    // a first run leaves the catalog's packs in the cache, which the worker's native checks read
    validate(["packages/validate/fixtures", "-o", "json"]);
    const run = bothWays(["packages/validate/fixtures", "-o", "json"]);
    expect(run.status).toBe(1);
    // the worker was started and given every file; which thread read each one depends on the machine's load
    // (a busy machine may leave most to the main thread), so it is not asserted here: the report must not
    // depend on it. packages/validate/src/read-ahead-worker.test.ts shows the real worker reading, without a race.
    expect(run.files).toBeGreaterThan(400);
    expect(run.fromWorker).toBeGreaterThanOrEqual(0);
  });

  it("reports the same as the main thread alone with --no-native and with the catalog's versions chosen on the command line", () => {
    bothWays(["packages/validate/fixtures/native", "-o", "json", "--no-native"]);
    bothWays(["packages/validate/fixtures/native", "-o", "json", "--kubernetes-version", "1.36.0"]);
  });

  it("reports the rendered overlays (catalog versions from each overlay) the same way", () => {
    const run = bothWays(["-o", "json"]);
    expect(run.status).toBe(0);
    expect(run.files).toBeGreaterThan(0);
  });

  it("reports hostile files the same way: binary, syntax errors, alias bombs, links, too large, FIFOs", () => {
    const dir = join(tmp, "hostile");
    mkdirSync(dir);
    const ok = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  a: "${i}"\n`;
    for (let i = 0; i < 12; i++) writeFileSync(join(dir, `ok-${String(i).padStart(2, "0")}.yaml`), ok(i));
    writeFileSync(join(dir, "binary.yaml"), Buffer.from([0x61, 0x00, 0x62]));
    writeFileSync(join(dir, "syntax.yaml"), `${ok(100)}---\nkind: [unclosed\n---\n${ok(101)}`);
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(", ")}]`);
    writeFileSync(join(dir, "bomb.yaml"), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\n${bomb.join("\n")}\n`);
    writeFileSync(join(dir, "duplicate.json"), '{"apiVersion": "v1", "kind": "ConfigMap", "kind": "Secret", "metadata": {"name": "d"}}');
    writeFileSync(join(dir, "proto.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: p\ndata:\n  __proto__: x\n  on: yes\n");
    writeFileSync(join(dir, "large.yaml"), `${ok(200)}data2: "${"x".repeat(5000)}"\n`);
    symlinkSync(join(dir, "missing-target.yaml"), join(dir, "dangling.yaml"));
    const fifo = spawnSync("mkfifo", [join(dir, "fifo.yaml")]);
    const run = bothWays([dir, "-o", "json", "--max-file-bytes", "4096"]);
    expect(run.status).toBe(1);
    const report = JSON.parse(validate([dir, "-o", "json", "--max-file-bytes", "4096"]).stdout) as { resources: { file: string; findings: { rule: string }[] }[] };
    const rules = new Set(report.resources.flatMap((r) => r.findings.map((f) => f.rule)));
    expect([...rules]).toEqual(expect.arrayContaining(["parse:binary", "parse:syntax", "parse:too-large"]));
    if (fifo.status === 0) expect(report.resources.some((r) => r.file.endsWith("fifo.yaml"))).toBe(true);
  });

  it("starts no worker for an input too small for one to pay (under 64 KiB), and one for a larger input, each without being asked", () => {
    const small = join(tmp, "small");
    const large = join(tmp, "large");
    mkdirSync(small);
    mkdirSync(large);
    const cm = (i: number, size: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  a: "${"x".repeat(size)}"\n`;
    for (let i = 0; i < 3; i++) writeFileSync(join(small, `c${i}.yaml`), cm(i, 100));
    for (let i = 0; i < 3; i++) writeFileSync(join(large, `c${i}.yaml`), cm(i, 30_000));
    // the paths are told from option values: `--root` (given by validate() here) names the repository, megabytes
    // of files that are not an input
    const none = validate([small, "-o", "json"]);
    expect(none.started).toBe(false);
    expect(none.files).toBe(3);
    expect(validate([small, "-o", "json", "--max-file-bytes", "100000"]).started).toBe(false);
    expect(none.without).toBe("input too small to pay for it");
    const one = validate([large, "-o", "json", "--max-file-bytes", "100000"]);
    // on a machine of one CPU (or a quota under two) no input is large enough: see the next test; nor on a machine
    // whose other programs keep its CPUs busy (the tests beside this one may), which the run says
    const own = Math.min(availableParallelism(), cgroupCpuQuota() ?? Number.POSITIVE_INFINITY);
    if (own < READ_AHEAD_MIN_CPUS) {
      expect(one.started).toBe(false);
      expect(one.without).toMatch(/(CPUs? (to run on|of cgroup quota)|other threads? running on the machine's \d+ CPUs?)$/);
    } else if (!one.started) expect(one.without).toMatch(/^\d+ other threads? running on the machine's \d+ CPUs?$/);
    expect(one.stdout).toBe(validate([large, "-o", "json", "--max-file-bytes", "100000"], { EKS_GITOPS_READ_AHEAD: "0" }).stdout);
  });

  it("starts the worker from the launcher, before the CLI's bundle loads, and the command uses that worker", () => {
    const files = fourConfigMaps("launcher-start");
    // asked for (EKS_GITOPS_READ_AHEAD=1): whatever this machine's CPUs, the worker starts, and from the launcher
    const run = validate([files, "-o", "json"], { EKS_GITOPS_READ_AHEAD: "1" });
    expect(run.started).toBe(true);
    expect(run.early).toBe(true);
    expect(run.files).toBe(4);
    // the launcher's decision is the command's: no worker for a small input, and why (one decision, not two)
    const small = validate([files, "-o", "json"]);
    expect(small.started).toBe(false);
    expect(small.without).toBe("input too small to pay for it");
    expect(small.stdout).toBe(run.stdout);
  });

  it("falls back to the command's own start when the launcher cannot run read-ahead-start.cjs", async () => {
    const files = fourConfigMaps("launcher-fallback");
    // built (or up to date) before it is copied: a bundle folder like the real one, without the launcher's file
    const asked = validate([files, "-o", "json"], { EKS_GITOPS_READ_AHEAD: "1" });
    const { BUNDLE_DIR: bundles } = await import(pathToFileURL(join(ROOT, "packages/cli/bin/bundle.js")).href);
    const copy = join(tmp, "bundle-without-start");
    cpSync(bundles, copy, { recursive: true, filter: (src: string) => !src.endsWith(".tmp") });
    const { dir } = JSON.parse(readFileSync(join(copy, "manifest.json"), "utf8"));
    rmSync(join(copy, dir, "read-ahead-start.cjs"));
    const run = validate([files, "-o", "json"], { EKS_GITOPS_READ_AHEAD: "1", EKS_GITOPS_BUNDLE_DIR: copy });
    expect(run.started).toBe(true);
    expect(run.early).toBe(false);
    expect(run.stdout).toBe(asked.stdout);
  });

  const cpu = oneCpu();
  it.skipIf(cpu === undefined)("starts no worker on one CPU, even for an input large enough for one, and says why; EKS_GITOPS_READ_AHEAD=1 still starts one", () => {
    const large = join(tmp, "large-one-cpu");
    mkdirSync(large);
    const cm = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  a: "${"x".repeat(30_000)}"\n`;
    for (let i = 0; i < 3; i++) writeFileSync(join(large, `c${i}.yaml`), cm(i));
    const args = [large, "-o", "json", "--max-file-bytes", "100000"];
    const alone = validate(args, {}, cpu);
    expect(alone.status).toBe(0);
    expect(alone.started).toBe(false);
    // one CPU to run on, or a cgroup quota of one or less where the tests run, or none of the machine's CPUs left by
    // the tests beside this one
    expect(alone.without).toMatch(/^(1 CPU to run on|0(\.\d+)? CPUs of cgroup quota|1 CPU of cgroup quota|\d+ other threads? running on the machine's \d+ CPUs?)$/);
    expect(alone.files).toBe(3);
    const forced = validate(args, { EKS_GITOPS_READ_AHEAD: "1" }, cpu);
    expect(forced.started).toBe(true);
    expect(forced.stdout).toBe(alone.stdout);
  });

  // the machine's CPUs, when this process may run on all of them (else other programs are not counted: cpu-budget.ts)
  const cpusToFill = process.platform === "linux" && machineCpus() === availableParallelism() ? machineCpus() : undefined;
  it.skipIf(cpusToFill === undefined || cpusToFill > 8)("starts no worker while other programs keep the machine's CPUs busy, and says so", async () => {
    const large = join(tmp, "large-busy");
    mkdirSync(large);
    for (let i = 0; i < 3; i++) writeFileSync(join(large, `c${i}.yaml`), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  a: "${"x".repeat(30_000)}"\n`);
    const args = [large, "-o", "json", "--max-file-bytes", "100000"];
    // a busy loop for each of the machine's CPUs, running before `validate` starts and until it ends
    // each in a process group of its own, killed whole (`timeout` and its shell) at the end; each stops by itself
    // after two minutes, should this test's process die before it kills them
    const loops = Array.from({ length: cpusToFill as number }, () => spawn("timeout", ["120", "sh", "-c", "while :; do :; done"], { stdio: "ignore", detached: true }));
    try {
      await new Promise((done) => setTimeout(done, 300));
      const busy = validate(args);
      expect(busy.started).toBe(false);
      expect(busy.without).toMatch(/^\d+ other threads? running on the machine's \d+ CPUs?$/);
      expect(Number(/^(\d+)/.exec(busy.without ?? "")?.[1])).toBeGreaterThanOrEqual(cpusToFill as number);
      // EKS_GITOPS_READ_AHEAD=1 starts one whatever the machine, with the same report
      const forced = validate(args, { EKS_GITOPS_READ_AHEAD: "1" });
      expect(forced.started).toBe(true);
      expect(forced.stdout).toBe(busy.stdout);
      // in this process, the CLI's own count: busy now, and the launcher's read as it started (the global it sets)
      // is the lower one taken; a read that saw an idle machine then leaves the worker to start
      inBundle(() => {
        expect(startReadAhead([large]).without).toMatch(/^\d+ other threads? running on the machine's \d+ CPUs?$/);
        (globalThis as Record<symbol, unknown>)[LOADAVG_AT_START] = "0.00 0.00 0.00 1/100 4242\n";
        expect(startReadAhead([large])).toStrictEqual({ worker: undefined });
      });
    } finally {
      for (const loop of loops) if (loop.pid !== undefined) process.kill(-loop.pid, "SIGKILL");
    }
  });

  it.runIf(process.platform === "linux")("has the launcher read the machine's running threads before anything else it loads", () => {
    // the launcher's first import, ahead of the bundle (whose loading starts threads of this process's own)
    const launcher = readFileSync(BIN, "utf8");
    expect(/^(?:import |require\(|const .* = require\().*$/m.exec(launcher)?.[0]).toBe('require("./running-at-start.js");');
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(join(ROOT, "packages/cli/bin/running-at-start.js"))}); process.stdout.write(String(globalThis[Symbol.for("eks-gitops.loadavg-at-start")]))`], { encoding: "utf8" });
    expect(child.stdout).toMatch(/^\d+\.\d+ \d+\.\d+ \d+\.\d+ \d+\/\d+ \d+\n$/);
    expect(Symbol.for("eks-gitops.loadavg-at-start")).toBe(LOADAVG_AT_START);
  });

  it("leaves stdin to the main thread", () => {
    const input = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-stdin\n";
    const args = ["validate", "-", "packages/validate/fixtures/structural", "-o", "json", "--root", ROOT];
    const ahead = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", input, env: { ...process.env, EKS_GITOPS_READ_AHEAD: "1" } });
    const inThread = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", input, env: { ...process.env, EKS_GITOPS_READ_AHEAD: "0" } });
    expect(ahead.status).toBe(inThread.status);
    expect(ahead.stdout).toBe(inThread.stdout);
    expect(ahead.stdout).toContain("from-stdin");
  });
});

describe("startReadAhead's count of CPUs", () => {
  const input = (name: string, size: number) => {
    const dir = join(tmp, name);
    mkdirSync(dir);
    for (let i = 0; i < 2; i++) writeFileSync(join(dir, `c${i}.yaml`), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  a: "${"x".repeat(size)}"\n`);
    return dir;
  };

  it("starts none where other programs' running threads leave fewer than two of the machine's CPUs, and says how many run", () => {
    const large = input("large-busy-in-process", 40_000);
    inBundle(() => {
      expect(startReadAhead([large], () => ({ cpus: 1, by: "busy", busy: { others: 1, machineCpus: 2 } }))).toStrictEqual({ without: "1 other thread running on the machine's 2 CPUs" });
      expect(startReadAhead([large], () => ({ cpus: 0, by: "busy", busy: { others: 7, machineCpus: 4 } }))).toStrictEqual({ without: "7 other threads running on the machine's 4 CPUs" });
      expect(startReadAhead([large], () => ({ cpus: 2, by: "busy", busy: { others: 2, machineCpus: 4 } }))).toStrictEqual({ worker: undefined });
    });
  });

  it("starts none under a cgroup quota of fewer than two CPUs, and says so, rounded down", () => {
    const large = input("large-in-process", 40_000);
    inBundle(() => {
      expect(startReadAhead([large], () => ({ cpus: 1.5, by: "cgroup quota" }))).toStrictEqual({ without: "1.5 CPUs of cgroup quota" });
      expect(startReadAhead([large], () => ({ cpus: 1.999, by: "cgroup quota" }))).toStrictEqual({ without: "1.99 CPUs of cgroup quota" });
      expect(startReadAhead([large], () => ({ cpus: 0.5, by: "cgroup quota" }))).toStrictEqual({ without: "0.5 CPUs of cgroup quota" });
      expect(startReadAhead([large], () => ({ cpus: 1, by: "affinity" }))).toStrictEqual({ without: "1 CPU to run on" });
    });
  });

  it("goes on to start the worker with two CPUs or CPUs that cannot be counted, and looks at the input before counting", () => {
    const large = input("large-enough", 40_000);
    const small = input("small-in-process", 10);
    inBundle(() => {
      expect(startReadAhead([large], () => ({ cpus: 2, by: "cgroup quota" }))).toStrictEqual({ worker: undefined });
      const unreadable = () => {
        throw new Error("unreadable");
      };
      expect(startReadAhead([large], unreadable)).toStrictEqual({ worker: undefined });
      // a small input is settled without counting CPUs at all
      expect(startReadAhead([small], unreadable)).toStrictEqual({ without: "input too small to pay for it" });
      expect(startReadAhead([small], () => ({ cpus: 1, by: "affinity" }))).toStrictEqual({ without: "input too small to pay for it" });
    });
  });
});

describe("the launcher's start of the worker (bin/bundle.js, runBundle)", () => {
  it("runs read-ahead-start.cjs for validate only, with the command's arguments, before the bundle; the CLI takes what it started once", async () => {
    const { runBundle, READ_AHEAD_STARTED: startedName, BUNDLE_DIR_GLOBAL } = await import(pathToFileURL(join(ROOT, "packages/cli/bin/bundle.js")).href);
    // the names the launcher (plain JavaScript) and the CLI use for the same globals
    expect(Symbol.for(startedName)).toBe(READ_AHEAD_STARTED);
    expect(Symbol.for(BUNDLE_DIR_GLOBAL)).toBe(BUNDLE_DIR);
    const dir = join(tmp, "fake-bundle");
    mkdirSync(dir);
    const SEEN = Symbol.for("eks-gitops.test.seen");
    // a bundle whose main() records what it finds, and a read-ahead-start.cjs that records what it was asked
    writeFileSync(
      join(dir, "bin.cjs"),
      `module.exports.main = async (argv) => { globalThis[Symbol.for("eks-gitops.test.seen")] = { argv, started: globalThis[Symbol.for(${JSON.stringify(startedName)})] }; return 7; };`,
    );
    writeFileSync(join(dir, "read-ahead-start.cjs"), `exports.startReadAhead = (args) => ({ without: "recorded", args, bundleDir: globalThis[Symbol.for(${JSON.stringify(BUNDLE_DIR_GLOBAL)})] });`);
    const global = globalThis as Record<symbol, unknown>;
    const saved = global[BUNDLE_DIR];
    const seen = () => global[SEEN] as { argv: string[]; started?: unknown };
    try {
      expect(await runBundle(join(dir, "bin.cjs"), ["validate", "a", "--root", "b"])).toBe(7);
      const started = { without: "recorded", args: ["a", "--root", "b"], bundleDir: dir, early: true };
      expect(seen()).toEqual({ argv: ["validate", "a", "--root", "b"], started });
      // taken once: the command gets it, and nothing after it sees the worker
      expect(takeLauncherReadAhead()).toEqual(started);
      expect(takeLauncherReadAhead()).toBeUndefined();
      // another command: nothing started
      await runBundle(join(dir, "bin.cjs"), ["synth", "a"]);
      expect(seen().started).toBeUndefined();
      // no read-ahead-start.cjs beside the bundle: nothing started, the command decides (and the run goes on)
      const without = join(tmp, "fake-bundle-without-start");
      mkdirSync(without);
      cpSync(join(dir, "bin.cjs"), join(without, "bin.cjs"));
      expect(await runBundle(join(without, "bin.cjs"), ["validate", "a"])).toBe(7);
      expect(seen().started).toBeUndefined();
    } finally {
      delete global[SEEN];
      delete global[READ_AHEAD_STARTED];
      global[BUNDLE_DIR] = saved;
    }
  });

  it("decides nothing for --help (it reads no file)", () => {
    inBundle(() => {
      expect(startReadAhead(["--help", ROOT], () => ({ cpus: 8, by: "affinity" }))).toEqual({ without: "input too small to pay for it" });
    });
  });
});

// Fault injection for `synth`: SIGKILL real processes at named steps and at random moments of the swap; a re-run always restores a clean tree.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "./bin.ts";
import { synth } from "./commands/synth.ts";
import { hostname } from "node:os";
import { formatOwner, processStart } from "./owner.ts";
import { KILL_AT_ENV } from "./swap.ts";
import { PAUSE_AT_ENV } from "./temp-folder.ts";
import { readTree, recoverRendered } from "./tree.ts";

// Spawns processes on a shared machine: generous timeouts (the 20 random kills took 62 s with other jobs and two
// CPU hogs on 2 cores), never a timing assertion.
vi.setConfig({ testTimeout: 300_000 });

const REPO = resolve(import.meta.dirname, "../../..");
const CLI = join(REPO, "packages/cli/bin/eks-gitops.js");
const RANDOM_TRIALS = Number(process.env.SYNTH_FAULT_TRIALS ?? 20);

let work: string;
let repo: string;
let driver: string;
let treesFile: string;
let committed: Map<string, string>;
let changed: Map<string, string>;
const rendered = () => join(repo, "clusters/eksworkshop/rendered");
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "synth-fault-"));
  chmodSync(work, 0o755);
  // a git repository holding one overlay and its committed rendered output
  repo = join(work, "repo");
  mkdirSync(join(repo, "clusters"), { recursive: true });
  writeFileSync(join(repo, "pnpm-workspace.yaml"), "packages: []\n");
  writeFileSync(join(repo, "clusters/package.json"), '{ "type": "module" }\n');
  cpSync(join(REPO, "clusters/eksworkshop"), join(repo, "clusters/eksworkshop"), { recursive: true });
  symlinkSync(join(REPO, "clusters/node_modules"), join(repo, "clusters/node_modules"));
  git("init", "-q");
  writeFileSync(join(repo, ".git/info/exclude"), "clusters/node_modules\n");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "committed output");

  committed = readTree(rendered());
  expect(committed.size).toBeGreaterThan(10);
  // another tree: one file changed, one gone, one new (a synth after an overlay change)
  const [first, second] = [...committed.keys()];
  changed = new Map(committed);
  changed.set(first!, `${committed.get(first!)}# changed\n`);
  changed.delete(second!);
  changed.set("extra/new.yaml", "kind: New\n");
  treesFile = join(work, "trees.json");
  writeFileSync(treesFile, JSON.stringify([[...changed], [...committed]]));

  driver = join(work, "swap-driver.mjs");
  await build({ entryPoints: [join(import.meta.dirname, "testing/swap-driver.ts")], bundle: true, platform: "node", format: "esm", outfile: driver, logLevel: "silent" });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The overlay folder's rendered output and its swap leftovers, sorted (cluster.ts and capacity/ are the overlay's own). */
const siblings = () => readdirSync(join(repo, "clusters/eksworkshop")).filter((e) => e.startsWith("rendered")).sort();

/** Re-runs synth (in this process) and checks the repository is exactly as committed. */
async function rerunAndCheckClean(): Promise<string[]> {
  const lines: string[] = [];
  expect(await synth({ root: repo, clusters: ["eksworkshop"], out: (l) => lines.push(l) })).toBe(0);
  expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
  expect(siblings()).toEqual(["rendered"]);
  return lines;
}

const same = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/** Runs the driver (the real replaceTree) with the kill hook at `step`; it must die by SIGKILL. */
function killDriverAt(step: string): void {
  const child = spawnSync(process.execPath, [driver, "once", rendered(), treesFile], { env: { ...process.env, [KILL_AT_ENV]: step }, encoding: "utf8" });
  expect({ step, signal: child.signal, stderr: child.stderr }).toEqual({ step, signal: "SIGKILL", stderr: "" });
}

describe("synth under SIGKILL", () => {
  it("a real synth killed between the two renames leaves no rendered/; the re-run finishes the swap and git status is clean", async () => {
    rmSync(join(rendered(), [...committed.keys()][0]!)); // stale output, so synth has something to write
    const child = spawnSync(process.execPath, [CLI, "synth", "--root", repo, "--cluster", "eksworkshop"], {
      cwd: repo,
      env: { ...process.env, [KILL_AT_ENV]: "moved-old" },
      encoding: "utf8",
    });
    expect(child.signal).toBe("SIGKILL");
    expect(siblings()).toEqual(["rendered.lock", `rendered.old-${child.pid}`, `rendered.tmp-${child.pid}`]);
    // validate (no paths) does not skip the overlay that has no rendered/ now
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((s) => {
      printed.push(String(s));
      return true;
    });
    const code = await main(["validate", "--root", repo]).finally(() => spy.mockRestore());
    expect({ code, printed: printed.join("") }).toEqual({
      code: 1,
      printed:
        `clusters/eksworkshop/rendered#0 ?/? error /: overlay clusters/eksworkshop/cluster.ts has no rendered output; an interrupted synth left rendered.old-${child.pid}, rendered.tmp-${child.pid} (the next \`pnpm synth\` recovers them) (fix: run \`pnpm synth --cluster eksworkshop\` and commit the result) [rendered:missing]\n` +
        "Summary: 1 resources found - Valid: 0, Invalid: 0, Errors: 1, Skipped: 0\n",
    });
    const lines = await rerunAndCheckClean();
    expect(lines).toEqual([
      `recovered clusters/eksworkshop: finished the swap of an interrupted synth (process ${child.pid}): rendered.tmp-${child.pid} is now rendered`,
      `recovered clusters/eksworkshop: removed rendered.old-${child.pid}, left by an interrupted synth (process ${child.pid})`,
      `wrote   clusters/eksworkshop/rendered: ${committed.size} files (0 changed, 0 added, 0 removed)`,
    ]);
  });

  it("the previous trees are removed only once every overlay is swapped: killed at the first removal, both overlays hold the new output", async () => {
    // two overlays, both stale; synth writes them in name order (aws-cn, then eksworkshop)
    const two = join(work, "two");
    mkdirSync(join(two, "clusters"), { recursive: true });
    writeFileSync(join(two, "pnpm-workspace.yaml"), "packages: []\n");
    writeFileSync(join(two, "clusters/package.json"), '{ "type": "module" }\n');
    symlinkSync(join(REPO, "clusters/node_modules"), join(two, "clusters/node_modules"));
    const names = ["aws-cn", "eksworkshop"];
    const wanted = new Map<string, Map<string, string>>();
    for (const name of names) {
      cpSync(join(REPO, "clusters", name), join(two, "clusters", name), { recursive: true });
      const dir = join(two, "clusters", name, "rendered");
      wanted.set(name, readTree(dir));
      writeFileSync(join(dir, [...wanted.get(name)!.keys()][0]!), "edited\n");
    }
    const child = spawnSync(process.execPath, [CLI, "synth", "--root", two], { cwd: two, env: { ...process.env, [KILL_AT_ENV]: "removed-old" }, encoding: "utf8" });
    expect({ signal: child.signal, stderr: child.stderr }).toEqual({ signal: "SIGKILL", stderr: "" });
    // the first overlay's previous tree is removed, the second's still there (and its lock held): the second
    // overlay was written before the first removal
    for (const name of names) expect(readTree(join(two, "clusters", name, "rendered"))).toEqual(wanted.get(name));
    expect(readdirSync(join(two, "clusters/aws-cn")).filter((e) => e.startsWith("rendered")).sort()).toEqual(["rendered", "rendered.lock"]);
    expect(readdirSync(join(two, "clusters/eksworkshop")).filter((e) => e.startsWith("rendered")).sort()).toEqual(["rendered", "rendered.lock", `rendered.old-${child.pid}`]);
    const lines: string[] = [];
    expect(await synth({ root: two, out: (l) => lines.push(l) })).toBe(0);
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^recovered clusters/aws-cn: took over rendered.lock: eks-gitops synth \\(process ${child.pid} on .*\\) no longer runs$`)),
      expect.stringMatching(new RegExp(`^recovered clusters/eksworkshop: took over rendered.lock: eks-gitops synth \\(process ${child.pid} on .*\\) no longer runs$`)),
      `recovered clusters/eksworkshop: removed rendered.old-${child.pid}, left by an interrupted synth (process ${child.pid})`,
      `wrote   clusters/aws-cn/rendered: ${wanted.get("aws-cn")!.size} files (0 changed, 0 added, 0 removed)`,
      `wrote   clusters/eksworkshop/rendered: ${wanted.get("eksworkshop")!.size} files (0 changed, 0 added, 0 removed)`,
    ]);
    for (const name of names) expect(readdirSync(join(two, "clusters", name)).filter((e) => e.startsWith("rendered"))).toEqual(["rendered"]);
  });

  it("real synth processes killed at random steps of the write: a re-run always restores the committed tree", async () => {
    const steps = ["locked", ...Array.from({ length: committed.size }, (_, i) => `wrote-file-${i + 1}`), "written", "moved-old", "moved-new", "removed-old"];
    for (let trial = 0; trial < 2; trial++) {
      const step = steps[Math.floor(Math.random() * steps.length)]!;
      writeFileSync(join(rendered(), [...committed.keys()][trial]!), "edited\n"); // stale output, so synth writes
      const child = spawnSync(process.execPath, [CLI, "synth", "--root", repo, "--cluster", "eksworkshop"], { cwd: repo, env: { ...process.env, [KILL_AT_ENV]: step }, encoding: "utf8" });
      expect({ step, signal: child.signal }).toEqual({ step, signal: "SIGKILL" });
      await rerunAndCheckClean();
    }
  });

  it.each(["locked", "wrote-file-1", "wrote-file-12", "written", "moved-old", "moved-new", "removed-old"])(
    "killed at step %s: recovery gives the old or the new tree, never a mix, and a re-run restores the committed one",
    async (step) => {
      killDriverAt(step);
      recoverRendered(rendered());
      const now = readTree(rendered());
      const before = ["locked", "wrote-file-1", "wrote-file-12", "written"].includes(step);
      expect(now).toEqual(before ? committed : changed);
      await rerunAndCheckClean();
    },
  );

  it(`${RANDOM_TRIALS} kills at random moments of back-to-back swaps: always recoverable to one whole tree`, async () => {
    const outcomes = { committed: 0, changed: 0 };
    for (let trial = 0; trial < RANDOM_TRIALS; trial++) {
      const delay = Math.floor(Math.random() * 40);
      const child = spawn(process.execPath, [driver, "loop", rendered(), treesFile], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      await new Promise<void>((ready, fail) => {
        child.stdout.once("data", () => ready());
        child.once("exit", (code) => fail(new Error(`driver exited ${code} before the kill: ${stderr}`)));
      });
      await new Promise((r) => setTimeout(r, delay));
      const exited = new Promise((r) => child.once("exit", (_code, signal) => r(signal)));
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");

      recoverRendered(rendered());
      const now = readTree(rendered());
      const whole = same(now, committed) ? "committed" : same(now, changed) ? "changed" : "mixed";
      expect({ trial, delay, whole, stderr }).toEqual({ trial, delay, whole: whole === "mixed" ? "committed or changed" : whole, stderr: "" });
      outcomes[whole as "committed" | "changed"]++;
      await rerunAndCheckClean();
    }
    expect(outcomes.committed + outcomes.changed).toBe(RANDOM_TRIALS);
  });

  it("exits 2 naming the process while a live synth holds the lock, and writes nothing", async () => {
    writeFileSync(join(rendered(), [...committed.keys()][0]!), "edited\n");
    const owner = { pid: process.ppid, start: processStart(process.ppid), host: hostname(), command: "synth", started: "2026-12-03T15:00:00Z" };
    writeFileSync(`${rendered()}.lock`, formatOwner(owner));
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((s) => {
      errors.push(String(s));
      return true;
    });
    const code = await main(["synth", "--root", repo, "--cluster", "eksworkshop"]).finally(() => spy.mockRestore());
    expect({ code, errors }).toEqual({
      code: 2,
      errors: [
        `eks-gitops: ${rendered()}.lock: another eks-gitops synth (process ${process.ppid} on ${hostname()}, started 2026-12-03T15:00:00Z) is writing ${rendered()}; wait for it to finish; if \`ps -o lstart=,args= -p ${process.ppid}\` shows no eks-gitops started at 2026-12-03T15:00:00Z, delete ${rendered()}.lock\n`,
      ],
    });
    expect(readTree(rendered()).get([...committed.keys()][0]!)).toBe("edited\n");
    rmSync(`${rendered()}.lock`);
    await rerunAndCheckClean();
  });

  it("a folder it may not write in: a RenderedWriteError (exit 2) naming it, the previous output untouched", () => {
    const parent = join(work, "no-write");
    const dir = join(parent, "rendered");
    cpSync(rendered(), dir, { recursive: true });
    chmodSync(parent, 0o555);
    const asRoot = process.getuid?.() === 0;
    const child = spawnSync(process.execPath, [driver, "once", dir, treesFile], { encoding: "utf8", ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
    chmodSync(parent, 0o755);
    expect({ status: child.status, stderr: child.stderr }).toEqual({
      status: 1,
      stderr: `RenderedWriteError: cannot write ${dir}: EACCES: permission denied, open '${dir}.lock.${child.pid}'; check the permissions of ${parent} (nothing was changed)\n`,
    });
    expect(readTree(dir)).toEqual(committed);
    expect(readdirSync(parent)).toEqual(["rendered"]);
  });

  it("replaces a read-only rendered/ (and a read-only folder inside it) without a warning or a leftover", () => {
    const dir = join(work, "read-only", "rendered");
    cpSync(rendered(), dir, { recursive: true });
    chmodSync(join(dir, "iam"), 0o555);
    chmodSync(dir, 0o555);
    // root ignores file modes: run the swap as an unprivileged user then
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const chown = (p: string) => {
        chownSync(p, 65534, 65534);
        for (const e of readdirSync(p, { withFileTypes: true })) {
          if (e.isDirectory()) chown(join(p, e.name));
          else chownSync(join(p, e.name), 65534, 65534);
        }
      };
      chownSync(join(work, "read-only"), 65534, 65534);
      chown(dir);
    }
    const child = spawnSync(process.execPath, [driver, "once", dir, treesFile], { encoding: "utf8", ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
    expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: "" });
    expect(readTree(dir)).toEqual(changed);
    expect(readdirSync(join(work, "read-only"))).toEqual(["rendered"]);
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });
});

/** Starts the driver swapping `dir` between the trees of `file` over and over; resolves once it swapped once. */
async function startSwapLoop(dir: string, file: string) {
  const child = spawn(process.execPath, [driver, "loop", dir, file], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  await new Promise<void>((ready, fail) => {
    child.stdout.once("data", () => ready());
    child.once("exit", (code) => fail(new Error(`driver exited ${code} before it swapped: ${stderr}`)));
  });
  return { child, stderr: () => stderr };
}

describe("synth under SIGINT and SIGTERM", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("%s in the middle of back-to-back swaps: the swap in progress ends, no temporary folder or lock is left", async (signal) => {
    for (let trial = 0; trial < 5; trial++) {
      const { child, stderr } = await startSwapLoop(rendered(), treesFile);
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
      const exited = new Promise((r) => child.once("exit", (_code, sig) => r(sig)));
      child.kill(signal);
      // it dies of the signal (as a shell expects), after the swap it was in
      expect(await exited).toBe(signal);
      // no recovery run before looking: nothing was left to recover
      expect({ trial, siblings: siblings(), stderr: stderr() }).toEqual({ trial, siblings: ["rendered"], stderr: "" });
      const now = readTree(rendered());
      expect(same(now, committed) || same(now, changed)).toBe(true);
    }
    await rerunAndCheckClean();
  });
});

describe("the lock names its owner", () => {
  const lock = () => `${rendered()}.lock`;
  const run = async () => {
    const lines: string[] = [];
    const code = await synth({ root: repo, clusters: ["eksworkshop"], out: (l) => lines.push(l), validate: false });
    return { code, lines };
  };

  it("a lock whose process id now belongs to another process (a reused PID, a container's PID 1) is taken over, saying so", async () => {
    // the parent process runs, but it is not the one that took the lock: its start time differs
    writeFileSync(lock(), formatOwner({ pid: process.ppid, start: "1", host: hostname(), command: "synth", started: "2026-01-01T00:00:00Z" }));
    rmSync(join(rendered(), [...committed.keys()][0]!));
    const { code, lines } = await run();
    expect(code).toBe(0);
    expect(lines[0]).toBe(`recovered clusters/eksworkshop: took over rendered.lock: eks-gitops synth (process ${process.ppid} on ${hostname()}, started 2026-01-01T00:00:00Z) no longer runs`);
    expect(existsSync(lock())).toBe(false);
    await rerunAndCheckClean();
  });

  it("a lock of this very process id but an earlier start (PID 1 in a new container) is stale too", async () => {
    writeFileSync(lock(), formatOwner({ pid: process.pid, start: "1", host: hostname(), command: "synth" }));
    const { code, lines } = await run();
    expect(code).toBe(0);
    expect(lines[0]).toBe(`recovered clusters/eksworkshop: took over rendered.lock: eks-gitops synth (process ${process.pid} on ${hostname()}) no longer runs`);
  });

  it("a lock of another host is not judged from here: exit 2 with a hint that fits", async () => {
    writeFileSync(lock(), formatOwner({ pid: process.pid, host: "build-7", command: "synth" }));
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((s) => {
      errors.push(String(s));
      return true;
    });
    const code = await main(["synth", "--root", repo, "--cluster", "eksworkshop", "--no-validate"]).finally(() => spy.mockRestore());
    expect({ code, errors }).toEqual({
      code: 2,
      errors: [`eks-gitops: ${lock()}: held by eks-gitops synth (process ${process.pid} on build-7), on another host: this host cannot tell whether it still runs; if no eks-gitops runs on build-7, delete ${lock()}\n`],
    });
    rmSync(lock());
  });
});

describe("validate while synth swaps the folder", () => {
  it("judges the old tree or the new one, never a mix and never ENOENT", async () => {
    // the new tree: every file under another name, so a run that read part of each tree would list both names (or miss files)
    const renamed = new Map([...committed].map(([p, c]) => [p.replace(/([^/]+)$/, "v2-$1"), c]));
    const file = join(work, "renamed-trees.json");
    writeFileSync(file, JSON.stringify([[...renamed], [...committed]]));
    const names = (m: ReadonlyMap<string, string>) => [...m.keys()].map((p) => `clusters/eksworkshop/rendered/${p}`).sort();
    const { child, stderr } = await startSwapLoop(rendered(), file);
    const seen = { old: 0, new: 0 };
    try {
      for (let run = 0; run < 6; run++) {
        let out = "";
        const spy = vi.spyOn(process.stdout, "write").mockImplementation((s) => {
          out += String(s);
          return true;
        });
        const errSpy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
        const code = await main(["validate", rendered(), "--root", repo, "-o", "json", "--checks", "schema"]).finally(() => {
          spy.mockRestore();
          errSpy.mockRestore();
        });
        const report = JSON.parse(out) as { resources: { file: string; status: string; findings: { rule: string }[] }[] };
        // validate prints paths relative to the folder it runs in: compared relative to the repository
        const files = [...new Set(report.resources.map((r) => relative(repo, resolve(r.file)).split(sep).join("/")))].sort();
        const which = JSON.stringify(files) === JSON.stringify(names(committed)) ? "old" : JSON.stringify(files) === JSON.stringify(names(renamed)) ? "new" : "a mix";
        expect({ run, code, which, problems: report.resources.filter((r) => r.status !== "valid").flatMap((r) => r.findings.map((f) => `${r.file} ${f.rule}`)) }).toEqual({
          run,
          code: 0,
          which: which === "a mix" ? "old or new" : which,
          problems: [],
        });
        seen[which as "old" | "new"]++;
      }
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    expect(stderr()).toBe("");
    expect(seen.old + seen.new).toBe(6);
    recoverRendered(rendered());
    await rerunAndCheckClean();
  }, 300_000);
});

describe("diff's temporary overlay folders", () => {
  const capacityDirs = () => readdirSync(join(repo, "clusters")).filter((e) => e.startsWith(".capacity-"));

  it("are removed on SIGINT while an overlay of the base commit loads, saying so", async () => {
    const child = spawn(process.execPath, [CLI, "diff", "--root", repo, "--base", "HEAD", "-o", "markdown"], {
      cwd: repo,
      env: { ...process.env, [PAUSE_AT_ENV]: "temp-folder" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    const paused = new Promise<void>((resolvePaused, fail) => {
      child.stderr.on("data", (d) => {
        stderr += d;
        if (stderr.includes("paused ")) resolvePaused();
      });
      child.once("exit", (code) => fail(new Error(`diff exited ${code} before making its folder: ${stderr}`)));
    });
    await paused;
    expect(capacityDirs()).toHaveLength(1);
    const folder = capacityDirs()[0]!;
    expect(folder).toMatch(new RegExp(`^\\.capacity-[0-9a-f]{12}-${child.pid}$`));
    const exited = new Promise((r) => child.once("exit", (_code, sig) => r(sig)));
    child.kill("SIGINT");
    expect(await exited).toBe("SIGINT");
    expect(stderr).toContain(`eks-gitops: interrupted (SIGINT): removed clusters/${folder}\n`);
    expect(capacityDirs()).toEqual([]);
  });

  it("left by a killed run are swept by the next diff, which says so; a running owner's are kept", async () => {
    const dead = join(repo, "clusters", ".capacity-0123456789ab-4242");
    mkdirSync(join(dead, "clusters/eksworkshop"), { recursive: true });
    writeFileSync(join(dead, ".eks-gitops-owner"), formatOwner({ pid: process.ppid, start: "1", host: hostname(), command: "diff", started: "2026-01-01T00:00:00Z" }));
    const live = join(repo, "clusters", `.capacity-0123456789ab-${process.pid}`);
    mkdirSync(live, { recursive: true });
    writeFileSync(join(live, ".eks-gitops-owner"), formatOwner({ pid: process.pid, start: processStart(process.pid), host: hostname(), command: "diff" }));
    const { diff } = await import("./commands/diff.ts");
    const notes: string[] = [];
    expect(await diff({ root: repo, base: "HEAD", output: "markdown", out: () => {}, err: (t) => notes.push(t) })).toBe(0);
    expect(notes).toEqual([`eks-gitops diff: removed clusters/.capacity-0123456789ab-4242, left by eks-gitops diff (process ${process.ppid} on ${hostname()}, started 2026-01-01T00:00:00Z) that no longer runs\n`]);
    expect(capacityDirs()).toEqual([`.capacity-0123456789ab-${process.pid}`]);
    rmSync(live, { recursive: true });
  });
});

// The launcher (bin/eks-gitops.js) and its build cache (bin/bundle.js): built once, reused while the
// sources are unchanged, rebuilt when one changes, and the bundle behaves like the sources.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const BIN = join(ROOT, "packages/cli/bin/eks-gitops.js");
const dir = mkdtempSync(join(tmpdir(), "eks-gitops-bundle-test-"));
const manifestFile = join(dir, "manifest.json");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, EKS_GITOPS_BUNDLE_DIR: dir, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const manifest = () => JSON.parse(readFileSync(manifestFile, "utf8")) as { key: string; dir: string; inputs: Record<string, [number, number]> };

describe("eks-gitops launcher", () => {
  it("builds a bundle on first use, listing the workspace sources it was built from", () => {
    const r = run(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: eks-gitops <command>/);
    const m = manifest();
    expect(Object.keys(m.inputs)).toEqual(expect.arrayContaining(["packages/cli/src/bin.ts", "packages/validate/src/run.ts", "packages/config/src/load.ts"]));
    expect(Object.keys(m.inputs).some((f) => f.includes("node_modules"))).toBe(false);
    expect(existsSync(join(dir, m.dir, "bin.cjs"))).toBe(true);
  });

  it("bundles plain packages and cdk8s but leaves external those that read files beside themselves or are loaded natively", () => {
    const m = manifest();
    const bundled = new Set<string>();
    // esbuild marks each bundled module with a `// <path>` comment
    for (const [, pkg] of readFileSync(join(dir, m.dir, "bin.cjs"), "utf8").matchAll(/^\/\/ node_modules\/\.pnpm\/([^/]+)\//gm)) bundled.add(pkg as string);
    // `<name>@<version>[_<peer>@<version>...]`, a scope written `@scope+name`
    const names = [...bundled].map((p) => (/^(@?[^@]+)@/.exec(p)?.[1] ?? p).replace(/^@([^+]+)\+/, "@$1/"));
    // cdk8s too: synth would otherwise resolve and compile its hundreds of modules on every run
    expect(names).toEqual(expect.arrayContaining(["ajv", "js-yaml", "@marcbachmann/cel-js", "zod", "cdk8s", "cdk8s-plus-30", "constructs"]));
    expect(names.filter((n) => /^(@cloud-copilot|@aws-sdk|@smithy|@kubernetes|tsx|esbuild)(\/|$|-)/.test(n))).toEqual([]);
  });

  it("runs each command with V8's code cache, written after the command's first run and again after a run that validated more files", () => {
    const bundleDir = join(dir, manifest().dir);
    const cache = join(bundleDir, "bin.cjs.validate.v8");
    // the files validated when it was written, after the SHA-256 (see readCodeCache in bin/bundle.js)
    const coverage = () => readFileSync(cache).readUInt32LE(32);
    expect(run(["validate", "clusters/eksworkshop/rendered/iam"]).status).toBe(0);
    expect(statSync(cache).size).toBeGreaterThan(10_000);
    expect(coverage()).toBe(readdirSync(join(ROOT, "clusters/eksworkshop/rendered/iam")).length);
    const written = readFileSync(cache);
    // a later run reads it (and, accepted, does not write it again), and so does one of fewer files
    expect(run(["validate", "clusters/eksworkshop/rendered/iam"]).status).toBe(0);
    expect(run(["validate", "clusters/eksworkshop/rendered/iam/index.json"]).status).toBe(0);
    expect(readFileSync(cache).equals(written)).toBe(true);
    // a run of more files: what validating needs was not all compiled by the first one (which validated no
    // Kubernetes object); its cache replaces it
    expect(run(["validate", "clusters/eksworkshop/rendered"]).status).toBe(0);
    expect(coverage()).toBeGreaterThan(written.readUInt32LE(32));
    expect(existsSync(join(bundleDir, "bin.cjs.synth.v8"))).toBe(false);
  });

  it("makes validate's code cache under V8's default flags (its bundle is compiled before it sets them), every other command's under its own", () => {
    // the defaults, read from `node --v8-options` when the bundle was built, are those of this Node
    const m = manifest() as ReturnType<typeof manifest> & { v8Defaults?: string[] };
    expect(m.v8Defaults).toEqual([expect.stringMatching(/^--interrupt-budget=\d+$/), expect.stringMatching(/^--(no-)?flush-bytecode$/)]);
    expect(run(["validate", "clusters/eksworkshop/rendered"]).status).toBe(0);
    expect(run(["--help"]).status).toBe(0);
    // each cache compiled in a process of its own, with the launcher's flags set or not: V8 refuses one made under others
    const refused = (command: string, setFlags: boolean) => {
      const script = `
        const { readFileSync } = require("node:fs");
        const { Script } = require("node:vm");
        if (${setFlags}) require(${JSON.stringify(join(ROOT, "packages/cli/bin/v8-flags.js"))}).setV8Flags();
        const file = ${JSON.stringify(join(dir, m.dir, "bin.cjs"))};
        const source = "(function (exports, require, module, __filename, __dirname) {" + readFileSync(file, "latin1") + "\\n})";
        const script = new Script(source, { filename: file, cachedData: readFileSync(file + ".${command}.v8").subarray(40) });
        process.stdout.write(String(script.cachedDataRejected));`;
      const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
      expect(r.stderr).toBe("");
      return r.stdout === "true";
    };
    expect(refused("validate", false)).toBe(false);
    expect(refused("validate", true)).toBe(true);
    expect(refused("none", true)).toBe(false);
    expect(refused("none", false)).toBe(true);
  });

  it("reads V8's defaults of its flags from `node --v8-options`, and sets them at start when the process was given one of them", async () => {
    const { v8DefaultsFrom } = (await import(pathToFileURL(join(ROOT, "packages/cli/bin/v8-flags.js")).href)) as { v8DefaultsFrom: (text: string) => string[] | undefined };
    const listed = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" }).stdout;
    expect(v8DefaultsFrom(listed)).toEqual([expect.stringMatching(/^--interrupt-budget=\d+$/), expect.stringMatching(/^--(no-)?flush-bytecode$/)]);
    // one of them missing from the list: no defaults (the launcher then sets its flags before compiling, as before)
    expect(v8DefaultsFrom(listed.replace(/^ +--flush-bytecode .*$/m, ""))).toBeUndefined();
    const given = (execArgv: string[]) =>
      spawnSync(process.execPath, [...execArgv, "-e", `process.stdout.write(String(require(${JSON.stringify(join(ROOT, "packages/cli/bin/v8-flags.js"))}).flagsGivenAtStart()))`], {
        encoding: "utf8",
        env: { ...process.env, NODE_OPTIONS: "" },
      }).stdout;
    expect(given([])).toBe("false");
    expect(given(["--interrupt-budget=1000"])).toBe("true");
    expect(given(["--no-flush-bytecode"])).toBe("true");
    // such a run works as any other
    const r = spawnSync(process.execPath, ["--interrupt-budget=100000", BIN, "validate", "clusters/eksworkshop/rendered/iam", "--output", "json"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, EKS_GITOPS_BUNDLE_DIR: dir } });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).summary.invalid).toBe(0);
  });

  it("keeps the bytecode of functions a long run no longer calls, so that the code cache written at its end still holds them", () => {
    // V8 drops the bytecode of functions unused over a few full collections; --stress-flush-code makes every
    // collection do it, so that a short script shows what a 200,000-object run met: a function's bytecode gone
    // from the cache written after it. The control (flags not set) checks that this Node does flush.
    const script = `
      const { setV8Flags } = await import(${JSON.stringify(pathToFileURL(join(ROOT, "packages/cli/bin/v8-flags.js")).href)});
      if (process.env.SET_FLAGS === "1") setV8Flags();
      const { Script } = await import("node:vm");
      const body = Array.from({ length: 100 }, (_, i) => "function f" + i + "(x) { let s = 0; for (let j = 0; j < x; j++) s += j * " + i + "; return s; }").join("\\n");
      const script = new Script(body + "\\n;[" + Array.from({ length: 100 }, (_, i) => "f" + i).join(",") + "]");
      for (const f of script.runInThisContext()) f(3);
      const before = script.createCachedData().length;
      for (let i = 0; i < 8; i++) globalThis.gc();
      console.log(JSON.stringify({ before, after: script.createCachedData().length }));`;
    const sizes = (set: boolean) => {
      const r = spawnSync(process.execPath, ["--stress-flush-code", "--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8", env: { ...process.env, SET_FLAGS: set ? "1" : "0" } });
      expect(r.stderr).toBe("");
      return JSON.parse(r.stdout) as { before: number; after: number };
    };
    const flushed = sizes(false);
    expect(flushed.after).toBeLessThan(flushed.before);
    const kept = sizes(true);
    expect(kept.after).toBe(kept.before);
  });

  it("sets those flags before the run: a run under --stress-flush-code writes as full a code cache as a plain run", () => {
    // without the launcher's --no-flush-bytecode, every full collection of the run would drop bytecode, and the cache
    // written at its end would lack it (measured: 1.50 MB instead of 2.03 MB for the rendered overlay)
    const cache = join(dir, manifest().dir, "bin.cjs.validate.v8");
    const written = (execArgv: string[]) => {
      rmSync(cache, { force: true });
      const r = spawnSync(process.execPath, [...execArgv, BIN, "validate", "clusters/eksworkshop/rendered"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, EKS_GITOPS_BUNDLE_DIR: dir } });
      expect(r.status).toBe(0);
      return statSync(cache).size;
    };
    const plain = written([]);
    expect(written(["--stress-flush-code"])).toBeGreaterThan(plain * 0.95);
  });

  it("never runs a damaged code cache: a flipped bit inside V8's data fails the stored SHA-256, and the file is rewritten", () => {
    const cache = join(dir, manifest().dir, "bin.cjs.validate.v8");
    const args = ["validate", "clusters/eksworkshop/rendered/iam", "--output", "json"];
    const good = run(args);
    expect(good.status).toBe(0);
    const flipped = Buffer.from(readFileSync(cache));
    // V8 checks its header (version, flags, source length) but no checksum of the data after it in a release build
    flipped[Math.floor(flipped.length / 2)]! ^= 1;
    writeFileSync(cache, flipped);
    expect(run(args)).toEqual(good);
    const after = readFileSync(cache);
    expect(after.equals(flipped)).toBe(false);
    expect(createHash("sha256").update(after.subarray(32)).digest().equals(after.subarray(0, 32))).toBe(true);
  });

  it("gives the same report whatever the read-ahead worker's code cache holds: none, its own, or a damaged file", () => {
    // (whether the worker takes files, and so writes its cache, depends on the machine's speed: not asserted here;
    // validate's read-ahead-start.test.ts shows the writing, reuse and rejection with a stand-in bundle)
    const workerCache = join(dir, manifest().dir, "read-ahead-worker.cjs.v8");
    rmSync(workerCache, { force: true });
    const args = ["validate", "clusters/eksworkshop/rendered", "--output", "json"];
    // the worker is asked for: this input is too small for one to be started unasked (see cli/src/read-ahead.ts)
    const withWorker = { EKS_GITOPS_READ_AHEAD: "1" };
    const cold = run(args, withWorker);
    expect(cold.status).toBe(0);
    expect(run(args, withWorker).stdout).toBe(cold.stdout);
    writeFileSync(workerCache, Buffer.alloc(64 * 1024, 1));
    const damaged = run(args, withWorker);
    expect(damaged.stdout).toBe(cold.stdout);
    expect(damaged.stderr).toBe(cold.stderr);
    expect(run(args, { EKS_GITOPS_READ_AHEAD: "0" }).stdout).toBe(cold.stdout);
  });

  it("reuses the bundle while nothing changed, and rebuilds when a source's size or mtime differs", () => {
    const before = statSync(manifestFile).mtimeMs;
    expect(run(["--help"]).status).toBe(0);
    expect(statSync(manifestFile).mtimeMs).toBe(before);

    // as if packages/validate/src/run.ts had been edited since the build
    const m = manifest();
    const entry = m.inputs["packages/validate/src/run.ts"] as [number, number];
    m.inputs["packages/validate/src/run.ts"] = [entry[0] + 1, entry[1]];
    writeFileSync(manifestFile, JSON.stringify(m));
    expect(run(["--help"]).status).toBe(0);
    expect(manifest().inputs["packages/validate/src/run.ts"]).toEqual(entry);
  });

  it("runs bundled code that finds files next to its sources (IAM lint data) and loads cluster.ts through tsx on demand", () => {
    const iam = run(["validate", "clusters/eksworkshop/rendered/iam", "--output", "json"]);
    expect(iam.stderr).toBe("");
    expect(JSON.parse(iam.stdout).summary.invalid).toBe(0);
    expect(JSON.parse(iam.stdout).summary.valid).toBeGreaterThan(0);
    const synth = run(["synth", "--check", "--cluster", "eksworkshop"]);
    expect(synth.stderr).toBe("");
    expect(synth.stdout).toMatch(/^ok {6}clusters\/eksworkshop\/rendered/);
  });

  it("starts without Node's ES module loader: a run that imports no overlay never sets it up (the launcher is CommonJS)", () => {
    // Node loads its ES module machinery (module jobs, translators) for an ES module entry before anything of ours
    // runs: ~10 ms of every `--version` or loose-file `validate` (see eks-gitops.js). A preload notes what Node loaded.
    const probe = join(dir, "esm-probe.cjs");
    writeFileSync(probe, `process.on("exit", () => process.stderr.write(process.moduleLoadList.filter((m) => /esm\\/(module_job|translators)/.test(m)).join(",") + "|"));`);
    const loaded = (args: string[]) => {
      const r = spawnSync(process.execPath, ["--require", probe, BIN, ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, EKS_GITOPS_BUNDLE_DIR: dir } });
      expect(r.status).toBe(0);
      return r.stderr;
    };
    expect(loaded(["--version"])).toBe("|");
    expect(loaded(["validate", "packages/validate/fixtures/structural/deployment-valid.yaml", "packages/validate/fixtures/structural/application-valid.yaml", "--output", "json"])).toBe("|");
    // the control: an overlay is imported, and the loader is set up then
    expect(loaded(["validate", "clusters/eksworkshop/rendered", "--output", "json"])).toMatch(/module_job/);
  });

  it("says so when no bundle can be built, and still runs from the sources", () => {
    // a bundle folder that cannot be created (its parent is a file), as in a read-only checkout
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const r = run(["--help"], { EKS_GITOPS_BUNDLE_DIR: join(file, "bundles") });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: eks-gitops <command>/);
    expect(r.stderr).toMatch(/^eks-gitops: running from the TypeScript sources, slower: the CLI bundle could not be built \(ENOTDIR: [^\n]*\)\n$/);
  });

  it("runs the TypeScript sources with EKS_GITOPS_FROM_SOURCE=1, with the same result", () => {
    const bundled = run(["synth", "--check", "--cluster", "eksworkshop"]);
    const source = run(["synth", "--check", "--cluster", "eksworkshop"], { EKS_GITOPS_FROM_SOURCE: "1", EKS_GITOPS_BUNDLE_DIR: join(dir, "unused") });
    expect(source).toEqual(bundled);
    expect(existsSync(join(dir, "unused"))).toBe(false);
  });
});

// The compiled-validator cache (schema/compile.ts) only ever saves time: a run over every fixture gives the same
// report with an empty cache (everything compiled and stored), a warm one (everything loaded), and one whose every
// file was damaged (each detected, compiled anew and replaced).
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runValidation } from "./run.ts";
import { PRUNE_STAMP, UNUSED_DAYS } from "@eks-gitops/config/cache-prune";
import { DERIVED_FILES } from "./derived-cache.ts";
import { SchemaCompiler, VALIDATOR_FILES } from "./schema/compile.ts";
import { MIRROR, TEST_CACHE } from "./testing.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const cacheDir = mkdtempSync(join(tmpdir(), "validator-cache-"));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

// the catalog files already downloaded and parsed (top-level files of the shared cache), not its validators
try {
  for (const name of readdirSync(TEST_CACHE)) {
    const from = join(TEST_CACHE, name);
    if (statSync(from).isFile() && !name.endsWith(".tmp")) copyFileSync(from, join(cacheDir, name));
  }
} catch {
  // nothing cached yet: the runs download from the mirror
}

const run = async () => {
  const { report } = await runValidation({ root: REPO, paths: [FIXTURES], cacheDir, mirror: MIRROR, read: { cwd: REPO } });
  return JSON.stringify(report);
};
const validatorFiles = () => readdirSync(join(cacheDir, "validators")).filter((f) => /^[0-9a-f]{64}\.cjs$/.test(f));

describe("the compiled-validator cache", () => {
  it("gives every fixture the same report cold, warm and damaged", async () => {
    const cold = await run();
    const stored = validatorFiles();
    expect(stored.length).toBeGreaterThan(10);
    const good = new Map(stored.map((f) => [f, readFileSync(join(cacheDir, "validators", f))]));
    expect(await run()).toBe(cold);
    // every file damaged: truncated, or another validator's file under this one's name
    for (const [i, f] of stored.entries()) {
      const bytes = good.get(f) as Buffer;
      writeFileSync(join(cacheDir, "validators", f), i % 2 === 0 ? bytes.subarray(0, bytes.length >> 1) : (good.get(stored[(i + 1) % stored.length] as string) as Buffer));
    }
    expect(await run()).toBe(cold);
    for (const f of stored) expect(readFileSync(join(cacheDir, "validators", f)).equals(good.get(f) as Buffer), f).toBe(true);
  }, 600_000);

  it("is pruned of what no run used for a month, keeps what runs use, and compiles a pruned validator anew", async () => {
    const folder = join(cacheDir, "validators");
    const cold = await run();
    const stored = validatorFiles();
    const age = (name: string, days: number) => {
      const at = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
      utimesSync(join(folder, name), at, at);
    };
    const derived = join(cacheDir, "derived");
    const derivedFiles = readdirSync(derived).filter((f) => f.endsWith(".json"));
    expect(derivedFiles.length).toBeGreaterThan(0);
    // the names the pruning may remove are the names these caches write (and their temporary files'), nothing else
    const v8Files = () => readdirSync(folder).filter((f) => f.endsWith(".v8"));
    const codeCaches = v8Files();
    expect(codeCaches.length).toBeGreaterThan(0);
    for (const [dir, names] of [[folder, VALIDATOR_FILES], [derived, DERIVED_FILES]] as const) {
      for (const f of readdirSync(dir).filter((n) => n !== PRUNE_STAMP)) {
        expect(names.kept.test(f), f).toBe(true);
        expect(names.temporary.test(`${f}.${process.pid}.tmp`), f).toBe(true);
        expect(names.kept.test(`${f}.${process.pid}.tmp`) || names.temporary.test(f), f).toBe(false);
      }
    }
    const foreign = ["notes.json", "README", `${"e".repeat(63)}.cjs`];
    for (const dir of [folder, derived]) for (const f of foreign) writeFileSync(join(dir, f), "not the cache's");
    const staleTemporary = [join(folder, `${stored[0]}.4242.tmp`), join(derived, `${derivedFiles[0]}.4242.tmp`)];
    for (const f of staleTemporary) writeFileSync(f, "half written");
    // every file a month and more unused, a validator and a derived value of a schema no run meets, the last pruning
    // two days ago
    const stale = `${"e".repeat(64)}.cjs`;
    writeFileSync(join(folder, stale), "// a validator of a schema edited since\n");
    const staleDerived = `${"e".repeat(64)}.json`;
    writeFileSync(join(derived, staleDerived), "{}");
    for (const f of readdirSync(folder)) age(f, UNUSED_DAYS + 5);
    for (const f of readdirSync(derived)) age(join("..", "derived", f), UNUSED_DAYS + 5);
    age(PRUNE_STAMP, 2);
    age(join("..", "derived", PRUNE_STAMP), 2);
    // the run reads its validators and derived values (marking them used), then prunes what it did not read
    expect(await run()).toBe(cold);
    expect(existsSync(join(folder, stale))).toBe(false);
    expect(validatorFiles().sort()).toEqual(stored.sort());
    expect(Date.now() - statSync(join(folder, PRUNE_STAMP)).mtimeMs).toBeLessThan(60 * 60 * 1000);
    expect(existsSync(join(derived, staleDerived))).toBe(false);
    expect(readdirSync(derived).filter((f) => DERIVED_FILES.kept.test(f)).sort()).toEqual(derivedFiles.sort());
    // V8's code caches of the validators read are used with them; foreign files stay; temporary ones a day old go
    expect(v8Files().sort()).toEqual(codeCaches.sort());
    for (const dir of [folder, derived]) for (const f of foreign) expect(existsSync(join(dir, f)), f).toBe(true);
    for (const f of staleTemporary) expect(existsSync(f), f).toBe(false);
    // nothing run for a month: every validator goes, and the next run compiles them again, with the same report
    for (const f of readdirSync(folder)) age(f, UNUSED_DAYS + 5);
    age(PRUNE_STAMP, 2);
    expect(new SchemaCompiler({ cacheDir }).pruneCache()?.files).toBeGreaterThanOrEqual(stored.length);
    expect(validatorFiles()).toEqual([]);
    expect(await run()).toBe(cold);
    expect(validatorFiles().sort()).toEqual(stored.sort());
  }, 600_000);
});

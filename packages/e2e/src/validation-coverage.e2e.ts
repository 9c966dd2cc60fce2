// The generated half of the native coverage table (packages/validate/src/native/coverage/entry-points.json) is what
// test-tools/validation-coverage prints from the Go sources of k8s.io/kubernetes v1.36.5 (not edited by hand).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./harness/repo.ts";

const GENERATED = join(REPO_ROOT, "packages", "validate", "src", "native", "coverage", "entry-points.json");

describe("native coverage entry points", () => {
  // Needs Go and both modules in the Go module cache (there whenever test-tools/build.sh built kube-apiserver).
  const go = spawnSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" });
  const cache = go.status === 0 ? go.stdout.trim() : "";
  const dirs = [join(cache, "k8s.io", "kubernetes@v1.36.5"), join(cache, "k8s.io", "api@v0.36.5")];
  it.skipIf(!cache || !dirs.every((d) => existsSync(d)))("are what `test-tools/validation-coverage` generates", () => {
    const run = spawnSync("go", ["run", ".", ...dirs], { cwd: join(REPO_ROOT, "test-tools", "validation-coverage"), encoding: "utf8", env: { ...process.env, GOWORK: "off", GOFLAGS: "-mod=mod" } });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(readFileSync(GENERATED, "utf8"));
  }, 300_000);
});

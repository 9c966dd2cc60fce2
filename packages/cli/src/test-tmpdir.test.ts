// The test runs' own temporary folder (vitest.tmpdir.ts at the root): every vitest project of the repository uses
// it, so that `pnpm test` and `pnpm e2e` leave nothing behind in the machine's /tmp.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** Every vitest config of the repository (one per project, and the `pnpm e2e` ones). */
function vitestConfigs(): string[] {
  const found: string[] = [];
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      for (const f of existsSync(dir) ? readdirSync(dir) : []) if (/^vitest(\.[a-z0-9]+)*\.config\.ts$/.test(f)) found.push(join(group, name, f));
    }
  }
  for (const f of readdirSync(join(root, "clusters"))) if (/^vitest(\.[a-z0-9]+)*\.config\.ts$/.test(f)) found.push(join("clusters", f));
  return found.sort();
}

describe("the test runs' temporary folder", () => {
  it("is this run's own folder, and what a started process is given too", () => {
    expect(basename(tmpdir())).toMatch(/^eks-gitops-test-/);
    expect(process.env.TMPDIR).toBe(tmpdir());
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(require('node:os').tmpdir())"], { encoding: "utf8" });
    expect(child.stdout).toBe(tmpdir());
    expect(existsSync(dirname(tmpdir()))).toBe(true);
    // run as root, as /tmp is: a process a test starts as `nobody` makes its temporary files here too
    expect(statSync(tmpdir()).mode & 0o7777).toBe(process.getuid?.() === 0 ? 0o1777 : 0o700);
    // reports for the user to read after the run go to the machine's temporary folder, which the run does not remove
    expect(tmpdir().startsWith(`${process.env.EKS_GITOPS_TEST_REPORT_DIR}/`)).toBe(true);
  });

  it("is set up by every vitest project of the repository", () => {
    const configs = vitestConfigs();
    expect(configs.length).toBeGreaterThanOrEqual(12);
    const without = configs.filter((f) => {
      const text = readFileSync(join(root, f), "utf8");
      const setup = /globalSetup:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? "";
      return !setup.includes("vitest.tmpdir.ts") || !existsSync(join(root, dirname(f), /["']([^"']*vitest\.tmpdir\.ts)["']/.exec(setup)?.[1] ?? "-"));
    });
    expect(without).toEqual([]);
  });
});

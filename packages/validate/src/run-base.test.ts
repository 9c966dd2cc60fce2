import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runValidation } from "./run.ts";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "run-base-"));
  writeFileSync(join(root, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("validate --base outside a git repository", () => {
  it("says the folder is not a git repository (not that the ref is unknown)", async () => {
    await expect(runValidation({ root, paths: [join(root, "cm.yaml")], base: "main", catalog: false, crossObjectChecks: false })).rejects.toThrow(
      `--base main: ${root} is not a git repository; --base reads the previously committed objects from git: run inside a clone, or drop --base`,
    );
  });
});

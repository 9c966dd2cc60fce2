import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatText } from "./output/format.ts";
import { runValidation } from "./run.ts";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "missing-output-"));
  mkdirSync(join(root, "clusters/demo"), { recursive: true });
  writeFileSync(join(root, "clusters/demo/cluster.ts"), "export default {};\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("validate with no paths, when an overlay has no rendered/ folder", () => {
  it("reports the overlay as an error (exit 1), naming the fix, instead of skipping it", async () => {
    const { report } = await runValidation({ root, catalog: false, crossObjectChecks: false });
    expect(report.summary).toEqual({ resources: 1, valid: 0, invalid: 0, error: 1, skipped: 0 });
    expect(formatText(report)).toBe(
      "clusters/demo/rendered#0 ?/? error /: overlay clusters/demo/cluster.ts has no rendered output (fix: run `pnpm synth --cluster demo` and commit the result) [rendered:missing]\n" +
        "Summary: 1 resources found - Valid: 0, Invalid: 0, Errors: 1, Skipped: 0\n",
    );
  });

  it("names what an interrupted synth left beside it", async () => {
    mkdirSync(join(root, "clusters/demo/rendered.old-4242"));
    mkdirSync(join(root, "clusters/demo/rendered.tmp-4242"));
    const { report } = await runValidation({ root, catalog: false, crossObjectChecks: false });
    expect(report.resources[0]?.findings[0]?.message).toBe(
      "overlay clusters/demo/cluster.ts has no rendered output; an interrupted synth left rendered.old-4242, rendered.tmp-4242 (the next `pnpm synth` recovers them)",
    );
  });

  it("leaves explicit paths alone: only the default paths look for every overlay's output", async () => {
    writeFileSync(join(root, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
    const { report } = await runValidation({ root, paths: [join(root, "cm.yaml")], catalog: false, crossObjectChecks: false });
    expect(report.resources.map((r) => r.file)).toEqual(["cm.yaml"]);
  });
});

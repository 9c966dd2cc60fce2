// The seeded fuzz run of `pnpm test` (issue 14): a few thousand hostile inputs through the whole validator in this
// process; `pnpm fuzz -- --runs N` runs more under a watchdog. Every input must end in exit 0, 1 or 2 with output
// that parses in every format.
import { describe, expect, it } from "vitest";
import { MIRROR, TEST_CACHE } from "../testing.ts";
import { runCampaign } from "./campaign.ts";
import { checkReport } from "./harness.ts";

describe("fuzz", () => {
  it("1,500 seeded inputs: no internal error, every property holds", async () => {
    // large inputs scaled down to keep this run to seconds; `pnpm fuzz` uses the full sizes
    const stats = await runCampaign({ runs: 1500, seed: 14, sizeScale: 0.05, mirror: MIRROR, cacheDir: TEST_CACHE });
    expect(stats.failures).toEqual([]);
    expect(stats.internalErrors).toBe(0);
    expect(stats.tried).toBe(1500);
    // the generators reach every outcome
    expect(Object.keys(stats.exitCodes).sort()).toEqual(["0", "1", "2"]);
    // seconds on an idle machine; 203 s was seen with 8 other jobs and two CPU hogs on 2 cores
  }, 900_000);

  it("the property check catches a broken output", () => {
    const report = {
      summary: { resources: 1, valid: 0, invalid: 1, error: 0, skipped: 0 },
      resources: [{ file: "", index: 0, apiVersion: "v1", kind: "X", name: "x", namespace: "", status: "invalid" as const, findings: [{ severity: "error" as const, path: "", message: "m", rule: "r" }] }],
      stats: { transitionRulesSkipped: 0, celRulesEvaluated: 0 },
    };
    const problems = checkReport({ label: "secret value", files: [] }, report, { json: "{", sarif: "{\"runs\":[{\"results\":[]}]}", junit: "<testcase \u0001", text: "a\nb\nc", github: "x\nSummary: ", "text-raw": "hunter2-PLAINTEXT!! \u001b" });
    expect(problems).toEqual([
      "a result names no file",
      "json does not parse: Expected property name or '}' in JSON at position 1",
      "sarif: wrong number of results",
      "junit: a character XML does not allow",
      "junit: testcases do not match resources",
      "text: 3 lines for 1 findings",
      "github: a line that is not an annotation",
      "text-raw: a raw escape character",
      "text-raw: prints a Secret value",
    ]);
  });
});

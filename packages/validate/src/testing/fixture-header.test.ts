// Tests of the fixture header parser and comparison (the harness must itself fail when findings disagree).
import { describe, expect, it } from "vitest";
import { compareFindings, parseHeader } from "./fixture-header.ts";

const header = parseHeader(
  ["# Two rules fail.", "# expect: invalid", "# message: a failed", "# path: /spec", "# message: b failed", "# old: old/x.yaml", '# default: /spec/x = "1"', "kind: X"].join("\n"),
  "f.yaml",
);

describe("parseHeader", () => {
  it("reads expectation, paired message/path entries, old object and defaults", () => {
    expect(header).toEqual({
      description: "Two rules fail.",
      expect: "invalid",
      findings: [{ message: "a failed", path: "/spec" }, { message: "b failed" }],
      old: "old/x.yaml",
      defaults: [{ path: "/spec/x", value: "1" }],
    });
  });
  it("rejects a fixture without an expectation", () => {
    expect(() => parseHeader("# just a comment\nkind: X", "f.yaml")).toThrow("f.yaml: no '# expect: valid|invalid|error|skipped' line");
  });
});

describe("compareFindings", () => {
  const err = (message: string, path = "/spec") => ({ severity: "error" as const, message, path, rule: "cel:x" });
  it("agrees when exactly the expected errors occur", () => {
    expect(compareFindings(header, [err("a failed"), err("b failed", "/spec/y")])).toEqual([]);
  });
  it("reports a missing expected finding and an unexpected error", () => {
    const problems = compareFindings(header, [err("a failed"), err("c failed")]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('expected finding not produced: {"message":"b failed"}');
    expect(problems[1]).toBe("unexpected error: error /spec c failed [cel:x]");
  });
  it("fails a valid fixture that has errors", () => {
    expect(compareFindings(parseHeader("# expect: valid", "v.yaml"), [err("oops")])[0]).toContain("expected valid, got errors");
  });
});

// Output formats: the JSON contract, grep-able text, JUnit, SARIF and GitHub annotations.
import { describe, expect, it } from "vitest";
import type { Report } from "../types.ts";
import { formatGithub, formatJson, formatJunit, formatSarif, formatText } from "./format.ts";

const report: Report = {
  summary: { resources: 3, valid: 1, invalid: 1, error: 1, skipped: 0 },
  resources: [
    { file: "a.yaml", index: 0, apiVersion: "v1", kind: "Namespace", name: "ok", namespace: "", status: "valid", findings: [] },
    {
      file: "b.yaml",
      index: 1,
      apiVersion: "karpenter.sh/v1",
      kind: "NodePool",
      name: "np",
      namespace: "",
      status: "invalid",
      findings: [{ severity: "error", path: "/spec/x", message: 'unknown field "spec.x"', rule: "schema:additionalProperties", hint: "remove it" }],
    },
    { file: "c.yaml", index: 0, apiVersion: "", kind: "", name: "", namespace: "", status: "error", findings: [{ severity: "error", path: "", message: "YAML syntax error: a, b", rule: "parse:syntax" }] },
  ],
  stats: { transitionRulesSkipped: 2, celRulesEvaluated: 10 },
};

describe("formatJson", () => {
  it("is exactly the documented contract (no hints, no stats)", () => {
    expect(JSON.parse(formatJson(report))).toEqual({
      summary: { resources: 3, valid: 1, invalid: 1, error: 1, skipped: 0 },
      resources: [
        { file: "a.yaml", index: 0, apiVersion: "v1", kind: "Namespace", name: "ok", namespace: "", status: "valid", findings: [] },
        {
          file: "b.yaml",
          index: 1,
          apiVersion: "karpenter.sh/v1",
          kind: "NodePool",
          name: "np",
          namespace: "",
          status: "invalid",
          findings: [{ severity: "error", path: "/spec/x", message: 'unknown field "spec.x"', rule: "schema:additionalProperties" }],
        },
        { file: "c.yaml", index: 0, apiVersion: "", kind: "", name: "", namespace: "", status: "error", findings: [{ severity: "error", path: "", message: "YAML syntax error: a, b", rule: "parse:syntax" }] },
      ],
    });
  });
});

describe("formatText", () => {
  it("prints one line per finding and a summary, without colour unless asked", () => {
    expect(formatText(report)).toBe(
      [
        'b.yaml#1 NodePool/np invalid /spec/x: unknown field "spec.x" (fix: remove it) [schema:additionalProperties]',
        "c.yaml#0 ?/? error /: YAML syntax error: a, b [parse:syntax]",
        "Summary: 3 resources found - Valid: 1, Invalid: 1, Errors: 1, Skipped: 0; 2 transition rules (oldSelf) skipped on create, use --base REF to run them",
        "",
      ].join("\n"),
    );
    expect(formatText(report, { color: true })).toContain("\u001b[31minvalid\u001b[39m");
    expect(formatText(report, { verbose: true }).split("\n")[0]).toBe("a.yaml#0 Namespace/ok valid");
  });
});

describe("formatJunit, formatSarif, formatGithub", () => {
  it("writes JUnit with a failure and an error", () => {
    const xml = formatJunit(report);
    expect(xml).toContain('<testsuites name="eks-gitops validate" tests="3" failures="1" errors="1" skipped="0">');
    expect(xml).toContain('<failure message="unknown field &quot;spec.x&quot;" type="invalid">/spec/x: unknown field &quot;spec.x&quot; [schema:additionalProperties]</failure>');
    expect(xml).toContain('<error message="YAML syntax error: a, b" type="error">');
  });

  it("writes SARIF 2.1.0 results with rule ids and file locations", () => {
    const sarif = JSON.parse(formatSarif(report));
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results[0]).toEqual({
      ruleId: "schema:additionalProperties",
      level: "error",
      message: { text: 'NodePool/np /spec/x: unknown field "spec.x" (fix: remove it)' },
      locations: [{ physicalLocation: { artifactLocation: { uri: "b.yaml" } }, logicalLocations: [{ fullyQualifiedName: "NodePool/np/spec/x" }] }],
    });
  });

  it("writes escaped GitHub workflow annotations", () => {
    expect(formatGithub(report).split("\n").slice(0, 2)).toEqual([
      '::error file=b.yaml,title=NodePool/np schema%3AadditionalProperties::/spec/x: unknown field "spec.x" (fix: remove it)',
      "::error file=c.yaml,title=?/? parse%3Asyntax::/: YAML syntax error: a, b",
    ]);
  });
});

// Output formats: the JSON contract, grep-able text, JUnit, SARIF and GitHub annotations.
import { describe, expect, it } from "vitest";
import type { Report } from "../types.ts";
import { formatGithub, formatJson, formatJunit, formatSarif, formatText, VALIDATE_VERSION } from "./format.ts";

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
      findings: [
        { severity: "error", path: "/spec/x", message: 'unknown field "spec.x"', rule: "schema:additionalProperties", hint: "remove it", line: 12, column: 3 },
        { severity: "error", path: "/spec/limits", message: 'Invalid value: "object": bad limits', rule: "cel:self.cpu > 0", line: 9, column: 3 },
      ],
    },
    { file: "c.yaml", index: 0, apiVersion: "", kind: "", name: "", namespace: "", status: "error", findings: [{ severity: "error", path: "", message: "YAML syntax error: a, b", rule: "parse:syntax" }] },
  ],
  stats: { transitionRulesSkipped: 2, celRulesEvaluated: 10 },
};

describe("formatJson", () => {
  it("is exactly the documented contract: hint, line and column when known, no stats", () => {
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
          findings: [
            { severity: "error", path: "/spec/x", message: 'unknown field "spec.x"', rule: "schema:additionalProperties", hint: "remove it", line: 12, column: 3 },
            { severity: "error", path: "/spec/limits", message: 'Invalid value: "object": bad limits', rule: "cel:self.cpu > 0", line: 9, column: 3 },
          ],
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
        'b.yaml:12:3 NodePool/np invalid /spec/x: unknown field "spec.x" (fix: remove it) [schema:additionalProperties]',
        'b.yaml:9:3 NodePool/np invalid /spec/limits: Invalid value: "object": bad limits [cel:self.cpu > 0]',
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
    expect(xml).toContain('<testcase classname="b.yaml" name="b.yaml#1 NodePool/np" file="b.yaml" line="12">');
    expect(xml).toContain(
      '<failure message="unknown field &quot;spec.x&quot;" type="invalid">12:3 /spec/x: unknown field &quot;spec.x&quot; (fix: remove it) [schema:additionalProperties]\n9:3 /spec/limits: Invalid value: &quot;object&quot;: bad limits [cel:self.cpu &gt; 0]</failure>',
    );
    expect(xml).toContain('<testcase classname="c.yaml" name="c.yaml#0 ?/?" file="c.yaml">');
    expect(xml).toContain('<error message="YAML syntax error: a, b" type="error">');
  });

  it("writes SARIF 2.1.0 results with regions, stable rule ids, descriptions, help and the driver version", () => {
    const sarif = JSON.parse(formatSarif(report));
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results[0]).toEqual({
      ruleId: "schema:additionalProperties",
      level: "error",
      message: { text: 'NodePool/np /spec/x: unknown field "spec.x" (fix: remove it)' },
      locations: [{ physicalLocation: { artifactLocation: { uri: "b.yaml" }, region: { startLine: 12, startColumn: 3 } }, logicalLocations: [{ fullyQualifiedName: "NodePool/np/spec/x" }] }],
    });
    expect(sarif.runs[0].results[1].ruleId).toBe("cel/3f3e62731da9");
    expect(sarif.runs[0].results[2].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: "c.yaml" } });
    expect(sarif.runs[0].tool.driver).toEqual({
      name: "eks-gitops validate",
      version: VALIDATE_VERSION,
      rules: [
        {
          id: "cel/3f3e62731da9",
          shortDescription: { text: "CEL validation rule: self.cpu > 0" },
          help: { text: "make the object satisfy the CRD's x-kubernetes-validations rule named in the message" },
        },
        { id: "parse:syntax", shortDescription: { text: "document not readable: syntax" }, help: { text: "fix the YAML/JSON syntax at the reported line" } },
        { id: "schema:additionalProperties", shortDescription: { text: "OpenAPI schema: additionalProperties" }, help: { text: "remove it" } },
      ],
    });
    expect(VALIDATE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("writes escaped GitHub workflow annotations", () => {
    expect(formatGithub(report).split("\n").slice(0, 3)).toEqual([
      '::error file=b.yaml,line=12,col=3,title=NodePool/np schema%3AadditionalProperties::/spec/x: unknown field "spec.x" (fix: remove it)',
      '::error file=b.yaml,line=9,col=3,title=NodePool/np cel/3f3e62731da9::/spec/limits: Invalid value: "object": bad limits',
      "::error file=c.yaml,title=?/? parse%3Asyntax::/: YAML syntax error: a, b",
    ]);
  });
});

describe("SARIF rules of cross-object checks", () => {
  it("take the check's title and its general hint, not one finding's", () => {
    const r: Report = {
      summary: { resources: 1, valid: 0, invalid: 1, error: 0, skipped: 0 },
      resources: [
        {
          file: "k.yaml",
          index: 0,
          apiVersion: "argoproj.io/v1alpha1",
          kind: "Application",
          name: "k",
          namespace: "argocd",
          status: "invalid",
          findings: [{ severity: "error", path: "/spec", message: "m", rule: "helm-values-unknown-key", hint: "use settings.clusterName", line: 4, column: 3 }],
        },
      ],
      stats: { transitionRulesSkipped: 0, celRulesEvaluated: 0 },
    };
    expect(JSON.parse(formatSarif(r)).runs[0].tool.driver.rules).toEqual([
      {
        id: "helm-values-unknown-key",
        shortDescription: { text: "every key of the Karpenter Application's helm values exists in the values.yaml of the chart version it installs" },
        help: { text: "use the chart's key (see the closest one named in the finding) or remove the value; Helm ignores keys the chart does not read" },
      },
    ]);
  });
});

// One bad CRD never poisons the run: a CRD claiming a built-in, pinned or already-defined kind is reported on its own document only.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runValidation } from "../run.ts";
import { MIRROR, TEST_CACHE } from "../testing.ts";
import { apiApprovalFindings } from "./crd-claims.ts";

/** A CRD whose `spec` allows only `foo`: were its schema used for its kind, every real object of that kind would have unknown fields. */
const strictCrd = (group: string, kind: string, plural: string, scope = "Cluster", annotations = "") => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}
${annotations ? `  annotations: {${annotations}}\n` : ""}spec:
  group: ${group}
  names: {kind: ${kind}, plural: ${plural}}
  scope: ${scope}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {foo: {type: string}}}
`;

const WIDGETS = `${strictCrd("example.com", "Widget", "widgets", "Namespaced").replace("properties: {foo: {type: string}}", "properties: {size: {type: integer}}")}---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {size: 3}
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "crd-claims-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const { report } = await runValidation({ root: dir, paths: [dir], mirror: MIRROR, cacheDir: TEST_CACHE, crossObjectChecks: false, read: { cwd: dir } });
  return report.resources.map((r) => ({ file: r.file, kind: r.kind, name: r.name, status: r.status, rules: r.findings.map((f) => f.rule) }));
}

describe("CRD isolation", () => {
  it("a CRD named customresourcedefinitions.apiextensions.k8s.io is reported on its own file; the other CRDs keep the built-in CRD schema", { timeout: 120_000 }, async () => {
    const results = await run({
      "a-bad.yaml": strictCrd("apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions", "Cluster", '"api-approved.kubernetes.io": "unapproved, testing"'),
      "b-widgets.yaml": WIDGETS,
    });
    expect(results).toEqual([
      { file: "a-bad.yaml", kind: "CustomResourceDefinition", name: "customresourcedefinitions.apiextensions.k8s.io", status: "valid", rules: ["crd:kind-taken"] },
      { file: "b-widgets.yaml", kind: "CustomResourceDefinition", name: "widgets.example.com", status: "valid", rules: [] },
      { file: "b-widgets.yaml", kind: "Widget", name: "w", status: "valid", rules: [] },
    ]);
  });

  it("a CRD claiming a built-in kind (apps/v1 Deployment) or a pinned one (karpenter.sh/v1 NodePool) does not replace it", { timeout: 120_000 }, async () => {
    const deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: default}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: nginx}]}\n";
    const nodePool = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\nspec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n      requirements: []\n";
    const results = await run({
      "crds.yaml": `${strictCrd("apps", "Deployment", "deployments")}---\n${strictCrd("karpenter.sh", "NodePool", "nodepools")}`,
      "objects.yaml": `${deployment}---\n${nodePool}`,
    });
    expect(results).toEqual([
      { file: "crds.yaml", kind: "CustomResourceDefinition", name: "deployments.apps", status: "valid", rules: ["crd:kind-taken"] },
      { file: "crds.yaml", kind: "CustomResourceDefinition", name: "nodepools.karpenter.sh", status: "valid", rules: ["crd:kind-taken"] },
      { file: "objects.yaml", kind: "Deployment", name: "d", status: "valid", rules: [] },
      { file: "objects.yaml", kind: "NodePool", name: "p", status: "valid", rules: [] },
    ]);
  });

  it("the first CRD of a kind wins; a later one is reported, not used", { timeout: 120_000 }, async () => {
    const results = await run({ "a.yaml": WIDGETS, "b-again.yaml": strictCrd("example.com", "Widget", "gadgets", "Namespaced") });
    expect(results.map((r) => [r.file, r.kind, r.status, r.rules])).toEqual([
      ["a.yaml", "CustomResourceDefinition", "valid", []],
      ["a.yaml", "Widget", "valid", []],
      ["b-again.yaml", "CustomResourceDefinition", "valid", ["crd:kind-taken"]],
    ]);
  });
});

describe("apiApprovalFindings (validateAPIApproval)", () => {
  const crd = (group: string, approval?: string) => ({ metadata: approval === undefined ? {} : { annotations: { "api-approved.kubernetes.io": approval } }, spec: { group } });
  it("requires the annotation on k8s.io and kubernetes.io groups only", () => {
    expect(apiApprovalFindings(crd("example.com"))).toEqual([]);
    expect(apiApprovalFindings(crd("x.k8s.io"))[0]?.message).toBe(
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    );
    expect(apiApprovalFindings(crd("kubernetes.io", ""))).toHaveLength(1);
  });
  it("accepts a URL with scheme and host, or a reason starting with unapproved; refuses anything else", () => {
    expect(apiApprovalFindings(crd("x.k8s.io", "https://github.com/kubernetes/enhancements/pull/1111"))).toEqual([]);
    expect(apiApprovalFindings(crd("x.k8s.io", "unapproved, experimental"))).toEqual([]);
    expect(apiApprovalFindings(crd("x.k8s.io", "approved"))[0]?.message).toBe(
      'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "approved": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    );
  });
});

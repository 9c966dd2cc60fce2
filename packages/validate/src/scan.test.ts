// The first pass of a streaming run: which apiVersion/kind pairs and CRDs each file may hold, read from the text.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanFiles } from "./scan.ts";

const dir = mkdtempSync(join(tmpdir(), "scan-"));
function scan(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const r = scanFiles([file], { maxFileBytes: 1 << 20, text: () => undefined, show: (f) => f });
  return { pairs: (r.kindsByFile.get(file) ?? []).map((p) => `${p.apiVersion} ${p.kind}`).sort(), crds: r.crdTypes.map((t) => t.gvk.kind), charts: [...r.charts] };
}

describe("scanFiles", () => {
  it("reads top-level apiVersion and kind of block YAML: first line, quoted, after `---`, CRLF and lone CR", () => {
    expect(scan("a.yaml", "apiVersion: v1\nkind: Service\n---\napiVersion: 'apps/v1'\nkind: \"Deployment\" # a comment\n").pairs).toEqual([
      "apps/v1 Deployment",
      "apps/v1 Service",
      "v1 Deployment",
      "v1 Service",
    ]);
    expect(scan("crlf.yaml", "kind: Service\r\napiVersion: v1\r\n").pairs).toEqual(["v1 Service"]);
    expect(scan("cr.yaml", "kind: Service\rapiVersion: v1\r").pairs).toEqual(["v1 Service"]);
  });

  it("does not take nested keys or values that only contain the key", () => {
    expect(scan("nested.yaml", "apiVersion: v1\nkind: ConfigMap\ndata:\n  kind: Secret\n  x: \"\\nkind: Pod\"\nmykind: Job\n").pairs).toEqual(["v1 ConfigMap"]);
  });

  it("reads JSON documents, and the CRDs and charts a file holds", () => {
    expect(scan("a.json", '{"kind": "Service", "apiVersion": "v1"}').pairs).toEqual(["v1 Service"]);
    const crd = [
      "apiVersion: apiextensions.k8s.io/v1",
      "kind: CustomResourceDefinition",
      "metadata: {name: widgets.example.com}",
      "spec:",
      "  group: example.com",
      "  names: {kind: Widget, plural: widgets}",
      "  scope: Namespaced",
      "  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]",
      "---",
      "apiVersion: argoproj.io/v1alpha1",
      "kind: Application",
      "spec:",
      "  source: {chart: karpenter}",
    ].join("\n");
    const r = scan("crd.yaml", crd);
    expect(r.crds).toEqual(["Widget"]);
    expect(r.charts).toEqual(["karpenter"]);
  });
});

describe("scanFiles' kept texts", () => {
  it("keeps the texts of the first files up to the budget, and none of a binary file", () => {
    const names = ["k0.yaml", "k1.yaml", "bin.yaml", "k2.yaml", "k3.yaml"];
    const texts = ["apiVersion: v1\nkind: A\n", "apiVersion: v1\nkind: B\n", "a\u0000b", "apiVersion: v1\nkind: C\n", "apiVersion: v1\nkind: D\n"];
    const paths = names.map((n, i) => {
      const file = join(dir, n);
      writeFileSync(file, texts[i] as string);
      return file;
    });
    // room for three texts of 24 characters: k0, k1 and k2 (the binary file is skipped, not kept); k3 does not fit
    const r = scanFiles(paths, { maxFileBytes: 1 << 20, text: () => undefined, show: (f) => f, keepChars: 3 * 24 + 10 });
    expect([...r.texts.keys()]).toEqual([paths[0], paths[1], paths[3]]);
    expect(r.texts.get(paths[1] as string)).toBe(texts[1]);
    expect(scanFiles(paths, { maxFileBytes: 1 << 20, text: () => undefined, show: (f) => f, keepChars: 0 }).texts.size).toBe(0);
  });
});

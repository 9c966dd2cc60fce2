// validateRender: a render still in memory gets the checks of the committed files (overlay versions, CEL, cross-object, IAM).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateRender } from "./validate-render.ts";

const REPO = resolve(import.meta.dirname, "../../..");

/** The committed render of an overlay as the in-memory map synth builds. */
function committed(cluster: string): Map<string, string> {
  const dir = join(REPO, "clusters", cluster, "rendered");
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(relative(dir, p), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return files;
}

describe("validateRender", () => {
  it("reports the committed render as valid, under its clusters/<name>/rendered paths", async () => {
    const report = await validateRender([{ cluster: "eksworkshop", files: committed("eksworkshop") }], { root: REPO });
    expect(report.summary).toMatchObject({ resources: 25, invalid: 0, error: 0 });
    expect(report.resources.map((r) => r.file)).toContain("clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml");
    // the IAM lint ran on the rendered policies
    expect(report.resources.some((r) => r.kind === "IAM:policy" && r.findings.some((f) => f.rule === "iam:RESOURCE_STAR_SCOPABLE"))).toBe(true);
  }, 60_000);

  it("finds a CEL violation and a cross-object one in documents that are not files", async () => {
    const files = committed("eksworkshop");
    const nodePool = "karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml";
    files.set(nodePool, (files.get(nodePool) as string).replace("\n  template:\n", "\n  weight: 10\n  replicas: 2\n  template:\n"));
    const nodeClass = "karpenter-nodepools/karpenter.k8s.aws_v1_ec2nodeclass_default.yaml";
    files.delete(nodeClass);
    const report = await validateRender([{ cluster: "eksworkshop", files }], { root: REPO });
    const findings = report.resources.flatMap((r) => r.findings.filter((f) => f.severity === "error").map((f) => `${r.file} ${f.path}: ${f.message}`));
    const file = `clusters/eksworkshop/rendered/${nodePool}`;
    expect(findings).toEqual([
      `${file} /spec: Invalid value: "object": 'weight' is not supported on static NodePools`,
      `${file} /spec: Invalid value: "object": only 'limits.nodes' is supported on static NodePools`,
      `${file} /spec/template/spec/nodeClassRef/name: NodePool default refers to EC2NodeClass 'default', which is not rendered in this overlay (rendered: none)`,
    ]);
  }, 60_000);
});

describe("validateRender with overlays already loaded", () => {
  it("uses the overlay it is given instead of loading cluster.ts again", async () => {
    const root = mkdtempSync(join(tmpdir(), "eks-gitops-render-"));
    try {
      // no clusters/<name>/cluster.ts under this root: loading it would fail with "no such overlay"
      const files = new Map([["app/v1_configmap_app.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: default\ndata:\n  a: b\n"]]);
      const config = { name: "given", kubernetesVersion: "1.36", karpenter: { version: "1.14.1" } };
      const report = await validateRender([{ cluster: "given", files, config }], { root });
      expect(report.summary).toMatchObject({ resources: 1, valid: 1 });
      await expect(validateRender([{ cluster: "given", files }], { root })).rejects.toThrow(/no such overlay/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("validateRender positions", () => {
  it("locates findings in the in-memory text, not in the file of the same name on disk", async () => {
    const files = committed("eksworkshop");
    const nodePool = "karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml";
    // two more lines than the committed file: a position read from disk would be two lines off
    const text = `# one\n# two\n${(files.get(nodePool) as string).replace("\n  template:\n", "\n  weight: 10\n  replicas: 2\n  template:\n")}`;
    files.set(nodePool, text);
    const report = await validateRender([{ cluster: "eksworkshop", files }], { root: REPO });
    const result = report.resources.find((r) => r.file === `clusters/eksworkshop/rendered/${nodePool}`);
    const spec = text.split("\n").indexOf("spec:") + 1;
    expect(spec).toBeGreaterThan(2);
    expect(result?.findings.map((f) => [f.path, f.line, f.column])).toEqual([
      ["/spec", spec, 1],
      ["/spec", spec, 1],
    ]);
  }, 60_000);
});

describe("validateRender without positions", () => {
  it("gives the same findings without lines and columns", async () => {
    const files = committed("eksworkshop");
    const located = await validateRender([{ cluster: "eksworkshop", files }], { root: REPO });
    const plain = await validateRender([{ cluster: "eksworkshop", files }], { root: REPO, positions: false });
    const strip = (r: typeof located) => r.resources.map((x) => ({ ...x, findings: x.findings.map(({ line: _l, column: _c, ...f }) => f) }));
    expect(located.resources.some((r) => r.findings.some((f) => f.line !== undefined))).toBe(true);
    expect(plain.resources.every((r) => r.findings.every((f) => f.line === undefined && f.column === undefined))).toBe(true);
    expect(plain.summary).toEqual(located.summary);
    expect(strip(plain)).toEqual(strip(located));
  }, 60_000);
});

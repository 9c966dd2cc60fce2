// `validate --from-cluster` (schemas read from this API server) gives the same verdicts as the pinned catalog.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { stringify } from "yaml";
import { runValidator, validatorAvailable } from "./differential/validator-cli.ts";
import type { ValidatorResource } from "./differential/verdicts.ts";
import { generateMutations } from "./mutations/generate.ts";
import { loadRenderedObjects } from "./rendered.ts";

describe.skipIf(!validatorAvailable())("`validate --from-cluster` against the pinned catalog", () => {
  const dir = mkdtempSync(join(tmpdir(), "eks-gitops-from-cluster-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives every rendered object and 300 mutations the same status and finding paths, except where the server's schema has an enum the pinned one lacks", () => {
    const rendered = loadRenderedObjects();
    const mutations = generateMutations(
      rendered.map((r) => ({ file: r.file, object: r.object })),
      { seed: 4242, count: 300 },
    );
    mkdirSync(join(dir, "docs"));
    for (const [i, r] of rendered.entries()) writeFileSync(join(dir, "docs", `rendered-${i}.yaml`), stringify(r.object));
    for (const m of mutations) writeFileSync(join(dir, "docs", `${m.id}.yaml`), stringify(m.object));

    const pinned = runValidator([join(dir, "docs")]);
    const live = runValidator([join(dir, "docs")], {
      args: ["--from-cluster"],
      env: { KUBECONFIG: inject("kubeconfigPath") },
    });
    const summary = (r: ValidatorResource) =>
      `${r.file}#${r.index} ${r.status} ${[...new Set(r.findings.filter((f) => f.severity === "error").map((f) => f.path))].sort().join(",")}`;
    expect(pinned.resources).toHaveLength(rendered.length + mutations.length);
    expect(live.resources).toHaveLength(pinned.resources.length);
    // The one expected difference: the server publishes `enum` for built-in fields that the pinned
    // Kubernetes OpenAPI copy lacks, so --from-cluster also flags a bad enum value there.
    const differences = live.resources.flatMap((r, i) => {
      const p = pinned.resources[i] as ValidatorResource;
      if (summary(r) === summary(p)) return [];
      const pinnedPaths = new Set(p.findings.map((f) => f.path));
      const extra = r.findings.filter((f) => f.severity === "error" && !pinnedPaths.has(f.path));
      return [{ file: r.file, kind: r.kind, extraRules: [...new Set(extra.map((f) => f.rule))], missing: p.findings.filter((f) => f.severity === "error" && !r.findings.some((g) => g.path === f.path)).length }];
    });
    process.stdout.write(`--from-cluster vs pinned: ${differences.length}/${live.resources.length} documents differ, all by an enum the pinned schema lacks\n`);
    for (const d of differences) {
      expect(d, d.file).toMatchObject({ missing: 0, extraRules: ["schema:enum"] });
      expect(["Deployment", "Service", "HorizontalPodAutoscaler"], d.file).toContain(d.kind);
    }
    // Every CRD-served kind (identical CRDs on both sides) gives exactly the same result.
    const crdKinds = new Set(["NodePool", "EC2NodeClass", "Application", "AppProject"]);
    expect(differences.filter((d) => crdKinds.has(d.kind))).toEqual([]);
    // Not vacuous: the corpus has both outcomes.
    expect(new Set(pinned.resources.map((r) => r.status))).toEqual(new Set(["valid", "invalid"]));
  });
});

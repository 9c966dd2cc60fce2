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

  it("gives every rendered object and 300 mutations the same status and the same finding paths", () => {
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
      `${r.file}#${r.index} ${r.status} ${r.findings
        .filter((f) => f.severity === "error")
        .map((f) => f.path)
        .sort()
        .join(",")}`;
    expect(pinned.resources).toHaveLength(rendered.length + mutations.length);
    expect(live.resources.map(summary)).toEqual(pinned.resources.map(summary));
    // Not vacuous: the corpus has both outcomes.
    expect(new Set(pinned.resources.map((r) => r.status))).toEqual(new Set(["valid", "invalid"]));
  });
});

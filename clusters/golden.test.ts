// The committed rendered/ folder of every overlay is its golden output: a fresh render must equal it byte for byte.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { listClusters, loadCluster } from "@eks-gitops/config";
import { readTree, renderCluster } from "@eks-gitops/cli";

const ROOT = resolve(import.meta.dirname, "..");

describe.each(listClusters(ROOT))("overlay %s", (name) => {
  it("renders exactly the committed output", async () => {
    const rendered = renderCluster(await loadCluster(ROOT, name));
    const committed = readTree(join(ROOT, "clusters", name, "rendered"));
    expect([...committed.keys()]).toEqual([...rendered.keys()]);
    for (const [path, content] of rendered) expect(committed.get(path), path).toBe(content);
  });

  it("bootstraps with the root app and its own AppProject (not Argo CD's default project)", async () => {
    const { argocd } = await loadCluster(ROOT, name);
    const dir = join(ROOT, "clusters", name, "rendered", "bootstrap");
    expect(readdirSync(dir)).toEqual([`argoproj.io_v1alpha1_application_argocd_${name}-root.yaml`, `argoproj.io_v1alpha1_appproject_argocd_${name}-bootstrap.yaml`]);
    const root = readFileSync(join(dir, `argoproj.io_v1alpha1_application_argocd_${name}-root.yaml`), "utf8");
    expect(root).toContain(`\n  project: ${name}-bootstrap\n`);
    const project = readFileSync(join(dir, `argoproj.io_v1alpha1_appproject_argocd_${name}-bootstrap.yaml`), "utf8");
    expect(project.slice(project.indexOf("  destinations:"))).toBe(
      [
        "  destinations:",
        `    - namespace: ${argocd.namespace}`,
        `      server: ${argocd.destinationServer}`,
        "  namespaceResourceWhitelist:",
        "    - group: argoproj.io",
        "      kind: AppProject",
        "    - group: argoproj.io",
        "      kind: Application",
        "  sourceRepos:",
        `    - ${argocd.repoURL}`,
        "",
      ].join("\n"),
    );
  });
});

it("finds both overlays", () => {
  expect(listClusters(ROOT)).toEqual(["aws-cn", "eksworkshop"]);
});

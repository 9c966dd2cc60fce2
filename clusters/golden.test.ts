// The committed rendered/ folder of every overlay is its golden output: a fresh render must equal it byte for byte.
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
});

it("finds both overlays", () => {
  expect(listClusters(ROOT)).toEqual(["aws-cn", "eksworkshop"]);
});

// Tests of the pinned catalog: mirror folder, cache, hash pins and version selection (mirror only, no internet).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOG, CatalogError, fetchPinned, loadCatalog, selectReleases, sha256, sourceOf } from "./index.ts";

const MIRROR = process.env.EKS_GITOPS_MIRROR ?? resolve(import.meta.dirname, "../../../../../../shared/mirror");
const tmp = () => mkdtempSync(join(tmpdir(), "catalog-"));

describe("catalog pins", () => {
  it("every pinned file in the mirror has its pinned SHA-256", () => {
    for (const file of CATALOG.flatMap((r) => r.files)) {
      expect(sha256(readFileSync(join(MIRROR, file.path))), file.path).toBe(file.sha256);
    }
  });

  it("maps paths to upstream raw URLs or mirror locations", () => {
    const file = CATALOG[0]?.files[0];
    if (!file) throw new Error("empty catalog");
    expect(sourceOf(file, undefined)).toBe(`https://raw.githubusercontent.com/${file.path}`);
    expect(sourceOf(file, "http://127.0.0.1:9/m/")).toBe(`http://127.0.0.1:9/m/${file.path}`);
  });

  it("selects releases by overlay version and explains missing ones", () => {
    expect(selectReleases({ kubernetes: "1.36", karpenter: "1.14.1" }).map((r) => `${r.project}@${r.version}`)).toEqual([
      "kubernetes@1.36.0",
      "karpenter@1.14.1",
      "argocd@3.5.1",
    ]);
    expect(() => selectReleases({ karpenter: "1.9.0" })).toThrow("no pinned karpenter schemas for version 1.9.0 (pinned: 1.14.1)");
  });
});

describe("fetchPinned", () => {
  const file = CATALOG.find((r) => r.project === "argocd")?.files.find((f) => f.path.endsWith("appproject-crd.yaml"));
  if (!file) throw new Error("appproject pin missing");

  it("reads from a mirror folder, then serves the verified copy from the cache", async () => {
    const cacheDir = tmp();
    const bytes = await fetchPinned(file, { mirror: MIRROR, cacheDir });
    expect(sha256(bytes)).toBe(file.sha256);
    expect(existsSync(join(cacheDir, file.sha256))).toBe(true);
    const again = await fetchPinned(file, { mirror: join(tmp(), "nothing-here"), cacheDir });
    expect(again.equals(bytes)).toBe(true);
  });

  it("refuses a mirror file whose SHA-256 differs from the pin", async () => {
    const mirror = tmp();
    mkdirSync(dirname(join(mirror, file.path)), { recursive: true });
    writeFileSync(join(mirror, file.path), "tampered\n");
    await expect(fetchPinned(file, { mirror, cacheDir: tmp() })).rejects.toThrow(CatalogError);
    await expect(fetchPinned(file, { mirror, cacheDir: tmp() })).rejects.toThrow(`SHA-256 mismatch for ${mirror}/${file.path}: expected ${file.sha256}`);
  });

  it("says how to use a mirror when a file is missing", async () => {
    await expect(fetchPinned(file, { mirror: join(tmp(), "empty"), cacheDir: tmp() })).rejects.toThrow(/cannot read .*appproject-crd.yaml: ENOENT; is the mirror complete\?/);
  });

  it("loads a whole release set", async () => {
    const files = await loadCatalog(selectReleases(), { mirror: MIRROR, cacheDir: tmp() });
    expect(files).toHaveLength(16);
    expect(files.find((f) => f.file.path.endsWith("karpenter.sh_nodepools.yaml"))?.text).toContain("kind: CustomResourceDefinition");
  });
});

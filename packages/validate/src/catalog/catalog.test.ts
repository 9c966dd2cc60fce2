// Tests of the pinned catalog: mirror folder and URL, cache, hash pins and version selection. The pinned bytes come
// through the product's own fetch: from $EKS_GITOPS_MIRROR when one is configured, else downloaded from upstream.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { MIRROR, TEST_CACHE } from "../testing.ts";
import { CATALOG, CatalogError, fetchPinned, loadCatalog, type PinnedFile, selectReleases, sha256, sourceOf } from "./index.ts";


const tmp = () => mkdtempSync(join(tmpdir(), "catalog-"));

/** A mirror folder (the upstream paths) holding the given pinned files, their bytes fetched as the product does. */
async function mirrorFolder(files: readonly PinnedFile[]): Promise<string> {
  const dir = tmp();
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), await fetchPinned(f, { mirror: MIRROR, cacheDir: TEST_CACHE }));
  }
  return dir;
}

describe("catalog pins", () => {
  it("every pinned file is served (by the configured mirror, else upstream) with its pinned SHA-256", async () => {
    // an empty cache: each file is really read from its source, and fetchPinned refuses other bytes
    const cacheDir = tmp();
    for (const file of CATALOG.flatMap((r) => r.files)) {
      expect(sha256(await fetchPinned(file, { mirror: MIRROR, cacheDir })), file.path).toBe(file.sha256);
    }
  }, 300_000);

  it("maps paths to upstream raw URLs or mirror locations", () => {
    const file = CATALOG[0]?.files[0];
    if (!file) throw new Error("empty catalog");
    expect(sourceOf(file, undefined)).toBe(`https://raw.githubusercontent.com/${file.path}`);
    expect(sourceOf(file, "http://127.0.0.1:9/m/")).toBe(`http://127.0.0.1:9/m/${file.path}`);
  });

  it("selects releases by overlay version and explains missing ones", () => {
    const picked = (v: Parameters<typeof selectReleases>[0]) => selectReleases(v).map((r) => `${r.project}@${r.version}`);
    // an overlay's minor ("1.36") takes the newest pinned patch of that minor
    expect(picked({ kubernetes: "1.36", karpenter: "1.14.1" })).toEqual(["kubernetes@1.36.5", "karpenter@1.14.1", "argocd@3.5.1"]);
    expect(picked({})).toEqual(["kubernetes@1.36.5", "karpenter@1.14.1", "argocd@3.5.1"]);
    expect(picked({ kubernetes: "v1.36.0" })[0]).toBe("kubernetes@1.36.0");
    expect(() => selectReleases({ karpenter: "1.9.0" })).toThrow("no pinned karpenter schemas for version 1.9.0 (pinned: 1.14.1)");
    expect(() => selectReleases({ kubernetes: "1.35" })).toThrow("no pinned kubernetes schemas for version 1.35 (pinned: 1.36.5, 1.36.0)");
    expect(() => selectReleases({ kubernetes: "1.36.3" })).toThrow("no pinned kubernetes schemas for version 1.36.3 (pinned: 1.36.5, 1.36.0)");
  });

  it("pins every GA group-version of Kubernetes v1.36.5, and the v1.36.0 files it shares are the same bytes", () => {
    const [k1365, k1360] = ["1.36.5", "1.36.0"].map((v) => CATALOG.find((r) => r.project === "kubernetes" && r.version === v));
    expect(k1365?.files).toHaveLength(22);
    expect(k1365?.files.every((f) => f.path.startsWith("kubernetes/kubernetes/v1.36.5/api/openapi-spec/v3/"))).toBe(true);
    const base = (p: string) => p.replace(/^.*\//, "");
    for (const f of k1360?.files ?? []) expect(k1365?.files.find((g) => base(g.path) === base(f.path))?.sha256, f.path).toBe(f.sha256);
  });
});

describe("fetchPinned", () => {
  const file = CATALOG.find((r) => r.project === "argocd")?.files.find((f) => f.path.endsWith("appproject-crd.yaml"));
  if (!file) throw new Error("appproject pin missing");

  it("reads from a mirror folder, then serves the verified copy from the cache", async () => {
    const cacheDir = tmp();
    const bytes = await fetchPinned(file, { mirror: await mirrorFolder([file]), cacheDir });
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

  it("downloads from a URL (an HTTP server on 127.0.0.1 serving the upstream paths) into an empty cache", async () => {
    const served = await mirrorFolder([file]);
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? "");
      try {
        res.end(readFileSync(join(served, decodeURIComponent((req.url ?? "").replace(/^\/mirror\//, "")))));
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mirror/`;
      const cacheDir = tmp();
      const bytes = await fetchPinned(file, { mirror: url, cacheDir });
      expect(sha256(bytes)).toBe(file.sha256);
      expect(seen).toEqual([`/mirror/${file.path}`]);
      // the download is kept under its SHA-256: the next read does not ask the server
      expect(readFileSync(join(cacheDir, file.sha256)).equals(bytes)).toBe(true);
      expect((await fetchPinned(file, { mirror: url, cacheDir })).equals(bytes)).toBe(true);
      expect(seen).toHaveLength(1);
      await expect(fetchPinned({ ...file, path: "nope/missing.yaml" }, { mirror: url, cacheDir: tmp() })).rejects.toThrow(`cannot download ${url}nope/missing.yaml: HTTP 404`);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("loads a whole release set", async () => {
    const files = await loadCatalog(selectReleases(), { mirror: MIRROR, cacheDir: TEST_CACHE });
    expect(files).toHaveLength(30);
    expect(files.find((f) => f.file.path.endsWith("karpenter.sh_nodepools.yaml"))?.text).toContain("kind: CustomResourceDefinition");
  });
});

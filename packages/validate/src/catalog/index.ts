// The pinned catalog: choosing releases for an overlay's versions and loading their files (verified, cached).
import { compareNumeric } from "@eks-gitops/config/order";
import { CATALOG, type CatalogRelease, DEFAULT_VERSIONS, type PinnedFile } from "./pins.ts";
import { CatalogError, fetchPinned, type FetchOptions } from "./fetch.ts";

export { CATALOG, DEFAULT_VERSIONS, UPSTREAM_BASE } from "./pins.ts";
export type { CatalogRelease, PinnedFile } from "./pins.ts";
export { CatalogError, defaultCacheDir, type DownloadProgress, fetchPinned, MIRROR_ENV, sha256, sourceOf } from "./fetch.ts";
export type { FetchOptions } from "./fetch.ts";

/** Versions to take from the catalog; a Kubernetes minor ("1.36") picks the newest pinned patch. */
export interface CatalogVersions {
  readonly kubernetes?: string;
  readonly karpenter?: string;
  readonly argocd?: string;
}

function pick(project: CatalogRelease["project"], wanted: string): CatalogRelease {
  const releases = CATALOG.filter((r) => r.project === project);
  const v = wanted.replace(/^v/, "");
  const exact = releases.find((r) => r.version === v);
  if (exact) return exact;
  const minor = releases.filter((r) => r.version.startsWith(`${v}.`)).sort((a, b) => compareNumeric(b.version, a.version));
  if (minor[0]) return minor[0];
  throw new CatalogError(
    `no pinned ${project} schemas for version ${wanted} (pinned: ${releases.map((r) => r.version).join(", ")}); add its files and SHA-256 to packages/validate/src/catalog/pins.ts or pass --crd/--from-cluster`,
  );
}

/** The releases for the given versions (defaults: the newest pinned). */
export function selectReleases(versions: CatalogVersions = {}): CatalogRelease[] {
  return [
    pick("kubernetes", versions.kubernetes ?? DEFAULT_VERSIONS.kubernetes),
    pick("karpenter", versions.karpenter ?? DEFAULT_VERSIONS.karpenter),
    pick("argocd", versions.argocd ?? DEFAULT_VERSIONS.argocd),
  ];
}

export interface LoadedCatalogFile {
  readonly file: PinnedFile;
  readonly text: string;
}

/** Fetches (or reads from cache/mirror) every file of the releases; any failure or hash mismatch throws. */
export async function loadCatalog(releases: readonly CatalogRelease[], options: FetchOptions = {}): Promise<LoadedCatalogFile[]> {
  const files = releases.flatMap((r) => r.files);
  const bytes = await Promise.all(files.map((f) => fetchPinned(f, options)));
  return files.map((file, i) => ({ file, text: (bytes[i] as Buffer).toString("utf8") }));
}

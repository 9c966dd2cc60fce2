// Fetching pinned catalog files: cache, then mirror (folder or URL) or upstream, always SHA-256-checked.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { UPSTREAM_BASE, type PinnedFile } from "./pins.ts";

/** Environment variable naming a mirror folder or URL (same meaning as `--mirror`). */
export const MIRROR_ENV = "EKS_GITOPS_MIRROR";

export interface FetchOptions {
  /** Folder or http(s) URL serving the upstream paths. @default $EKS_GITOPS_MIRROR, else upstream */
  readonly mirror?: string;
  /** @default $XDG_CACHE_HOME/eks-gitops/schemas or ~/.cache/eks-gitops/schemas */
  readonly cacheDir?: string;
}

/** A catalog file that could not be had, or whose bytes are not the pinned ones. */
export class CatalogError extends Error {
  override name = "CatalogError";
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "eks-gitops", "schemas");
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Where a pinned file is read from: `<mirror>/<path>` or the upstream raw URL. */
export function sourceOf(file: Pick<PinnedFile, "path">, mirror: string | undefined): string {
  const base = mirror && mirror !== "" ? mirror.replace(/\/+$/, "") : UPSTREAM_BASE;
  return `${base}/${file.path}`;
}

async function readSource(location: string): Promise<Buffer> {
  if (/^https?:\/\//.test(location)) {
    let res: Response;
    try {
      res = await fetch(location);
    } catch (err) {
      throw new CatalogError(`cannot download ${location}: ${(err as Error).message}; use --mirror DIR|URL (or ${MIRROR_ENV}) when offline`);
    }
    if (!res.ok) throw new CatalogError(`cannot download ${location}: HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
  try {
    return readFileSync(location.replace(/^file:\/\//, ""));
  } catch (err) {
    throw new CatalogError(`cannot read ${location}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; is the mirror complete?`);
  }
}

/**
 * Returns the bytes of a pinned file. The cache is content-addressed (by SHA-256), so a cached file is
 * re-checked on read and a pin change never serves stale bytes.
 */
export async function fetchPinned(file: Pick<PinnedFile, "path" | "sha256">, options: FetchOptions = {}): Promise<Buffer> {
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const cached = join(cacheDir, file.sha256);
  try {
    const bytes = readFileSync(cached);
    if (sha256(bytes) === file.sha256) return bytes;
  } catch {
    // not cached yet
  }
  const location = sourceOf(file, options.mirror ?? process.env[MIRROR_ENV]);
  const bytes = await readSource(location);
  const actual = sha256(bytes);
  if (actual !== file.sha256) {
    throw new CatalogError(`SHA-256 mismatch for ${location}: expected ${file.sha256}, got ${actual}; the mirror or download is not the pinned upstream file`);
  }
  try {
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, cached);
  } catch {
    // a read-only cache only costs speed
  }
  return bytes;
}

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
  /** Called as an http(s) download progresses (not for cache or mirror-folder reads): the first download takes seconds. */
  readonly onProgress?: (progress: DownloadProgress) => void;
}

/** How far one download has come; `total` is the Content-Length when the server sent one. */
export interface DownloadProgress {
  readonly location: string;
  readonly received: number;
  readonly total: number | undefined;
  readonly done: boolean;
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

async function readSource(location: string, onProgress: FetchOptions["onProgress"]): Promise<Buffer> {
  if (/^https?:\/\//.test(location)) {
    const offline = `when offline, set ${MIRROR_ENV}=DIR|URL or pass --mirror DIR|URL (validate, synth)`;
    let res: Response;
    try {
      res = await fetch(location);
    } catch (err) {
      // fetch says only "fetch failed": why (a refused connection, an untrusted certificate) is its cause
      const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.message ? ` (${cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ` : ""}${cause.message})` : "";
      throw new CatalogError(`cannot download ${location}: ${(err as Error).message}${why}; ${offline}`);
    }
    if (!res.ok) throw new CatalogError(`cannot download ${location}: HTTP ${res.status}`);
    if (!onProgress || !res.body) return Buffer.from(await res.arrayBuffer());
    const length = Number(res.headers.get("content-length"));
    const total = Number.isFinite(length) && length > 0 ? length : undefined;
    const chunks: Uint8Array[] = [];
    let received = 0;
    onProgress({ location, received, total, done: false });
    try {
      for await (const chunk of res.body) {
        chunks.push(chunk);
        received += chunk.byteLength;
        onProgress({ location, received, total, done: false });
      }
    } catch (err) {
      throw new CatalogError(`cannot download ${location}: ${(err as Error).message}; ${offline}`);
    }
    onProgress({ location, received, total, done: true });
    return Buffer.concat(chunks);
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
  const bytes = await readSource(location, options.onProgress);
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

// Values derived from pinned inputs (a CRD's schema, a chart's values.yaml), kept in the cache's `derived` folder so
// that later runs read them instead of working them out again: one JSON file a value, `{ id, value }`, named by its
// id. The id must change whenever the value would: callers hash into it what the value depends on. A file that does
// not name its own id (damaged, or written for something else) is no value at all. The folder is trusted as the
// compiled validators beside it are (run as code): a file is checked to be what was written for the id, not against
// tampering by whoever can write there.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CacheNames, markUsed } from "@eks-gitops/config/cache-prune";

/** What the folder holds (`<id>.json`, and `<id>.json.<pid>.tmp` while one is written): what a pruning may remove. */
export const DERIVED_FILES: CacheNames = { kept: /^[0-9a-f]{64}\.json$/, temporary: /^[0-9a-f]{64}\.json\.\d+\.tmp$/ };

/** The value kept for `id` in `dir`, wrapped (a kept value may be null), or undefined when there is none. */
export function readDerived(dir: string, id: string): { readonly value: unknown } | undefined {
  try {
    const file = join(dir, `${id}.json`);
    const stored = JSON.parse(readFileSync(file, "utf8")) as { id?: unknown; value?: unknown };
    if (stored.id !== id || !("value" in stored)) return undefined;
    markUsed(file);
    return { value: stored.value };
  } catch {
    // not worked out yet (or unreadable)
    return undefined;
  }
}

/** Keeps `value` (JSON) for `id` in `dir`, through a temporary file renamed into place; a read-only cache only costs speed. */
export function writeDerived(dir: string, id: string, value: unknown): void {
  const file = join(dir, `${id}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, JSON.stringify({ id, value }));
    renameSync(tmp, file);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing written, or nowhere to write
    }
  }
}

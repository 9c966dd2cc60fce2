// Keeps the compiled-validator cache (`<cache>/validators`) from growing without end. Every schema a run meets
// leaves a validator file and a V8 code cache there, keyed by a hash that includes CACHE_VERSION and V8's version:
// a new release of this tool, a new Node, or each edit of a CRD's schema in the authoring loop writes new files,
// and nothing read the old ones again. On the machine this was found on, 1,141 files (88 MB) after two version
// bumps in one day.
//
// A run does not write the files it reads, so their mtime would be their creation time: a file read is marked used
// (its mtime set to now) when its mark is over a day old, one stat per file read. At most once a day (a stamp file
// says when) a run removes the files of the folder unused for UNUSED_DAYS, and temporary files a killed run left.
// Removing a file another run is about to read is safe: a missing or half-gone validator is compiled anew, as on
// a cold cache. Written by hand: what this needs is a dozen lines of node:fs, not a cache library's own layout.
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Files unused this long are removed. */
export const UNUSED_DAYS = 30;
/** The file whose mtime says when the folder was last pruned. */
export const PRUNE_STAMP = ".pruned";
/** What this cache writes: `<sha256>.cjs` (validator code) and `<sha256>.<V8 tag>.v8` (V8's code cache of it). */
const OURS = /^[0-9a-f]{64}\.(?:cjs|[A-Za-z0-9._-]+\.v8)$/;
/** A temporary file of ours (`<name>.<pid>.tmp`), renamed into place when complete. */
const TEMPORARY = /^[0-9a-f]{64}\.[A-Za-z0-9._-]+\.\d+\.tmp$/;

/** Marks `file` as used at `now` when its mark is over a day old (a read-only cache is left as it is). */
export function markUsed(file: string, now = Date.now()): void {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    if (st && now - st.mtimeMs > DAY_MS) {
      const at = new Date(now);
      utimesSync(file, at, at);
    }
  } catch {
    // read-only, or removed meanwhile: only the pruning is less exact
  }
}

/** What a pruning removed. */
export interface Pruned {
  readonly files: number;
  readonly bytes: number;
}

/**
 * Removes the files of `dir` unused for UNUSED_DAYS and the temporary files over a day old, if the folder was last
 * pruned over a day ago; undefined when it was not pruned now. A folder never pruned is stamped and left as it is:
 * its files' marks start now, and the runs of the next day mark the files they use before any is removed.
 */
export function pruneUnused(dir: string, now = Date.now()): Pruned | undefined {
  const stamp = join(dir, PRUNE_STAMP);
  let last: number | undefined;
  try {
    last = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
  } catch {
    return undefined;
  }
  if (last !== undefined && now - last <= DAY_MS) return undefined;
  try {
    // stamped first: runs ending together do not all prune
    writeFileSync(stamp, "");
    const at = new Date(now);
    utimesSync(stamp, at, at);
  } catch {
    // a read-only cache is never pruned (nor written)
    return undefined;
  }
  if (last === undefined) return undefined;
  let files = 0;
  let bytes = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const limit = OURS.test(name) ? UNUSED_DAYS * DAY_MS : TEMPORARY.test(name) ? DAY_MS : undefined;
    if (limit === undefined) continue;
    const file = join(dir, name);
    try {
      const st = statSync(file, { throwIfNoEntry: false });
      if (!st?.isFile() || now - st.mtimeMs <= limit) continue;
      rmSync(file, { force: true });
      files++;
      bytes += st.size;
    } catch {
      // removed by another run meanwhile
    }
  }
  return { files, bytes };
}

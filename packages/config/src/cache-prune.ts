// Keeps a folder of compiled artefacts from growing without end: the validators `validate` compiles
// (`<cache>/validators`, keyed by a hash that includes the tool's cache version and V8's) and the overlays this
// package compiles (`~/.cache/eks-gitops/overlays`, a module per content of cluster.ts). A new release of the tool,
// a new Node, each edit of a CRD's schema or of an overlay writes new files, and nothing read the old ones again: on
// the machine this was found on, 1,147 validator files (89 MB) after two version bumps in a day, and 7,970 overlay
// files (47 MB).
//
// A run does not write the files it reads, so their mtime would be their creation time: a file read is marked used
// (its mtime set to now) when its mark is over a day old, one stat per file read. At most once a day (a stamp file
// says when) a run removes the files of the folder unused for UNUSED_DAYS, and temporary files a killed run left.
// Removing a file another run is about to read is safe for both caches: a missing file is compiled anew, as on a
// cold cache. Written by hand: what this needs is a dozen lines of node:fs, not a cache library's own layout.
import { lstatSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Files unused this long are removed. */
export const UNUSED_DAYS = 30;
/** The file whose mtime says when the folder was last pruned. */
export const PRUNE_STAMP = ".pruned";

/** The names a cache writes: only these are ever removed (whatever else is in the folder is left alone). */
export interface CacheNames {
  /** Complete files, removed after UNUSED_DAYS unused. */
  readonly kept: RegExp;
  /** Temporary files (written, then renamed into place), removed a day after they were last written. */
  readonly temporary: RegExp;
}

/**
 * Folders where a mark failed in this process (a read-only cache, or files another user owns: only a file's owner
 * may set its times): not tried again, each try costs a failed system call per file read.
 */
const unmarkable = new Set<string>();

/**
 * Marks `file` as used at `now` when its mark is over a day old; whether the file is there (a read-only cache, or
 * one whose files another user owns, is read as it is and never marked).
 */
export function markUsed(file: string, now = Date.now()): boolean {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (!st) return false;
  const dir = dirname(file);
  if (now - st.mtimeMs > DAY_MS && !unmarkable.has(dir)) {
    try {
      const at = new Date(now);
      utimesSync(file, at, at);
    } catch (err) {
      // removed meanwhile: only this file; anything else (EPERM, EACCES, EROFS): the folder
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") unmarkable.add(dir);
    }
  }
  return true;
}

/** What a pruning removed. */
export interface Pruned {
  readonly files: number;
  readonly bytes: number;
}

/**
 * Removes the files of `dir` named as `names` says that are unused for UNUSED_DAYS, and its temporary files over a
 * day old, if the folder was last pruned over a day ago; undefined when it was not pruned now. A folder never
 * pruned is stamped and left as it is: its files' marks start now, and the runs of the next day mark the files
 * they use before any is removed.
 */
export function pruneUnused(dir: string, names: CacheNames, now = Date.now()): Pruned | undefined {
  const stamp = join(dir, PRUNE_STAMP);
  let last: number | undefined;
  try {
    // the stamp itself, never what a link named like it points to
    const st = lstatSync(stamp, { throwIfNoEntry: false });
    if (st && !st.isFile()) return undefined;
    last = st?.mtimeMs;
  } catch {
    return undefined;
  }
  // a stamp from the future (a clock set back, a cache restored from elsewhere) would put pruning off until then
  if (last !== undefined && Math.abs(now - last) <= DAY_MS) return undefined;
  try {
    // stamped first: runs ending together do not all prune. A new stamp is created, never opened through a link
    if (last === undefined) writeFileSync(stamp, "", { flag: "wx" });
    const at = new Date(now);
    utimesSync(stamp, at, at);
  } catch {
    // a read-only cache is never pruned (nor written), nor one another run is stamping now
    return undefined;
  }
  if (last === undefined) return undefined;
  let files = 0;
  let bytes = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of entries) {
    const limit = names.kept.test(name) ? UNUSED_DAYS * DAY_MS : names.temporary.test(name) ? DAY_MS : undefined;
    if (limit === undefined) continue;
    const file = join(dir, name);
    try {
      // the entry itself: a link (which this cache never writes) is neither followed nor removed
      const st = lstatSync(file, { throwIfNoEntry: false });
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

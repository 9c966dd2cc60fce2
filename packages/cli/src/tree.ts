// Reading, comparing and atomically replacing a rendered/ folder.
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, type Stats, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { RenderedTree } from "./render.ts";
import { asWriteError, lockRendered, reached, recoverSwap, removeFolder } from "./swap.ts";

/** Reads every file below `dir` as relative `/`-separated path -> content (empty map if missing). */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(relative(dir, p).split(sep).join("/"), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return out;
}

export interface TreeDifference {
  readonly changed: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** What writing `wanted` over `current` would change. */
export function compareTrees(current: ReadonlyMap<string, string>, wanted: RenderedTree): TreeDifference {
  const changed: string[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  for (const [path, content] of wanted) {
    const have = current.get(path);
    if (have === undefined) added.push(path);
    else if (have !== content) changed.push(path);
  }
  for (const path of current.keys()) if (!wanted.has(path)) removed.push(path);
  return { changed, added, removed: removed.sort() };
}

export function isEmptyDifference(d: TreeDifference): boolean {
  return d.changed.length + d.added.length + d.removed.length === 0;
}

export interface ReplaceOptions {
  /** Problems that do not stop the write (a leftover that cannot be removed). @default stderr */
  readonly warn?: (message: string) => void;
  /** The caller holds `<dir>.lock` already (see lockRenderedWaiting). @default false: taken here */
  readonly locked?: boolean;
  /**
   * Leave the previous output (`<dir>.old-PID/`) in place and return its path, for the caller to remove with
   * {@link removePrevious} once every overlay is swapped, still holding `<dir>.lock` until then. Why: on an ext4
   * without a journal the kernel does not reuse an inode freed less than 30 s ago (`recently_deleted()`), and
   * every file made after a removal walks past each such free inode, so removing one overlay's previous tree
   * before writing the next one's made writing 100 overlays cost seconds of system time. Only with `locked`.
   * @default false: removed before replaceTree returns
   */
  readonly keepPrevious?: boolean;
}

const warnOnStderr = (message: string) => {
  process.stderr.write(`warning: ${message}\n`);
};

/**
 * Finishes or rolls back whatever a killed synth left beside `dir` (`<dir>.tmp-PID/`, `<dir>.old-PID/`),
 * under `<dir>.lock`. Returns one line per action taken. See ./swap.ts.
 */
export function recoverRendered(dir: string, options: ReplaceOptions = {}): string[] {
  try {
    const notes: string[] = [];
    const release = options.locked ? () => {} : lockRendered(dir, { note: (l) => notes.push(l) });
    try {
      return [...notes, ...recoverSwap(dir, options.warn ?? warnOnStderr)];
    } finally {
      release();
    }
  } catch (err) {
    throw asWriteError(dir, err);
  }
}

/**
 * Replaces `dir` with exactly `tree`: written to a sibling temporary folder first, then swapped in,
 * so a failure while writing leaves the previous output untouched and stale files disappear. Holds
 * `<dir>.lock` throughout and first recovers what a killed earlier run left, so a process killed at
 * any point leaves a state the next run turns into the old or the new tree, never a mix.
 */
export function replaceTree(dir: string, tree: RenderedTree, options: ReplaceOptions = {}): string | undefined {
  const warn = options.warn ?? warnOnStderr;
  if (options.keepPrevious && !options.locked) throw new Error("replaceTree: keepPrevious needs the caller to hold the lock");
  try {
    const release = options.locked ? () => {} : lockRendered(dir);
    try {
      recoverSwap(dir, warn);
      reached("locked");
      return swap(dir, tree, warn, options.keepPrevious === true);
    } finally {
      release();
    }
  } catch (err) {
    throw asWriteError(dir, err);
  }
}

/**
 * Removes the previous output {@link replaceTree} left with `keepPrevious` (the caller still holds `<dir>.lock`).
 * One that cannot be removed is only a warning: the next synth's recovery removes it.
 */
export function removePrevious(old: string, warn: (message: string) => void = warnOnStderr): void {
  const err = existsSync(old) ? removeFolder(old) : undefined;
  if (err) warn(`cannot remove the previous output ${old}: ${err.message}; the next synth retries, or remove it by hand`);
  reached("removed-old");
}

/**
 * The file of the previous output at `previous`, when it can stand for `content` in the new tree as a hard link:
 * the same bytes, a regular file with no other link, and the owner and permissions a new file in `tmp` would get
 * (`made`: the tmp folder's stat). A link makes no inode, so neither its allocation nor the removal of the old
 * one (see keepPrevious) costs anything; the previous tree is removed after the swap, leaving one link.
 */
function sameFile(previous: string, content: string, made: Stats): boolean {
  let st: Stats;
  try {
    st = lstatSync(previous);
  } catch {
    return false;
  }
  if (!st.isFile() || st.nlink !== 1 || st.uid !== made.uid || st.gid !== made.gid || (st.mode & 0o7777) !== (made.mode & 0o666)) return false;
  // the length first: most changed files differ in it, and reading them is then not needed
  if (st.size !== Buffer.byteLength(content)) return false;
  return readFileSync(previous, "utf8") === content;
}

function swap(dir: string, tree: RenderedTree, warn: (message: string) => void, keepPrevious: boolean): string | undefined {
  const tmp = `${dir}.tmp-${process.pid}`;
  const old = `${dir}.old-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  let swapped = false;
  try {
    let n = 0;
    // the folder itself first, then each folder below it once (a rendered tree is ~6 folders for ~25 files),
    // not once per file and not by a recursive mkdir that first fails on the missing tmp folder
    mkdirSync(tmp);
    const made = new Set<string>([tmp]);
    // what a file written here gets (mode 0666 less the umask, the folder's owner and group), to link only
    // previous files that are the same in every respect; no previous output (or no uid, Windows): every file written
    const previous = existsSync(dir) && process.getuid !== undefined ? statSync(tmp) : undefined;
    for (const [path, content] of tree) {
      const parts = path.split("/");
      const file = join(tmp, ...parts);
      const folder = dirname(file);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      const before = join(dir, ...parts);
      if (previous && sameFile(before, content, previous)) linkSync(before, file);
      else writeFileSync(file, content);
      reached(`wrote-file-${++n}`);
    }
    reached("written");
    if (existsSync(dir)) renameSync(dir, old);
    reached("moved-old");
    renameSync(tmp, dir);
    reached("moved-new");
    swapped = true;
  } catch (err) {
    if (!existsSync(dir) && existsSync(old)) renameSync(old, dir);
    throw err;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    // Only once `dir` is in place again: if even the roll-back failed, `old` is the previous output and
    // the next run's recovery restores it. A previous folder that cannot be removed is only a warning.
    if (!(swapped && keepPrevious)) {
      const err = existsSync(old) && existsSync(dir) ? removeFolder(old) : undefined;
      if (err) warn(`cannot remove the previous output ${old}: ${err.message}; the next synth retries, or remove it by hand`);
    }
  }
  // the caller's removePrevious removes it (if there was one) and reaches the step
  if (keepPrevious) return old;
  reached("removed-old");
  return undefined;
}

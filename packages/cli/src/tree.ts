// Reading, comparing and atomically replacing a rendered/ folder.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
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
export function replaceTree(dir: string, tree: RenderedTree, options: ReplaceOptions = {}): void {
  const warn = options.warn ?? warnOnStderr;
  try {
    const release = options.locked ? () => {} : lockRendered(dir);
    try {
      recoverSwap(dir, warn);
      reached("locked");
      swap(dir, tree, warn);
    } finally {
      release();
    }
  } catch (err) {
    throw asWriteError(dir, err);
  }
}

function swap(dir: string, tree: RenderedTree, warn: (message: string) => void): void {
  const tmp = `${dir}.tmp-${process.pid}`;
  const old = `${dir}.old-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    let n = 0;
    // each folder made once (a rendered tree is ~6 folders for ~25 files), not once per file
    const made = new Set<string>();
    for (const [path, content] of tree) {
      const file = join(tmp, ...path.split("/"));
      const folder = dirname(file);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      writeFileSync(file, content);
      reached(`wrote-file-${++n}`);
    }
    mkdirSync(tmp, { recursive: true });
    reached("written");
    if (existsSync(dir)) renameSync(dir, old);
    reached("moved-old");
    renameSync(tmp, dir);
    reached("moved-new");
  } catch (err) {
    if (!existsSync(dir) && existsSync(old)) renameSync(old, dir);
    throw err;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    // Only once `dir` is in place again: if even the roll-back failed, `old` is the previous output and
    // the next run's recovery restores it. A previous folder that cannot be removed is only a warning.
    const err = existsSync(old) && existsSync(dir) ? removeFolder(old) : undefined;
    if (err) warn(`cannot remove the previous output ${old}: ${err.message}; the next synth retries, or remove it by hand`);
  }
  reached("removed-old");
}

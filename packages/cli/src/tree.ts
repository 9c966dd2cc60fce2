// Reading, comparing and atomically replacing a rendered/ folder.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { RenderedTree } from "./render.ts";

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

/**
 * Replaces `dir` with exactly `tree`: written to a sibling temporary folder first, then swapped in,
 * so a failure while writing leaves the previous output untouched and stale files disappear.
 */
export function replaceTree(dir: string, tree: RenderedTree): void {
  const tmp = `${dir}.tmp-${process.pid}`;
  const old = `${dir}.old-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    for (const [path, content] of tree) {
      const file = join(tmp, ...path.split("/"));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
    mkdirSync(tmp, { recursive: true });
    if (existsSync(dir)) renameSync(dir, old);
    renameSync(tmp, dir);
  } catch (err) {
    if (!existsSync(dir) && existsSync(old)) renameSync(old, dir);
    throw err;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

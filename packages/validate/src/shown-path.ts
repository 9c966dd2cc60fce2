// How a file's path is shown in reports: relative to the working folder when inside it, else absolute, `/`-separated.
// Asked once or more for every file of a run (reader, selection, overlays): the common case, a plain path inside
// the folder, is answered by slicing; anything else goes through node:path's resolve and relative (issue 19: path
// work cost ~150 ms per 5,000 files).
import { isAbsolute, relative, resolve, sep } from "node:path";

/** A segment `.` or `..`, an empty segment, or a separator at the end: such a path needs node:path to normalise it. */
const NOT_NORMAL = sep === "/" ? /(?:^|\/)\.{1,2}(?:\/|$)|\/\/|\/$/ : /./;

/** node:path's answer: the reference for the fast path, and the answer whenever the fast path does not apply. */
function shownSlowly(cwd: string, path: string): string {
  const rel = relative(cwd, resolve(path));
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return resolve(path).split(sep).join("/");
  return rel.split(sep).join("/");
}

/** Resolved absolute working folders (one or two per run), so that each file's question is a comparison of strings. */
const resolvedCwd = new Map<string, string>();

/**
 * `path` relative to `cwd` when it lies inside it (grep-able, stable in CI), else absolute; `/`-separated. The same
 * answer as `relative(cwd, resolve(path))` (absolute when that is empty or leaves the folder), without node:path
 * for a normalised path inside the folder.
 */
export function shownPath(cwd: string, path: string): string {
  // a relative folder is left to node:path (it depends on the process's folder, which may change)
  if (sep === "/" && isAbsolute(cwd) && !NOT_NORMAL.test(path)) {
    let base = resolvedCwd.get(cwd);
    if (base === undefined) {
      base = resolve(cwd);
      if (resolvedCwd.size > 16) resolvedCwd.clear();
      resolvedCwd.set(cwd, base);
    }
    // a relative path is resolved against the process's folder; inside `cwd` when that is `cwd` itself
    const rel = isAbsolute(path) ? (path.startsWith(base) && path.charCodeAt(base.length) === 0x2f ? path.slice(base.length + 1) : undefined) : process.cwd() === base ? path : undefined;
    if (rel !== undefined && rel !== "" && !rel.startsWith("..")) return rel;
    // a normalised absolute path outside the folder (or inside it under a name starting with `..`) is shown as
    // it is: resolve() would return it unchanged (files given outside the repository, such as /tmp/corpus/...)
    if (base !== "/" && isAbsolute(path) && path !== base) return path;
  }
  return shownSlowly(cwd, path);
}

/** Whether `path` is absolute and already normalised (resolve() would return it unchanged). */
export const isNormalAbsolute = (path: string): boolean => sep === "/" && isAbsolute(path) && !NOT_NORMAL.test(path);

export { shownSlowly as shownPathByNodePath };

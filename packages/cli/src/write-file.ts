// Writes a whole file or nothing: the shared atomic write of the commands that write one file (snapshots, SVGs, full diffs).
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Writes `content` to `file` through a temporary file beside it and a rename, so a reader never sees half a
 * file. `createFolder` makes the missing parent folders first.
 */
export function writeFileAtomically(file: string, content: string, options: { readonly createFolder?: boolean } = {}): void {
  if (options.createFolder) mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

// Reading paths the way a hostile tree can present them: unreadable files and folders, symbolic links (dangling or
// looping), FIFOs and devices, stdin of any size. Each problem is one finding naming its path; nothing throws.
import { closeSync, constants, fstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { compareText } from "@eks-gitops/config/order";

/** A path that could not be read as a file, with the finding's rule and message. */
export interface PathProblem {
  readonly file: string;
  readonly rule: string;
  readonly message: string;
}

const EXTENSIONS = /\.(ya?ml|json)$/i;
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

/** `EACCES: permission denied` from a Node fs error (its code and the first words of its message). */
function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === "EACCES" || e?.code === "EPERM") return `permission denied (${e.code})`;
  if (e?.code) return `${e.code}: ${(e.message ?? "").replace(/^[A-Z]+: /, "").replace(/, \w+ '.*$/, "")}`;
  return String((err as Error)?.message ?? err);
}

const unreadable = (file: string, what: string, err: unknown): PathProblem => ({ file, rule: "parse:unreadable", message: `cannot read ${what}: ${reason(err)}` });

const notRegular = (file: string, mode: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): PathProblem => {
  const what = mode.isFIFO() ? "a FIFO (named pipe)" : mode.isSocket() ? "a socket" : mode.isCharacterDevice() || mode.isBlockDevice() ? "a device" : "not a regular file";
  return { file, rule: "parse:not-a-file", message: `${what}, not a regular file: refused (pipe YAML through stdin with '-' instead)` };
};

/**
 * Files to read (recursively for folders, in a stable order, symbolic links followed) and one problem per path
 * that cannot be listed or read. `-` stays as is.
 */
export function collectPaths(paths: readonly string[]): { files: string[]; problems: PathProblem[] } {
  const files: string[] = [];
  const problems: PathProblem[] = [];
  // real paths of folders being walked: a link back to an ancestor is reported, not followed forever
  const walking = new Set<string>();
  const walk = (dir: string) => {
    let real: string;
    let entries: import("node:fs").Dirent[];
    try {
      real = realpathSync(dir);
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      problems.push(unreadable(dir, "folder", err));
      return;
    }
    if (walking.has(real)) {
      problems.push({ file: dir, rule: "parse:link-cycle", message: "symbolic link to a folder that contains it: not followed" });
      return;
    }
    walking.add(real);
    // join(dir, name) for every entry, normalised once per folder: a name is one plain segment (never `.`, `..` or
    // with a `/`), so the folder's normalised prefix and the name make the same path
    const prefix = join(dir, "x").slice(0, -1);
    for (const entry of entries.sort((a, b) => compareText(a.name, b.name))) {
      const full = prefix + entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) walk(full);
      } else if (entry.isFile()) {
        if (EXTENSIONS.test(entry.name)) files.push(full);
      } else if (entry.isSymbolicLink()) {
        let target: import("node:fs").Stats;
        try {
          target = statSync(full);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === "ENOENT" || code === "ELOOP" || code === "ENOTDIR") {
            let to = "?";
            try {
              to = readlinkSync(full);
            } catch {
              // the link itself vanished: its name is enough
            }
            problems.push({ file: full, rule: "parse:dangling-link", message: `symbolic link to ${to}, which does not exist` });
          } else problems.push(unreadable(full, "symbolic link", err));
          continue;
        }
        if (target.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) walk(full);
        } else if (EXTENSIONS.test(entry.name)) {
          if (target.isFile()) files.push(full);
          else problems.push(notRegular(full, target));
        }
      } else if (EXTENSIONS.test(entry.name)) problems.push(notRegular(full, entry));
    }
    walking.delete(real);
  };
  for (const p of paths) {
    if (p === "-") {
      files.push(p);
      continue;
    }
    let st: import("node:fs").Stats;
    try {
      st = statSync(p);
    } catch (err) {
      problems.push(unreadable(p, "path", err));
      continue;
    }
    if (st.isDirectory()) walk(p);
    else if (st.isFile()) files.push(p);
    else problems.push(notRegular(p, st));
  }
  return { files, problems };
}

/** The bytes of one regular file, or a problem: unreadable, not a regular file (checked on the open descriptor), over `maxBytes`. */
export function readRegularFile(path: string, maxBytes: number): Buffer | PathProblem {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the descriptor is checked before reading
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return unreadable(path, "file", err);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return notRegular(path, st);
    if (st.size > maxBytes) return tooLarge(path, `file is ${st.size} bytes`, maxBytes);
    // not zero-filled: the read fills it, and only the bytes read are returned (a file that shrank meanwhile is cut
    // to them); small files come from Node's pool. 5,000 block files: ~34 -> ~32 ms, run one after the other
    const buf = Buffer.allocUnsafe(st.size);
    let read = 0;
    while (read < st.size) {
      const n = readSync(fd, buf, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return read === st.size ? buf : buf.subarray(0, read);
  } catch (err) {
    return unreadable(path, "file", err);
  } finally {
    closeSync(fd);
  }
}

export const tooLarge = (file: string, what: string, maxBytes: number): PathProblem => ({
  file,
  rule: "parse:too-large",
  message: `${what}, over the ${maxBytes}-byte limit; split it or raise --max-file-bytes`,
});

/** Reads stdin up to `maxBytes` (never more into memory): the text, or a too-large problem. */
export function readStdinLimited(maxBytes: number, fd = 0): Buffer | PathProblem {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.alloc(1 << 20);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        // a non-blocking stdin with nothing yet: wait a little for the writer
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if (code === "EOF") break;
      return unreadable("-", "stdin", err);
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) return tooLarge("-", `stdin is over ${maxBytes} bytes (stopped reading at ${total})`, maxBytes);
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(chunks, total);
}

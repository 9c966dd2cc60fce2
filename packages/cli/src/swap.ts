// Making the swap of a rendered/ folder recoverable: a lock per folder, recovery of a killed swap, removal that survives read-only folders.
import { chmodSync, existsSync, linkSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "./exit-codes.ts";

/**
 * The swap writes `<dir>.tmp-PID/`, renames `<dir>` to `<dir>.old-PID/`, renames the temporary
 * folder to `<dir>` and removes the old one. A process killed at any point leaves one of:
 * a partial `tmp` (dir intact), a complete `tmp` plus `old` and no `<dir>` (between the renames),
 * or an `old` (after the swap). `old` only ever exists once `tmp` is complete, which is what makes
 * finishing the swap safe. Every writer holds `<dir>.lock` for the whole swap, so whatever is found
 * under the lock was left by a process that is no longer writing.
 */
const LEFTOVER = /^(.*)\.(tmp|old)-(\d+)$/;

/** Another live process holds the lock (exit 2: wait, or remove a lock that is not really held). */
export class RenderedLockedError extends UsageError {
  override name = "RenderedLockedError";
}

/** The file system refused a write (permissions, read-only or full disk): the user's to fix, exit 2. */
export class RenderedWriteError extends UsageError {
  override name = "RenderedWriteError";
}

const FIXES: Record<string, (parent: string) => string> = {
  EACCES: (parent) => `check the permissions of ${parent}`,
  EPERM: (parent) => `check the permissions of ${parent}`,
  EROFS: (parent) => `${parent} is on a read-only file system`,
  ENOSPC: () => "free some disk space",
  EDQUOT: () => "free some disk space (quota)",
};

/** A file-system error of an environment the user controls as a RenderedWriteError naming `dir` (other errors unchanged). */
export function asWriteError(dir: string, err: unknown): unknown {
  const fix = FIXES[(err as NodeJS.ErrnoException).code ?? ""];
  return fix ? new RenderedWriteError(`cannot write ${dir}: ${(err as Error).message}; ${fix(dirname(dir))} (nothing was changed)`) : err;
}

/** Test-only fault injection: `EKS_GITOPS_TEST_KILL_AT=<step>` kills this process with SIGKILL when the swap reaches <step>. */
export const KILL_AT_ENV = "EKS_GITOPS_TEST_KILL_AT";

/** Steps of a swap, in order, for {@link KILL_AT_ENV}: `locked`, `wrote-file-N` (N from 1), `written`, `moved-old`, `moved-new`, `removed-old`. */
export function reached(step: string): void {
  if (process.env[KILL_AT_ENV] !== step) return;
  process.kill(process.pid, "SIGKILL");
  // SIGKILL to oneself is delivered at once; never go on past the step even if it were not
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false; // this process holds no lock between (synchronous) swaps
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * Takes `<dir>.lock` (content: the owner's process id) and returns its release. A lock whose owner
 * is dead is stale and taken over. The lock file is written complete under a private name and then
 * hard-linked into place (atomic, fails if it exists), so a reader never sees a half-written one.
 * Hand-written: Node has no flock(2), and the lock must outlive nothing but its process.
 */
export function lockRendered(dir: string): () => void {
  const file = `${dir}.lock`;
  const mine = `${file}.${process.pid}`;
  const content = `${process.pid}\n`;
  writeFileSync(mine, content);
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        linkSync(mine, file);
        return () => {
          if (readIfExists(file) === content) unlinkSync(file);
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      const seen = readIfExists(file);
      if (seen === undefined) continue; // released meanwhile
      const owner = Number(seen.trim());
      if (Number.isSafeInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new RenderedLockedError(
          `${file}: another synth (process ${owner}) is writing ${dir}; wait for it to finish (if no such process is running, delete ${file})`,
        );
      }
      // Stale: move it aside, then make sure what was moved is what was judged stale (another
      // process may have taken the lock in between; then it is given back).
      const aside = `${file}.stale-${process.pid}`;
      try {
        renameSync(file, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw err;
      }
      if (readIfExists(aside) !== seen) {
        try {
          linkSync(aside, file);
        } catch {
          // someone else holds it now: the next attempt sees them
        }
      }
      unlinkSync(aside);
    }
    throw new RenderedLockedError(`${file}: could not take the lock after 10 attempts; another synth keeps taking it`);
  } finally {
    unlinkSync(mine);
  }
}

/**
 * Removes a folder, also when it (or a folder inside it) is read-only: permissions are widened for
 * the owner and the removal retried. Returns the error when it still cannot be removed.
 */
export function removeFolder(path: string): Error | undefined {
  try {
    rmSync(path, { recursive: true, force: true });
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EACCES" && code !== "EPERM") return err as Error;
  }
  try {
    const widen = (p: string) => {
      const st = lstatSync(p);
      if (!st.isDirectory()) return;
      chmodSync(p, st.mode | 0o700);
      for (const e of readdirSync(p)) widen(join(p, e));
    };
    widen(path);
    rmSync(path, { recursive: true, force: true });
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

/**
 * Under the lock: finishes or rolls back what a killed swap of `dir` left beside it. Returns one line
 * per action. Leftovers that cannot be removed are reported through `warn` and left for the next run.
 */
export function recoverSwap(dir: string, warn: (message: string) => void): string[] {
  const parent = dirname(dir);
  const name = basename(dir);
  const found: { path: string; kind: "tmp" | "old"; pid: number; entry: string }[] = [];
  for (const entry of existsSync(parent) ? readdirSync(parent).sort() : []) {
    const m = LEFTOVER.exec(entry);
    if (m && m[1] === name) found.push({ path: join(parent, entry), kind: m[2] as "tmp" | "old", pid: Number(m[3]), entry });
    else {
      // the private lock files of a process killed while it took the lock
      const lock = /^(.*)\.lock\.(?:stale-)?(\d+)$/.exec(entry);
      if (lock && lock[1] === name && !isAlive(Number(lock[2]))) rmSync(join(parent, entry), { force: true });
    }
  }
  const notes: string[] = [];
  const by = (pid: number) => `an interrupted synth (process ${pid})`;
  if (!existsSync(dir)) {
    // Between the two renames: the old folder exists only once the temporary one is complete.
    const old = found.find((f) => f.kind === "old" && found.some((t) => t.kind === "tmp" && t.pid === f.pid));
    const tmp = old && found.find((t) => t.kind === "tmp" && t.pid === old.pid);
    const restore = tmp ? undefined : found.find((f) => f.kind === "old");
    if (tmp) {
      renameSync(tmp.path, dir);
      notes.push(`finished the swap of ${by(tmp.pid)}: ${tmp.entry} is now ${name}`);
      found.splice(found.indexOf(tmp), 1);
    } else if (restore) {
      renameSync(restore.path, dir);
      notes.push(`restored ${name} from ${restore.entry}, left by ${by(restore.pid)}`);
      found.splice(found.indexOf(restore), 1);
    }
  }
  for (const f of found) {
    const err = removeFolder(f.path);
    if (err) warn(`cannot remove ${f.path}, left by ${by(f.pid)}: ${err.message}; remove it by hand`);
    else notes.push(`removed ${f.entry}, left by ${by(f.pid)}`);
  }
  return notes;
}

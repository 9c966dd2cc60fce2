// Making the swap of a rendered/ folder recoverable: a lock per folder, recovery of a killed swap, removal that survives read-only folders.
import { chmodSync, existsSync, linkSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "./exit-codes.ts";
import { onInterrupt } from "./interrupt.ts";
import { currentOwner, describeOwner, formatOwner, type Owner, ownerState, parseOwner } from "./owner.ts";

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
  constructor(
    message: string,
    /** Who holds it. */
    readonly owner?: Owner,
  ) {
    super(message);
  }
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

// read once: it is set only in the environment of a process a test spawns, and a lookup per written file showed in
// synth's profile (process.env is a getenv(3) copy each time)
const killAt = process.env[KILL_AT_ENV];

/** Steps of a swap, in order, for {@link KILL_AT_ENV}: `locked`, `wrote-file-N` (N from 1), `written`, `moved-old`, `moved-new`, `removed-old`. */
export function reached(step: string): void {
  if (killAt !== step) return;
  process.kill(process.pid, "SIGKILL");
  // SIGKILL to oneself is delivered at once; never go on past the step even if it were not
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

export interface LockOptions {
  /** The command taking the lock, recorded for whoever finds it held. @default "synth" */
  readonly command?: string;
  /** Told when a stale lock (its owner no longer runs) is taken over. */
  readonly note?: (line: string) => void;
}

/** The message for a lock held by `owner`, with a hint that fits who it is. */
function heldMessage(file: string, dir: string, owner: Owner): string {
  const who = describeOwner(owner);
  const doing = owner.command === "validate" ? "reading" : "writing";
  if (ownerState(owner) === "elsewhere") {
    return `${file}: held by ${who}, on another host: this host cannot tell whether it still runs; if no eks-gitops runs on ${owner.host}, delete ${file}`;
  }
  const check = owner.start !== undefined ? `; if \`ps -o lstart=,args= -p ${owner.pid}\` shows no eks-gitops started at ${owner.started}, delete ${file}` : `; if process ${owner.pid} is not an eks-gitops command, delete ${file}`;
  return `${file}: another ${who} is ${doing} ${dir}; wait for it to finish${check}`;
}

/**
 * Takes `<dir>.lock` (content: the owner, see ./owner.ts) and returns its release. A lock whose owner
 * no longer runs (dead, its process id reused, rebooted since) is stale and taken over, saying so. The
 * lock file is written complete under a private name and then hard-linked into place (atomic, fails if
 * it exists), so a reader never sees a half-written one. Hand-written: Node has no flock(2), and the
 * lock must outlive nothing but its process. Held, it is released on SIGINT/SIGTERM.
 */
export function lockRendered(dir: string, options: LockOptions = {}): () => void {
  const file = `${dir}.lock`;
  const mine = `${file}.${process.pid}`;
  const content = formatOwner(currentOwner(options.command ?? "synth"));
  writeFileSync(mine, content);
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        linkSync(mine, file);
        const release = () => {
          if (readIfExists(file) === content) unlinkSync(file);
        };
        const forget = onInterrupt(() => {
          release();
          return undefined;
        });
        return () => {
          forget();
          release();
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      const seen = readIfExists(file);
      if (seen === undefined) continue; // released meanwhile
      const owner = parseOwner(seen);
      if (owner && ownerState(owner) !== "gone") throw new RenderedLockedError(heldMessage(file, dir, owner), owner);
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
      } else {
        options.note?.(`took over ${basename(file)}: ${owner ? `${describeOwner(owner)} no longer runs` : "it names no owner"}`);
      }
      unlinkSync(aside);
    }
    throw new RenderedLockedError(`${file}: could not take the lock after 10 attempts; another synth keeps taking it`);
  } finally {
    unlinkSync(mine);
  }
}

export interface WaitOptions extends LockOptions {
  /** Wait (instead of failing at once) while the lock is held by an owner for which this is true. @default always */
  readonly waitWhile?: (owner: Owner) => boolean;
  /** Told once, when it starts waiting. */
  readonly onWait?: (message: string) => void;
  /** Give up after this long. @default 600000 (10 minutes: a validation of a large tree on a busy machine) */
  readonly timeoutMs?: number;
}

/**
 * {@link lockRendered}, waiting while another process holds the lock (polling; the event loop stays free,
 * so a signal is handled while waiting). Used by validate, which reads a rendered folder under the same
 * lock synth writes it under, so it sees the old tree or the new one, never a mix of both.
 */
export async function lockRenderedWaiting(dir: string, options: WaitOptions = {}): Promise<() => void> {
  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  let told = false;
  for (;;) {
    try {
      return lockRendered(dir, options);
    } catch (err) {
      const owner = err instanceof RenderedLockedError ? err.owner : undefined;
      if (!owner || ownerState(owner) === "elsewhere" || !(options.waitWhile?.(owner) ?? true) || Date.now() > deadline) throw err;
      if (!told) options.onWait?.(`waiting for ${describeOwner(owner)} to finish with ${dir}`);
      told = true;
    }
    await new Promise((r) => setTimeout(r, 20));
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
 * Whether anything of a swap lies beside `dir`: a `<dir>.tmp-PID`, `<dir>.old-PID` or a `<dir>.lock` (held, stale,
 * or a process's private `.lock.PID`). Without any, {@link recoverSwap} has nothing to do, so its lock need not be
 * taken; a writer that starts after this look takes the lock itself.
 */
export function hasLeftovers(dir: string): boolean {
  const name = basename(dir);
  let entries: string[];
  try {
    entries = readdirSync(dirname(dir));
  } catch {
    return true; // let the locked recovery report what is wrong with the folder
  }
  return entries.some((e) => e.startsWith(`${name}.`) && (e.startsWith(`${name}.lock`) || LEFTOVER.exec(e)?.[1] === name));
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
      const lock = /^(.*)\.lock\.(stale-)?(\d+)$/.exec(entry);
      if (lock && lock[1] === name) {
        // `.lock.<pid>` holds its maker as owner; `.lock.stale-<pid>` the stale owner it moved aside, so only the id counts
        const owner = (lock[2] ? undefined : parseOwner(readIfExists(join(parent, entry)) ?? "")) ?? { pid: Number(lock[3]) };
        if (ownerState(owner) === "gone") rmSync(join(parent, entry), { force: true });
      }
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

// Who owns a lock or a temporary folder: process id, the process's start time and the boot id (so a reused
// process id, such as a container's PID 1, is not taken for the owner), host name and command.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

export interface Owner {
  readonly pid: number;
  /** Start time of the process in clock ticks since boot: field 22 of /proc/<pid>/stat (Linux only). */
  readonly start?: string;
  /** /proc/sys/kernel/random/boot_id: after a reboot nothing of before runs. */
  readonly boot?: string;
  readonly host?: string;
  /** e.g. `synth`, `validate`, `diff`. */
  readonly command?: string;
  /** When the process started, ISO 8601 UTC (for people; `start` is what is compared). */
  readonly started?: string;
}

/** Field 22 (starttime) of /proc/<pid>/stat, or undefined where there is no /proc or no such process. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name (field 2) is in parentheses and may hold spaces and parentheses: count from the last ')'
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function readProc(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

const bootId = () => readProc("/proc/sys/kernel/random/boot_id")?.trim();

let self: Omit<Owner, "command"> | undefined;

/** This process as an owner. Its process-wide part is read once (a synth takes a lock per overlay it writes). */
export function currentOwner(command: string): Owner {
  self ??= readSelf();
  const { started, ...rest } = self;
  // the key order of before (pid, start, boot, host, command, started): the lock file's text is unchanged
  return { ...rest, command, ...(started !== undefined ? { started } : {}) };
}

function readSelf(): Omit<Owner, "command"> {
  const start = processStart(process.pid);
  const boot = bootId();
  // boot time (btime of /proc/stat) + start ticks / USER_HZ (100 on Linux) for the human-readable time
  const btime = Number(/^btime (\d+)$/m.exec(readProc("/proc/stat") ?? "")?.[1]);
  const started = new Date(start !== undefined && Number.isFinite(btime) ? btime * 1000 + Number(start) * 10 : Date.now() - performance.now()).toISOString();
  return { pid: process.pid, ...(start !== undefined ? { start } : {}), ...(boot ? { boot } : {}), host: hostname(), started: `${started.slice(0, 19)}Z` };
}

export function formatOwner(owner: Owner): string {
  return `${JSON.stringify(owner)}\n`;
}

/** An owner as written by {@link formatOwner}, or a bare process id (what older versions wrote); undefined when neither. */
export function parseOwner(text: string): Owner | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const o = JSON.parse(trimmed) as Owner;
    return Number.isSafeInteger(o.pid) && o.pid > 0 ? o : undefined;
  } catch {
    return undefined;
  }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** `running`: the very process still runs; `gone`: it does not (dead, its id reused, or rebooted since); `elsewhere`: another host's, cannot tell. */
export type OwnerState = "running" | "gone" | "elsewhere";

export function ownerState(owner: Owner): OwnerState {
  if (owner.host !== undefined && owner.host !== hostname()) return "elsewhere";
  const boot = bootId();
  if (owner.boot !== undefined && boot !== undefined && owner.boot !== boot) return "gone";
  if (owner.pid === process.pid) {
    // this process: only the very same (same start time) still runs; an older owner without a start time is not us
    return owner.start !== undefined && owner.start === processStart(process.pid) ? "running" : "gone";
  }
  if (!pidExists(owner.pid)) return "gone";
  if (owner.start !== undefined) {
    const now = processStart(owner.pid);
    if (now !== undefined && now !== owner.start) return "gone"; // the id was reused by another process
  }
  return "running";
}

/** e.g. `synth (process 4242 on build-7, started 2026-12-03T15:59:00Z)`. */
export function describeOwner(owner: Owner): string {
  return `eks-gitops${owner.command ? ` ${owner.command}` : ""} (process ${owner.pid}${owner.host ? ` on ${owner.host}` : ""}${owner.started ? `, started ${owner.started}` : ""})`;
}

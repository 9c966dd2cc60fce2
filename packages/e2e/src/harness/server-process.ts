// Starts one server binary under the reaper (so it dies with us), logs to a file, and stops it: SIGTERM, then SIGKILL.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const REAPER = fileURLToPath(new URL("./reaper.mjs", import.meta.url));

export interface ServerProcess {
  readonly name: string;
  readonly logFile: string;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  running(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Synchronous last resort for `process.on("exit")`: SIGKILL the reaper's child via the reaper's SIGTERM. */
  signalStop(): void;
  /** The last `lines` lines of the log, for error messages. */
  logTail(lines?: number): string;
}

/** `orphanCleanupDir`: removed by the reaper after the server exits, if it had to stop it because we died. */
export function startServerProcess(
  name: string,
  bin: string,
  args: readonly string[],
  logFile: string,
  orphanCleanupDir?: string,
): ServerProcess {
  const fd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    const env = orphanCleanupDir ? { ...process.env, REAPER_ORPHAN_CLEANUP_DIR: orphanCleanupDir } : process.env;
    child = spawn(process.execPath, [REAPER, bin, ...args], { stdio: ["pipe", fd, fd], env });
  } finally {
    closeSync(fd);
  }
  let alive = true;
  const exited = new Promise<number | null>((resolve) => {
    child.on("exit", (code) => {
      alive = false;
      resolve(code);
    });
    child.on("error", () => {
      alive = false;
      resolve(null);
    });
  });
  // The pipe stays open for as long as we live; its only purpose is to close when we die.
  child.stdin?.on("error", () => {});

  return {
    name,
    logFile,
    exited,
    running: () => alive,
    async stop(graceMs = 10_000) {
      if (!alive) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
    signalStop() {
      if (alive) child.kill("SIGTERM");
    },
    logTail(lines = 25) {
      try {
        return readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
      } catch {
        return "(no log)";
      }
    },
  };
}

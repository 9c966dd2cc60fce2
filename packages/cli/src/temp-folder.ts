// Temporary folders inside the repository (diff's clusters/.capacity-<commit>-<pid>/): named with their owner, removed on
// SIGINT/SIGTERM, and the leftovers of runs that died anyway (SIGKILL, a crash) swept by the next run, saying so.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { onInterrupt } from "./interrupt.ts";
import { currentOwner, describeOwner, formatOwner, type Owner, ownerState, parseOwner } from "./owner.ts";
import { removeFolder } from "./swap.ts";

/** The owner file inside each temporary folder. */
export const OWNER_FILE = ".eks-gitops-owner";

/** Test-only: `EKS_GITOPS_TEST_PAUSE_AT=temp-folder` waits (printing `paused <folder>` on stderr) once a temporary folder is made, so a test can signal the process then. */
export const PAUSE_AT_ENV = "EKS_GITOPS_TEST_PAUSE_AT";

export interface TempFolder {
  readonly path: string;
  /** Removes it (idempotent) and stops guarding it. */
  remove(): void;
}

/** Makes `<parent>/<prefix>-<pid>/` holding its owner; removed on SIGINT/SIGTERM until `remove()` is called. */
export async function makeTempFolder(parent: string, prefix: string, command: string): Promise<TempFolder> {
  const path = join(parent, `${prefix}-${process.pid}`);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, OWNER_FILE), formatOwner(currentOwner(command)));
  const shown = `${basename(parent)}/${basename(path)}`;
  const forget = onInterrupt(() => (removeFolder(path) === undefined ? `removed ${shown}` : `could not remove ${shown}: remove it by hand`));
  if (process.env[PAUSE_AT_ENV] === "temp-folder") {
    process.stderr.write(`paused ${path}\n`);
    await new Promise((r) => setTimeout(r, 600_000));
  }
  return {
    path,
    remove() {
      forget();
      removeFolder(path);
    },
  };
}

function ownerOf(path: string, entry: string): Owner | undefined {
  try {
    return parseOwner(readFileSync(join(path, OWNER_FILE), "utf8"));
  } catch {
    // made before owners were recorded, or killed before the owner file was written: the id in the name
    const pid = /-(\d+)$/.exec(entry)?.[1];
    return pid ? { pid: Number(pid) } : undefined;
  }
}

/**
 * Removes `<parent>/<prefix>*` folders whose owner no longer runs (dead, its id reused, rebooted since).
 * Returns one line per folder removed (or that could not be); folders of running processes are left alone.
 */
export function sweepTempFolders(parent: string, prefix: string): string[] {
  if (!existsSync(parent)) return [];
  const notes: string[] = [];
  for (const entry of readdirSync(parent).sort()) {
    if (!entry.startsWith(prefix)) continue;
    const path = join(parent, entry);
    const owner = ownerOf(path, entry);
    if (!owner || ownerState(owner) !== "gone") continue;
    const err = removeFolder(path);
    const shown = `${basename(parent)}/${entry}`;
    notes.push(err ? `cannot remove ${shown}, left by ${describeOwner(owner)} that no longer runs: ${err.message}; remove it by hand` : `removed ${shown}, left by ${describeOwner(owner)} that no longer runs`);
  }
  return notes;
}

// Global setup of every package's vitest project: the run's temporary files go to one folder of its own, removed
// when the run ends. Tests make temporary folders (mkdtemp under os.tmpdir()) and so do the CLI processes they
// start (spilled file lists, caches); many are never removed by the test itself, and a CI runner's /tmp filled
// with ~90 folders a run. TMPDIR is set before vitest starts its workers, which inherit it with every process they
// start, so os.tmpdir() is this folder everywhere in the run.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Gives back the owner's permissions on every folder below `dir` (hostile-input tests make unreadable ones), so that it can be removed. */
function unlock(dir: string): void {
  try {
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) unlock(join(dir, entry.name));
  } catch {
    // gone already, or not ours: rmSync says what it cannot remove
  }
}

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), "eks-gitops-test-"));
  // open to every user, sticky, as /tmp is: tests run as root start processes as `nobody` (unreadable paths for
  // real, a folder it may not write in), which make their own temporary files here too
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      unlock(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

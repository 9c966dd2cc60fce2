// Global setup of every package's vitest project: the run's temporary files go to one folder of its own, removed
// when the run ends. Tests make temporary folders (mkdtemp under os.tmpdir()) and so do the CLI processes they
// start (spilled file lists, caches); many are never removed by the test itself, and a CI runner's /tmp filled
// with ~90 folders a run. TMPDIR is set before vitest starts its workers, which inherit it with every process they
// start, so os.tmpdir() is this folder everywhere in the run. Reports a test writes for the user to read after the
// run (the e2e suites' disagreements) go to EKS_GITOPS_TEST_REPORT_DIR instead: the machine's temporary folder.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PREFIX = "eks-gitops-test-";

/** A run killed before its teardown (a cancelled CI job) leaves its folder: this user's, a day old, are removed. */
const STALE_MS = 24 * 60 * 60 * 1000;

/** Gives back the owner's permissions on every folder below `dir` (hostile-input tests make unreadable ones), so that it can be removed. */
function unlock(dir: string): void {
  try {
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) unlock(join(dir, entry.name));
  } catch {
    // gone already, or not ours: rmSync says what it cannot remove
  }
}

function remove(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    unlock(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Folders of runs of this user that were killed a day ago or more. */
function removeStale(parent: string): void {
  const uid = process.getuid?.();
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(PREFIX)) continue;
    try {
      const st = lstatSync(join(parent, name));
      if (st.isDirectory() && st.uid === uid && Date.now() - st.mtimeMs > STALE_MS) remove(join(parent, name));
    } catch {
      // another run's, gone meanwhile, or not ours to remove
    }
  }
}

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const parent = tmpdir();
  removeStale(parent);
  const dir = mkdtempSync(join(parent, PREFIX));
  // run as root, tests start processes as `nobody` (unreadable paths for real, a folder it may not write in), which
  // make their own temporary files here too: open to every user and sticky, as /tmp is. Any other user's run keeps
  // the folder its own.
  if (process.getuid?.() === 0) chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  process.env.EKS_GITOPS_TEST_REPORT_DIR ??= parent;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    remove(dir);
  };
}

// Cleanup on SIGINT/SIGTERM: what a command registers (a temporary folder, a lock) is removed, it says so, and the
// process then dies of the same signal (so its parent sees an interrupted run, exit 130/143 in a shell).
const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Runs at the signal; returns what it did for the notice (e.g. `removed clusters/.capacity-1a2b-42`), or nothing. */
export type Cleanup = () => string | undefined;

const cleanups = new Set<Cleanup>();
let installed = false;

function onSignal(signal: NodeJS.Signals): void {
  const done: string[] = [];
  // newest first: a folder made under a lock is removed before the lock is released
  for (const cleanup of [...cleanups].reverse()) {
    try {
      const what = cleanup();
      if (what) done.push(what);
    } catch (err) {
      done.push(`cleanup failed: ${(err as Error).message}`);
    }
  }
  cleanups.clear();
  if (done.length > 0) process.stderr.write(`eks-gitops: interrupted (${signal}): ${done.join("; ")}\n`);
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  installed = false;
  process.kill(process.pid, signal);
}

/**
 * Registers `cleanup` until the returned function is called. While anything is registered a signal
 * waits for the synchronous work in progress (a folder swap runs to its end) and then runs the cleanups.
 * The handlers stay installed once installed: removing them when nothing is registered could lose a
 * signal that arrived during synchronous work, and with nothing registered they only re-raise it.
 */
export function onInterrupt(cleanup: Cleanup): () => void {
  if (!installed) {
    for (const s of SIGNALS) process.on(s, onSignal);
    installed = true;
  }
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
  };
}

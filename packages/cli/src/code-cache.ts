// The launcher's code-cache checkpoint (bin/bundle.js, CODE_CACHE_CHECKPOINT), for commands that know when the
// functions they run are compiled.

/**
 * Tells the launcher that `files` files are done: at the end of the run it writes V8's code cache of this command,
 * unless the cache it ran with came from a run that had done as many. Run from the sources (no bundle, no code
 * cache), it does nothing.
 */
export function codeCacheCheckpoint(files: number): void {
  const checkpoint = (globalThis as Record<symbol, unknown>)[Symbol.for("eks-gitops.code-cache-checkpoint")];
  if (typeof checkpoint === "function") checkpoint(files);
}

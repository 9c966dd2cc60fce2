// V8 flags the launcher (eks-gitops.js) sets before any bundle code is compiled, so that V8's code caches
// (checked against the flags) stay valid from run to run. Apart from the launcher so that a test can set them in
// a process of its own and see their effect (launcher.test.ts).
import { setFlagsFromString } from "node:v8";

export function setV8Flags() {
  // A run of this CLI lasts a second or so: V8's default tiering (start optimising a function after ~130 KB of
  // its bytecode has run) spends much of that second compiling code in background threads that compete for the
  // CPUs with the run itself, for functions that finish before the optimised code pays off. Waiting three times
  // longer before optimising was measured faster on a 2-CPU machine: `validate` of 5,000 objects 0.69 s -> 0.59 s
  // median of 7, and 50,000 objects no slower (`pnpm --filter @eks-gitops/validate bench`).
  setFlagsFromString("--interrupt-budget=400000");
  // V8 drops the bytecode of functions unused for a while (after a few full collections): in a run of 200,000
  // objects, those of the start (loading overlays, the scan, the catalog) were gone by the end, where the code
  // cache is written (bin/bundle.js), and a cache of 1.2 MB instead of 1.8 MB made every later run compile them
  // again. Kept, they are a few MB of a long run's heap; a short run never gets to drop them.
  setFlagsFromString("--no-flush-bytecode");
}

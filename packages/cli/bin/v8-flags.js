// V8 flags the launcher (eks-gitops.js) sets before any bundle code is compiled, so that V8's code caches
// (checked against the flags) stay valid from run to run. Apart from the launcher so that a test can set them in
// a process of its own and see their effect (launcher.test.ts).
"use strict";
const { setFlagsFromString } = require("node:v8");

// A cost, measured and kept: V8 checks every code cache against a hash of the flags that differ from their
// defaults, and Node's built-in modules carry a cache made with the defaults, so a worker thread started after this
// (validate's read-ahead worker) compiles its built-in modules from source: ~45 ms to its first line instead of
// ~21 ms. Setting the flags only after the worker's boot was no faster (validate README, issue 19, 2026-12-05).
function setV8Flags() {
  // A run of this CLI lasts a second or so: V8's default tiering (start optimising a function after ~66 KB of
  // its bytecode has run: `node --v8-options` gives --interrupt-budget=67584 on Node 20) spends much of that second
  // compiling code in background threads that compete for the CPUs with the run itself, for functions that finish
  // before the optimised code pays off. Waiting ~6 times longer before optimising was measured faster on a 2-CPU
  // machine: `validate` of 5,000 objects 0.69 s -> 0.59 s median of 7, and 50,000 objects no slower (`pnpm --filter
  // @eks-gitops/validate bench`); without the flags, block 5,000 took 1.07 s against 0.78 s (2026-12-05, 9 rounds).
  setFlagsFromString("--interrupt-budget=400000");
  // V8 drops the bytecode of functions unused for a while (after a few full collections): in a run of 200,000
  // objects, those of the start (loading overlays, the scan, the catalog) were gone by the end, where the code
  // cache is written (bin/bundle.js), and a cache of 1.2 MB instead of 1.8 MB made every later run compile them
  // again. Kept, they are a few MB of a long run's heap; a short run never gets to drop them.
  setFlagsFromString("--no-flush-bytecode");
}

exports.setV8Flags = setV8Flags;

// V8 flags the launcher (eks-gitops.js) sets, at the same point of every run of a command, so that V8's code caches
// (checked against the flags) stay valid from run to run. Apart from the launcher so that a test can set them in
// a process of its own and see their effect (launcher.test.ts).
//
// V8 checks every code cache against a hash of the flags that differ from their defaults, and Node's built-in
// modules carry a cache made with the defaults: a worker thread started after the flags are set compiles its
// built-in modules from source (validate's read-ahead worker: its first message ~38 ms after it was started instead
// of ~18 ms, the built-ins it loads after ~11 ms instead of ~4). So `validate` sets them only once its bundle is
// compiled, while the worker boots, and sets them back to V8's defaults (resetV8Flags) before writing the bundle's
// code cache, which is then made under the flags the next run compiles under (bin/bundle.js, runBundle). 21
// interleaved rounds each (2026-12-05): block 5,000 0.637 -> 0.628 s, json 0.675 -> 0.659 s, crd-heavy 0.330 ->
// 0.323 s, multi-doc 0.600 -> 0.600 s, CPU 2-4% less in each. Every other command sets them before its bundle is
// compiled.
"use strict";
const { setFlagsFromString } = require("node:v8");

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

/** The flags setV8Flags sets, as `node --v8-options` names them. */
const FLAG_NAMES = ["interrupt-budget", "flush-bytecode"];

/**
 * V8's defaults of the flags setV8Flags sets, as the flags that set them back (`--interrupt-budget=67584`,
 * `--flush-bytecode` on Node 20), read from the text `node --v8-options` prints: Node has no other way to read a V8
 * flag. Undefined when one of them is not listed with its default.
 */
function v8DefaultsFrom(text) {
  const defaults = [];
  for (const name of FLAG_NAMES) {
    const m = new RegExp(`^ +--${name} \\(.*\\)\\r?\\n +type: [a-z]+ +default: (--(?:no-)?${name}(?:=[^\\s]+)?)\\r?$`, "m").exec(text);
    if (!m) return undefined;
    defaults.push(m[1]);
  }
  return defaults;
}

/**
 * Sets the flags setV8Flags set back to V8's defaults (v8DefaultsFrom): a code cache made then carries the flag hash
 * of a process that has not set them yet (V8 hashes only the flags that differ from their defaults).
 */
function resetV8Flags(defaults) {
  for (const flag of defaults) setFlagsFromString(flag);
}

/** Whether one of those flags was given to this process (node's command line, NODE_OPTIONS): its values at start are then not V8's defaults. */
function flagsGivenAtStart() {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  return given.some((arg) => FLAG_NAMES.some((name) => arg.includes(name)));
}

exports.setV8Flags = setV8Flags;
exports.v8DefaultsFrom = v8DefaultsFrom;
exports.resetV8Flags = resetV8Flags;
exports.flagsGivenAtStart = flagsGivenAtStart;

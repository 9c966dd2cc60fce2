// Test driver of synth.fault.test.ts (bundled by the test, never shipped): the real replaceTree on one folder, once or over and over until killed.
import { readFileSync, writeSync } from "node:fs";
import { replaceTree } from "../tree.ts";

const [mode, dir, treesFile] = process.argv.slice(2);
if (!dir || !treesFile) throw new Error("usage: swap-driver once|loop DIR TREES.json");
const trees = (JSON.parse(readFileSync(treesFile, "utf8")) as [string, string][][]).map((entries) => new Map(entries));
if (mode === "once") {
  try {
    replaceTree(dir, trees[0]!);
  } catch (err) {
    writeSync(2, `${(err as Error).name}: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
else {
  for (let i = 0; ; i++) {
    try {
      replaceTree(dir, trees[i % trees.length]!);
    } catch (err) {
      // a validate reading the folder holds the lock: wait a little and swap again, as a later synth would
      if ((err as Error).name !== "RenderedLockedError") throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      i--;
      continue;
    }
    if (i === 0) writeSync(1, "ready\n");
    // back to the event loop between swaps, as a synth returns to it after each: a signal is handled here;
    // and a pause, as between two synth runs, in which a reader can take the lock
    await new Promise((r) => setTimeout(r, 10));
  }
}

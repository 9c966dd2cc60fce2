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
    replaceTree(dir, trees[i % trees.length]!);
    if (i === 0) writeSync(1, "ready\n");
  }
}

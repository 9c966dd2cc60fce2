// Imported first by the launcher (eks-gitops.js), so that it runs before the CLI's bundle loads: the machine's
// /proc/loadavg as this process starts, before it has started threads of its own. `validate` counts the threads other
// programs keep running from it and from a second read later (packages/cli/src/cpu-budget.ts), to decide whether a
// second thread of its own would have a CPU to run on.
"use strict";
const { readFileSync } = require("node:fs");

if (process.platform === "linux") {
  try {
    globalThis[Symbol.for("eks-gitops.loadavg-at-start")] = readFileSync("/proc/loadavg", "latin1");
  } catch {
    // no /proc: the CPUs are counted without it
  }
}

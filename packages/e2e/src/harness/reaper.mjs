// Runs one test server and stops it when its owner goes away: the owner holds our stdin, and a crashed or killed test runner closes it.
// Plain JavaScript so that it starts without a TypeScript loader.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";

const [bin, ...args] = process.argv.slice(2);
// When the owner is gone nobody else will remove the run's temp folder (set on the last server to stop).
const orphanCleanupDir = process.env.REAPER_ORPHAN_CLEANUP_DIR;
let orphaned = false;
const child = spawn(bin, args, { stdio: ["ignore", "inherit", "inherit"] });
let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  child.kill("SIGTERM");
  // kube-apiserver can sit in graceful shutdown for a long time once etcd is gone.
  setTimeout(() => child.kill("SIGKILL"), 5000).unref();
}
const ownerGone = () => {
  orphaned = true;
  stop();
};
process.stdin.on("end", ownerGone);
process.stdin.on("error", ownerGone);
process.stdin.resume();
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("error", (err) => {
  process.stderr.write(`reaper: cannot start ${bin}: ${err.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (orphaned && orphanCleanupDir) rmSync(orphanCleanupDir, { recursive: true, force: true });
  process.exit(code ?? (signal === "SIGTERM" ? 0 : 1));
});

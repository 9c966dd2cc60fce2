// Locates (building on first use) the kube-apiserver and etcd binaries through test-tools/build.sh, the one place that knows their versions.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./repo.ts";

export interface ServerBinaries {
  readonly kubeApiserver: string;
  readonly etcd: string;
}

/**
 * Paths of the cached binaries. A cache miss builds them (minutes: see test-tools/README.md);
 * build progress goes to this process's stderr.
 */
export function serverBinaries(): ServerBinaries {
  const script = join(REPO_ROOT, "test-tools", "build.sh");
  let stdout: string;
  try {
    stdout = execFileSync("bash", [script, "kube-apiserver", "etcd"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
  } catch (err) {
    throw new Error(`${script} kube-apiserver etcd failed (${(err as Error).message}); run it by hand to see why`);
  }
  const [kubeApiserver, etcd] = stdout.trim().split("\n");
  if (!kubeApiserver || !etcd) throw new Error(`${script} printed no binary paths (got: ${JSON.stringify(stdout)})`);
  return { kubeApiserver, etcd };
}

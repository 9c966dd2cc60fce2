// `pnpm bench` for the harness: how long a fresh etcd + kube-apiserver takes to answer /readyz, and the pinned CRDs to be Established.
import { KubeConfig } from "@kubernetes/client-node";
import { installCrds, pinnedCrds } from "./harness/crds.ts";
import { startTestCluster } from "./harness/test-cluster.ts";
import { serverBinaries } from "./harness/tools.ts";

const runs = Number(process.env.BENCH_RUNS ?? 3);
const binaries = serverBinaries();
const crds = await pinnedCrds();
const rows: { ready: number; crds: number; stop: number }[] = [];
for (let i = 0; i < runs; i++) {
  const cluster = await startTestCluster({ binaries });
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  const t0 = performance.now();
  await installCrds(kc, crds);
  const t1 = performance.now();
  await cluster.stop();
  rows.push({ ready: cluster.startupMs, crds: t1 - t0, stop: performance.now() - t1 });
  process.stdout.write(
    `run ${i + 1}: /readyz after ${(cluster.startupMs / 1000).toFixed(2)} s, ${crds.length} CRDs Established after ${((t1 - t0) / 1000).toFixed(2)} s, stopped in ${((performance.now() - t1) / 1000).toFixed(2)} s\n`,
  );
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
process.stdout.write(
  `median of ${runs}: ready ${(median(rows.map((r) => r.ready)) / 1000).toFixed(2)} s, CRDs ${(median(rows.map((r) => r.crds)) / 1000).toFixed(2)} s, stop ${(median(rows.map((r) => r.stop)) / 1000).toFixed(2)} s\n`,
);

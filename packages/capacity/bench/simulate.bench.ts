// `pnpm bench`: 10,000 pending pods of mixed shapes against the full ap-southeast-1 instance-type set and 5 NodePools.
// Instance-type data: the committed ap-southeast-1 snapshot (moto 5.2.5's copy of the real DescribeInstanceTypes answers).
import { availableParallelism, loadavg } from "node:os";
import { simulate } from "../src/simulate.ts";
import { labInput } from "../src/testing/lab.ts";
import { labSnapshot } from "../src/testing/region-snapshot.ts";
import type { NodePoolInput, SimulationInput, WorkloadInput } from "../src/types.ts";

const snapshot = labSnapshot();
const tolerateAll = [{ operator: "Exists" as const }];

const pools: NodePoolInput[] = [
  {
    name: "spot-cmr",
    nodeClass: "default",
    weight: 50,
    requirements: [
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] },
      { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
      { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["4"] },
      { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
    ],
    limits: { cpu: "4000", memory: "16000Gi" },
  },
  {
    name: "graviton",
    nodeClass: "default",
    weight: 40,
    requirements: [
      { key: "kubernetes.io/arch", operator: "In", values: ["arm64"] },
      { key: "karpenter.k8s.aws/instance-family", operator: "Exists", minValues: 5 },
    ],
  },
  {
    name: "gpu",
    nodeClass: "gpu",
    weight: 30,
    requirements: [{ key: "karpenter.k8s.aws/instance-gpu-count", operator: "Gt", values: ["0"] }],
    taints: [{ key: "nvidia.com/gpu", effect: "NoSchedule" }],
  },
  {
    name: "on-demand",
    nodeClass: "default",
    weight: 10,
    requirements: [
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
      { key: "karpenter.k8s.aws/instance-size", operator: "NotIn", values: ["nano", "micro", "small"] },
    ],
    limits: { cpu: "2000" },
  },
  { name: "general", nodeClass: "default", labels: { team: "batch" }, requirements: [] },
];

// 40 workload shapes x 250 replicas: CPU 100m..4, memory 128Mi..16Gi, some pinned to arm64, a zone, a team label or
// GPUs; a quarter spread over zones (DoNotSchedule, maxSkew 1).
const workloads: WorkloadInput[] = [];
for (let i = 0; i < 40; i++) {
  const cpu = [100, 250, 500, 1000, 1500, 2000, 3000, 4000][i % 8]!;
  const memMi = [128, 512, 1024, 2048, 4096, 8192, 16384][i % 7]!;
  const w: WorkloadInput = {
    namespace: `ns${i % 5}`,
    name: `app${i}`,
    replicas: 250,
    requests: { cpu: `${cpu}m`, memory: `${memMi}Mi`, ...(i % 13 === 12 ? { "nvidia.com/gpu": "1" } : {}) },
    ...(i % 13 === 12 ? { tolerations: [{ key: "nvidia.com/gpu", operator: "Exists" as const }] } : {}),
    ...(i % 6 === 1 ? { nodeSelector: { "kubernetes.io/arch": "arm64" } } : {}),
    ...(i % 9 === 2 ? { nodeSelector: { "topology.kubernetes.io/zone": "ap-southeast-1b" } } : {}),
    ...(i % 11 === 3 ? { nodeSelector: { team: "batch" } } : {}),
    ...(i % 4 === 0 ? { zoneSpread: { maxSkew: 1 } } : {}),
  };
  workloads.push(w);
}
const lab = labInput(0);
const input: SimulationInput = {
  cluster: "bench",
  region: "ap-southeast-1",
  nodeGroups: [],
  daemonSets: lab.daemonSets.map((d) => ({ ...d, tolerations: tolerateAll })),
  workloads,
  nodePools: pools,
  nodeClasses: [
    { name: "default", amiFamily: "AL2023" },
    { name: "gpu", amiFamily: "AL2023", rootVolumeSize: "100Gi" },
  ],
};

const pods = workloads.reduce((n, w) => n + w.replicas, 0);
const heapBefore = process.memoryUsage().heapUsed;
// Wall time and this process's CPU time side by side: on a shared machine the wall figure mostly measures the queue
// for a CPU, the CPU time what the simulation itself costs (GC threads included).
const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};
const cold = performance.now();
const coldCpu = process.cpuUsage();
let r = simulate(input, snapshot);
const coldMs = performance.now() - cold;
const coldCpuMs = cpuMs(coldCpu);
const runs: number[] = [];
const cpuRuns: number[] = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const c = process.cpuUsage();
  r = simulate(input, snapshot);
  runs.push(performance.now() - t);
  cpuRuns.push(cpuMs(c));
}
runs.sort((a, b) => a - b);
cpuRuns.sort((a, b) => a - b);
const mem = process.memoryUsage();
const claims = r.nodeClaims.length;
const byPool = r.nodePools.map((p) => `${p.name} ${p.nodeClaims}`).join(", ");
console.log(`capacity: ${pods} pending pods (${workloads.length} shapes), ${snapshot.instanceTypes.length} instance types, ${pools.length} NodePools`);
console.log(`capacity: -> ${claims} NodeClaims (${byPool}), ${r.pending.length} Pending`);
console.log(`capacity: simulate first run ${coldMs.toFixed(0)} ms, median of 5 warm runs ${runs[2]!.toFixed(0)} ms (target < 1000 ms)`);
console.log(
  `capacity: CPU time first run ${coldCpuMs.toFixed(0)} ms, median of 5 warm runs ${cpuRuns[2]!.toFixed(0)} ms (load average ${loadavg().map((x) => x.toFixed(1)).join(" ")} on ${availableParallelism()} CPUs)`,
);
console.log(
  `capacity: peak RSS ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB (+${((mem.heapUsed - heapBefore) / 2 ** 20).toFixed(0)} MiB) (target < 300 MB)`,
);

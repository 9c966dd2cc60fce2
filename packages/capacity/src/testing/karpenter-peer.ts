// Test helper: turns a SimulationInput + snapshot into the Kubernetes and EC2 objects Karpenter's own Go code reads,
// and runs them through the karpenter-sim test peer (test-tools/kube/karpenter-sim, built by test-tools/build.sh).
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { familyFlags } from "../instance-types.ts";
import type { ExistingNodeResult, InstanceTypeInfo, InstanceTypeSnapshot, SimulationInput, SimulationResult, WorkloadInput } from "../types.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

/** Builds (or reuses) the peer and returns its path. */
export function peerBinary(): string {
  const out = execFileSync("bash", [join(REPO, "test-tools", "build.sh"), "karpenter-sim"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return out.trim().split("\n").pop()!;
}

export interface PeerInstanceType {
  name: string;
  capacity: Record<string, string>;
  kubeReserved: Record<string, string>;
  systemReserved: Record<string, string>;
  evictionThreshold: Record<string, string>;
  allocatable: Record<string, string>;
  requirements: Record<string, { operator: string; values?: string[] }>;
  offerings: { zone: string; capacityType: string; price: number; available: boolean }[] | null;
}

export interface PeerNodeClaim {
  nodePool: string;
  pods: string[];
  /** The Solve that created it (0 = the first batch); with `rounds` only. */
  round?: number;
  /** Pods a later Solve put on the node this NodeClaim was launched as; with `rounds` only. */
  laterPods?: string[];
  /** `type zone capacity-type` it was launched as before the next Solve; with `rounds` only. */
  launchedAs?: string;
  requests: Record<string, string>;
  instanceTypes: string[];
  launch: string[];
  zones: string[];
  capacityTypes: string[];
}

export interface PeerResult {
  id: string;
  error?: string;
  instanceTypes?: Record<string, PeerInstanceType[]>;
  nodeClaims: PeerNodeClaim[];
  existingNodes: { node: string; pods: string[] }[];
  podErrors: Record<string, string>;
}

/**
 * One long-lived peer process fed one scenario at a time: `send` returns the scenario's result and does not wait for
 * earlier ones, so the caller keeps building scenarios (and running its own simulation) while Karpenter's code works
 * through the queue. The peer answers in order, one JSON line per scenario.
 */
export class PeerSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: { resolve: (r: PeerResult) => void; reject: (e: Error) => void }[] = [];
  private failure: Error | undefined;
  private readonly closed: Promise<void>;

  constructor(binary: string) {
    this.child = spawn(binary, [], { stdio: ["pipe", "pipe", "inherit"] }) as unknown as ChildProcessWithoutNullStreams;
    const lines = createInterface({ input: this.child.stdout });
    lines.on("line", (line) => {
      const next = this.waiting.shift();
      if (next) next.resolve(JSON.parse(line) as PeerResult);
    });
    this.closed = new Promise<void>((resolve) => {
      const fail = (e: Error) => {
        this.failure = e;
        for (const w of this.waiting.splice(0)) w.reject(e);
        resolve();
      };
      this.child.on("error", fail);
      this.child.on("close", (code) => (code === 0 && this.waiting.length === 0 ? resolve() : fail(new Error(`karpenter-sim exited with ${code}`))));
    });
  }

  /** Queues a scenario; resolves with its result once the peer has answered every earlier one. */
  send(scenario: object): Promise<PeerResult> {
    if (this.failure) return Promise.reject(this.failure);
    const result = new Promise<PeerResult>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.child.stdin.write(`${JSON.stringify(scenario)}\n`);
    return result;
  }

  /** Ends the input and waits for the process to exit. */
  async close(): Promise<void> {
    this.child.stdin.end();
    await this.closed;
    if (this.failure) throw this.failure;
  }
}

/** Runs scenarios through one peer process (one JSON line each way per scenario). */
export async function runPeer(binary: string, scenarios: readonly object[]): Promise<PeerResult[]> {
  const child = spawn(binary, [], { stdio: ["pipe", "pipe", "inherit"] });
  const results: PeerResult[] = [];
  const lines = createInterface({ input: child.stdout });
  const done = new Promise<void>((resolve, reject) => {
    lines.on("line", (line) => results.push(JSON.parse(line) as PeerResult));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`karpenter-sim exited with ${code}`))));
  });
  for (const s of scenarios) {
    if (!child.stdin.write(`${JSON.stringify(s)}\n`)) await new Promise((r) => child.stdin.once("drain", r));
  }
  child.stdin.end();
  await done;
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Snapshot -> EC2 DescribeInstanceTypes items

const EC2_ARCH: Record<string, string> = { amd64: "x86_64", arm64: "arm64" };

/** The EC2 InstanceTypeInfo a snapshot entry came from, as far as Karpenter reads it. */
export function toEc2Info(t: InstanceTypeInfo): object {
  const ext = t.extendedResources ?? {};
  const gpus: object[] = [];
  if (t.gpu) gpus.push({ Name: t.gpu.name, Manufacturer: gpuManufacturer(ext, t.gpu.manufacturer), Count: t.gpu.count, MemoryInfo: { SizeInMiB: t.gpu.memoryMiB } });
  else {
    for (const [key, manufacturer] of [
      ["nvidia.com/gpu", "NVIDIA"],
      ["amd.com/gpu", "AMD"],
      ["habana.ai/gaudi", "Habana"],
    ] as const) {
      if (ext[key]) gpus.push({ Name: "gpu", Manufacturer: manufacturer, Count: ext[key], MemoryInfo: { SizeInMiB: 0 } }, { Name: "gpu2", Manufacturer: manufacturer, Count: 0, MemoryInfo: { SizeInMiB: 0 } });
    }
  }
  const neuron = ext["aws.amazon.com/neuron"];
  const info: Record<string, unknown> = {
    InstanceType: t.name,
    BareMetal: t.bareMetal,
    Hypervisor: t.hypervisor,
    SupportedUsageClasses: t.capacityTypes,
    SupportedVirtualizationTypes: ["hvm"],
    ProcessorInfo: {
      SupportedArchitectures: [EC2_ARCH[t.architecture]],
      ...(t.cpuManufacturer !== undefined ? { Manufacturer: t.cpuManufacturer } : {}),
      ...(t.cpuSustainedClockSpeedMhz !== undefined ? { SustainedClockSpeedInGhz: t.cpuSustainedClockSpeedMhz / 1000 } : {}),
    },
    VCpuInfo: { DefaultVCpus: t.vcpu },
    MemoryInfo: { SizeInMiB: t.memoryMiB },
    NetworkInfo: {
      MaximumNetworkInterfaces: t.maxNetworkInterfaces,
      Ipv4AddressesPerInterface: t.ipv4PerInterface,
      DefaultNetworkCardIndex: 0,
      NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: t.maxNetworkInterfaces }],
      EncryptionInTransitSupported: t.encryptionInTransitSupported === true,
      ...(ext["vpc.amazonaws.com/efa"] ? { EfaInfo: { MaximumEfaInterfaces: ext["vpc.amazonaws.com/efa"] } } : {}),
    },
    ...(t.instanceStorageGB !== undefined ? { InstanceStorageInfo: { TotalSizeInGB: t.instanceStorageGB, NvmeSupport: t.localNvmeGB !== undefined ? "required" : "unsupported" } } : {}),
    ...(t.ebsBandwidthMbps !== undefined ? { EbsInfo: { EbsOptimizedSupport: "default", EbsOptimizedInfo: { MaximumBandwidthInMbps: t.ebsBandwidthMbps } } } : {}),
    ...(gpus.length > 0 ? { GpuInfo: { Gpus: gpus } } : {}),
    ...(neuron
      ? { NeuronInfo: { NeuronDevices: [{ Name: t.accelerator?.name ?? "neuron", Count: neuron, CoreInfo: { Count: (ext["aws.amazon.com/neuroncore"] ?? 0) / neuron } }] } }
      : t.accelerator
        ? { InferenceAcceleratorInfo: { Accelerators: [{ Name: t.accelerator.name, Manufacturer: t.accelerator.manufacturer, Count: t.accelerator.count }] } }
        : {}),
    NitroEnclavesSupport: t.nitroEnclavesSupported ? "supported" : "unsupported",
  };
  return info;
}

function gpuManufacturer(ext: Readonly<Record<string, number>>, kebab: string): string {
  if (ext["nvidia.com/gpu"]) return "NVIDIA";
  if (ext["amd.com/gpu"]) return "AMD";
  if (ext["habana.ai/gaudi"]) return "Habana";
  return kebab;
}

// ---------------------------------------------------------------------------------------------------------------
// SimulationInput -> NodePools, EC2NodeClasses, pods, nodes

function nodeClassObject(c: SimulationInput["nodeClasses"][number]): object {
  const family = c.amiFamily ?? "AL2023";
  const windows = familyFlags(family).windows;
  const spec: Record<string, unknown> = { amiFamily: family, amiSelectorTerms: [{ alias: `${family.toLowerCase()}@latest` }], role: "KarpenterNodeRole" };
  if (c.kubelet) spec.kubelet = c.kubelet;
  if (c.rootVolumeSize) spec.blockDeviceMappings = [{ deviceName: windows ? "/dev/sda1" : "/dev/xvda", rootVolume: true, ebs: { volumeSize: c.rootVolumeSize } }];
  if (c.instanceStorePolicy) spec.instanceStorePolicy = c.instanceStorePolicy;
  const nodeClass: Record<string, unknown> = { apiVersion: "karpenter.k8s.aws/v1", kind: "EC2NodeClass", metadata: { name: c.name, uid: `uid-nc-${c.name}` }, spec };
  const reservations = c.capacityReservations ?? [];
  if (reservations.length > 0) {
    // What Karpenter's EC2NodeClass controller writes after resolving spec.capacityReservationSelectorTerms; the counts
    // travel apart, as the provider keeps them in its availability cache (capacityreservation/types.go).
    spec.capacityReservationSelectorTerms = reservations.map((r) => ({ id: r.id }));
    nodeClass.status = {
      capacityReservations: reservations.map((r) => ({
        id: r.id,
        instanceType: r.instanceType,
        availabilityZone: r.zone,
        instanceMatchCriteria: "targeted",
        ownerID: r.ownerId ?? "123456789012",
        reservationType: r.reservationType ?? "default",
        interruptible: r.interruptible ?? false,
        state: r.state ?? "active",
      })),
    };
  }
  return {
    nodeClass,
    zones: c.zones ?? [],
    ...(reservations.length > 0 ? { reservationCounts: Object.fromEntries(reservations.map((r) => [r.id, r.availableInstanceCount])) } : {}),
  };
}

function nodePoolObject(p: SimulationInput["nodePools"][number]): object {
  return {
    apiVersion: "karpenter.sh/v1",
    kind: "NodePool",
    metadata: { name: p.name, uid: `uid-np-${p.name}` },
    spec: {
      ...(p.weight !== undefined ? { weight: p.weight } : {}),
      ...(p.limits ? { limits: Object.fromEntries(Object.entries(p.limits).map(([k, v]) => [k, String(v)])) } : {}),
      template: {
        ...(p.labels ? { metadata: { labels: p.labels } } : {}),
        spec: {
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: p.nodeClass },
          requirements: (p.requirements ?? []).map((r) => ({ key: r.key, operator: r.operator, ...(r.values ? { values: r.values } : {}), ...(r.minValues !== undefined ? { minValues: r.minValues } : {}) })),
          ...(p.taints ? { taints: p.taints } : {}),
        },
      },
    },
  };
}

function requests(q: Readonly<Record<string, string | number>>): Record<string, string> {
  return Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)]));
}

let uid = 0;
/**
 * Pod UIDs, zero-padded: Karpenter's queue orders pods with equal CPU and memory by creation time, then UID as a
 * string (queue.go byCPUAndMemoryDescending), and `simulate` by creation order. Unpadded, "uid-10" sorted before
 * "uid-9", so the order (and with it the outcome, e.g. seed 22313) hung on how many pods the session made before.
 */
const nextUid = () => `uid-${String(++uid).padStart(10, "0")}`;

function workloadPod(w: WorkloadInput, name: string): object {
  const app = `${w.namespace}.${w.name}`;
  const affinity: Record<string, unknown> = {};
  if (w.requiredNodeAffinity && w.requiredNodeAffinity.length > 0) {
    affinity.nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: w.requiredNodeAffinity } };
  }
  if (w.onePerNode) {
    affinity.podAntiAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app } }, topologyKey: "kubernetes.io/hostname" }] };
  }
  const spread: object[] = [];
  if (w.zoneSpread) spread.push({ maxSkew: w.zoneSpread.maxSkew, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "DoNotSchedule", labelSelector: { matchLabels: { app } } });
  if (w.hostnameSpread) spread.push({ maxSkew: w.hostnameSpread.maxSkew, topologyKey: "kubernetes.io/hostname", whenUnsatisfiable: "DoNotSchedule", labelSelector: { matchLabels: { app } } });
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: w.namespace, uid: nextUid(), labels: { app }, creationTimestamp: "2026-01-01T00:00:00Z" },
    spec: {
      containers: [{ name: "c", image: "x", resources: { requests: requests(w.requests) } }],
      ...(w.nodeSelector ? { nodeSelector: w.nodeSelector } : {}),
      ...(Object.keys(affinity).length > 0 ? { affinity } : {}),
      ...(w.tolerations ? { tolerations: w.tolerations } : {}),
      ...(spread.length > 0 ? { topologySpreadConstraints: spread } : {}),
      ...(w.priority !== undefined ? { priority: w.priority } : {}),
    },
    status: { phase: "Pending" },
  };
}

function daemonSetPod(ds: SimulationInput["daemonSets"][number], nodeName?: string): object {
  const [namespace, name] = ds.name.includes("/") ? ds.name.split("/", 2) : ["kube-system", ds.name];
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: nodeName ? `${name}-${nodeName}` : name,
      namespace,
      uid: nextUid(),
      ownerReferences: [{ apiVersion: "apps/v1", kind: "DaemonSet", name, uid: `uid-ds-${name}`, controller: true }],
    },
    spec: {
      containers: [{ name: "c", image: "x", resources: { requests: requests(ds.requests) } }],
      ...(ds.nodeSelector ? { nodeSelector: ds.nodeSelector } : {}),
      ...(ds.requiredNodeAffinity ? { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: ds.requiredNodeAffinity } } } } : {}),
      ...(ds.tolerations ? { tolerations: ds.tolerations } : {}),
      ...(nodeName ? { nodeName } : {}),
    },
  };
}

/** Prices for every offering (Karpenter drops unpriced offerings): the snapshot's, else a fixed function of the type. */
export function pricesOf(snapshot: InstanceTypeSnapshot): { onDemand: Record<string, number>; spot: Record<string, Record<string, number>> } {
  const onDemand: Record<string, number> = {};
  const spot: Record<string, Record<string, number>> = {};
  for (const t of snapshot.instanceTypes) {
    for (const o of t.offerings) {
      if (o.price === undefined) continue;
      if (o.capacityType === "on-demand") onDemand[t.name] = o.price;
      else {
        spot[t.name] ??= {};
        spot[t.name]![o.zone] = o.price;
      }
    }
  }
  return { onDemand, spot };
}

/**
 * The peer's scenario for a simulation input; existing nodes carry the pods kube-scheduler bound to them (`bound`, else
 * every pod `ours` placed on them), which Karpenter only observes. `rounds`: the peer runs Solve again, with the batch's NodeClaims launched
 * as nodes, while pods are refused for NodePool limits (compare with `simulate` without `singleBatch`).
 */
export function peerScenario(
  id: string,
  input: SimulationInput,
  snapshot: InstanceTypeSnapshot,
  ours: SimulationResult,
  ec2: readonly object[],
  options: { rounds?: boolean; bound?: ReadonlyMap<string, readonly string[]> } = {},
): object {
  const prices = pricesOf(snapshot);
  const offerings: Record<string, string[]> = {};
  for (const t of snapshot.instanceTypes) offerings[t.name] = [...new Set(t.offerings.map((o) => o.zone))].sort();
  const workloads = new Map(input.workloads.map((w) => [`${w.namespace}/${w.name}`, w]));
  // Pods bound to the existing nodes from the start of Karpenter's Solve: `bound` (kube-scheduler's step-1 bindings,
  // scheduler.ts kubeSchedulerBindings) when given, so Karpenter's own addToExistingNode places the rest; else every
  // pod `ours` put there.
  const podsOn = (n: ExistingNodeResult): readonly string[] => options.bound?.get(n.name) ?? n.pods;
  const onNodes = new Set(ours.nodes.flatMap(podsOn));
  const pods: object[] = [];
  for (const w of input.workloads) {
    for (let r = 1; r <= w.replicas; r++) {
      const name = `${w.namespace}/${w.name}-${r}`;
      if (!onNodes.has(name)) pods.push(workloadPod(w, `${w.name}-${r}`));
    }
  }
  return {
    id,
    region: snapshot.region,
    zones: snapshot.zones,
    instanceTypes: ec2,
    offerings,
    onDemandPrices: prices.onDemand,
    spotPrices: prices.spot,
    nodeClasses: input.nodeClasses.map(nodeClassObject),
    nodePools: input.nodePools.map(nodePoolObject),
    daemonSetPods: input.daemonSets.map((ds) => daemonSetPod(ds)),
    nodes: ours.nodes.map((n) => existingNode({ ...n, pods: podsOn(n) }, input, snapshot, workloads)),
    pods,
    ...(options.rounds ? { rounds: true } : {}),
  };
}

function existingNode(n: ExistingNodeResult, input: SimulationInput, snapshot: InstanceTypeSnapshot, workloads: Map<string, WorkloadInput>): object {
  const group = input.nodeGroups.find((g) => g.name === n.nodeGroup)!;
  const info = snapshot.instanceTypes.find((t) => t.name === n.instanceType)!;
  const labels: Record<string, string> = {
    "kubernetes.io/arch": info.architecture,
    "kubernetes.io/os": "linux",
    "kubernetes.io/hostname": n.name,
    "node.kubernetes.io/instance-type": n.instanceType,
    "topology.kubernetes.io/zone": n.zone,
    "eks.amazonaws.com/capacityType": n.capacityType === "spot" ? "SPOT" : "ON_DEMAND",
    "eks.amazonaws.com/nodegroup": n.nodeGroup,
    ...(group.labels ?? {}),
  };
  const pods = n.pods.map((p) => {
    const workload = p.slice(0, p.lastIndexOf("-"));
    const w = workloads.get(workload)!;
    return { ...(workloadPod(w, p.slice(w.namespace.length + 1)) as Record<string, unknown>), status: { phase: "Running" } };
  });
  const dsPods = n.daemonSetPods.map((name) => daemonSetPod(input.daemonSets.find((d) => d.name === name)!, n.name));
  return {
    // capacity and allocatable: the peer resolves the type itself (AWS provider, AL2023, the group's kubelet)
    node: {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: n.name, labels },
      spec: { providerID: `aws:///${n.zone}/${n.name}`, ...(group.taints ? { taints: group.taints } : {}) },
    },
    instanceType: n.instanceType,
    ...(group.kubelet ? { kubelet: group.kubelet } : {}),
    pods: [...pods, ...dsPods],
  };
}

// Test helper: seeded random clusters for the differential against Karpenter's own scheduler (e2e only).
import type {
  DaemonSetInput,
  EC2NodeClassInput,
  InstanceTypeSnapshot,
  NodeGroupInput,
  NodePoolInput,
  NodeSelectorRequirement,
  SimulationInput,
  Taint,
  Toleration,
  WorkloadInput,
} from "../types.ts";

/** mulberry32: a small seeded PRNG (deterministic across Node versions). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, for per-name deterministic values. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The snapshot with a price on every offering (Karpenter treats an unpriced offering as unavailable): on-demand from
 * vCPU, memory and GPUs, spot at 30-60 % of it per zone; a per-type epsilon keeps every price distinct, so that the
 * cheapest-first order has no ties.
 */
export function withPrices(snapshot: InstanceTypeSnapshot): InstanceTypeSnapshot {
  return {
    ...snapshot,
    instanceTypes: snapshot.instanceTypes.map((t) => {
      const gpus = Object.entries(t.extendedResources ?? {}).reduce((n, [k, v]) => n + (k.endsWith("gpu") || k.includes("neuron") || k.includes("gaudi") ? v : 0), 0);
      const base = 0.04 * t.vcpu + (0.005 * t.memoryMiB) / 1024 + 0.5 * gpus + (hash(t.name) % 10000) / 1e7;
      const od = Math.round(base * 1e6) / 1e6;
      return {
        ...t,
        offerings: t.offerings.map((o) => ({
          ...o,
          price: o.capacityType === "on-demand" ? od : Math.round(od * (0.3 + (hash(`${t.name}|${o.zone}`) % 3000) / 10000) * 1e6) / 1e6,
        })),
      };
    }),
  };
}

/** Every AMI family Karpenter v1.14.1 knows (pkg/apis/v1/labels.go AMIFamily*). */
const FAMILIES = ["AL2023", "AL2", "Bottlerocket", "Windows2019", "Windows2022", "Windows2025", "Custom"] as const;
const CATEGORIES = ["c", "m", "r", "t"];

export interface ScenarioFeatures {
  zoneSpread: boolean;
  hostnameSpread: boolean;
  onePerNode: boolean;
  nodeAffinity: boolean;
  taints: boolean;
  preferNoSchedule: boolean;
  minValues: boolean;
  daemonSetSelectors: boolean;
  weights: boolean;
  limits: boolean;
  nodeGroups: boolean;
  /** Node-group nodes with taints, custom labels, spot or a zone subset. */
  nodeGroupConstraints: boolean;
  /** A NodePool that allows both spot and on-demand (Karpenter launches spot first, on-demand as the fallback). */
  spotAndOnDemand: boolean;
  /** A NodePool restricted to spot. */
  spotOnly: boolean;
  windows: boolean;
  /** Pods refused for NodePool limits in the first batch get later rounds (compared with Karpenter's Solve run again). */
  limitRounds: boolean;
  /** EC2NodeClasses with capacity reservations (reserved offerings), and NodePools that allow or require `reserved`. */
  reserved: boolean;
}

/** A random cluster: 1-2 EC2NodeClasses, 1-3 NodePools, 0-3 DaemonSets, 0-2 node groups, 1-4 workloads. */
export function randomScenario(seed: number, snapshot: InstanceTypeSnapshot): { input: SimulationInput; features: ScenarioFeatures } {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const chance = (p: number) => r() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const zones = snapshot.zones;
  const features: ScenarioFeatures = {
    zoneSpread: false,
    hostnameSpread: false,
    onePerNode: false,
    nodeAffinity: false,
    taints: false,
    preferNoSchedule: false,
    minValues: false,
    daemonSetSelectors: false,
    weights: false,
    limits: false,
    nodeGroups: false,
    nodeGroupConstraints: false,
    spotAndOnDemand: false,
    spotOnly: false,
    windows: false,
    limitRounds: false,
    reserved: false,
  };

  const nodeClasses: EC2NodeClassInput[] = [];
  for (let i = 0; i < int(1, 2); i++) {
    const amiFamily = pick(FAMILIES);
    if (amiFamily.startsWith("Windows")) features.windows = true;
    nodeClasses.push({
      name: `nc${i}`,
      amiFamily,
      ...(chance(0.3)
        ? {
            kubelet: {
              ...(chance(0.5) ? { maxPods: int(8, 110) } : {}),
              ...(chance(0.3) ? { podsPerCore: int(2, 10) } : {}),
              ...(chance(0.3) ? { systemReserved: { cpu: `${int(1, 5) * 100}m`, memory: `${int(1, 8) * 128}Mi` } } : {}),
            },
          }
        : {}),
      ...(chance(0.3) ? { rootVolumeSize: `${int(20, 200)}Gi` } : {}),
      ...(chance(0.2) ? { zones: zones.slice(0, int(1, zones.length)) } : {}),
    });
  }

  const taintKeys: Taint[] = [];
  const nodePools: NodePoolInput[] = [];
  for (let i = 0; i < int(1, 3); i++) {
    const requirements: NodeSelectorRequirement[] = [];
    requirements.push({ key: "karpenter.k8s.aws/instance-category", operator: "In", values: CATEGORIES.filter(() => chance(0.6)).concat(pick(CATEGORIES)) });
    if (chance(0.6)) {
      const values = pick([["on-demand"], ["spot", "on-demand"], ["spot"]]);
      if (values.length === 2) features.spotAndOnDemand = true;
      if (values.length === 1 && values[0] === "spot") features.spotOnly = true;
      requirements.push({ key: "karpenter.sh/capacity-type", operator: "In", values });
    } else features.spotAndOnDemand = true; // no requirement: every capacity type the offerings have
    if (chance(0.3)) requirements.push({ key: "kubernetes.io/arch", operator: "In", values: [pick(["amd64", "arm64"])] });
    if (chance(0.4)) requirements.push({ key: "karpenter.k8s.aws/instance-cpu", operator: "Lt", values: [String(pick([5, 9, 17, 33, 65]))] });
    if (chance(0.2)) {
      features.minValues = true;
      requirements.push({ key: "karpenter.k8s.aws/instance-family", operator: "Exists", minValues: int(2, 30) });
    }
    const taints: Taint[] = [];
    if (chance(0.25)) {
      const t: Taint = { key: `dedicated${i}`, value: "x", effect: chance(0.4) ? "PreferNoSchedule" : "NoSchedule" };
      features.taints = true;
      if (t.effect === "PreferNoSchedule") features.preferNoSchedule = true;
      taints.push(t);
      taintKeys.push(t);
    }
    const weight = chance(0.5) ? int(0, 100) : undefined;
    if (weight !== undefined) features.weights = true;
    const limits = chance(0.3) ? { cpu: String(int(4, 200)) } : undefined;
    if (limits) features.limits = true;
    nodePools.push({
      name: `np${i}`,
      nodeClass: pick(nodeClasses).name,
      requirements,
      ...(weight !== undefined ? { weight } : {}),
      ...(taints.length > 0 ? { taints } : {}),
      ...(limits ? { limits } : {}),
      ...(chance(0.3) ? { labels: { team: pick(["a", "b"]) } } : {}),
    });
  }

  const daemonSets: DaemonSetInput[] = [];
  for (let i = 0; i < int(0, 3); i++) {
    const selector: Record<string, string> | undefined = chance(0.4) ? (chance(0.5) ? { "kubernetes.io/arch": pick(["amd64", "arm64"]) } : { team: pick(["a", "b"]) }) : undefined;
    if (selector) features.daemonSetSelectors = true;
    daemonSets.push({
      name: `kube-system/ds${i}`,
      requests: { cpu: `${int(1, 5) * 50}m`, memory: `${int(1, 8) * 64}Mi` },
      ...(selector ? { nodeSelector: selector } : {}),
      ...(chance(0.3) ? { tolerations: [{ operator: "Exists" } as Toleration] } : {}),
    });
  }

  const nodeGroups: NodeGroupInput[] = [];
  if (chance(0.45)) {
    features.nodeGroups = true;
    for (let i = 0; i < int(1, 2); i++) {
      const constrained = chance(0.4);
      if (constrained) features.nodeGroupConstraints = true;
      const taint: Taint | undefined = constrained && chance(0.4) ? { key: `group${i}`, value: "x", effect: chance(0.3) ? "NoExecute" : "NoSchedule" } : undefined;
      if (taint) taintKeys.push(taint);
      nodeGroups.push({
        name: `ng${i}`,
        instanceType: pick(["t3.large", "m5.xlarge", "c5.2xlarge", "m6g.large", "r5.large", "c6g.xlarge"]),
        count: int(1, 3),
        ...(constrained && chance(0.5) ? { labels: { team: pick(["a", "b"]) } } : {}),
        ...(taint ? { taints: [taint] } : {}),
        ...(constrained && chance(0.4) ? { capacityType: "spot" as const } : {}),
        ...(constrained && chance(0.4) ? { zones: zones.slice(0, int(1, zones.length)) } : {}),
        ...(constrained && chance(0.3) ? { kubelet: { maxPods: int(8, 40) } } : {}),
      });
    }
  }

  const workloads: WorkloadInput[] = [];
  for (let i = 0; i < int(1, 4); i++) {
    const tolerations: Toleration[] = [];
    for (const t of taintKeys) if (chance(0.5)) tolerations.push({ key: t.key, operator: "Equal", value: t.value, effect: t.effect });
    const w: WorkloadInput = {
      namespace: "default",
      name: `w${i}`,
      replicas: int(1, 12),
      requests: { cpu: `${pick([100, 250, 500, 1000, 1500, 2000, 3500])}m`, memory: `${pick([128, 256, 512, 1024, 2048, 4096, 7168])}Mi` },
      ...(tolerations.length > 0 ? { tolerations } : {}),
    };
    const extra: Partial<WorkloadInput> = {};
    if (chance(0.25)) {
      features.zoneSpread = true;
      Object.assign(extra, { zoneSpread: { maxSkew: int(1, 2) } });
    }
    if (chance(0.15)) {
      features.hostnameSpread = true;
      Object.assign(extra, { hostnameSpread: { maxSkew: int(1, 3) } });
    }
    if (chance(0.2)) {
      features.onePerNode = true;
      Object.assign(extra, { onePerNode: true });
    }
    if (chance(0.25)) {
      features.nodeAffinity = true;
      Object.assign(extra, {
        requiredNodeAffinity: chance(0.5)
          ? [{ matchExpressions: [{ key: "karpenter.k8s.aws/instance-category", operator: "In", values: [pick(CATEGORIES)] }] }]
          : [{ matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: [pick(zones)] }] }],
      });
    }
    if (chance(0.2)) {
      const nodeSelector: Record<string, string> = chance(0.5) ? { "kubernetes.io/arch": pick(["amd64", "arm64"]) } : { "karpenter.sh/capacity-type": pick(["spot", "on-demand"]) };
      Object.assign(extra, { nodeSelector });
    }
    workloads.push({ ...w, ...extra });
  }
  const reserved = withReservations(seed, snapshot, nodeClasses, nodePools);
  features.reserved = reserved !== undefined;
  return { input: { cluster: `seed-${seed}`, region: snapshot.region, nodeGroups, daemonSets, workloads, nodePools: reserved?.nodePools ?? nodePools, nodeClasses: reserved?.nodeClasses ?? nodeClasses }, features };
}

/**
 * Capacity reservations for about a third of the scenarios, drawn from a stream of their own (the seed's other draws,
 * and so every scenario without reservations, stay what they were before reservations existed). Scenarios with NodePool
 * limits get none: the peer's later rounds do not count launches into a reservation (see karpenter-sim main.go).
 * Reserved types are small ones of the NodePools' categories, so that they are among the cheapest candidates; counts of
 * 0..4 run out within a batch; some reservations sit in a zone the EC2NodeClass has no subnet in, some are capacity
 * blocks, interruptible or expiring.
 */
function withReservations(seed: number, snapshot: InstanceTypeSnapshot, nodeClasses: EC2NodeClassInput[], nodePools: NodePoolInput[]): { nodeClasses: EC2NodeClassInput[]; nodePools: NodePoolInput[] } | undefined {
  const r = rng(hash(`capacity-reservations|${seed}`));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const chance = (p: number) => r() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  if (!chance(0.35) || nodePools.some((p) => p.limits)) return undefined;
  let serial = 0;
  const classes = nodeClasses.map((nc) => {
    const pools = nodePools.filter((p) => p.nodeClass === nc.name);
    if (pools.length === 0 || !chance(0.8)) return nc;
    const categories = new Set(pools.flatMap((p) => p.requirements?.find((q) => q.key === "karpenter.k8s.aws/instance-category")?.values ?? []));
    const small = snapshot.instanceTypes.filter((t) => categories.has(t.name.replace(/[0-9].*$/, "")) && t.vcpu <= 8 && !t.name.startsWith("a1."));
    if (small.length === 0) return nc;
    const reservations = [];
    for (let i = int(1, 3); i > 0; i--) {
      const type = pick(small);
      const block = chance(0.2);
      reservations.push({
        id: `cr-${(hash(`${seed}|${serial++}`) >>> 0).toString(16).padStart(8, "0")}${serial}`,
        instanceType: type.name,
        zone: chance(0.85) ? pick([...new Set(type.offerings.map((o) => o.zone))]) : pick(snapshot.zones),
        availableInstanceCount: int(0, 4),
        ...(block ? { reservationType: "capacity-block" as const } : {}),
        ...(chance(0.1) ? { interruptible: true } : {}),
        ...(block && chance(0.3) ? { state: "expiring" as const } : {}),
      });
    }
    return { ...nc, capacityReservations: reservations };
  });
  const pools = nodePools.map((p) => {
    const ct = p.requirements?.find((q) => q.key === "karpenter.sh/capacity-type");
    if (!ct || !chance(0.6)) return p;
    const values = chance(0.3) ? ["reserved"] : [...ct.values!, "reserved"];
    return { ...p, requirements: p.requirements!.map((q) => (q === ct ? { ...q, values } : q)) };
  });
  if (!classes.some((c) => c.capacityReservations)) return undefined;
  return { nodeClasses: classes, nodePools: pools };
}

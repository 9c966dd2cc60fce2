// Generated NodePools and EC2NodeClasses for the hash differential (test support, never imported by the CLI): every
// field of spec.template and of the EC2NodeClass spec, absent / null / zero / set, slices in random order with
// duplicates, nil against empty, quantities, durations and times written in different ways.

/** A small seeded PRNG (mulberry32), so a failing case can be replayed from its seed. */
export class Random {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

type Json = Record<string, unknown>;
const WORDS = ["a", "b", "team", "env", "prod", "", "karpenter.sh/x", "ünï", "zone-1", "x".repeat(40)];
const QUANTITIES = ["20Gi", "21474836480", "20480Mi", "21.47483648G", "2e10", "0.5Ki", "512", "1024", "1k", "100m", "1.5Gi", " 20Gi ", "0", "1E3", "0.001", "1Ti", "1000Mi", "+5G", 20, 1073741824, 0.5];
const DURATIONS = ["720h", "30m", "1h30m", "1.5h", "0s", "0", "300ms", "2h45m0.5s", "1\u00b5s", "1us", "90s", "-5m", "24h", "1.000000001s", ".5h"];
const TIMES = ["2024-01-02T03:04:05Z", "2024-01-02T03:04:05.123456789Z", "2024-01-02T04:04:05+01:00", "1999-12-31T23:59:59-08:30", "2030-06-15T00:00:00.5Z"];

/** Sets `key` on `o` to one of: absent, null, the zero/empty value, or a generated value. */
function field(r: Random, o: Json, key: string, zero: unknown, gen: () => unknown): void {
  const roll = r.next();
  if (roll < 0.15) return;
  if (roll < 0.22) o[key] = null;
  else if (roll < 0.32) o[key] = zero;
  else o[key] = gen();
}

function stringMap(r: Random): Json {
  const m: Json = {};
  for (let i = r.int(4); i > 0; i--) m[r.pick(WORDS)] = r.pick(WORDS);
  return m;
}

/** A list of generated items in random order, sometimes with an item repeated (XOR cancels pairs upstream). */
function list(r: Random, gen: () => unknown): unknown[] {
  const items = Array.from({ length: r.int(4) }, gen);
  if (items.length > 0 && r.chance(0.2)) items.push(structuredClone(r.pick(items)));
  return r.shuffle(items);
}

function taint(r: Random): Json {
  const t: Json = {};
  field(r, t, "key", "", () => r.pick(["dedicated", "gpu", "example.com/x", ""]));
  field(r, t, "value", "", () => r.pick(WORDS));
  field(r, t, "effect", "", () => r.pick(["NoSchedule", "NoExecute", "PreferNoSchedule"]));
  if (r.chance(0.15)) t.timeAdded = r.pick(TIMES);
  return t;
}

export function generateNodePool(r: Random): Json {
  const metadata: Json = {};
  field(r, metadata, "labels", {}, () => stringMap(r));
  field(r, metadata, "annotations", {}, () => stringMap(r));
  const spec: Json = {};
  field(r, spec, "taints", [], () => list(r, () => taint(r)));
  field(r, spec, "startupTaints", [], () => list(r, () => taint(r)));
  field(r, spec, "requirements", [], () => list(r, () => ({ key: r.pick(["karpenter.sh/capacity-type", "kubernetes.io/arch"]), operator: "In", values: [r.pick(["spot", "amd64"])] })));
  field(r, spec, "nodeClassRef", {}, () => {
    const ref: Json = {};
    field(r, ref, "group", "", () => r.pick(["karpenter.k8s.aws", "example.com"]));
    field(r, ref, "kind", "", () => r.pick(["EC2NodeClass", "Other"]));
    field(r, ref, "name", "", () => r.pick(["default", "gpu", ""]));
    return ref;
  });
  if (r.chance(0.6)) spec.terminationGracePeriod = r.chance(0.1) ? null : r.pick(DURATIONS);
  if (r.chance(0.7)) spec.expireAfter = r.pick([...DURATIONS, "Never", "Never"]);
  const template: Json = {};
  field(r, template, "metadata", {}, () => metadata);
  field(r, template, "spec", {}, () => spec);
  const np: Json = { apiVersion: "karpenter.sh/v1", kind: "NodePool", metadata: { name: "np" }, spec: { template } };
  // Fields outside spec.template never count.
  if (r.chance(0.5)) (np.spec as Json).weight = r.int(100);
  if (r.chance(0.5)) (np.spec as Json).limits = { cpu: r.pick(QUANTITIES) };
  if (r.chance(0.5)) (np.spec as Json).disruption = { consolidateAfter: r.pick(DURATIONS), budgets: [{ nodes: "10%" }] };
  return np;
}

const ptrString = (r: Random, words: readonly string[]) => () => r.pick(words);
const int32 = (r: Random) => () => r.pick([0, 1, 2, 110, -1, 2147483647, -2147483648]);

function kubelet(r: Random): Json {
  const k: Json = {};
  field(r, k, "clusterDNS", [], () => list(r, () => r.pick(["10.100.0.10", "169.254.20.10", ""])));
  field(r, k, "maxPods", 0, int32(r));
  field(r, k, "podsPerCore", 0, int32(r));
  for (const m of ["systemReserved", "kubeReserved", "evictionHard", "evictionSoft"]) {
    field(r, k, m, {}, () => Object.fromEntries(Array.from({ length: r.int(3) }, () => [r.pick(["cpu", "memory", "memory.available", "nodefs.available"]), r.pick(["100m", "5%", "1Gi", ""])])));
  }
  field(r, k, "evictionSoftGracePeriod", {}, () => Object.fromEntries(Array.from({ length: r.int(3) }, () => [r.pick(["memory.available", "nodefs.available"]), r.pick(DURATIONS)])));
  field(r, k, "evictionMaxPodGracePeriod", 0, int32(r));
  field(r, k, "imageGCHighThresholdPercent", 0, int32(r));
  field(r, k, "imageGCLowThresholdPercent", 0, int32(r));
  field(r, k, "cpuCFSQuota", false, () => r.chance(0.5));
  return k;
}

function blockDeviceMapping(r: Random): Json | null {
  if (r.chance(0.05)) return null;
  const b: Json = {};
  field(r, b, "deviceName", "", ptrString(r, ["/dev/xvda", "/dev/xvdb", ""]));
  field(r, b, "rootVolume", false, () => r.chance(0.5));
  field(r, b, "ebs", {}, () => {
    const e: Json = {};
    field(r, e, "deleteOnTermination", false, () => r.chance(0.5));
    field(r, e, "encrypted", false, () => r.chance(0.5));
    field(r, e, "iops", 0, () => r.pick([3000, 16000, 0]));
    field(r, e, "kmsKeyID", "", ptrString(r, ["arn:aws:kms:us-east-1:1:key/x", ""]));
    field(r, e, "snapshotID", "", ptrString(r, ["snap-123", ""]));
    field(r, e, "throughput", 0, () => r.pick([125, 1000, 0]));
    field(r, e, "volumeInitializationRate", 0, () => r.pick([100, 300, 0]));
    if (r.chance(0.8)) e.volumeSize = r.pick(QUANTITIES);
    field(r, e, "volumeType", "", ptrString(r, ["gp3", "io2", ""]));
    return e;
  });
  return b;
}

export function generateEC2NodeClass(r: Random): Json {
  const spec: Json = {};
  const selector = () => list(r, () => (r.chance(0.5) ? { tags: stringMap(r) } : { id: r.pick(["subnet-1", "sg-1", "cr-1"]) }));
  field(r, spec, "subnetSelectorTerms", [], selector);
  field(r, spec, "securityGroupSelectorTerms", [], selector);
  field(r, spec, "capacityReservationSelectorTerms", [], selector);
  field(r, spec, "placementGroupSelector", {}, () => (r.chance(0.5) ? { name: r.pick(["pg", ""]) } : { id: r.pick(["pg-1", ""]) }));
  field(r, spec, "associatePublicIPAddress", false, () => r.chance(0.5));
  field(r, spec, "ipPrefixCount", 0, () => r.int(5));
  const alias = r.pick(["al2023@latest", "al2023@v20240807", "bottlerocket@latest", "al2@latest", "windows2022@latest"]);
  field(r, spec, "amiSelectorTerms", [], () => list(r, () => (r.chance(0.6) ? { alias } : { id: "ami-123" })));
  if (r.chance(0.3)) spec.amiFamily = r.pick(["AL2023", "Custom", "Bottlerocket"]);
  field(r, spec, "userData", "", ptrString(r, ["#!/bin/bash\necho hi", "[settings]", ""]));
  field(r, spec, "role", "", ptrString(r, ["KarpenterNodeRole", ""]));
  field(r, spec, "instanceProfile", "", ptrString(r, ["profile", ""]));
  field(r, spec, "tags", {}, () => stringMap(r));
  field(r, spec, "kubelet", {}, () => kubelet(r));
  field(r, spec, "blockDeviceMappings", [], () => list(r, () => blockDeviceMapping(r)));
  field(r, spec, "instanceStorePolicy", "", ptrString(r, ["RAID0", ""]));
  field(r, spec, "networkInterfaces", [], () =>
    list(r, () => (r.chance(0.05) ? null : { networkCardIndex: r.int(3), deviceIndex: r.int(3), interfaceType: r.pick(["interface", "efa-only", ""]) })),
  );
  field(r, spec, "detailedMonitoring", false, () => r.chance(0.5));
  field(r, spec, "metadataOptions", {}, () => {
    const m: Json = {};
    field(r, m, "httpEndpoint", "", ptrString(r, ["enabled", "disabled"]));
    field(r, m, "httpProtocolIPv6", "", ptrString(r, ["enabled", "disabled"]));
    field(r, m, "httpPutResponseHopLimit", 0, () => r.pick([1, 2, 64]));
    field(r, m, "httpTokens", "", ptrString(r, ["required", "optional"]));
    return m;
  });
  field(r, spec, "connectionTracking", {}, () => {
    const c: Json = {};
    field(r, c, "tcpEstablishedTimeout", 0, int32(r));
    field(r, c, "udpStreamTimeout", 0, int32(r));
    field(r, c, "udpTimeout", 0, int32(r));
    return c;
  });
  field(r, spec, "context", "", ptrString(r, ["ctx", ""]));
  field(r, spec, "cpuOptions", {}, () => (r.chance(0.8) ? { nestedVirtualization: r.pick(["enabled", "disabled", ""]) } : {}));
  return { apiVersion: "karpenter.k8s.aws/v1", kind: "EC2NodeClass", metadata: { name: "nc" }, spec };
}

// The instance-type snapshot: built from EC2 Describe* answers, written as sorted JSON, read back with checks.
import type { CapacityType, InstanceTypeInfo, InstanceTypeSnapshot, Offering } from "./types.ts";

/** The part of an EC2 `InstanceTypeInfo` (AWS SDK v3 shape) the snapshot reads; accepted structurally. */
export interface Ec2InstanceTypeInfo {
  InstanceType?: string;
  BareMetal?: boolean;
  Hypervisor?: string;
  SupportedUsageClasses?: readonly string[];
  SupportedVirtualizationTypes?: readonly string[];
  ProcessorInfo?: { SupportedArchitectures?: readonly string[]; Manufacturer?: string; SustainedClockSpeedInGhz?: number };
  VCpuInfo?: { DefaultVCpus?: number };
  MemoryInfo?: { SizeInMiB?: number };
  NetworkInfo?: {
    MaximumNetworkInterfaces?: number;
    Ipv4AddressesPerInterface?: number;
    DefaultNetworkCardIndex?: number;
    NetworkCards?: readonly { NetworkCardIndex?: number; MaximumNetworkInterfaces?: number }[];
    EncryptionInTransitSupported?: boolean;
    EfaInfo?: { MaximumEfaInterfaces?: number };
  };
  InstanceStorageInfo?: { TotalSizeInGB?: number; NvmeSupport?: string };
  EbsInfo?: { EbsOptimizedSupport?: string; EbsOptimizedInfo?: { MaximumBandwidthInMbps?: number } };
  GpuInfo?: { Gpus?: readonly { Name?: string; Manufacturer?: string; Count?: number; MemoryInfo?: { SizeInMiB?: number } }[] };
  InferenceAcceleratorInfo?: { Accelerators?: readonly { Name?: string; Manufacturer?: string; Count?: number }[] };
  NeuronInfo?: { NeuronDevices?: readonly { Name?: string; Count?: number; CoreInfo?: { Count?: number } }[] };
  NitroEnclavesSupport?: string;
}

/** One `InstanceTypeOfferings` item of DescribeInstanceTypeOfferings with `LocationType: availability-zone`. */
export interface Ec2InstanceTypeOffering {
  InstanceType?: string;
  Location?: string;
  LocationType?: string;
}

/** A price (USD per hour) for an instance type; `zone` absent = every zone (on-demand prices are regional). */
export interface PriceInput {
  readonly instanceType: string;
  readonly capacityType: CapacityType;
  readonly zone?: string;
  readonly price: number;
}

export interface SnapshotFromDescribeOptions {
  readonly region: string;
  readonly instanceTypes: readonly Ec2InstanceTypeInfo[];
  readonly offerings: readonly Ec2InstanceTypeOffering[];
  readonly prices?: readonly PriceInput[];
  readonly capturedAt?: string;
  readonly source?: string;
  /** When `prices` were taken (ISO timestamp) and where from; recorded only with prices. */
  readonly pricesTakenAt?: string;
  readonly pricesSource?: string;
}

export class SnapshotError extends Error {
  override readonly name = "SnapshotError";
}

// EC2 architecture names to Kubernetes ones (aws/karpenter-provider-aws pkg/apis/v1/labels.go AWSToKubeArchitectures).
const ARCHITECTURES: Readonly<Record<string, string>> = { x86_64: "amd64", arm64: "arm64" };

function kebab(s: string): string {
  return s.replaceAll(" ", "-").toLowerCase();
}

/**
 * Turns DescribeInstanceTypes + DescribeInstanceTypeOfferings answers into a snapshot. Karpenter only lists hvm types
 * of x86_64 or arm64 (aws/karpenter-provider-aws pkg/providers/instancetype/instancetype.go UpdateInstanceTypes
 * filters); types without vCPU/memory/network data are left out as its resolver cannot build them either.
 */
export function snapshotFromDescribe(options: SnapshotFromDescribeOptions): InstanceTypeSnapshot {
  const region = options.region;
  const zonesByType = new Map<string, Set<string>>();
  for (const o of options.offerings) {
    if (o.LocationType !== undefined && o.LocationType !== "availability-zone") continue;
    if (!o.InstanceType || !o.Location) continue;
    if (!o.Location.startsWith(region)) {
      throw new SnapshotError(`offering ${o.InstanceType} in ${o.Location} is not in region ${region}`);
    }
    let set = zonesByType.get(o.InstanceType);
    if (!set) {
      set = new Set();
      zonesByType.set(o.InstanceType, set);
    }
    set.add(o.Location);
  }
  const prices = new Map<string, number>();
  for (const p of options.prices ?? []) prices.set(`${p.instanceType}|${p.capacityType}|${p.zone ?? "*"}`, p.price);
  const priceOf = (type: string, capacityType: CapacityType, zone: string): number | undefined =>
    prices.get(`${type}|${capacityType}|${zone}`) ?? prices.get(`${type}|${capacityType}|*`);

  const allZones = new Set<string>();
  const types: InstanceTypeInfo[] = [];
  const seen = new Set<string>();
  for (const info of options.instanceTypes) {
    const name = info.InstanceType;
    if (!name || seen.has(name)) continue;
    const zones = zonesByType.get(name);
    if (!zones || zones.size === 0) continue;
    const built = fromEc2(info, name, [...zones].sort(), priceOf);
    if (!built) continue;
    seen.add(name);
    for (const z of zones) allZones.add(z);
    types.push(built);
  }
  types.sort((a, b) => compareStrings(a.name, b.name));
  return {
    version: 1,
    region,
    zones: [...allZones].sort(),
    ...(options.capturedAt !== undefined ? { capturedAt: options.capturedAt } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.prices && options.prices.length > 0 && options.pricesTakenAt !== undefined ? { pricesTakenAt: options.pricesTakenAt } : {}),
    ...(options.prices && options.prices.length > 0 && options.pricesSource !== undefined ? { pricesSource: options.pricesSource } : {}),
    instanceTypes: types,
  };
}

function fromEc2(
  info: Ec2InstanceTypeInfo,
  name: string,
  zones: string[],
  priceOf: (type: string, capacityType: CapacityType, zone: string) => number | undefined,
): InstanceTypeInfo | undefined {
  const architecture = (info.ProcessorInfo?.SupportedArchitectures ?? []).map((a) => ARCHITECTURES[a]).find((a) => a !== undefined);
  const vcpu = info.VCpuInfo?.DefaultVCpus;
  const memoryMiB = info.MemoryInfo?.SizeInMiB;
  const net = info.NetworkInfo;
  const cardIndex = net?.DefaultNetworkCardIndex ?? 0;
  const card = net?.NetworkCards?.find((c) => (c.NetworkCardIndex ?? 0) === cardIndex) ?? net?.NetworkCards?.[cardIndex];
  const maxNetworkInterfaces = card?.MaximumNetworkInterfaces ?? net?.MaximumNetworkInterfaces;
  const ipv4PerInterface = net?.Ipv4AddressesPerInterface;
  const virtualization = info.SupportedVirtualizationTypes;
  if (virtualization && !virtualization.includes("hvm")) return undefined;
  if (!architecture || !vcpu || !memoryMiB || maxNetworkInterfaces === undefined || ipv4PerInterface === undefined) return undefined;

  const capacityTypes = (["on-demand", "spot"] as const).filter((c) => (info.SupportedUsageClasses ?? []).includes(c));
  const offerings: Offering[] = [];
  for (const zone of zones) {
    for (const capacityType of capacityTypes) {
      const price = priceOf(name, capacityType, zone);
      offerings.push(price === undefined ? { zone, capacityType } : { zone, capacityType, price });
    }
  }

  const extended: Record<string, number> = {};
  const add = (key: string, n: number | undefined) => {
    if (n && n > 0) extended[key] = (extended[key] ?? 0) + n;
  };
  // Extended resources (aws/karpenter-provider-aws pkg/providers/instancetype/types.go nvidiaGPUs, amdGPUs, habanaGaudis, awsNeuron*, efas).
  for (const g of info.GpuInfo?.Gpus ?? []) {
    if (g.Manufacturer === "NVIDIA") add("nvidia.com/gpu", g.Count);
    if (g.Manufacturer === "AMD") add("amd.com/gpu", g.Count);
    if (g.Manufacturer === "Habana") add("habana.ai/gaudi", g.Count);
  }
  const neuron = info.NeuronInfo?.NeuronDevices ?? [];
  for (const d of neuron) add("aws.amazon.com/neuron", d.Count);
  if (neuron[0]) add("aws.amazon.com/neuroncore", (neuron[0].Count ?? 0) * (neuron[0].CoreInfo?.Count ?? 0));
  add("vpc.amazonaws.com/efa", net?.EfaInfo?.MaximumEfaInterfaces);

  const gpus = info.GpuInfo?.Gpus ?? [];
  const gpu = gpus.length === 1 ? gpus[0] : undefined;
  const accelerators = info.InferenceAcceleratorInfo?.Accelerators ?? [];
  let accelerator: InstanceTypeInfo["accelerator"];
  if (neuron.length === 1) accelerator = { name: kebab(neuron[0]!.Name ?? ""), manufacturer: "aws", count: neuron[0]!.Count ?? 0 };
  else if (accelerators.length === 1 && !info.NeuronInfo) {
    const a = accelerators[0]!;
    accelerator = { name: kebab(a.Name ?? ""), manufacturer: kebab(a.Manufacturer ?? ""), count: a.Count ?? 0 };
  }
  const storage = info.InstanceStorageInfo;
  const ebs = info.EbsInfo;
  const clock = info.ProcessorInfo?.SustainedClockSpeedInGhz;
  return {
    name,
    architecture,
    vcpu,
    memoryMiB,
    maxNetworkInterfaces,
    ipv4PerInterface,
    hypervisor: info.Hypervisor ?? "",
    bareMetal: info.BareMetal === true,
    capacityTypes,
    ...(info.ProcessorInfo?.Manufacturer ? { cpuManufacturer: kebab(info.ProcessorInfo.Manufacturer) } : {}),
    ...(clock !== undefined ? { cpuSustainedClockSpeedMhz: Math.round(clock * 1000) } : {}),
    ...(ebs?.EbsOptimizedSupport === "default" && ebs.EbsOptimizedInfo?.MaximumBandwidthInMbps !== undefined
      ? { ebsBandwidthMbps: ebs.EbsOptimizedInfo.MaximumBandwidthInMbps }
      : {}),
    ...(storage?.TotalSizeInGB !== undefined ? { instanceStorageGB: storage.TotalSizeInGB } : {}),
    ...(storage?.TotalSizeInGB !== undefined && storage.NvmeSupport !== "unsupported" ? { localNvmeGB: storage.TotalSizeInGB } : {}),
    ...(gpu
      ? { gpu: { name: kebab(gpu.Name ?? ""), manufacturer: kebab(gpu.Manufacturer ?? ""), count: gpu.Count ?? 0, memoryMiB: gpu.MemoryInfo?.SizeInMiB ?? 0 } }
      : {}),
    ...(Object.keys(extended).length > 0 ? { extendedResources: extended } : {}),
    ...(accelerator ? { accelerator } : {}),
    encryptionInTransitSupported: net?.EncryptionInTransitSupported === true,
    nitroEnclavesSupported: info.NitroEnclavesSupport === "supported",
    offerings,
  };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Deterministic JSON: keys sorted, offerings sorted by zone then capacity type, two-space indent, trailing newline. */
export function serializeSnapshot(snapshot: InstanceTypeSnapshot): string {
  const normal: InstanceTypeSnapshot = {
    ...snapshot,
    zones: [...snapshot.zones].sort(compareStrings),
    instanceTypes: [...snapshot.instanceTypes]
      .sort((a, b) => compareStrings(a.name, b.name))
      .map((t) => ({
        ...t,
        capacityTypes: [...t.capacityTypes].sort(compareStrings),
        offerings: [...t.offerings].sort((a, b) => compareStrings(a.zone, b.zone) || compareStrings(a.capacityType, b.capacityType)),
      })),
  };
  return `${JSON.stringify(sortKeys(normal), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareStrings)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Reads a snapshot written by `serializeSnapshot`; throws SnapshotError naming the file and the field. */
export function parseSnapshot(text: string, file: string): InstanceTypeSnapshot {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SnapshotError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
  const fail = (path: string, message: string): never => {
    throw new SnapshotError(`${file}: ${path}: ${message}`);
  };
  const root = object(data, "(root)", fail);
  if (root.version !== 1) fail("version", `must be 1 (got ${JSON.stringify(root.version)}); re-create the file with \`eks-gitops capacity refresh\``);
  const region = string(root.region, "region", fail);
  const zones = array(root.zones, "zones", fail).map((z, i) => string(z, `zones[${i}]`, fail));
  const types = array(root.instanceTypes, "instanceTypes", fail).map((t, i) => instanceType(t, `instanceTypes[${i}]`, fail));
  if (types.length === 0) fail("instanceTypes", "must not be empty");
  const priced = types.some((t) => t.offerings.some((o) => o.price !== undefined));
  // Never a price without its source and date.
  if (priced && (root.pricesTakenAt === undefined || root.pricesSource === undefined))
    fail(root.pricesTakenAt === undefined ? "pricesTakenAt" : "pricesSource", `offerings carry prices: the snapshot must say when and where they were taken; re-create the file with \`eks-gitops capacity refresh --prices\``);
  const names = new Set<string>();
  for (const [i, t] of types.entries()) {
    if (names.has(t.name)) fail(`instanceTypes[${i}].name`, `duplicate instance type ${t.name}`);
    names.add(t.name);
    for (const [j, o] of t.offerings.entries()) {
      if (!zones.includes(o.zone)) fail(`instanceTypes[${i}].offerings[${j}].zone`, `${o.zone} is not one of zones (${zones.join(", ")})`);
    }
  }
  return {
    version: 1,
    region,
    zones,
    ...(root.capturedAt !== undefined ? { capturedAt: string(root.capturedAt, "capturedAt", fail) } : {}),
    ...(root.source !== undefined ? { source: string(root.source, "source", fail) } : {}),
    ...(root.pricesTakenAt !== undefined ? { pricesTakenAt: string(root.pricesTakenAt, "pricesTakenAt", fail) } : {}),
    ...(root.pricesSource !== undefined ? { pricesSource: string(root.pricesSource, "pricesSource", fail) } : {}),
    instanceTypes: types,
  };
}

type Fail = (path: string, message: string) => never;

function object(v: unknown, path: string, fail: Fail): Record<string, unknown> {
  if (!v || typeof v !== "object" || Array.isArray(v)) fail(path, "must be an object");
  return v as Record<string, unknown>;
}
function array(v: unknown, path: string, fail: Fail): unknown[] {
  if (!Array.isArray(v)) fail(path, "must be an array");
  return v as unknown[];
}
function string(v: unknown, path: string, fail: Fail): string {
  if (typeof v !== "string" || v === "") fail(path, "must be a non-empty string");
  return v as string;
}
function count(v: unknown, path: string, fail: Fail): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) fail(path, "must be a non-negative integer");
  return v as number;
}
function optionalCount(v: unknown, path: string, fail: Fail): number | undefined {
  return v === undefined ? undefined : count(v, path, fail);
}
function boolean(v: unknown, path: string, fail: Fail): boolean {
  if (typeof v !== "boolean") fail(path, "must be true or false");
  return v as boolean;
}
function capacityType(v: unknown, path: string, fail: Fail): CapacityType {
  if (v !== "on-demand" && v !== "spot") fail(path, `must be "on-demand" or "spot" (got ${JSON.stringify(v)})`);
  return v as CapacityType;
}

function instanceType(v: unknown, path: string, fail: Fail): InstanceTypeInfo {
  const t = object(v, path, fail);
  const offerings = array(t.offerings, `${path}.offerings`, fail).map((o, j): Offering => {
    const op = `${path}.offerings[${j}]`;
    const r = object(o, op, fail);
    const zone = string(r.zone, `${op}.zone`, fail);
    const ct = capacityType(r.capacityType, `${op}.capacityType`, fail);
    if (r.price === undefined) return { zone, capacityType: ct };
    if (typeof r.price !== "number" || !(r.price >= 0)) fail(`${op}.price`, "must be a non-negative number");
    return { zone, capacityType: ct, price: r.price as number };
  });
  const vcpu = count(t.vcpu, `${path}.vcpu`, fail);
  if (vcpu === 0) fail(`${path}.vcpu`, "must be at least 1");
  const memoryMiB = count(t.memoryMiB, `${path}.memoryMiB`, fail);
  if (memoryMiB === 0) fail(`${path}.memoryMiB`, "must be at least 1");
  const out: Record<string, unknown> = {
    name: string(t.name, `${path}.name`, fail),
    architecture: string(t.architecture, `${path}.architecture`, fail),
    vcpu,
    memoryMiB,
    maxNetworkInterfaces: count(t.maxNetworkInterfaces, `${path}.maxNetworkInterfaces`, fail),
    ipv4PerInterface: count(t.ipv4PerInterface, `${path}.ipv4PerInterface`, fail),
    hypervisor: t.hypervisor === "" ? "" : string(t.hypervisor, `${path}.hypervisor`, fail),
    bareMetal: boolean(t.bareMetal, `${path}.bareMetal`, fail),
    capacityTypes: array(t.capacityTypes, `${path}.capacityTypes`, fail).map((c, j) => capacityType(c, `${path}.capacityTypes[${j}]`, fail)),
    offerings,
  };
  if (t.cpuManufacturer !== undefined) out.cpuManufacturer = string(t.cpuManufacturer, `${path}.cpuManufacturer`, fail);
  for (const key of ["cpuSustainedClockSpeedMhz", "ebsBandwidthMbps", "localNvmeGB", "instanceStorageGB"] as const) {
    const n = optionalCount(t[key], `${path}.${key}`, fail);
    if (n !== undefined) out[key] = n;
  }
  for (const key of ["encryptionInTransitSupported", "nitroEnclavesSupported"] as const) {
    if (t[key] !== undefined) out[key] = boolean(t[key], `${path}.${key}`, fail);
  }
  if (t.gpu !== undefined) {
    const g = object(t.gpu, `${path}.gpu`, fail);
    out.gpu = {
      name: string(g.name, `${path}.gpu.name`, fail),
      manufacturer: string(g.manufacturer, `${path}.gpu.manufacturer`, fail),
      count: count(g.count, `${path}.gpu.count`, fail),
      memoryMiB: count(g.memoryMiB, `${path}.gpu.memoryMiB`, fail),
    };
  }
  if (t.accelerator !== undefined) {
    const a = object(t.accelerator, `${path}.accelerator`, fail);
    out.accelerator = {
      name: string(a.name, `${path}.accelerator.name`, fail),
      manufacturer: string(a.manufacturer, `${path}.accelerator.manufacturer`, fail),
      count: count(a.count, `${path}.accelerator.count`, fail),
    };
  }
  if (t.extendedResources !== undefined) {
    const e = object(t.extendedResources, `${path}.extendedResources`, fail);
    out.extendedResources = Object.fromEntries(Object.entries(e).map(([k, n]) => [k, count(n, `${path}.extendedResources.${k}`, fail)]));
  }
  return out as unknown as InstanceTypeInfo;
}

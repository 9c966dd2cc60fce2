// Karpenter's view of one instance type under one EC2NodeClass: capacity, overhead, allocatable and labels.
// Rewritten from aws/karpenter-provider-aws pkg/providers/instancetype/types.go (computeCapacity, memory, pods,
// ENILimitedPods, ephemeralStorage, kubeReservedResources, systemReservedResources, evictionThreshold, computeRequirements).
import { awsTables } from "./aws-tables.ts";
import { formatBytes, formatCpu, parsePercentage, parseQuantity } from "./quantity.ts";
import type { EC2NodeClassInput, InstanceTypeInfo, KubeletInput, ResourceList } from "./types.ts";

/** Amounts by resource name: cpu in millicores, memory and ephemeral-storage in bytes, counts as integers. */
export type Amounts = Record<string, number>;

const MiB = 2 ** 20;
const GiB = 2 ** 30;

/** `--vm-memory-overhead-percent` default (aws/karpenter-provider-aws pkg/operator/options/options.go). */
export const VM_MEMORY_OVERHEAD_PERCENT = 0.075;
/** `--reserved-enis` default. */
export const RESERVED_ENIS = 0;
/** amifamily.DefaultEBS.VolumeSize (aws/karpenter-provider-aws pkg/providers/amifamily/resolver.go). */
export const DEFAULT_ROOT_VOLUME = "20Gi";
/** The Windows AMIs' default root volume (amifamily/windows.go DefaultBlockDeviceMappings: /dev/sda1 50Gi). */
export const WINDOWS_ROOT_VOLUME = "50Gi";
/** `node.kubernetes.io/windows-build` per Windows AMI family (pkg/apis/v1/labels.go Windows20xxBuild). */
export const WINDOWS_BUILDS: Readonly<Record<string, string>> = { Windows2019: "10.0.17763", Windows2022: "10.0.20348", Windows2025: "10.0.26100" };

/** Per-AMI-family switches (aws/karpenter-provider-aws pkg/providers/amifamily: resolver.go DefaultFamily, bottlerocket.go, windows.go FeatureFlags). */
interface FamilyFlags {
  usesEniLimitedMemoryOverhead: boolean;
  podsPerCoreEnabled: boolean;
  supportsEniLimitedPodDensity: boolean;
  windows: boolean;
}
export function familyFlags(amiFamily = "AL2023"): FamilyFlags {
  if (amiFamily === "Bottlerocket") return { usesEniLimitedMemoryOverhead: false, podsPerCoreEnabled: false, supportsEniLimitedPodDensity: true, windows: false };
  if (amiFamily.startsWith("Windows")) return { usesEniLimitedMemoryOverhead: false, podsPerCoreEnabled: true, supportsEniLimitedPodDensity: false, windows: true };
  return { usesEniLimitedMemoryOverhead: true, podsPerCoreEnabled: true, supportsEniLimitedPodDensity: true, windows: false };
}

/** Parses a resource map given as Kubernetes quantities (cpu to millicores). */
export function parseAmounts(quantities: Readonly<Record<string, string | number>> | undefined): Amounts {
  const out: Amounts = {};
  for (const [name, q] of Object.entries(quantities ?? {})) out[name] = parseQuantity(q, name === "cpu" ? 1000 : 1);
  return out;
}

/** Prints amounts the way Karpenter logs NodeClaim requests: cpu `6450m`, memory in bytes, counts as integers. */
export function formatAmounts(amounts: Amounts, style: "karpenter" | "human" = "karpenter"): ResourceList {
  const out: Record<string, string> = {};
  for (const name of Object.keys(amounts).sort()) {
    const v = amounts[name]!;
    if (name === "cpu") out[name] = formatCpu(v);
    else if (style === "human" && (name === "memory" || name === "ephemeral-storage" || name.startsWith("hugepages-"))) out[name] = formatBytes(v);
    else out[name] = String(v);
  }
  return out;
}

/** ENIs x (IPv4 per ENI - 1) + 2 on the default network card (types.go ENILimitedPods; amazon-eks-ami eni-max-pods.txt). */
export function eniLimitedPods(info: InstanceTypeInfo, reservedEnis = RESERVED_ENIS): number {
  const usable = Math.max(info.maxNetworkInterfaces - reservedEnis, 0);
  return usable === 0 ? 0 : usable * (info.ipv4PerInterface - 1) + 2;
}

/** maxPods, else ENI-limited (or 110 for families without ENI-limited density), capped by podsPerCore x vCPU (types.go pods). */
export function podCapacity(info: InstanceTypeInfo, kubelet: KubeletInput = {}, amiFamily?: string): number {
  const flags = familyFlags(amiFamily);
  let count: number;
  if (kubelet.maxPods !== undefined) count = kubelet.maxPods;
  else if (flags.supportsEniLimitedPodDensity) count = eniLimitedPods(info);
  else count = 110;
  if ((kubelet.podsPerCore ?? 0) > 0 && flags.podsPerCoreEnabled) count = Math.min(kubelet.podsPerCore! * info.vcpu, count);
  return count;
}

/** SizeInMiB (minus 64 MiB of CMA on arm64) minus ceil(7.5 %) VM overhead, in bytes (types.go memory). */
export function memoryCapacity(info: InstanceTypeInfo): number {
  const mib = info.memoryMiB - (info.architecture === "arm64" ? 64 : 0);
  const bytes = mib * MiB;
  // Same float64 operations in the same order as upstream, so the ceiling lands on the same MiB.
  const overheadMiB = Math.ceil((bytes * VM_MEMORY_OVERHEAD_PERCENT) / 1024 / 1024);
  return bytes - overheadMiB * MiB;
}

/** The instance store with RAID0, else the root volume, else the AMI family's default: 50Gi on Windows, 20Gi on the others (types.go ephemeralStorage). */
export function ephemeralStorageCapacity(info: InstanceTypeInfo, nodeClass: EC2NodeClassInput | undefined): number {
  if (nodeClass?.instanceStorePolicy === "RAID0" && info.instanceStorageGB !== undefined) return info.instanceStorageGB * 1e9;
  const fallback = familyFlags(nodeClass?.amiFamily).windows ? WINDOWS_ROOT_VOLUME : DEFAULT_ROOT_VOLUME;
  return parseQuantity(nodeClass?.rootVolumeSize ?? fallback);
}

/** CPU kube-reserved: 6 % of the first core, 1 % of the second, 0.5 % of cores 3-4, 0.25 % of the rest (types.go kubeReservedResources, from Bottlerocket). */
export function kubeReservedCpu(cpuMillis: number): number {
  let reserved = 0;
  for (const [start, end, percentage] of [
    [0, 1000, 0.06],
    [1000, 2000, 0.01],
    [2000, 4000, 0.005],
    [4000, 2 ** 31, 0.0025],
  ] as const) {
    if (cpuMillis < start) continue;
    const span = cpuMillis < end ? cpuMillis - start : end - start;
    reserved += Math.trunc(span * percentage);
  }
  return reserved;
}

/** The eviction signal as an amount: a percentage of capacity (rounded up) or a quantity (types.go computeEvictionSignal). */
function evictionSignal(capacity: number, value: string): number {
  if (value.endsWith("%")) return Math.ceil((capacity / 100) * parsePercentage(value));
  return parseQuantity(value);
}

export interface ResolvedInstanceType {
  readonly info: InstanceTypeInfo;
  readonly capacity: Amounts;
  readonly kubeReserved: Amounts;
  readonly systemReserved: Amounts;
  readonly evictionThreshold: Amounts;
  readonly allocatable: Amounts;
}

/** Capacity, overhead and allocatable of an instance type under an EC2NodeClass (types.go NewInstanceType). */
export function resolveInstanceType(info: InstanceTypeInfo, nodeClass?: EC2NodeClassInput): ResolvedInstanceType {
  const kubelet = nodeClass?.kubelet ?? {};
  const flags = familyFlags(nodeClass?.amiFamily);
  const pods = podCapacity(info, kubelet, nodeClass?.amiFamily);
  const memory = memoryCapacity(info);
  const storage = ephemeralStorageCapacity(info, nodeClass);
  const capacity: Amounts = { cpu: info.vcpu * 1000, memory, "ephemeral-storage": storage, pods };
  for (const [name, n] of Object.entries(info.extendedResources ?? {})) capacity[name] = n;
  // Security groups for pods: branch ENIs of trunking-capable types (types.go awsPodENI, from the VPC resource
  // controller's limits table); Windows nodes count secondary IPv4 addresses (types.go privateIPv4Address).
  const table = awsTables()[info.name];
  if (table?.branchInterfaces) capacity["vpc.amazonaws.com/pod-eni"] = table.branchInterfaces;
  if (flags.windows && info.architecture === "amd64" && table?.ipv4PerInterface) capacity["vpc.amazonaws.com/PrivateIPv4Address"] = table.ipv4PerInterface - 1;

  // Memory kube-reserved counts ENI-limited pods (reserved ENIs 0) on AL2/AL2023 even when maxPods is set.
  const podsForMemory = flags.usesEniLimitedMemoryOverhead ? eniLimitedPods(info, 0) : pods;
  const kubeReserved: Amounts = {
    cpu: kubeReservedCpu(capacity.cpu!),
    memory: (11 * podsForMemory + 255) * MiB,
    "ephemeral-storage": GiB,
    ...parseAmounts(kubelet.kubeReserved),
  };
  const systemReserved = parseAmounts(kubelet.systemReserved);
  const evictionThreshold: Amounts = { memory: 100 * MiB, "ephemeral-storage": Math.ceil((storage / 100) * 10) };
  const hard = kubelet.evictionHard ?? {};
  if (hard["memory.available"] !== undefined) evictionThreshold.memory = evictionSignal(memory, hard["memory.available"]);
  if (hard["nodefs.available"] !== undefined) evictionThreshold["ephemeral-storage"] = evictionSignal(storage, hard["nodefs.available"]);

  // allocatable = capacity - (kubeReserved + systemReserved + evictionThreshold), per resource (karpenter pkg/cloudprovider/types.go
  // computeAllocatable); a negative result is kept, as upstream (a1.large with 8Gi systemReserved: memory -5386534912).
  const allocatable: Amounts = {};
  for (const [name, cap] of Object.entries(capacity)) {
    const overhead = (kubeReserved[name] ?? 0) + (systemReserved[name] ?? 0) + (evictionThreshold[name] ?? 0);
    allocatable[name] = cap - overhead;
  }
  return { info, capacity, kubeReserved, systemReserved, evictionThreshold, allocatable };
}

/** The same, printed: cpu `7910m`, memory `13215Mi`, ephemeral-storage `17Gi`, pods `58`. */
export function describeInstanceType(
  info: InstanceTypeInfo,
  nodeClass?: EC2NodeClassInput,
): { capacity: ResourceList; kubeReserved: ResourceList; systemReserved: ResourceList; evictionThreshold: ResourceList; allocatable: ResourceList } {
  const r = resolveInstanceType(info, nodeClass);
  return {
    capacity: formatAmounts(r.capacity, "human"),
    kubeReserved: formatAmounts(r.kubeReserved, "human"),
    systemReserved: formatAmounts(r.systemReserved, "human"),
    evictionThreshold: formatAmounts(r.evictionThreshold, "human"),
    allocatable: formatAmounts(r.allocatable, "human"),
  };
}

/** `c6gn.xlarge` -> category `c`, generation `6` (types.go instanceTypeScheme `(^[a-z]+)(\-[0-9]+tb)?([0-9]+).*\.`). */
export function categoryAndGeneration(name: string): { category: string; generation: string } | undefined {
  const m = /^([a-z]+)(-\d+tb)?(\d+)[^.]*\./.exec(name);
  return m ? { category: m[1]!, generation: m[3]! } : undefined;
}

/**
 * The single-valued labels an instance type defines (types.go computeRequirements); `undefined` = the type defines
 * the key with DoesNotExist. Zone and capacity type come from the offerings; tenancy is `default` or `dedicated`.
 * `instance-network-bandwidth` comes from the provider's generated table (aws-tables.ts). Not modelled:
 * `topology.k8s.aws/zone-id` (from the subnets): left undefined so requirements on it are not checked.
 */
export function instanceTypeLabels(info: InstanceTypeInfo, region: string, amiFamily?: string): Map<string, string | undefined> {
  const labels = new Map<string, string | undefined>();
  const set = (k: string, v: string | undefined) => labels.set(k, v);
  const windows = familyFlags(amiFamily).windows;
  set("node.kubernetes.io/instance-type", info.name);
  set("kubernetes.io/arch", info.architecture);
  set("kubernetes.io/os", windows ? (info.architecture === "amd64" ? "windows" : undefined) : "linux");
  set("topology.kubernetes.io/region", region);
  set("node.kubernetes.io/windows-build", windows ? WINDOWS_BUILDS[amiFamily ?? ""] : undefined);
  set("karpenter.k8s.aws/instance-cpu", String(info.vcpu));
  set("karpenter.k8s.aws/instance-cpu-manufacturer", info.cpuManufacturer);
  // Upstream inserts round(GHz x 1000) whenever ProcessorInfo exists: "0" for types EC2 gives no clock speed.
  set("karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz", String(info.cpuSustainedClockSpeedMhz ?? 0));
  set("karpenter.k8s.aws/instance-memory", String(info.memoryMiB));
  set("karpenter.k8s.aws/instance-ebs-bandwidth", info.ebsBandwidthMbps?.toString());
  set("karpenter.k8s.aws/instance-network-bandwidth", awsTables()[info.name]?.networkBandwidthMbps?.toString());
  const cg = categoryAndGeneration(info.name);
  set("karpenter.k8s.aws/instance-category", cg?.category);
  set("karpenter.k8s.aws/instance-generation", cg?.generation);
  const parts = info.name.split(".");
  set("karpenter.k8s.aws/instance-family", parts.length === 2 ? parts[0] : undefined);
  set("karpenter.k8s.aws/instance-size", parts.length === 2 ? parts[1] : undefined);
  set("karpenter.k8s.aws/instance-capability-flex", parts[0]!.includes("-flex") ? "true" : "false");
  set("karpenter.k8s.aws/instance-local-nvme", info.localNvmeGB?.toString());
  set("karpenter.k8s.aws/instance-gpu-name", info.gpu?.name);
  set("karpenter.k8s.aws/instance-gpu-manufacturer", info.gpu?.manufacturer);
  set("karpenter.k8s.aws/instance-gpu-count", info.gpu?.count.toString());
  set("karpenter.k8s.aws/instance-gpu-memory", info.gpu?.memoryMiB.toString());
  set("karpenter.k8s.aws/instance-accelerator-name", info.accelerator?.name);
  set("karpenter.k8s.aws/instance-accelerator-manufacturer", info.accelerator?.manufacturer);
  set("karpenter.k8s.aws/instance-accelerator-count", info.accelerator?.count.toString());
  set("karpenter.k8s.aws/instance-hypervisor", info.hypervisor);
  set("karpenter.k8s.aws/instance-encryption-in-transit-supported", String(info.encryptionInTransitSupported === true));
  set("karpenter.k8s.aws/capacity-reservation-id", undefined);
  set("karpenter.k8s.aws/capacity-reservation-type", undefined);
  set("karpenter.k8s.aws/capacity-reservation-interruptible", undefined);
  return labels;
}

/** Tenancies every type offers (types.go computeRequirements LabelInstanceTenancy). */
export const TENANCIES: readonly string[] = ["default", "dedicated"];

// The data model of the capacity simulation: the instance-type snapshot, the simulation input and its result.

/** A Karpenter capacity type (label `karpenter.sh/capacity-type`); `reserved`: an EC2 capacity reservation. */
export type CapacityType = "on-demand" | "spot" | "reserved";

/** One place an instance type can be launched: an availability zone and a capacity type. */
export interface Offering {
  readonly zone: string;
  readonly capacityType: CapacityType;
  /** USD per hour, when the snapshot was given prices. */
  readonly price?: number;
  /** A `reserved` offering's capacity reservation (never in a snapshot: made from the EC2NodeClass's reservations). */
  readonly reservation?: CapacityReservationInput;
}

/**
 * One EC2 capacity reservation an EC2NodeClass selects, as Karpenter records it in the EC2NodeClass's
 * `status.capacityReservations` after resolving `spec.capacityReservationSelectorTerms` (DescribeCapacityReservations).
 */
export interface CapacityReservationInput {
  /** `cr-` and lower-case hex, e.g. `cr-0123456789abcdef0`. */
  readonly id: string;
  readonly instanceType: string;
  /** The reservation's availability zone. */
  readonly zone: string;
  /** Instances still free in the reservation (`AvailableInstanceCount`). */
  readonly availableInstanceCount: number;
  /** @default "default" */
  readonly reservationType?: "default" | "capacity-block";
  /** The AWS account that owns it (12 digits). @default the cluster's account (not checked) */
  readonly ownerId?: string;
  /** @default false */
  readonly interruptible?: boolean;
  /** `expiring`: a capacity block inside EC2's 40-minute reclaim window; Karpenter launches nothing into it. @default "active" */
  readonly state?: "active" | "expiring";
}

/**
 * One EC2 instance type, reduced to the fields the simulation uses (from DescribeInstanceTypes).
 * Names follow the EC2 fields they come from.
 */
export interface InstanceTypeInfo {
  /** `InstanceType`, e.g. `c4.2xlarge`. */
  readonly name: string;
  /** Kubernetes architecture (`amd64`, `arm64`), from `ProcessorInfo.SupportedArchitectures`. */
  readonly architecture: string;
  /** `VCpuInfo.DefaultVCpus`. */
  readonly vcpu: number;
  /** `MemoryInfo.SizeInMiB`. */
  readonly memoryMiB: number;
  /** `NetworkInfo.NetworkCards[DefaultNetworkCardIndex].MaximumNetworkInterfaces` (the VPC CNI only uses that card). */
  readonly maxNetworkInterfaces: number;
  /** `NetworkInfo.Ipv4AddressesPerInterface`. */
  readonly ipv4PerInterface: number;
  /** `Hypervisor` (`nitro`, `xen`), empty for bare metal. */
  readonly hypervisor: string;
  readonly bareMetal: boolean;
  /** `SupportedUsageClasses` restricted to on-demand and spot. */
  readonly capacityTypes: readonly CapacityType[];
  /** `ProcessorInfo.Manufacturer` in lower kebab case (`intel`, `amd`, `aws`). */
  readonly cpuManufacturer?: string;
  /** `ProcessorInfo.SustainedClockSpeedInGhz` x 1000, rounded. */
  readonly cpuSustainedClockSpeedMhz?: number;
  /** `EbsInfo.EbsOptimizedInfo.MaximumBandwidthInMbps` when EBS optimisation is on by default. */
  readonly ebsBandwidthMbps?: number;
  /** `InstanceStorageInfo.TotalSizeInGB` when the local disks are NVMe. */
  readonly localNvmeGB?: number;
  /** `InstanceStorageInfo.TotalSizeInGB` (any disk type), for `instanceStorePolicy: RAID0`. */
  readonly instanceStorageGB?: number;
  /** The single GPU model (labels `karpenter.k8s.aws/instance-gpu-*`), when the type has exactly one. */
  readonly gpu?: { readonly name: string; readonly manufacturer: string; readonly count: number; readonly memoryMiB: number };
  /** Extended resources the type offers: `nvidia.com/gpu`, `amd.com/gpu`, `aws.amazon.com/neuron`, `aws.amazon.com/neuroncore`, `habana.ai/gaudi`, `vpc.amazonaws.com/efa`. */
  readonly extendedResources?: Readonly<Record<string, number>>;
  /** The single inference accelerator / Neuron device (labels `karpenter.k8s.aws/instance-accelerator-*`). */
  readonly accelerator?: { readonly name: string; readonly manufacturer: string; readonly count: number };
  readonly encryptionInTransitSupported?: boolean;
  readonly nitroEnclavesSupported?: boolean;
  /** Zones x capacity types where the type can be launched (DescribeInstanceTypeOfferings x SupportedUsageClasses). */
  readonly offerings: readonly Offering[];
}

/** The instance-type data of one region, as committed under `clusters/<name>/capacity/`. */
export interface InstanceTypeSnapshot {
  /** Format version of this file; bumped when a field changes meaning. */
  readonly version: 1;
  readonly region: string;
  /** Availability zones that have at least one offering, sorted. */
  readonly zones: readonly string[];
  /** When the data was taken (ISO date, given by the caller: this package has no clock). */
  readonly capturedAt?: string;
  /** Where the data came from, e.g. `ec2:DescribeInstanceTypes` or `moto 5.2.5`. */
  readonly source?: string;
  /** When the offerings' prices were taken (ISO timestamp), when the snapshot has prices. */
  readonly pricesTakenAt?: string;
  /** Where the prices came from, e.g. `pricing:GetProducts (AmazonEC2) + ec2:DescribeSpotPriceHistory`. */
  readonly pricesSource?: string;
  /** Sorted by name. */
  readonly instanceTypes: readonly InstanceTypeInfo[];
}

/** Kubernetes resource quantities by resource name, e.g. `{ cpu: "450m", memory: "153Mi" }`. */
export type ResourceQuantities = Readonly<Record<string, string | number>>;

export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
}

export interface Toleration {
  readonly key?: string;
  /** @default "Equal" */
  readonly operator?: "Exists" | "Equal";
  readonly value?: string;
  /** Empty or absent: every effect. */
  readonly effect?: TaintEffect | "";
}

export type RequirementOperator = "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" | "Gte" | "Lte";

/** A node selector requirement (pod affinity term) or a NodePool requirement (with `minValues`). */
export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: RequirementOperator;
  readonly values?: readonly string[];
  /** NodePools only: the least number of distinct values of this key the candidate instance types must span. */
  readonly minValues?: number;
}

/** A required node affinity term: all its expressions must hold (terms are ORed). */
export interface NodeSelectorTerm {
  readonly matchExpressions?: readonly NodeSelectorRequirement[];
}

/** Capacity Karpenter does not manage: one EKS managed node group. */
export interface NodeGroupInput {
  readonly name: string;
  readonly instanceType: string;
  readonly count: number;
  /** @default "on-demand" */
  readonly capacityType?: "on-demand" | "spot";
  /** Zones the nodes are spread over (round-robin); @default the snapshot's zones. */
  readonly zones?: readonly string[];
  /** Labels besides the ones every EKS node gets (instance type, arch, os, zone, `eks.amazonaws.com/capacityType`, `eks.amazonaws.com/nodegroup`). */
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
  /** Kubelet settings of the node group's AMI; @default the EKS AL2023 defaults (same arithmetic as Karpenter's). */
  readonly kubelet?: KubeletInput;
}

/** A pod that runs on every node it tolerates and matches. */
export interface DaemonSetInput {
  /** `namespace/name` or a plain name. */
  readonly name: string;
  readonly requests: ResourceQuantities;
  readonly tolerations?: readonly Toleration[];
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly requiredNodeAffinity?: readonly NodeSelectorTerm[];
}

/** A workload: `replicas` identical pods. */
export interface WorkloadInput {
  readonly namespace: string;
  readonly name: string;
  /** @default "Deployment" */
  readonly kind?: string;
  /** The replica count of this scenario. */
  readonly replicas: number;
  /** The HPA bounds when an HPA targets the workload (used by `sweep`). */
  readonly hpa?: { readonly minReplicas: number; readonly maxReplicas: number };
  readonly requests: ResourceQuantities;
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly requiredNodeAffinity?: readonly NodeSelectorTerm[];
  readonly tolerations?: readonly Toleration[];
  /** Required pod anti-affinity on `kubernetes.io/hostname` against its own replicas: at most one replica per node. */
  readonly onePerNode?: boolean;
  /**
   * A `topologySpreadConstraints` entry on `topology.kubernetes.io/zone` with `whenUnsatisfiable: DoNotSchedule` over
   * the workload's own pods (the Karpenter chart sets maxSkew 1). ScheduleAnyway constraints are preferences: leave them out.
   */
  readonly zoneSpread?: { readonly maxSkew: number };
  /**
   * A `topologySpreadConstraints` entry on `kubernetes.io/hostname` with `whenUnsatisfiable: DoNotSchedule` over the
   * workload's own pods: kube-scheduler keeps count + 1 - min <= maxSkew over the node-group nodes the pod may use;
   * Karpenter always counts a new NodeClaim as a domain with 0 pods, so at most maxSkew replicas share a NodeClaim.
   */
  readonly hostnameSpread?: { readonly maxSkew: number };
  /**
   * Scheduling constraints of the pod template the simulation does not model (e.g. `topologySpreadConstraints[1]: ScheduleAnyway`,
   * `affinity.podAffinity`), one sentence each: reported on the workload's result, never silently dropped.
   */
  readonly unmodelled?: readonly string[];
  /** Pods of a higher priority are placed first; @default 0. */
  readonly priority?: number;
}

/** The kubelet block of an EC2NodeClass (or of a node group's launch template). */
export interface KubeletInput {
  readonly maxPods?: number;
  readonly podsPerCore?: number;
  readonly kubeReserved?: Readonly<Record<string, string>>;
  readonly systemReserved?: Readonly<Record<string, string>>;
  /** e.g. `{ "memory.available": "5%", "nodefs.available": "10%" }`. */
  readonly evictionHard?: Readonly<Record<string, string>>;
}

export interface EC2NodeClassInput {
  readonly name: string;
  /** @default "AL2023" (from the `amiSelectorTerms` alias; `Bottlerocket`, `AL2`, `Windows2022`, `Custom` change the defaults) */
  readonly amiFamily?: string;
  readonly kubelet?: KubeletInput;
  /** Root volume size from `blockDeviceMappings` (the mapping with `rootVolume: true`), e.g. `"20Gi"`; @default 20Gi. */
  readonly rootVolumeSize?: string;
  /** `RAID0`: ephemeral-storage is the instance store. */
  readonly instanceStorePolicy?: "RAID0";
  /** Zones of the subnets the EC2NodeClass selects; @default every zone of the snapshot. */
  readonly zones?: readonly string[];
  /**
   * The capacity reservations `spec.capacityReservationSelectorTerms` selects (what Karpenter puts in
   * `status.capacityReservations`), each a `reserved` offering of its instance type. @default none
   */
  readonly capacityReservations?: readonly CapacityReservationInput[];
  /** What the EC2NodeClass asks for that this input cannot carry (e.g. reservation selector terms nobody resolved): listed in the result. */
  readonly unmodelled?: readonly string[];
}

export interface DisruptionInput {
  /** @default "WhenEmptyOrUnderutilized" */
  readonly consolidationPolicy?: "WhenEmpty" | "WhenEmptyOrUnderutilized";
  /** e.g. `"1m"`, `"Never"`; @default "0s" */
  readonly consolidateAfter?: string;
}

export interface NodePoolInput {
  readonly name: string;
  /** Higher first; @default 0. */
  readonly weight?: number;
  /** The EC2NodeClass (`spec.template.spec.nodeClassRef.name`). */
  readonly nodeClass: string;
  readonly requirements?: readonly NodeSelectorRequirement[];
  /** `spec.template.metadata.labels`. */
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
  /** `spec.limits`, e.g. `{ cpu: "1000", memory: "1000Gi" }`. */
  readonly limits?: ResourceQuantities;
  readonly disruption?: DisruptionInput;
}

export interface SimulationInput {
  /** Cluster name, shown in reports. */
  readonly cluster?: string;
  /** The cluster's region; when set, the snapshot must be of the same region. */
  readonly region?: string;
  readonly nodeGroups: readonly NodeGroupInput[];
  readonly daemonSets: readonly DaemonSetInput[];
  readonly workloads: readonly WorkloadInput[];
  readonly nodePools: readonly NodePoolInput[];
  readonly nodeClasses: readonly EC2NodeClassInput[];
}

/** Resource amounts as Karpenter logs them: cpu in millicores (`"6450m"`), memory and storage in bytes, counts as integers. */
export type ResourceList = Readonly<Record<string, string>>;

/** Why a pod stays Pending. */
export type PendingReason =
  /** Every NodePool that could take it has reached its `limits`. */
  | "limit-reached"
  /** No node, node group or NodePool matches its node selector / affinity / tolerations, or no instance type matches the NodePool and the pod together. */
  | "nothing-matches"
  /** Matching instance types exist, but none has enough allocatable for the pod (plus DaemonSets). */
  | "too-big"
  /**
   * A NodePool the pod fits has compatible capacity reservations, but this batch's NodeClaims hold all of them: Karpenter
   * neither falls back to other capacity nor to a lighter NodePool (provisioner.go DisableReservedCapacityFallback) and
   * tries again in its next batch.
   */
  | "reservation-exhausted";

export interface PendingPod {
  /** `namespace/name-N`; for a group of identical pods, `namespace/name-N..namespace/name-M`. */
  readonly pod: string;
  /** `namespace/name` of the workload. */
  readonly workload: string;
  readonly reason: PendingReason;
  /** One sentence a person can act on. */
  readonly message: string;
  /** Pods in this entry, when it stands for a group of identical pods that stay Pending for the same reason. @default 1 */
  readonly count?: number;
}

/** A node of a managed node group, with what landed on it. */
export interface ExistingNodeResult {
  /** `<nodeGroup>-<n>` (1-based). */
  readonly name: string;
  readonly nodeGroup: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly allocatable: ResourceList;
  /** Sum of the requests of every pod on the node, DaemonSets included. */
  readonly requested: ResourceList;
  /** Workload pods, in placement order. */
  readonly pods: readonly string[];
  readonly daemonSetPods: readonly string[];
}

export interface Candidate {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly price: number;
}

/** A node Karpenter would create. */
export interface NodeClaimResult {
  /** `<nodePool>-<n>` (1-based per NodePool). */
  readonly name: string;
  readonly nodePool: string;
  readonly nodeClass: string;
  /** Pods + DaemonSet overhead, as in Karpenter's `created nodeclaim` log line. */
  readonly requests: ResourceList;
  readonly pods: readonly string[];
  readonly daemonSetPods: readonly string[];
  /** Every instance type that fits, in the order Karpenter logs them. */
  readonly instanceTypes: readonly string[];
  /** Capacity types and zones still possible for this NodeClaim. */
  readonly capacityTypes: readonly CapacityType[];
  readonly zones: readonly string[];
  /** The first five candidates (as listed) with their allocatable under the NodeClaim's EC2NodeClass. */
  readonly firstCandidates: readonly { readonly instanceType: string; readonly allocatable: ResourceList }[];
  /** The cheapest offering among the candidates, when the snapshot has prices. */
  readonly cheapest?: Candidate;
  /**
   * How many identical NodeClaims this entry stands for (a workload that fills NodeClaims past the pod-by-pod bound:
   * see scale.ts); `name` is then `<nodePool>-<first>..<nodePool>-<last>` and `pods` are the first one's. @default 1
   */
  readonly count?: number;
}

export interface NodePoolUsage {
  readonly name: string;
  readonly weight: number;
  readonly nodeClaims: number;
  readonly limits: ResourceList;
  /** Capacity of the NodeClaims at the type each likely launches as: the cheapest offering with prices, else the smallest candidate. */
  readonly used: ResourceList;
  /** Capacity as Karpenter's scheduler counts it within one batch: the largest candidate of each. */
  readonly usedAtMost: ResourceList;
  /** `limits - used` for every limited resource. */
  readonly headroom: ResourceList;
  readonly consolidationPolicy: "WhenEmpty" | "WhenEmptyOrUnderutilized";
  readonly consolidateAfter: string;
}

export interface WorkloadResult {
  readonly workload: string;
  readonly replicas: number;
  /** Placed by kube-scheduler on node-group nodes: Running at once. */
  readonly onExistingNodes: number;
  /** Pending until Karpenter's new NodeClaims join, then Running on them. */
  readonly onNodeClaims: number;
  /** Stay Pending: see `SimulationResult.pending` for why. */
  readonly pending: number;
  /** Constraints of the pod template left out of the model (from `WorkloadInput.unmodelled`): the numbers may be off. */
  readonly unmodelled?: readonly string[];
}

export interface SimulationResult {
  readonly cluster?: string;
  readonly region: string;
  readonly nodes: readonly ExistingNodeResult[];
  readonly nodeClaims: readonly NodeClaimResult[];
  readonly pending: readonly PendingPod[];
  readonly nodePools: readonly NodePoolUsage[];
  readonly workloads: readonly WorkloadResult[];
  /** EC2NodeClass settings left out of the model (from `EC2NodeClassInput.unmodelled`), each naming its EC2NodeClass. */
  readonly unmodelled?: readonly string[];
}

export interface SweepPoint {
  readonly replicas: number;
  /** Nodes of managed node groups (the same at every point). */
  readonly existingNodes: number;
  /** NodeClaims Karpenter would add. */
  readonly nodeClaims: number;
  /** Pods of the swept workload kube-scheduler cannot place on existing nodes (Pending until Karpenter's nodes join). */
  readonly pendingBeforeKarpenter: number;
  /** Pods of every workload that stay Pending even with Karpenter's nodes. */
  readonly pending: number;
}

export interface SweepResult {
  readonly cluster?: string;
  readonly workload: string;
  readonly points: readonly SweepPoint[];
}

/** What Karpenter's disruption controller does after a scale-down. */
export interface ConsolidationNote {
  readonly nodeClaim: string;
  readonly nodePool: string;
  /** `empty`: no workload pod left; `underutilized`: its pods fit elsewhere; `kept`. */
  readonly state: "empty" | "underutilized" | "kept";
  readonly consolidationPolicy: "WhenEmpty" | "WhenEmptyOrUnderutilized";
  readonly consolidateAfter: string;
  /** e.g. `empty after scale-down: WhenEmptyOrUnderutilized deletes it after 1m (consolidateAfter)`. */
  readonly message: string;
}

// The typed shape of a cluster overlay: what a platform engineer writes in clusters/<name>/cluster.ts.

/** AWS partitions we render ARNs and service principals for. */
export type Partition = "aws" | "aws-cn" | "aws-us-gov";

/** A Karpenter duration: `30s`, `1m`, `720h`, `1h30m`. */
export type Duration = `${number}${"s" | "m" | "h"}` | `${number}h${number}m` | `${number}m${number}s`;

/** A Kubernetes resource quantity as a string (`"2"`, `"500m"`, `"4G"`, `"1Gi"`, `"1000Gi"`). */
export type Quantity = `${number}` | `${number}${"m" | "k" | "M" | "G" | "T" | "P" | "E" | "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei"}`;

/** Operators Karpenter 1.14 accepts in NodePool requirements. */
export type RequirementOperator = "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" | "Gte" | "Lte";

/** Values of `karpenter.sh/capacity-type`. */
export type CapacityType = "spot" | "on-demand" | "reserved";

/** `WhenEmpty` or `WhenEmptyOrUnderutilized` (the v1beta1 `WhenUnderutilized` no longer exists). */
export type ConsolidationPolicy = "WhenEmpty" | "WhenEmptyOrUnderutilized";

/** AMI families that EC2NodeClass `amiSelectorTerms[].alias` accepts (`family@version`). */
export type AmiAliasFamily = "al2" | "al2023" | "bottlerocket" | "windows2019" | "windows2022" | "windows2025";

/** Well-known label keys used in requirements; any other qualified key is accepted too. */
export type WellKnownLabel =
  | "kubernetes.io/arch"
  | "kubernetes.io/os"
  | "karpenter.sh/capacity-type"
  | "karpenter.k8s.aws/instance-category"
  | "karpenter.k8s.aws/instance-family"
  | "karpenter.k8s.aws/instance-generation"
  | "karpenter.k8s.aws/instance-size"
  | "karpenter.k8s.aws/instance-cpu"
  | "karpenter.k8s.aws/instance-memory"
  | "node.kubernetes.io/instance-type"
  | "topology.kubernetes.io/zone";

export interface NodeRequirement {
  /** Label key, e.g. `karpenter.sh/capacity-type`. */
  readonly key: WellKnownLabel | (string & {});
  readonly operator: RequirementOperator;
  /** Values; required for In/NotIn (at least one), exactly one integer for Gt/Lt/Gte/Lte, absent for Exists/DoesNotExist. */
  readonly values?: readonly string[];
  /** Minimum number of distinct values Karpenter must keep flexible. @default unset */
  readonly minValues?: number;
}

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
}

export interface DisruptionBudget {
  /** Max nodes disrupted at once: a count (`"10"`) or a percentage (`"10%"`). */
  readonly nodes: string;
  /** Cron schedule during which the budget is active. @default always active */
  readonly schedule?: string;
  /** How long the budget is active after each schedule hit; required with `schedule`. */
  readonly duration?: Duration;
  /** Disruption reasons this budget applies to. @default all */
  readonly reasons?: readonly ("Underutilized" | "Empty" | "Drifted")[];
}

export interface NodePoolInput {
  /** metadata.name of the NodePool. */
  readonly name: string;
  /** Name of an EC2NodeClass declared in the same overlay. */
  readonly nodeClass: string;
  /** Labels put on every node (template.metadata.labels). @default {} */
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
  readonly requirements: readonly NodeRequirement[];
  /** Node lifetime before replacement. @default "720h" */
  readonly expireAfter?: Duration | "Never";
  /** Max time a draining node waits for pods. @default unset (wait forever) */
  readonly terminationGracePeriod?: Duration;
  /** Total capacity the pool may launch. @default no limit */
  readonly limits?: { readonly cpu?: Quantity | number; readonly memory?: Quantity };
  readonly disruption?: {
    /** @default "WhenEmptyOrUnderutilized" */
    readonly consolidationPolicy?: ConsolidationPolicy;
    /** @default "1m" */
    readonly consolidateAfter?: Duration | "Never";
    /** @default Karpenter's own default (10% of nodes) */
    readonly budgets?: readonly DisruptionBudget[];
  };
  /** Priority among NodePools (1..100, higher wins). @default unset */
  readonly weight?: number;
}

export type SelectorTerm = { readonly tags: Readonly<Record<string, string>> } | { readonly id: string };

export type AmiSelectorTerm =
  | { readonly alias: `${AmiAliasFamily}@${string}` }
  | { readonly id: string }
  | { readonly name: string; readonly owner?: string }
  | { readonly tags: Readonly<Record<string, string>> };

/** A kubelet threshold or reservation: a quantity (`"100Mi"`) or, for eviction signals, a percentage (`"10%"`). */
export type QuantityOrPercent = Quantity | `${number}%`;

/** Resources the kubelet holds back from pods (`kubeReserved`, `systemReserved`). */
export interface ReservedResources {
  readonly cpu?: Quantity;
  readonly memory?: Quantity;
  readonly "ephemeral-storage"?: Quantity;
  readonly pid?: Quantity;
}

/** Kubelet settings of an EC2NodeClass (`spec.kubelet`); each unset field keeps Karpenter's default. */
export interface KubeletInput {
  /** Pods per node. @default ENI-limited: ENIs x (IPv4 per ENI - 1) + 2 */
  readonly maxPods?: number;
  /** Pods per vCPU; caps maxPods when set. @default unset */
  readonly podsPerCore?: number;
  /** @default Karpenter's: CPU 6% of the first core, 1% of the second, 0.5% of cores 3-4, 0.25% of the rest; memory 11Mi x pods + 255Mi; ephemeral-storage 1Gi */
  readonly kubeReserved?: ReservedResources;
  /** @default none */
  readonly systemReserved?: ReservedResources;
  /** Hard eviction thresholds by signal. @default `{ "memory.available": "100Mi", "nodefs.available": "10%" }` */
  readonly evictionHard?: Readonly<
    Partial<Record<"memory.available" | "nodefs.available" | "nodefs.inodesFree" | "imagefs.available" | "imagefs.inodesFree" | "pid.available", QuantityOrPercent>>
  >;
}

/** An EBS volume of an EC2NodeClass (`spec.blockDeviceMappings[]`). */
export interface BlockDeviceMappingInput {
  /** e.g. `/dev/xvda` (the root device of AL2 and AL2023). */
  readonly deviceName: string;
  /** The node's root volume; its size becomes the node's ephemeral-storage. @default false */
  readonly rootVolume?: boolean;
  readonly ebs: {
    /** e.g. `"100Gi"`. */
    readonly volumeSize: Quantity;
    /** @default "gp3" */
    readonly volumeType?: "standard" | "io1" | "io2" | "gp2" | "sc1" | "st1" | "gp3";
    /** @default true */
    readonly encrypted?: boolean;
    /** @default true */
    readonly deleteOnTermination?: boolean;
    /** Provisioned IOPS (io1, io2, gp3). @default the volume type's baseline */
    readonly iops?: number;
    /** Throughput in MiB/s (gp3). @default 125 */
    readonly throughput?: number;
  };
}

export interface EC2NodeClassInput {
  /** metadata.name of the EC2NodeClass. */
  readonly name: string;
  /** IAM role name for nodes (Karpenter creates the instance profile). @default the overlay's node role, `KarpenterNodeRole-<cluster>` */
  readonly role?: string;
  readonly amiSelectorTerms: readonly AmiSelectorTerm[];
  /** @default `[{ tags: { "karpenter.sh/discovery": <cluster> } }]` */
  readonly subnetSelectorTerms?: readonly SelectorTerm[];
  /** @default `[{ tags: { "karpenter.sh/discovery": <cluster> } }]` */
  readonly securityGroupSelectorTerms?: readonly SelectorTerm[];
  /** Extra EC2 tags on launched instances. @default {} */
  readonly tags?: Readonly<Record<string, string>>;
  /** Kubelet configuration (max pods, reservations, eviction). @default unset: Karpenter's defaults */
  readonly kubelet?: KubeletInput;
  /** EBS volumes; the one with `rootVolume: true` sizes ephemeral-storage. @default unset: the AMI family's (a 20Gi root volume) */
  readonly blockDeviceMappings?: readonly BlockDeviceMappingInput[];
}

/** A Kubernetes toleration, as in a pod spec. */
export interface Toleration {
  /** @default unset: with `operator: "Exists"`, every taint */
  readonly key?: string;
  /** @default "Equal" */
  readonly operator?: "Equal" | "Exists";
  readonly value?: string;
  /** @default unset: every effect */
  readonly effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
}

/**
 * A managed node group that Karpenter does not manage (EKS managed or self-managed): capacity that is
 * already there. Not rendered; `eks-gitops simulate` schedules pods onto it first, as kube-scheduler would.
 */
export interface NodeGroupInput {
  /** Node group name; also the `eks.amazonaws.com/nodegroup` label. */
  readonly name: string;
  /** EC2 instance type, e.g. `t3.2xlarge`. */
  readonly instanceType: string;
  /** Number of nodes (the group's desired size). */
  readonly count: number;
  /** @default "ON_DEMAND" */
  readonly capacityType?: "ON_DEMAND" | "SPOT" | "CAPACITY_BLOCK";
  /** Extra node labels; `eks.amazonaws.com/capacityType` and `eks.amazonaws.com/nodegroup` are always set, as EKS sets them. @default {} */
  readonly labels?: Readonly<Record<string, string>>;
  /** @default [] */
  readonly taints?: readonly Taint[];
  /** Pods per node. @default ENI-limited (the EKS AMI's max-pods): ENIs x (IPv4 per ENI - 1) + 2 */
  readonly maxPods?: number;
}

/** A DaemonSet: one pod of it runs on every node whose taints it tolerates. Not rendered; used by `simulate`. */
export interface DaemonSetInput {
  readonly name: string;
  /** @default "kube-system" */
  readonly namespace?: string;
  /** Requests of the whole pod (sum of its containers). @default {} */
  readonly requests?: ResourceList;
  /** @default [] (runs only on untainted nodes) */
  readonly tolerations?: readonly Toleration[];
}

export interface ResourceList {
  readonly cpu?: Quantity;
  readonly memory?: Quantity;
}

export interface HorizontalAutoscalingInput {
  /** @default 1 */
  readonly minReplicas?: number;
  readonly maxReplicas: number;
  /** Target average CPU utilisation in percent of the request. */
  readonly targetCpuUtilizationPercent: number;
}

export interface LoadBalancerServiceInput {
  /** metadata.name of the Service. */
  readonly name: string;
  /** @default "LoadBalancer" */
  readonly type?: "LoadBalancer" | "ClusterIP" | "NodePort";
  /** e.g. `service.k8s.aws/nlb` for the AWS Load Balancer Controller. @default unset */
  readonly loadBalancerClass?: string;
  /** @default {} */
  readonly annotations?: Readonly<Record<string, string>>;
  /** @default 80 */
  readonly port?: number;
  /** @default the container port */
  readonly targetPort?: number;
}

export interface WebAppInput {
  /** Deployment name. */
  readonly name: string;
  readonly namespace: string;
  readonly image: string;
  /** @default "IfNotPresent" */
  readonly imagePullPolicy?: "Always" | "IfNotPresent" | "Never";
  /** Pod and selector labels. */
  readonly labels: Readonly<Record<string, string>>;
  /** @default 80 */
  readonly containerPort?: number;
  /** Fixed replica count; must be unset when `autoscaling` is set (the HPA owns replicas). @default 1 */
  readonly replicas?: number;
  /** @default no requests or limits */
  readonly resources?: { readonly requests?: ResourceList; readonly limits?: ResourceList };
  /** Required node affinity: `key In values` terms. @default none */
  readonly requiredNodeAffinity?: readonly { readonly key: string; readonly operator: "In" | "NotIn"; readonly values: readonly string[] }[];
  /** Container security settings. @default runAsNonRoot and readOnlyRootFilesystem true */
  readonly securityContext?: { readonly runAsNonRoot?: boolean; readonly readOnlyRootFilesystem?: boolean };
  readonly service?: LoadBalancerServiceInput;
  /** Adds an autoscaling/v2 HorizontalPodAutoscaler named like the Deployment. @default none */
  readonly autoscaling?: HorizontalAutoscalingInput;
}

export interface KarpenterInput {
  /** Chart and controller version. */
  readonly version: string;
  /** @default "kube-system" */
  readonly namespace?: string;
  /** @default "karpenter" */
  readonly serviceAccount?: string;
  /** @default "public.ecr.aws/karpenter" */
  readonly chartRepository?: string;
  /** @default 2 */
  readonly replicas?: number;
  /** Controller container resources. @default requests = limits = cpu 1, memory 1Gi */
  readonly controllerResources?: { readonly requests: ResourceList; readonly limits: ResourceList };
  /** Controller IAM permissions: `scoped` (least privilege, default) or `tutorial` (the lab's policy verbatim). @default "scoped" */
  readonly iamProfile?: "scoped" | "tutorial";
  /** How the controller gets AWS credentials. @default "irsa" */
  readonly identity?: "irsa" | "pod-identity";
  /** Interruption handling via SQS + EventBridge; `true` names the queue after the cluster. @default false */
  readonly interruptionQueue?: boolean | { readonly name: string };
}

export interface ArgoCdInput {
  /** Git URL of this repository, as Argo CD reaches it. */
  readonly repoURL: string;
  /** @default "main" */
  readonly targetRevision?: string;
  /** Namespace Argo CD runs in. @default "argocd" */
  readonly namespace?: string;
  /** Destination API server as Argo CD knows it. @default "https://kubernetes.default.svc" */
  readonly destinationServer?: string;
  /** Render one ApplicationSet (cluster generator) instead of per-component Applications. @default false */
  readonly applicationSet?: boolean;
}

export interface ClusterInput {
  /** EKS cluster name; also the Karpenter discovery tag value. */
  readonly name: string;
  /** 12-digit AWS account id. */
  readonly account: string;
  readonly region: string;
  /** @default derived from the region (`cn-*` → aws-cn, `us-gov-*` → aws-us-gov, else aws) */
  readonly partition?: Partition;
  /** EKS Kubernetes minor version, e.g. "1.36". */
  readonly kubernetesVersion: `1.${number}`;
  /** OIDC issuer URL of the cluster (`https://oidc.eks.<region>.amazonaws.com/id/<ID>`). */
  readonly oidcIssuer: string;
  /** VPC of the cluster; the bootstrap refuses discovery tags outside it. @default discovered */
  readonly vpcId?: string;
  /** EKS authentication mode, deciding aws-auth vs access entries. @default "API_AND_CONFIG_MAP" */
  readonly authenticationMode?: "API" | "API_AND_CONFIG_MAP" | "CONFIG_MAP";
  readonly karpenter: KarpenterInput;
  readonly nodeClasses: readonly EC2NodeClassInput[];
  readonly nodePools: readonly NodePoolInput[];
  /** @default [] */
  readonly workloads?: readonly WebAppInput[];
  /** Node groups Karpenter does not manage (existing capacity). @default [] */
  readonly nodeGroups?: readonly NodeGroupInput[];
  /** DaemonSets every node runs (CNI, kube-proxy, agents), declared once per overlay. @default [] */
  readonly daemonSets?: readonly DaemonSetInput[];
  /** EKS managed add-ons the bootstrap ensures. @default ["metrics-server"] */
  readonly addons?: readonly string[];
  readonly argocd: ArgoCdInput;
  /** Tags on every AWS resource the bootstrap creates (a managed-by tag is always added). @default {} */
  readonly tags?: Readonly<Record<string, string>>;
}

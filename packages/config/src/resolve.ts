// checkCluster(): validates an overlay once, applies every default in this one place, and freezes the result.
import { dnsSuffix, ec2ServicePrincipal, partitionOfRegion } from "./aws.ts";
import { ConfigError } from "./errors.ts";
import { isOverlayField as isOverlayFieldOf, problemsFromIssues } from "./issues.ts";
import { clusterSchema } from "./schema.ts";
import type {
  AmiSelectorTerm,
  BlockDeviceMappingInput,
  ClusterInput,
  KubeletInput,
  DisruptionBudget,
  NodeRequirement,
  Partition,
  Quantity,
  ResourceList,
  SelectorTerm,
  Taint,
  Toleration,
} from "./types.ts";

/** Karpenter's discovery tag key on subnets and security groups. */
export const DISCOVERY_TAG = "karpenter.sh/discovery";

export interface ResolvedNodePool {
  readonly name: string;
  readonly nodeClass: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly requirements: readonly NodeRequirement[];
  readonly expireAfter: string;
  readonly terminationGracePeriod: string | undefined;
  readonly limits: { readonly cpu?: string; readonly memory?: string };
  readonly disruption: {
    readonly consolidationPolicy: "WhenEmpty" | "WhenEmptyOrUnderutilized";
    readonly consolidateAfter: string;
    readonly budgets: readonly DisruptionBudget[] | undefined;
  };
  readonly weight: number | undefined;
}

export interface ResolvedNodeClass {
  readonly name: string;
  readonly role: string;
  readonly amiSelectorTerms: readonly AmiSelectorTerm[];
  readonly subnetSelectorTerms: readonly SelectorTerm[];
  readonly securityGroupSelectorTerms: readonly SelectorTerm[];
  readonly tags: Readonly<Record<string, string>>;
  /** As declared; undefined renders no `spec.kubelet` (Karpenter's defaults apply). */
  readonly kubelet: KubeletInput | undefined;
  /** As declared, with volumeType gp3, encrypted and deleteOnTermination true filled in; undefined renders none (the AMI family's). */
  readonly blockDeviceMappings: readonly BlockDeviceMappingInput[] | undefined;
}

export interface ResolvedNodeGroup {
  readonly name: string;
  readonly instanceType: string;
  readonly count: number;
  readonly capacityType: "ON_DEMAND" | "SPOT" | "CAPACITY_BLOCK";
  /** The declared labels plus `eks.amazonaws.com/capacityType` and `eks.amazonaws.com/nodegroup`. */
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  /** undefined: ENI-limited. */
  readonly maxPods: number | undefined;
}

export interface ResolvedDaemonSet {
  readonly name: string;
  readonly namespace: string;
  readonly requests: ResourceList;
  readonly tolerations: readonly Toleration[];
}

export interface ResolvedWorkload {
  readonly name: string;
  readonly namespace: string;
  readonly image: string;
  readonly imagePullPolicy: "Always" | "IfNotPresent" | "Never";
  readonly labels: Readonly<Record<string, string>>;
  readonly containerPort: number;
  /** undefined when an autoscaler owns the replica count. */
  readonly replicas: number | undefined;
  readonly resources: { readonly requests: ResourceList; readonly limits: ResourceList };
  readonly requiredNodeAffinity: readonly { readonly key: string; readonly operator: "In" | "NotIn"; readonly values: readonly string[] }[];
  readonly securityContext: { readonly runAsNonRoot: boolean; readonly readOnlyRootFilesystem: boolean };
  readonly service:
    | {
        readonly name: string;
        readonly type: "LoadBalancer" | "ClusterIP" | "NodePort";
        readonly loadBalancerClass: string | undefined;
        readonly annotations: Readonly<Record<string, string>>;
        readonly port: number;
        readonly targetPort: number;
      }
    | undefined;
  readonly autoscaling: { readonly minReplicas: number; readonly maxReplicas: number; readonly targetCpuUtilizationPercent: number } | undefined;
}

export interface RoleRef {
  readonly name: string;
  readonly arn: string;
}

/** A checked overlay with every default applied. Frozen; build steps only read it. */
export interface ClusterConfig {
  /** The overlay file it came from (for error messages). */
  readonly sourceFile: string;
  readonly name: string;
  readonly account: string;
  readonly region: string;
  readonly partition: Partition;
  /** `amazonaws.com` or `amazonaws.com.cn`. */
  readonly dnsSuffix: string;
  readonly ec2ServicePrincipal: string;
  readonly kubernetesVersion: string;
  readonly oidcIssuer: string;
  /** Issuer without `https://`: the OIDC provider's identifier in IAM condition keys. */
  readonly oidcProvider: string;
  readonly oidcProviderArn: string;
  readonly vpcId: string | undefined;
  readonly authenticationMode: "API" | "API_AND_CONFIG_MAP" | "CONFIG_MAP";
  readonly karpenter: {
    readonly version: string;
    readonly namespace: string;
    readonly serviceAccount: string;
    readonly chartRepository: string;
    readonly replicas: number;
    readonly controllerResources: { readonly requests: ResourceList; readonly limits: ResourceList };
    readonly iamProfile: "scoped" | "tutorial";
    readonly identity: "irsa" | "pod-identity";
    /** SQS queue name, or undefined when interruption handling is off. */
    readonly interruptionQueue: string | undefined;
  };
  readonly nodeRole: RoleRef;
  readonly controllerRole: RoleRef;
  readonly nodeClasses: readonly ResolvedNodeClass[];
  readonly nodePools: readonly ResolvedNodePool[];
  readonly workloads: readonly ResolvedWorkload[];
  readonly nodeGroups: readonly ResolvedNodeGroup[];
  readonly daemonSets: readonly ResolvedDaemonSet[];
  readonly addons: readonly string[];
  readonly argocd: {
    readonly repoURL: string;
    readonly targetRevision: string;
    readonly namespace: string;
    readonly destinationServer: string;
    readonly applicationSet: boolean;
  };
  readonly tags: Readonly<Record<string, string>>;
}

/** Whether `key` is a field an overlay may set on the object at `path` (e.g. `["nodePools", 0]`, `"expireAfter"`). */
export function isOverlayField(path: readonly (string | number)[], key: string | number): boolean {
  return isOverlayFieldOf(clusterSchema, path, key);
}

/** Declares a cluster overlay. Identity at run time; gives editors the types and docs. */
export function defineCluster(input: ClusterInput): ClusterInput {
  return input;
}

/** Checks an overlay and applies defaults; throws ConfigError listing every problem with its field path. */
export function checkCluster(input: unknown, sourceFile: string): ClusterConfig {
  const parsed = clusterSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(sourceFile, problemsFromIssues(parsed.error.issues, input, clusterSchema));
  }
  return deepFreeze(resolve(parsed.data as ClusterInput, sourceFile));
}

function resolve(c: ClusterInput, sourceFile: string): ClusterConfig {
  const partition = c.partition ?? partitionOfRegion(c.region);
  const arn = `arn:${partition}`;
  const oidcProvider = c.oidcIssuer.replace(/^https:\/\//, "").replace(/\/$/, "");
  const nodeRoleName = `KarpenterNodeRole-${c.name}`;
  const controllerRoleName = `KarpenterControllerRole-${c.name}`;
  const discovery: readonly SelectorTerm[] = [{ tags: { [DISCOVERY_TAG]: c.name } }];
  const k = c.karpenter;
  const queue = k.interruptionQueue;
  const defaultControllerResources = { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } } as const;

  return {
    sourceFile,
    name: c.name,
    account: c.account,
    region: c.region,
    partition,
    dnsSuffix: dnsSuffix(partition),
    ec2ServicePrincipal: ec2ServicePrincipal(partition),
    kubernetesVersion: c.kubernetesVersion,
    oidcIssuer: c.oidcIssuer,
    oidcProvider,
    oidcProviderArn: `${arn}:iam::${c.account}:oidc-provider/${oidcProvider}`,
    vpcId: c.vpcId,
    authenticationMode: c.authenticationMode ?? "API_AND_CONFIG_MAP",
    karpenter: {
      version: k.version,
      namespace: k.namespace ?? "kube-system",
      serviceAccount: k.serviceAccount ?? "karpenter",
      chartRepository: k.chartRepository ?? "public.ecr.aws/karpenter",
      replicas: k.replicas ?? 2,
      controllerResources: k.controllerResources ?? defaultControllerResources,
      iamProfile: k.iamProfile ?? "scoped",
      identity: k.identity ?? "irsa",
      interruptionQueue: queue === true ? c.name : queue ? queue.name : undefined,
    },
    nodeRole: { name: nodeRoleName, arn: `${arn}:iam::${c.account}:role/${nodeRoleName}` },
    controllerRole: { name: controllerRoleName, arn: `${arn}:iam::${c.account}:role/${controllerRoleName}` },
    nodeClasses: c.nodeClasses.map((n) => ({
      name: n.name,
      role: n.role ?? nodeRoleName,
      amiSelectorTerms: n.amiSelectorTerms,
      subnetSelectorTerms: n.subnetSelectorTerms ?? discovery,
      securityGroupSelectorTerms: n.securityGroupSelectorTerms ?? discovery,
      tags: n.tags ?? {},
      kubelet: n.kubelet,
      blockDeviceMappings: n.blockDeviceMappings?.map((b) => ({
        deviceName: b.deviceName,
        rootVolume: b.rootVolume ?? false,
        ebs: { ...b.ebs, volumeType: b.ebs.volumeType ?? "gp3", encrypted: b.ebs.encrypted ?? true, deleteOnTermination: b.ebs.deleteOnTermination ?? true },
      })),
    })),
    nodePools: c.nodePools.map((p) => ({
      name: p.name,
      nodeClass: p.nodeClass,
      labels: p.labels ?? {},
      taints: p.taints ?? [],
      requirements: p.requirements,
      expireAfter: p.expireAfter ?? "720h",
      terminationGracePeriod: p.terminationGracePeriod,
      limits: {
        ...(p.limits?.cpu !== undefined ? { cpu: String(p.limits.cpu) as Quantity } : {}),
        ...(p.limits?.memory !== undefined ? { memory: p.limits.memory } : {}),
      },
      disruption: {
        consolidationPolicy: p.disruption?.consolidationPolicy ?? "WhenEmptyOrUnderutilized",
        consolidateAfter: p.disruption?.consolidateAfter ?? "1m",
        budgets: p.disruption?.budgets,
      },
      weight: p.weight,
    })),
    workloads: (c.workloads ?? []).map((w) => {
      const containerPort = w.containerPort ?? 80;
      return {
        name: w.name,
        namespace: w.namespace,
        image: w.image,
        imagePullPolicy: w.imagePullPolicy ?? "IfNotPresent",
        labels: w.labels,
        containerPort,
        replicas: w.autoscaling ? undefined : (w.replicas ?? 1),
        resources: { requests: w.resources?.requests ?? {}, limits: w.resources?.limits ?? {} },
        requiredNodeAffinity: w.requiredNodeAffinity ?? [],
        securityContext: {
          runAsNonRoot: w.securityContext?.runAsNonRoot ?? true,
          readOnlyRootFilesystem: w.securityContext?.readOnlyRootFilesystem ?? true,
        },
        service: w.service && {
          name: w.service.name,
          type: w.service.type ?? "LoadBalancer",
          loadBalancerClass: w.service.loadBalancerClass,
          annotations: w.service.annotations ?? {},
          port: w.service.port ?? 80,
          targetPort: w.service.targetPort ?? containerPort,
        },
        autoscaling: w.autoscaling && {
          minReplicas: w.autoscaling.minReplicas ?? 1,
          maxReplicas: w.autoscaling.maxReplicas,
          targetCpuUtilizationPercent: w.autoscaling.targetCpuUtilizationPercent,
        },
      };
    }),
    nodeGroups: (c.nodeGroups ?? []).map((g) => {
      const capacityType = g.capacityType ?? "ON_DEMAND";
      return {
        name: g.name,
        instanceType: g.instanceType,
        count: g.count,
        capacityType,
        labels: { ...g.labels, "eks.amazonaws.com/capacityType": capacityType, "eks.amazonaws.com/nodegroup": g.name },
        taints: g.taints ?? [],
        maxPods: g.maxPods,
      };
    }),
    daemonSets: (c.daemonSets ?? []).map((d) => ({
      name: d.name,
      namespace: d.namespace ?? "kube-system",
      requests: d.requests ?? {},
      tolerations: d.tolerations ?? [],
    })),
    addons: c.addons ?? ["metrics-server"],
    argocd: {
      repoURL: c.argocd.repoURL,
      targetRevision: c.argocd.targetRevision ?? "main",
      namespace: c.argocd.namespace ?? "argocd",
      destinationServer: c.argocd.destinationServer ?? "https://kubernetes.default.svc",
      applicationSet: c.argocd.applicationSet ?? false,
    },
    tags: c.tags ?? {},
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

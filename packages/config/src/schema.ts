// Runtime checks of a cluster overlay (zod), matching the TypeScript types in types.ts field for field.
import { z } from "zod";
import { partitionOfRegion, REGION_PATTERN } from "./aws.ts";
import { formatPath } from "./errors.ts";
import { knownRegion, suggestRegion } from "./regions.ts";
import type { ClusterInput } from "./types.ts";

const SUPPORTED_PARTITIONS = ["aws", "aws-cn", "aws-us-gov"] as const;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
// Same grammar as resource.Quantity, restricted to non-negative values.
const QUANTITY = /^\+?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;
const DURATION = /^([0-9]+(s|m|h))+$/;
const EKS_CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$/;
const IAM_ROLE_NAME = /^[\w+=,.@-]{1,64}$/;
/** The longest role name derived from the cluster name (resolve.ts): IAM role names are at most 64 characters. */
const CONTROLLER_ROLE_PREFIX = "KarpenterControllerRole-";
const MAX_CLUSTER_NAME = 64 - CONTROLLER_ROLE_PREFIX.length;

const dnsLabel = z.string().regex(DNS_LABEL, "must be a DNS-1123 label (lowercase letters, digits and '-')").max(63);
const dnsSubdomain = z.string().regex(DNS_SUBDOMAIN, "must be a DNS-1123 subdomain").max(253);
const labelKey = z.string().regex(QUALIFIED_KEY, "must be a qualified label key ([prefix/]name)");
const labels = z.record(labelKey, z.string().regex(LABEL_VALUE, "must be a valid label value").max(63));
const quantity = z.string().regex(QUANTITY, "must be a non-negative Kubernetes quantity such as '2', '500m', '4G' or '1Gi'");
const duration = z.string().regex(DURATION, "must be a duration such as '30s', '1m', '720h' or '1h30m'");
const durationOrNever = z.union([z.literal("Never"), duration]);
const positiveInt = z.number().int().positive();
const port = z.number().int().min(1).max(65535);

const requirement = z
  .strictObject({
    key: labelKey,
    operator: z.enum(["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"]),
    values: z.array(z.string().regex(LABEL_VALUE, "must be a valid label value")).readonly().optional(),
    minValues: z.number().int().min(1).max(50).optional(),
  })
  .superRefine((r, ctx) => {
    const n = r.values?.length ?? 0;
    if ((r.operator === "In" || r.operator === "NotIn") && n === 0)
      ctx.addIssue({ code: "custom", path: ["values"], message: `operator '${r.operator}' needs at least one value` });
    if ((r.operator === "Exists" || r.operator === "DoesNotExist") && n > 0)
      ctx.addIssue({ code: "custom", path: ["values"], message: `operator '${r.operator}' takes no values, got ${n}` });
    if (["Gt", "Lt", "Gte", "Lte"].includes(r.operator) && (n !== 1 || !/^-?[0-9]+$/.test(r.values?.[0] ?? "")))
      ctx.addIssue({ code: "custom", path: ["values"], message: `operator '${r.operator}' needs exactly one integer value, got ${JSON.stringify(r.values ?? [])}` });
    if (r.key === "karpenter.sh/capacity-type")
      r.values?.forEach((v, i) => {
        if (!["spot", "on-demand", "reserved"].includes(v))
          ctx.addIssue({ code: "custom", path: ["values", i], message: `capacity type must be one of spot, on-demand, reserved; got '${v}'` });
      });
    if (r.key === "kubernetes.io/arch")
      r.values?.forEach((v, i) => {
        if (!["amd64", "arm64"].includes(v)) ctx.addIssue({ code: "custom", path: ["values", i], message: `architecture must be amd64 or arm64; got '${v}'` });
      });
    if (r.minValues !== undefined && (r.operator === "In" || r.operator === "NotIn") && n < r.minValues)
      ctx.addIssue({ code: "custom", path: ["minValues"], message: `minValues (${r.minValues}) must not exceed the number of values (${n})` });
  });

const tagSelector = z.strictObject({ tags: z.record(z.string().min(1), z.string()).refine((t) => Object.keys(t).length > 0, "needs at least one tag") });
const selectorTerm = z.union([tagSelector, z.strictObject({ id: z.string().min(1) })]);

const amiSelectorTerm = z.union([
  z.strictObject({
    alias: z
      .string()
      .regex(/^(al2|al2023|bottlerocket|windows2019|windows2022|windows2025)@(latest|v[0-9]+(\.[0-9]+)*|[0-9.]+)$/, "must be 'family@version' with family al2, al2023, bottlerocket, windows2019, windows2022 or windows2025"),
  }),
  z.strictObject({ id: z.string().regex(/^ami-[0-9a-z]+$/, "must be an AMI id (ami-...)") }),
  z.strictObject({ name: z.string().min(1), owner: z.string().optional() }),
  tagSelector,
]);

const budget = z
  .strictObject({
    nodes: z.string().regex(/^((100|[0-9]{1,2})%|[0-9]+)$/, "must be a count ('10') or a percentage ('10%')"),
    schedule: z.string().optional(),
    duration: duration.optional(),
    reasons: z.array(z.enum(["Underutilized", "Empty", "Drifted"])).readonly().optional(),
  })
  .refine((b) => (b.schedule === undefined) === (b.duration === undefined), "'schedule' and 'duration' must be set together");

// Names bounded by where they end up, so a long one fails here (exit 2) and never at the API server or as ENAMETOOLONG:
// a rendered file is `<group>_<version>_<kind>[_<namespace>]_<name>.yaml` (at most 255 bytes on every common file system).
/** A NodePool's name is the value of the `karpenter.sh/nodepool` label on its nodes: a label value is at most 63 characters. */
const nodePoolName = dnsSubdomain.max(63, "must be at most 63 characters: it is the value of the 'karpenter.sh/nodepool' label on every node of the pool");
/** An EC2NodeClass's name is the value of the `karpenter.k8s.aws/ec2nodeclass` label on its nodes. */
const nodeClassName = dnsSubdomain.max(63, "must be at most 63 characters: it is the value of the 'karpenter.k8s.aws/ec2nodeclass' label on every node of the class");

const nodePool = z.strictObject({
  name: nodePoolName,
  nodeClass: dnsSubdomain,
  labels: labels.optional(),
  taints: z
    .array(z.strictObject({ key: labelKey, value: z.string().optional(), effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]) }))
    .readonly()
    .optional(),
  requirements: z.array(requirement).max(100).readonly(),
  expireAfter: durationOrNever.optional(),
  terminationGracePeriod: duration.optional(),
  limits: z
    .strictObject({
      cpu: z.union([quantity, z.number().nonnegative("must not be negative")]).optional(),
      memory: quantity.optional(),
    })
    .optional(),
  disruption: z
    .strictObject({
      consolidationPolicy: z.enum(["WhenEmpty", "WhenEmptyOrUnderutilized"], {
        error: (i) => (i.input === "WhenUnderutilized" ? "'WhenUnderutilized' was removed in karpenter.sh/v1; use 'WhenEmptyOrUnderutilized'" : "must be 'WhenEmpty' or 'WhenEmptyOrUnderutilized'"),
      }).optional(),
      consolidateAfter: durationOrNever.optional(),
      budgets: z.array(budget).max(50).readonly().optional(),
    })
    .optional(),
  weight: z.number().int().min(1).max(100).optional(),
});

const percent = z.string().regex(/^([0-9]+(\.[0-9]+)?)%$/);
const reserved = z.strictObject({ cpu: quantity.optional(), memory: quantity.optional(), "ephemeral-storage": quantity.optional(), pid: quantity.optional() });
const evictionValue = z.union([percent, quantity], { error: "must be a quantity such as '100Mi' or a percentage such as '10%'" });

// Field ranges as the karpenter.k8s.aws/v1 EC2NodeClass CRD declares them (aws/karpenter-provider-aws pkg/apis/v1/ec2nodeclass.go).
const kubelet = z.strictObject({
  maxPods: z.number().int().min(0).optional(),
  podsPerCore: z.number().int().min(0).optional(),
  kubeReserved: reserved.optional(),
  systemReserved: reserved.optional(),
  evictionHard: z
    .strictObject({
      "memory.available": evictionValue.optional(),
      "nodefs.available": evictionValue.optional(),
      "nodefs.inodesFree": evictionValue.optional(),
      "imagefs.available": evictionValue.optional(),
      "imagefs.inodesFree": evictionValue.optional(),
      "pid.available": evictionValue.optional(),
    })
    .optional(),
});

const blockDeviceMapping = z.strictObject({
  deviceName: z.string().regex(/^\/dev\/[a-z0-9]+$/, "must be a device name such as '/dev/xvda'"),
  rootVolume: z.boolean().optional(),
  ebs: z.strictObject({
    volumeSize: quantity.refine((q) => !/^0*(\.0*)?[a-zA-Z]*$/.test(q), "must be larger than zero"),
    volumeType: z.enum(["standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"]).optional(),
    encrypted: z.boolean().optional(),
    deleteOnTermination: z.boolean().optional(),
    iops: z.number().int().positive().optional(),
    throughput: z.number().int().min(125).max(2000).optional(),
  }),
});

const nodeClass = z.strictObject({
  name: nodeClassName,
  role: z.string().regex(IAM_ROLE_NAME, "must be an IAM role name").optional(),
  amiSelectorTerms: z.array(amiSelectorTerm).min(1).max(30).readonly(),
  subnetSelectorTerms: z.array(selectorTerm).min(1).max(30).readonly().optional(),
  securityGroupSelectorTerms: z.array(selectorTerm).min(1).max(30).readonly().optional(),
  tags: z.record(z.string().min(1), z.string()).optional(),
  kubelet: kubelet.optional(),
  blockDeviceMappings: z
    .array(blockDeviceMapping)
    .min(1)
    .max(50)
    .readonly()
    .superRefine((m, ctx) => {
      if (m.filter((b) => b.rootVolume).length > 1) ctx.addIssue({ code: "custom", message: "at most one mapping may set 'rootVolume: true'" });
    })
    .optional(),
});

const resourceList = z.strictObject({ cpu: quantity.optional(), memory: quantity.optional() });

const workload = z
  .strictObject({
    // also the container's name: a DNS-1123 label (apps/v1 validation of spec.template.spec.containers[].name)
    name: z
      .string()
      .max(63, "must be at most 63 characters: it is also the container's name, which Kubernetes limits to a DNS-1123 label")
      .regex(DNS_LABEL, "must be a DNS-1123 label (lowercase letters, digits and '-'): it is also the container's name"),
    namespace: dnsLabel,
    image: z.string().min(1).regex(/^\S+$/, "must not contain spaces"),
    imagePullPolicy: z.enum(["Always", "IfNotPresent", "Never"]).optional(),
    labels: labels.refine((l) => Object.keys(l).length > 0, "needs at least one label (it is the selector)"),
    containerPort: port.optional(),
    replicas: z.number().int().nonnegative().optional(),
    resources: z.strictObject({ requests: resourceList.optional(), limits: resourceList.optional() }).optional(),
    requiredNodeAffinity: z
      .array(z.strictObject({ key: labelKey, operator: z.enum(["In", "NotIn"]), values: z.array(z.string()).min(1).readonly() }))
      .readonly()
      .optional(),
    securityContext: z.strictObject({ runAsNonRoot: z.boolean().optional(), readOnlyRootFilesystem: z.boolean().optional() }).optional(),
    service: z
      .strictObject({
        name: dnsLabel,
        type: z.enum(["LoadBalancer", "ClusterIP", "NodePort"]).optional(),
        loadBalancerClass: z.string().optional(),
        annotations: z.record(z.string(), z.string()).optional(),
        port: port.optional(),
        targetPort: port.optional(),
      })
      .optional(),
    autoscaling: z
      .strictObject({
        minReplicas: positiveInt.optional(),
        maxReplicas: positiveInt,
        targetCpuUtilizationPercent: z.number().int().min(1).max(1000),
      })
      .optional(),
  })
  .superRefine((w, ctx) => {
    const a = w.autoscaling;
    if (a && (a.minReplicas ?? 1) > a.maxReplicas)
      ctx.addIssue({ code: "custom", path: ["autoscaling", "minReplicas"], message: `'minReplicas' (${a.minReplicas}) must be less than or equal to 'maxReplicas' (${a.maxReplicas})` });
    if (a && w.replicas !== undefined)
      ctx.addIssue({ code: "custom", path: ["replicas"], message: "must be unset when 'autoscaling' is set: the HorizontalPodAutoscaler owns the replica count" });
    if (a && w.resources?.requests?.cpu === undefined && w.resources?.limits?.cpu === undefined)
      ctx.addIssue({ code: "custom", path: ["resources", "requests", "cpu"], message: "a CPU-utilisation autoscaler needs a CPU request (or limit) on the container" });
  });

const taint = z.strictObject({ key: labelKey, value: z.string().optional(), effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]) });

const toleration = z
  .strictObject({
    key: labelKey.optional(),
    operator: z.enum(["Equal", "Exists"]).optional(),
    value: z.string().optional(),
    effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]).optional(),
  })
  .superRefine((t, ctx) => {
    if (t.operator === "Exists" && t.value !== undefined) ctx.addIssue({ code: "custom", path: ["value"], message: "must be unset with operator 'Exists'" });
    if ((t.operator ?? "Equal") === "Equal" && t.key === undefined) ctx.addIssue({ code: "custom", path: ["key"], message: "is required with operator 'Equal' (use operator 'Exists' to tolerate every taint)" });
  });

const nodeGroup = z.strictObject({
  // EKS CreateNodegroup: 1-63 letters, digits, '-' and '_', starting with a letter or digit.
  name: z.string().regex(/^[0-9A-Za-z][A-Za-z0-9\-_]{0,62}$/, "must be an EKS node group name (letters, digits, '-' and '_', up to 63)"),
  instanceType: z.string().regex(/^[a-z][a-z0-9-]*\.[a-z0-9-]+$/, "must be an EC2 instance type such as 't3.2xlarge'"),
  count: z.number({ error: "must be a number of nodes" }).int("must be a whole number of nodes").min(0, "must not be negative").max(1000, "must be at most 1000 (an EKS node group's maximum size)"),
  capacityType: z.enum(["ON_DEMAND", "SPOT", "CAPACITY_BLOCK"]).optional(),
  labels: labels.optional(),
  taints: z.array(taint).readonly().optional(),
  maxPods: z.number().int().min(1).max(737).optional(),
});

const daemonSet = z.strictObject({
  name: dnsSubdomain,
  namespace: dnsLabel.optional(),
  requests: resourceList.optional(),
  tolerations: z.array(toleration).readonly().optional(),
});

const semver = z.string().regex(/^[0-9]+\.[0-9]+\.[0-9]+$/, "must be a version like '1.14.1'");

const karpenter = z.strictObject({
  version: semver,
  namespace: dnsLabel.optional(),
  serviceAccount: dnsSubdomain.optional(),
  chartRepository: z.string().min(1).optional(),
  replicas: z.number().int().min(1).max(10).optional(),
  controllerResources: z.strictObject({ requests: resourceList, limits: resourceList }).optional(),
  iamProfile: z.enum(["scoped", "tutorial"]).optional(),
  identity: z.enum(["irsa", "pod-identity"]).optional(),
  interruptionQueue: z.union([z.boolean(), z.strictObject({ name: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, "must be an SQS queue name") })]).optional(),
});

const argocd = z.strictObject({
  repoURL: z.string().min(1),
  targetRevision: z.string().min(1).optional(),
  namespace: dnsLabel.optional(),
  destinationServer: z.string().url().optional(),
  applicationSet: z.boolean().optional(),
});

export const clusterSchema = z
  .strictObject({
    name: z
      .string()
      .min(1, "must not be empty")
      .regex(EKS_CLUSTER_NAME, "must be a valid EKS cluster name (letters, digits, '-' and '_', up to 100)")
      .max(MAX_CLUSTER_NAME, `must be at most ${MAX_CLUSTER_NAME} characters: it is part of the IAM role name '${CONTROLLER_ROLE_PREFIX}<name>', which IAM limits to 64`),
    account: z.string().regex(/^[0-9]{12}$/, "must be a 12-digit AWS account id"),
    region: z.string().superRefine((r, ctx) => {
      if (knownRegion(r)) return;
      const near = suggestRegion(r);
      ctx.addIssue({
        code: "custom",
        message: REGION_PATTERN.test(r) ? `unknown AWS region '${r}' (not in the AWS SDK's partition metadata)` : `must be an AWS region such as 'ap-southeast-1'; got '${r}'`,
        params: { rule: "overlay:region", hint: near ? `did you mean \`${near}\`?` : "see https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-regions.html" },
      });
    }),
    partition: z.enum(["aws", "aws-cn", "aws-us-gov"]).optional(),
    kubernetesVersion: z.string().regex(/^1\.[0-9]+$/, "must be a Kubernetes minor version like '1.36'"),
    oidcIssuer: z.string().regex(/^https:\/\/[^\s/]+(\/[^\s]*)?$/, "must be an https:// OIDC issuer URL"),
    vpcId: z.string().regex(/^vpc-[0-9a-f]+$/, "must be a VPC id (vpc-...)").optional(),
    authenticationMode: z.enum(["API", "API_AND_CONFIG_MAP", "CONFIG_MAP"]).optional(),
    karpenter,
    nodeClasses: z.array(nodeClass).min(1).readonly(),
    nodePools: z.array(nodePool).min(1).readonly(),
    workloads: z.array(workload).readonly().optional(),
    nodeGroups: z.array(nodeGroup).readonly().optional(),
    daemonSets: z.array(daemonSet).readonly().optional(),
    addons: z.array(z.string().regex(/^[a-z0-9-]+$/)).readonly().optional(),
    argocd,
    tags: z.record(z.string().min(1).max(128), z.string().max(256)).optional(),
  })
  .superRefine((c, ctx) => {
    const region = knownRegion(c.region);
    if (!region) return; // reported on the field
    if (!(SUPPORTED_PARTITIONS as readonly string[]).includes(region.partition)) {
      ctx.addIssue({ code: "custom", path: ["region"], message: `region '${c.region}' (${region.description}) is in partition '${region.partition}', which is not supported (${SUPPORTED_PARTITIONS.join(", ")})`, params: { rule: "overlay:region" } });
      return;
    }
    const derived = partitionOfRegion(c.region);
    if (c.partition !== undefined && c.partition !== derived)
      ctx.addIssue({ code: "custom", path: ["partition"], message: `region '${c.region}' (${region.description}) is in partition '${derived}', not '${c.partition}'`, params: { rule: "overlay:partition", hint: `set \`partition: "${derived}"\` or leave it out` } });
    const issuerRegion = /^https:\/\/oidc\.eks\.([a-z0-9-]+)\./.exec(c.oidcIssuer)?.[1];
    if (issuerRegion !== undefined && issuerRegion !== c.region)
      ctx.addIssue({ code: "custom", path: ["oidcIssuer"], message: `issuer is in region '${issuerRegion}', the cluster in '${c.region}'`, params: { rule: "overlay:region", hint: `the issuer of an EKS cluster in ${c.region} starts \`https://oidc.eks.${c.region}.\`` } });
    const classNames = new Set(c.nodeClasses.map((n) => n.name));
    unique(ctx, c.nodeClasses.map((n) => n.name), "nodeClasses", "EC2NodeClass");
    unique(ctx, c.nodePools.map((n) => n.name), "nodePools", "NodePool");
    unique(ctx, (c.workloads ?? []).map((w) => `${w.namespace}/${w.name}`), "workloads", "workload");
    unique(ctx, (c.nodeGroups ?? []).map((g) => g.name), "nodeGroups", "node group");
    unique(ctx, (c.daemonSets ?? []).map((d) => `${d.namespace ?? "kube-system"}/${d.name}`), "daemonSets", "DaemonSet");
    (c.nodeGroups ?? []).forEach((g, i) => {
      // EKS sets these two labels itself: a declared value must agree with it.
      const implied: Record<string, string> = { "eks.amazonaws.com/capacityType": g.capacityType ?? "ON_DEMAND", "eks.amazonaws.com/nodegroup": g.name };
      for (const [key, value] of Object.entries(g.labels ?? {}))
        if (implied[key] !== undefined && implied[key] !== value)
          ctx.addIssue({ code: "custom", path: ["nodeGroups", i, "labels", key], message: `is '${value}' but EKS sets it to '${implied[key]}' (from the node group's ${key.endsWith("capacityType") ? "'capacityType'" : "'name'"})` });
    });
    c.nodePools.forEach((p, i) => {
      if (!classNames.has(p.nodeClass))
        ctx.addIssue({ code: "custom", path: ["nodePools", i, "nodeClass"], message: `no EC2NodeClass named '${p.nodeClass}' in this overlay (have: ${[...classNames].join(", ")})` });
    });
  });

function unique(ctx: z.RefinementCtx, names: string[], field: string, what: string): void {
  const seen = new Set<string>();
  names.forEach((n, i) => {
    if (seen.has(n))
      ctx.addIssue({
        code: "custom",
        path: [field, i, "name"],
        message: `duplicate ${what} name '${n}'`,
        params: { rule: "overlay:duplicate", hint: `${formatPath([field, names.indexOf(n)])} has it already: rename one` },
      });
    seen.add(n);
  });
}

// Compile-time proof that the runtime schema accepts exactly what the TypeScript types describe.
type SchemaInput = z.input<typeof clusterSchema>;
export type _TypesAreAssignable = ClusterInput extends SchemaInput ? true : never;
const _proof: _TypesAreAssignable = true;
void _proof;

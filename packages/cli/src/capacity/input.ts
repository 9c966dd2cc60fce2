// Builds the capacity simulation's input from an overlay's rendered objects plus what the overlay declares but never renders.
import type { ResolvedDaemonSet, ResolvedNodeGroup } from "@eks-gitops/config";
import type {
  DaemonSetInput,
  EC2NodeClassInput,
  KubeletInput,
  NodeGroupInput,
  NodePoolInput,
  NodeSelectorTerm,
  SimulationInput,
  Taint,
  Toleration,
  WorkloadInput,
} from "@eks-gitops/capacity";
import { formatCpu, parseQuantity } from "@eks-gitops/capacity";
import { parseAllDocuments } from "yaml";
import { UsageError } from "../exit-codes.ts";
import { compareText } from "@eks-gitops/config/order";

/** `--at`: every HPA target at its minReplicas, its maxReplicas, or the rendered replicas. */
export type ReplicaPoint = "min" | "max" | "current";

/** What the overlay declares for the simulation only (never rendered): node groups and DaemonSets. */
export interface UnrenderedCapacity {
  readonly name: string;
  readonly region: string;
  readonly nodeGroups: readonly ResolvedNodeGroup[];
  readonly daemonSets: readonly ResolvedDaemonSet[];
  /** NodePool and EC2NodeClass names in overlay order, so that a field path such as `nodePools[1]` names the overlay's entry. @default by name */
  readonly nodePoolOrder?: readonly string[];
  readonly nodeClassOrder?: readonly string[];
  /** Read from a live cluster (`--from-cluster`): replaces `nodeGroups` and `daemonSets`. @default the overlay's */
  readonly live?: { readonly nodeGroups: readonly NodeGroupInput[]; readonly daemonSets: readonly DaemonSetInput[] };
}

export interface Scenario {
  readonly at: ReplicaPoint;
  /** `namespace/name` -> replicas, from `--replicas`. */
  readonly replicas?: ReadonlyMap<string, number>;
}

export interface BuiltInput {
  readonly input: SimulationInput;
  /** Workloads an HPA targets, `namespace/name`, in input order. */
  readonly autoscaled: readonly string[];
}

// Rendered objects are parsed YAML of many kinds; they are read field by field with optional chaining and
// converted (Number, String) where a number or string is needed, so a loose type is the honest one here.
// biome-ignore lint/suspicious/noExplicitAny: untyped parsed YAML, see above
type Obj = Record<string, any>;

/** The Karpenter chart's defaults for what the overlay does not set (kubernetes-sigs/karpenter charts/karpenter/values.yaml). */
const CHART_DEFAULTS = {
  replicas: 2,
  nodeSelector: { "kubernetes.io/os": "linux" },
  tolerations: [{ key: "CriticalAddonsOnly", operator: "Exists" }] as Toleration[],
  // affinity: the controller avoids nodes Karpenter launched, and replicas avoid each other (hostname anti-affinity)
  requiredNodeAffinity: [{ matchExpressions: [{ key: "karpenter.sh/nodepool", operator: "DoesNotExist" }] }] as NodeSelectorTerm[],
  // priorityClassName: system-cluster-critical
  priority: 2_000_000_000,
  // topologySpreadConstraints: maxSkew 1 over topology.kubernetes.io/zone, DoNotSchedule
  zoneSpread: { maxSkew: 1 },
};

/** Every object of the rendered YAML files (IAM JSON and other files are skipped). */
export function renderedObjects(files: ReadonlyMap<string, string>): Obj[] {
  const out: Obj[] = [];
  for (const [path, text] of files) {
    if (!/\.ya?ml$/.test(path)) continue;
    for (const doc of parseAllDocuments(text)) {
      const o = doc.toJS() as unknown;
      if (o && typeof o === "object" && typeof (o as Obj).kind === "string") out.push(o as Obj);
    }
  }
  return out;
}

/**
 * Kubernetes defaults a container's requests to its limits; the pod asks for the sum of its containers, or its
 * largest init container if bigger. Summed as exact integers (millicores, bytes), as resource.Quantity adds them.
 */
function podRequests(spec: Obj): Record<string, string> {
  const scale = (k: string) => (k === "cpu" ? 1000 : 1);
  const sums = new Map<string, number>();
  const texts = new Map<string, string>();
  const requestsOf = (c: Obj) => Object.entries({ ...c.resources?.limits, ...c.resources?.requests } as Obj).map(([k, v]) => [k, String(v)] as const);
  for (const c of (spec.containers ?? []) as Obj[])
    for (const [k, v] of requestsOf(c)) {
      sums.set(k, (sums.get(k) ?? 0) + parseQuantity(v, scale(k)));
      texts.set(k, v);
    }
  for (const c of (spec.initContainers ?? []) as Obj[])
    for (const [k, v] of requestsOf(c)) {
      const n = parseQuantity(v, scale(k));
      if (n > (sums.get(k) ?? 0)) {
        sums.set(k, n);
        texts.set(k, v);
      }
    }
  // A single contributor keeps its exact text ("2", "4G"); a sum is written in millicores or base units.
  const out: Record<string, string> = {};
  for (const [k, n] of [...sums].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const text = texts.get(k);
    out[k] = text !== undefined && parseQuantity(text, scale(k)) === n ? text : k === "cpu" ? formatCpu(n) : String(n);
  }
  return out;
}

/** What a DaemonSet pod needs and where it may run. */
export function podSchedulingOf(spec: Obj): Omit<DaemonSetInput, "name"> {
  const terms = requiredTerms(spec);
  return {
    requests: podRequests(spec),
    ...(spec.tolerations ? { tolerations: spec.tolerations } : {}),
    ...(spec.nodeSelector ? { nodeSelector: spec.nodeSelector } : {}),
    ...(terms ? { requiredNodeAffinity: terms } : {}),
  };
}

function requiredTerms(spec: Obj): NodeSelectorTerm[] | undefined {
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as Obj[] | undefined;
  return terms?.map((t) => ({ matchExpressions: (t.matchExpressions ?? []) as NodeSelectorTerm["matchExpressions"] }));
}

/** Required pod anti-affinity on the hostname against the pod's own labels: at most one replica per node. */
function onePerNode(spec: Obj, labels: Obj): boolean {
  const terms = (spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) as Obj[];
  return terms.some(
    (t) =>
      t.topologyKey === "kubernetes.io/hostname" &&
      Object.entries((t.labelSelector?.matchLabels ?? {}) as Obj).every(([k, v]) => labels[k] === v) &&
      Object.keys(t.labelSelector?.matchLabels ?? {}).length > 0,
  );
}

/** A `topologySpreadConstraints` entry the simulation models: over the zone, DoNotSchedule, selecting the pod's own labels. */
function zoneSpreadOf(spec: Obj, labels: Obj): { maxSkew: number } | undefined {
  const c = ((spec.topologySpreadConstraints ?? []) as Obj[]).find(
    (t) =>
      t.topologyKey === "topology.kubernetes.io/zone" &&
      (t.whenUnsatisfiable ?? "DoNotSchedule") === "DoNotSchedule" &&
      Object.keys(t.labelSelector?.matchLabels ?? {}).length > 0 &&
      Object.entries((t.labelSelector?.matchLabels ?? {}) as Obj).every(([k, v]) => labels[k] === v),
  );
  return c ? { maxSkew: Number(c.maxSkew) } : undefined;
}

function spreadOrNothing(spread: { maxSkew: number } | undefined): { zoneSpread?: { maxSkew: number } } {
  return spread ? { zoneSpread: spread } : {};
}

function selectsOwnPods(selector: Obj | undefined, labels: Obj): boolean {
  const match = (selector?.matchLabels ?? {}) as Obj;
  return (
    Object.keys(match).length > 0 &&
    (selector?.matchExpressions ?? []).length === 0 &&
    Object.entries(match).every(([k, v]) => labels[k] === v)
  );
}

/**
 * The pod template's spread and (anti-)affinity constraints as the simulation models them: one-per-node anti-affinity,
 * one zone and one hostname spread (DoNotSchedule, over the workload's own pods, default policies). Everything else is
 * named in `unmodelled`, which the report shows on the workload: never silently dropped.
 */
export function schedulingConstraintsOf(
  spec: Obj,
  labels: Obj,
): { onePerNode?: true; zoneSpread?: { maxSkew: number }; hostnameSpread?: { maxSkew: number }; unmodelled?: string[] } {
  const out: { onePerNode?: true; zoneSpread?: { maxSkew: number }; hostnameSpread?: { maxSkew: number }; unmodelled?: string[] } = {};
  const unmodelled: string[] = [];
  ((spec.topologySpreadConstraints ?? []) as Obj[]).forEach((c, i) => {
    const at = `topologySpreadConstraints[${i}]`;
    const when = c.whenUnsatisfiable ?? "DoNotSchedule";
    const problems: string[] = [];
    if (when !== "DoNotSchedule") problems.push(`whenUnsatisfiable ${when}`);
    if (c.topologyKey !== "topology.kubernetes.io/zone" && c.topologyKey !== "kubernetes.io/hostname") problems.push(`topologyKey ${c.topologyKey}`);
    if (!selectsOwnPods(c.labelSelector, labels)) problems.push("a labelSelector other than the pod's own matchLabels");
    if (c.minDomains !== undefined) problems.push(`minDomains ${c.minDomains}`);
    if ((c.nodeAffinityPolicy ?? "Honor") !== "Honor") problems.push(`nodeAffinityPolicy ${c.nodeAffinityPolicy}`);
    if ((c.nodeTaintsPolicy ?? "Ignore") !== "Ignore") problems.push(`nodeTaintsPolicy ${c.nodeTaintsPolicy}`);
    if ((c.matchLabelKeys ?? []).length > 0) problems.push("matchLabelKeys");
    const field = c.topologyKey === "kubernetes.io/hostname" ? "hostnameSpread" : "zoneSpread";
    if (problems.length === 0 && out[field]) problems.push(`a second spread on ${c.topologyKey}`);
    if (problems.length > 0) unmodelled.push(`${at} (${c.topologyKey}): ${problems.join(", ")}`);
    else out[field] = { maxSkew: Number(c.maxSkew) };
  });
  const affinity = (spec.affinity ?? {}) as Obj;
  ((affinity.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) as Obj[]).forEach((t, i) => {
    if (t.topologyKey === "kubernetes.io/hostname" && selectsOwnPods(t.labelSelector, labels) && !t.namespaceSelector && !(t.matchLabelKeys ?? []).length) out.onePerNode = true;
    else unmodelled.push(`affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[${i}] (topologyKey ${t.topologyKey})`);
  });
  if ((affinity.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length > 0) unmodelled.push("affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution");
  for (const kind of ["podAffinity", "podAntiAffinity", "nodeAffinity"]) {
    if ((affinity[kind]?.preferredDuringSchedulingIgnoredDuringExecution ?? []).length > 0) unmodelled.push(`affinity.${kind}.preferredDuringSchedulingIgnoredDuringExecution (a preference)`);
  }
  if (unmodelled.length > 0) out.unmodelled = unmodelled;
  return out;
}

/** Where the Karpenter chart is installed: its Helm values and namespace, from an Application or an ApplicationSet element. */
function karpenterChart(objects: readonly Obj[]): { values: Obj; namespace: string } | undefined {
  for (const o of objects) {
    if (o.kind === "Application") {
      for (const s of [o.spec?.source, ...(o.spec?.sources ?? [])] as Obj[])
        if (s?.chart === "karpenter") return { values: s.helm?.valuesObject ?? {}, namespace: o.spec?.destination?.namespace ?? "kube-system" };
    }
    if (o.kind === "ApplicationSet") {
      for (const g of (o.spec?.generators ?? []) as Obj[])
        for (const inner of [g, ...((g.matrix?.generators ?? []) as Obj[])])
          for (const e of (inner.list?.elements ?? []) as Obj[])
            if (e.patch?.spec?.source?.chart === "karpenter") return { values: e.patch.spec.source.helm?.valuesObject ?? {}, namespace: e.namespace ?? "kube-system" };
    }
  }
  return undefined;
}

function karpenterController(objects: readonly Obj[]): WorkloadInput | undefined {
  const chart = karpenterChart(objects);
  if (!chart) return undefined;
  const v = chart.values;
  const labels = { "app.kubernetes.io/name": "karpenter", "app.kubernetes.io/instance": "karpenter" };
  const spec: Obj = {
    containers: [{ resources: v.controller?.resources ?? {} }],
    ...(v.affinity ? { affinity: v.affinity } : {}),
  };
  return {
    namespace: chart.namespace,
    name: "karpenter",
    replicas: Number(v.replicas ?? CHART_DEFAULTS.replicas),
    requests: podRequests(spec),
    nodeSelector: v.nodeSelector ?? CHART_DEFAULTS.nodeSelector,
    tolerations: v.tolerations ?? CHART_DEFAULTS.tolerations,
    requiredNodeAffinity: v.affinity ? requiredTerms(spec) : CHART_DEFAULTS.requiredNodeAffinity,
    onePerNode: v.affinity ? onePerNode(spec, labels) : true,
    priority: CHART_DEFAULTS.priority,
    ...(v.topologySpreadConstraints ? spreadOrNothing(zoneSpreadOf({ topologySpreadConstraints: v.topologySpreadConstraints }, labels)) : { zoneSpread: CHART_DEFAULTS.zoneSpread }),
  };
}

const WORKLOAD_KINDS = new Set(["Deployment", "StatefulSet", "ReplicaSet"]);

/** AMI family of an EC2NodeClass, as Karpenter derives it (aws/karpenter-provider-aws pkg/apis/v1/ec2nodeclass.go AMIFamily()). */
function amiFamily(spec: Obj): string {
  if (typeof spec.amiFamily === "string") return spec.amiFamily;
  const alias = ((spec.amiSelectorTerms ?? []) as Obj[]).find((t) => typeof t.alias === "string")?.alias as string | undefined;
  const family = alias?.split("@")[0];
  const names: Record<string, string> = { al2: "AL2", al2023: "AL2023", bottlerocket: "Bottlerocket", windows2019: "Windows2019", windows2022: "Windows2022", windows2025: "Windows2025" };
  return family ? (names[family] ?? "Custom") : "Custom";
}

/** The device each AMI family's root (ephemeral) volume is on (aws/karpenter-provider-aws pkg/providers/amifamily/*.go EphemeralBlockDevice). */
const EPHEMERAL_DEVICE: Record<string, string> = { AL2: "/dev/xvda", AL2023: "/dev/xvda", Bottlerocket: "/dev/xvdb", Windows2019: "/dev/sda1", Windows2022: "/dev/sda1", Windows2025: "/dev/sda1" };

/**
 * The volume size that becomes ephemeral-storage, as aws/karpenter-provider-aws
 * pkg/providers/instancetype/types.go ephemeralStorage() picks it: the `rootVolume: true` mapping, else (Custom AMIs)
 * the last mapping, else the mapping on the family's ephemeral device; undefined means the 20Gi default.
 */
function rootVolumeSize(spec: Obj, family: string): string | undefined {
  const mappings = (spec.blockDeviceMappings ?? []) as Obj[];
  if (mappings.length === 0) return undefined;
  const root = mappings.find((m) => m.rootVolume === true);
  if (root?.ebs?.volumeSize !== undefined) return String(root.ebs.volumeSize);
  if (family === "Custom") return mappings.at(-1)?.ebs?.volumeSize;
  return mappings.find((m) => m.deviceName === EPHEMERAL_DEVICE[family])?.ebs?.volumeSize;
}

function nodeGroupInput(g: ResolvedNodeGroup): NodeGroupInput {
  return {
    name: g.name,
    instanceType: g.instanceType,
    count: g.count,
    // A capacity block is reserved On-Demand capacity.
    capacityType: g.capacityType === "SPOT" ? "spot" : "on-demand",
    labels: g.labels,
    taints: g.taints as Taint[],
    ...(g.maxPods !== undefined ? { kubelet: { maxPods: g.maxPods } } : {}),
  };
}

function daemonSetInput(d: ResolvedDaemonSet): DaemonSetInput {
  return { name: `${d.namespace}/${d.name}`, requests: { ...d.requests }, tolerations: d.tolerations as Toleration[] };
}

/**
 * The simulation input of one overlay: the Karpenter controller first (it lands on existing nodes before
 * anything else), then every rendered workload, NodePool and EC2NodeClass, plus the declared node groups and DaemonSets.
 * Replica counts follow the scenario; a `--replicas` entry naming no workload is a usage error.
 */
export function buildSimulationInput(unrendered: UnrenderedCapacity, files: ReadonlyMap<string, string>, scenario: Scenario): BuiltInput {
  const objects = renderedObjects(files);
  const hpas = new Map<string, { minReplicas: number; maxReplicas: number }>();
  for (const o of objects) {
    if (o.kind !== "HorizontalPodAutoscaler") continue;
    const ref = o.spec?.scaleTargetRef ?? {};
    hpas.set(`${o.metadata?.namespace ?? "default"}/${ref.kind}/${ref.name}`, { minReplicas: Number(o.spec?.minReplicas ?? 1), maxReplicas: Number(o.spec?.maxReplicas) });
  }

  const workloads: WorkloadInput[] = [];
  const controller = karpenterController(objects);
  if (controller) workloads.push(controller);
  const autoscaled: string[] = [];
  const rendered = objects
    .filter((o) => WORKLOAD_KINDS.has(o.kind))
    .sort((a, b) => compareText(key(a), key(b)));
  for (const o of rendered) {
    const namespace = o.metadata?.namespace ?? "default";
    const name = o.metadata?.name as string;
    const spec = (o.spec?.template?.spec ?? {}) as Obj;
    const hpa = hpas.get(`${namespace}/${o.kind}/${name}`);
    const id = `${namespace}/${name}`;
    if (hpa) autoscaled.push(id);
    const renderedReplicas = o.spec?.replicas === undefined ? undefined : Number(o.spec.replicas);
    const replicas = hpa
      ? scenario.at === "min"
        ? hpa.minReplicas
        : scenario.at === "max"
          ? hpa.maxReplicas
          : Math.min(hpa.maxReplicas, Math.max(hpa.minReplicas, renderedReplicas ?? 1))
      : (renderedReplicas ?? 1);
    workloads.push({
      namespace,
      name,
      kind: o.kind,
      replicas,
      ...(hpa ? { hpa } : {}),
      requests: podRequests(spec),
      ...(spec.nodeSelector ? { nodeSelector: spec.nodeSelector } : {}),
      ...(requiredTerms(spec) ? { requiredNodeAffinity: requiredTerms(spec) } : {}),
      ...(spec.tolerations ? { tolerations: spec.tolerations } : {}),
      ...schedulingConstraintsOf(spec, o.spec?.template?.metadata?.labels ?? {}),
    });
  }

  const known = new Set(workloads.map((w) => `${w.namespace}/${w.name}`));
  for (const [id, n] of scenario.replicas ?? []) {
    if (!known.has(id)) throw new UsageError(`--replicas ${id}=${n}: ${unrendered.name} has no workload ${id} (have: ${[...known].join(", ")})`);
  }
  const scaled = workloads.map((w) => {
    const n = scenario.replicas?.get(`${w.namespace}/${w.name}`);
    return n === undefined ? w : { ...w, replicas: n };
  });

  const daemonSets: DaemonSetInput[] = unrendered.live ? [...unrendered.live.daemonSets] : unrendered.daemonSets.map(daemonSetInput);
  const seen = new Set(daemonSets.map((d) => d.name));
  for (const o of objects) {
    if (o.kind !== "DaemonSet") continue;
    const name = `${o.metadata?.namespace ?? "default"}/${o.metadata?.name}`;
    // a live cluster already runs the DaemonSets the overlay renders
    if (!seen.has(name)) daemonSets.push({ name, ...podSchedulingOf((o.spec?.template?.spec ?? {}) as Obj) });
  }

  const nodePools: NodePoolInput[] = objects
    .filter((o) => o.kind === "NodePool")
    .sort(byOrder(unrendered.nodePoolOrder))
    .map((o) => ({
      name: o.metadata.name,
      ...(o.spec?.weight !== undefined ? { weight: Number(o.spec.weight) } : {}),
      nodeClass: o.spec?.template?.spec?.nodeClassRef?.name,
      requirements: o.spec?.template?.spec?.requirements ?? [],
      labels: o.spec?.template?.metadata?.labels ?? {},
      taints: o.spec?.template?.spec?.taints ?? [],
      ...(o.spec?.limits ? { limits: Object.fromEntries(Object.entries(o.spec.limits as Obj).map(([k, v]) => [k, String(v)])) } : {}),
      disruption: {
        consolidationPolicy: o.spec?.disruption?.consolidationPolicy ?? "WhenEmptyOrUnderutilized",
        consolidateAfter: o.spec?.disruption?.consolidateAfter ?? "0s",
      },
    }));

  const nodeClasses: EC2NodeClassInput[] = objects
    .filter((o) => o.kind === "EC2NodeClass")
    .sort(byOrder(unrendered.nodeClassOrder))
    .map((o) => {
      const spec = (o.spec ?? {}) as Obj;
      const family = amiFamily(spec);
      const size = rootVolumeSize(spec, family);
      return {
        name: o.metadata.name,
        amiFamily: family,
        ...(spec.kubelet ? { kubelet: spec.kubelet as KubeletInput } : {}),
        ...(size !== undefined ? { rootVolumeSize: size } : {}),
        ...(spec.instanceStorePolicy === "RAID0" ? { instanceStorePolicy: "RAID0" as const } : {}),
        // Which reservations the terms select is EC2's answer (DescribeCapacityReservations), not the overlay's: say so.
        ...(Array.isArray(spec.capacityReservationSelectorTerms) && spec.capacityReservationSelectorTerms.length > 0
          ? { unmodelled: ["spec.capacityReservationSelectorTerms: the reservations they select are not known offline; simulated without reserved offerings"] }
          : {}),
      };
    });

  return {
    input: { cluster: unrendered.name, region: unrendered.region, nodeGroups: unrendered.live ? [...unrendered.live.nodeGroups] : unrendered.nodeGroups.map(nodeGroupInput), daemonSets, workloads: scaled, nodePools, nodeClasses },
    autoscaled,
  };
}

/** Sorts by position in `order` (unknown names last), then by name. */
function byOrder(order: readonly string[] | undefined): (a: Obj, b: Obj) => number {
  const at = (o: Obj) => {
    const i = order?.indexOf(o.metadata?.name) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return (a, b) => at(a) - at(b) || compareText(key(a), key(b));
}

function key(o: Obj): string {
  return `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}/${o.kind}`;
}

// Per-kind knowledge the mutator uses: enum fields, numeric fields with their limits, and rule-breaking edits.
// Limits and rules are restated from the API's behaviour as field paths and values; no upstream text is copied.
import { ADMISSION_ACCEPTED_EDITS, ADMISSION_ENUM_FIELDS, ADMISSION_KINDS, ADMISSION_NUMERIC_FIELDS, ADMISSION_RULE_EDITS } from "./catalog-admission.ts";
import { BUILTIN_ACCEPTED_EDITS, BUILTIN_ENUM_FIELDS, BUILTIN_KINDS, BUILTIN_NUMERIC_FIELDS, BUILTIN_RULE_EDITS } from "./catalog-builtin.ts";
import { deleteAt, getAt, type Json, type Path, setAt } from "./paths.ts";

/** Kinds of the rendered output, then the built-in kinds of bases.ts. */
export const RENDERED_KINDS = ["NodePool", "EC2NodeClass", "Deployment", "Service", "HorizontalPodAutoscaler"] as const;
export const MUTATED_KINDS = [...RENDERED_KINDS, ...BUILTIN_KINDS, ...ADMISSION_KINDS] as const;
export type MutatedKind = (typeof MUTATED_KINDS)[number];

/** A field with a closed set of values; the mutator writes something outside the set. */
export interface EnumField {
  readonly path: Path;
  readonly values: readonly string[];
}

/** A numeric field; the mutator writes values around and beyond its bounds. */
export interface NumericField {
  readonly path: Path;
  readonly min?: number;
  readonly max?: number;
  /** Integer fields also get a fraction. */
  readonly integer: boolean;
}

/** An edit that keeps every type right but breaks a validation rule or a combination constraint. */
export interface RuleEdit {
  readonly name: string;
  apply(object: Json): void;
}

const C0 = ["spec", "template", "spec", "containers", 0] as const;
const REQS = ["spec", "template", "spec", "requirements"] as const;

export const ENUM_FIELDS: Record<MutatedKind, readonly EnumField[]> = {
  ...BUILTIN_ENUM_FIELDS,
  ...ADMISSION_ENUM_FIELDS,
  NodePool: [
    { path: ["spec", "disruption", "consolidationPolicy"], values: ["WhenEmpty", "WhenEmptyOrUnderutilized"] },
    { path: [...REQS, 0, "operator"], values: ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"] },
    { path: ["spec", "template", "spec", "taints", 0, "effect"], values: ["NoSchedule", "PreferNoSchedule", "NoExecute"] },
    { path: ["spec", "disruption", "budgets", 0, "reasons", 0], values: ["Underutilized", "Empty", "Drifted"] },
  ],
  EC2NodeClass: [
    { path: ["spec", "metadataOptions", "httpTokens"], values: ["required", "optional"] },
    { path: ["spec", "metadataOptions", "httpEndpoint"], values: ["enabled", "disabled"] },
    { path: ["spec", "instanceStorePolicy"], values: ["RAID0"] },
    { path: ["spec", "blockDeviceMappings", 0, "ebs", "volumeType"], values: ["standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"] },
  ],
  Deployment: [
    { path: ["spec", "strategy", "type"], values: ["Recreate", "RollingUpdate"] },
    { path: [...C0, "imagePullPolicy"], values: ["Always", "Never", "IfNotPresent"] },
    { path: ["spec", "template", "spec", "restartPolicy"], values: ["Always", "OnFailure", "Never"] },
    { path: ["spec", "template", "spec", "dnsPolicy"], values: ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"] },
    { path: [...C0, "ports", 0, "protocol"], values: ["SCTP", "TCP", "UDP"] },
  ],
  Service: [
    { path: ["spec", "type"], values: ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"] },
    { path: ["spec", "ports", 0, "protocol"], values: ["SCTP", "TCP", "UDP"] },
    { path: ["spec", "externalTrafficPolicy"], values: ["Cluster", "Local"] },
    { path: ["spec", "sessionAffinity"], values: ["ClientIP", "None"] },
    { path: ["spec", "ipFamilyPolicy"], values: ["PreferDualStack", "RequireDualStack", "SingleStack"] },
  ],
  HorizontalPodAutoscaler: [
    { path: ["spec", "metrics", 0, "type"], values: ["ContainerResource", "External", "Object", "Pods", "Resource"] },
    { path: ["spec", "metrics", 0, "resource", "target", "type"], values: ["AverageValue", "Utilization", "Value"] },
    { path: ["spec", "behavior", "scaleUp", "selectPolicy"], values: ["Disabled", "Max", "Min"] },
  ],
};

export const NUMERIC_FIELDS: Record<MutatedKind, readonly NumericField[]> = {
  ...BUILTIN_NUMERIC_FIELDS,
  ...ADMISSION_NUMERIC_FIELDS,
  NodePool: [
    { path: ["spec", "weight"], min: 1, max: 100, integer: true },
    { path: [...REQS, 0, "minValues"], min: 1, max: 50, integer: true },
  ],
  EC2NodeClass: [
    { path: ["spec", "metadataOptions", "httpPutResponseHopLimit"], min: 1, max: 64, integer: true },
    { path: ["spec", "kubelet", "maxPods"], min: 0, integer: true },
    { path: ["spec", "kubelet", "podsPerCore"], min: 0, integer: true },
    { path: ["spec", "kubelet", "imageGCHighThresholdPercent"], min: 0, max: 100, integer: true },
    { path: ["spec", "kubelet", "imageGCLowThresholdPercent"], min: 0, max: 100, integer: true },
  ],
  Deployment: [
    { path: ["spec", "replicas"], min: 0, integer: true },
    { path: ["spec", "revisionHistoryLimit"], min: 0, integer: true },
    { path: ["spec", "minReadySeconds"], min: 0, integer: true },
    { path: ["spec", "progressDeadlineSeconds"], min: 1, integer: true },
    { path: ["spec", "template", "spec", "terminationGracePeriodSeconds"], min: 0, integer: true },
    { path: [...C0, "ports", 0, "containerPort"], min: 1, max: 65535, integer: true },
  ],
  Service: [
    { path: ["spec", "ports", 0, "port"], min: 1, max: 65535, integer: true },
    { path: ["spec", "ports", 0, "targetPort"], min: 1, max: 65535, integer: true },
    { path: ["spec", "ports", 0, "nodePort"], min: 30000, max: 32767, integer: true },
  ],
  HorizontalPodAutoscaler: [
    { path: ["spec", "minReplicas"], min: 1, integer: true },
    { path: ["spec", "maxReplicas"], min: 1, integer: true },
    { path: ["spec", "metrics", 0, "resource", "target", "averageUtilization"], min: 1, integer: true },
    { path: ["spec", "behavior", "scaleUp", "stabilizationWindowSeconds"], min: 0, max: 3600, integer: true },
  ],
};

const requirement = (key: string, operator: string, values: string[], extra: Record<string, Json> = {}) => ({
  key,
  operator,
  values,
  ...extra,
});
const pushTo = (o: Json, path: Path, item: Json) => {
  const list = getAt(o, path);
  if (Array.isArray(list)) list.push(item);
  else setAt(o, path, [item]);
};

export const RULE_EDITS: Record<MutatedKind, readonly RuleEdit[]> = {
  ...BUILTIN_RULE_EDITS,
  ...ADMISSION_RULE_EDITS,
  NodePool: [
    { name: "empty nodeClassRef.group", apply: (o) => setAt(o, ["spec", "template", "spec", "nodeClassRef", "group"], "") },
    { name: "empty nodeClassRef.kind", apply: (o) => setAt(o, ["spec", "template", "spec", "nodeClassRef", "kind"], "") },
    { name: "empty nodeClassRef.name", apply: (o) => setAt(o, ["spec", "template", "spec", "nodeClassRef", "name"], "") },
    { name: "nodeClassRef without group", apply: (o) => deleteAt(o, ["spec", "template", "spec", "nodeClassRef", "group"]) },
    { name: "operator In with no values", apply: (o) => pushTo(o, REQS, requirement("topology.kubernetes.io/zone", "In", [])) },
    { name: "operator Gt with a non-integer", apply: (o) => pushTo(o, REQS, requirement("karpenter.k8s.aws/instance-cpu", "Gt", ["four"])) },
    { name: "operator Lt with two values", apply: (o) => pushTo(o, REQS, requirement("karpenter.k8s.aws/instance-cpu", "Lt", ["4", "8"])) },
    { name: "operator Gt with a negative", apply: (o) => pushTo(o, REQS, requirement("karpenter.k8s.aws/instance-cpu", "Gt", ["-1"])) },
    { name: "minValues above the values given", apply: (o) => pushTo(o, REQS, requirement("karpenter.k8s.aws/instance-family", "In", ["m5"], { minValues: 3 })) },
    { name: "requirement on a restricted label", apply: (o) => pushTo(o, REQS, requirement("karpenter.sh/nodepool", "In", ["x"])) },
    { name: "requirement on hostname", apply: (o) => pushTo(o, REQS, requirement("kubernetes.io/hostname", "In", ["x"])) },
    { name: "requirement on an unknown karpenter.k8s.aws label", apply: (o) => pushTo(o, REQS, requirement("karpenter.k8s.aws/not-a-label", "In", ["x"])) },
    { name: "template label in a restricted domain", apply: (o) => setAt(o, ["spec", "template", "metadata", "labels", "karpenter.sh/custom"], "x") },
    { name: "budget schedule without duration", apply: (o) => setAt(o, ["spec", "disruption", "budgets"], [{ nodes: "10%", schedule: "@daily" }]) },
    { name: "budget nodes not a percentage or count", apply: (o) => setAt(o, ["spec", "disruption", "budgets"], [{ nodes: "ten" }]) },
    { name: "consolidateAfter not a duration", apply: (o) => setAt(o, ["spec", "disruption", "consolidateAfter"], "1 minute") },
    { name: "expireAfter not a duration", apply: (o) => setAt(o, ["spec", "template", "spec", "expireAfter"], "30d") },
    { name: "static NodePool with a cpu limit", apply: (o) => setAt(o, ["spec", "replicas"], 2) },
    { name: "static NodePool with a weight", apply: (o) => { setAt(o, ["spec", "replicas"], 2); deleteAt(o, ["spec", "limits"]); setAt(o, ["spec", "weight"], 10); } },
    { name: "taint without effect", apply: (o) => setAt(o, ["spec", "template", "spec", "taints"], [{ key: "dedicated", value: "x" }]) },
    { name: "requirements missing", apply: (o) => deleteAt(o, REQS) },
  ],
  EC2NodeClass: [
    { name: "role and instanceProfile together", apply: (o) => setAt(o, ["spec", "instanceProfile"], "KarpenterNodeInstanceProfile") },
    { name: "neither role nor instanceProfile", apply: (o) => deleteAt(o, ["spec", "role"]) },
    { name: "no amiSelectorTerms", apply: (o) => setAt(o, ["spec", "amiSelectorTerms"], []) },
    { name: "alias beside tags in one term", apply: (o) => setAt(o, ["spec", "amiSelectorTerms"], [{ alias: "al2023@latest", tags: { a: "b" } }]) },
    { name: "alias and a second term", apply: (o) => setAt(o, ["spec", "amiSelectorTerms"], [{ alias: "al2023@latest" }, { id: "ami-0123456789abcdef0" }]) },
    { name: "alias without version", apply: (o) => setAt(o, ["spec", "amiSelectorTerms"], [{ alias: "al2023" }]) },
    { name: "alias of an unknown family", apply: (o) => setAt(o, ["spec", "amiSelectorTerms"], [{ alias: "ubuntu@latest" }]) },
    { name: "empty subnet selector term", apply: (o) => setAt(o, ["spec", "subnetSelectorTerms"], [{}]) },
    { name: "subnet id beside tags", apply: (o) => setAt(o, ["spec", "subnetSelectorTerms"], [{ id: "subnet-0123456789abcdef0", tags: { a: "b" } }]) },
    { name: "malformed subnet id", apply: (o) => setAt(o, ["spec", "subnetSelectorTerms"], [{ id: "sub-123" }]) },
    { name: "empty security group selector", apply: (o) => setAt(o, ["spec", "securityGroupSelectorTerms"], []) },
    { name: "security group tag with empty value", apply: (o) => setAt(o, ["spec", "securityGroupSelectorTerms"], [{ tags: { a: "" } }]) },
    { name: "restricted tag key", apply: (o) => setAt(o, ["spec", "tags", "karpenter.sh/nodepool"], "x") },
    { name: "cluster-owned tag key", apply: (o) => setAt(o, ["spec", "tags", "kubernetes.io/cluster/other"], "owned") },
    { name: "two root volumes", apply: (o) => setAt(o, ["spec", "blockDeviceMappings"], [
      { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "20Gi" } },
      { deviceName: "/dev/xvdb", rootVolume: true, ebs: { volumeSize: "20Gi" } },
    ]) },
    { name: "kubelet evictionHard with an unknown signal", apply: (o) => setAt(o, ["spec", "kubelet", "evictionHard"], { "disk.unknown": "10%" }) },
    { name: "evictionSoft without grace period", apply: (o) => setAt(o, ["spec", "kubelet", "evictionSoft"], { "memory.available": "5%" }) },
    { name: "imageGC low above high", apply: (o) => setAt(o, ["spec", "kubelet"], { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 60 }) },
    { name: "capacity reservation term empty", apply: (o) => setAt(o, ["spec", "capacityReservationSelectorTerms"], [{}]) },
  ],
  Deployment: [
    { name: "selector does not match template labels", apply: (o) => setAt(o, ["spec", "selector", "matchLabels"], { app: "other" }) },
    { name: "container name not a DNS label", apply: (o) => setAt(o, [...C0, "name"], "Web_Server") },
    { name: "empty image", apply: (o) => setAt(o, [...C0, "image"], "") },
    { name: "request above limit", apply: (o) => { setAt(o, [...C0, "resources", "limits", "cpu"], "1"); setAt(o, [...C0, "resources", "requests", "cpu"], "2"); } },
    { name: "malformed quantity", apply: (o) => setAt(o, [...C0, "resources", "requests", "memory"], "4 GB") },
    { name: "duplicate port names", apply: (o) => setAt(o, [...C0, "ports"], [{ containerPort: 80, name: "http" }, { containerPort: 81, name: "http" }]) },
    { name: "Recreate with rollingUpdate", apply: (o) => setAt(o, ["spec", "strategy", "type"], "Recreate") },
    { name: "no containers", apply: (o) => setAt(o, ["spec", "template", "spec", "containers"], []) },
    { name: "selector missing", apply: (o) => deleteAt(o, ["spec", "selector"]) },
    { name: "label value too long", apply: (o) => setAt(o, ["metadata", "labels", "tier"], "x".repeat(64)) },
    { name: "maxSurge and maxUnavailable both zero", apply: (o) => setAt(o, ["spec", "strategy", "rollingUpdate"], { maxSurge: 0, maxUnavailable: 0 }) },
    { name: "restartPolicy Never", apply: (o) => setAt(o, ["spec", "template", "spec", "restartPolicy"], "Never") },
    { name: "container port 65536", apply: (o) => setAt(o, [...C0, "ports"], [{ containerPort: 65536 }]) },
    { name: "probe with two handlers", apply: (o) => setAt(o, [...C0, "livenessProbe"], { httpGet: { port: 80 }, tcpSocket: { port: 80 } }) },
    { name: "probe on a named port that does not exist", apply: (o) => setAt(o, [...C0, "readinessProbe"], { httpGet: { port: "metrics" } }) },
    { name: "volumeMount naming no volume", apply: (o) => setAt(o, [...C0, "volumeMounts"], [{ name: "data", mountPath: "/data" }]) },
    { name: "env var name empty", apply: (o) => setAt(o, [...C0, "env"], [{ name: "", value: "x" }]) },
    { name: "configMapKeyRef key invalid", apply: (o) => setAt(o, [...C0, "env"], [{ name: "A", valueFrom: { configMapKeyRef: { name: "cfg", key: "a/b" } } }]) },
    { name: "memory 4GB", apply: (o) => setAt(o, [...C0, "resources", "requests", "memory"], "4GB") },
    { name: "hostPort without matching containerPort rules", apply: (o) => setAt(o, [...C0, "ports"], [{ containerPort: 80, hostPort: 70000 }]) },
    { name: "progressDeadlineSeconds not above minReadySeconds", apply: (o) => { setAt(o, ["spec", "minReadySeconds"], 30); setAt(o, ["spec", "progressDeadlineSeconds"], 30); } },
    { name: "toleration NoExecute seconds with NoSchedule", apply: (o) => setAt(o, ["spec", "template", "spec", "tolerations"], [{ key: "k", operator: "Exists", effect: "NoSchedule", tolerationSeconds: 30 }]) },
    { name: "duplicate volume names", apply: (o) => setAt(o, ["spec", "template", "spec", "volumes"], [{ name: "v", emptyDir: {} }, { name: "v", emptyDir: {} }]) },
  ],
  Service: [
    { name: "LoadBalancer with clusterIP None", apply: (o) => setAt(o, ["spec", "clusterIP"], "None") },
    { name: "duplicate ports", apply: (o) => pushTo(o, ["spec", "ports"], { name: "http2", port: 80, protocol: "TCP", targetPort: 8080 }) },
    { name: "duplicate port names", apply: (o) => pushTo(o, ["spec", "ports"], { name: "http", port: 8080, protocol: "TCP", targetPort: 8080 }) },
    { name: "multiple ports without names", apply: (o) => setAt(o, ["spec", "ports"], [{ port: 80 }, { port: 81 }]) },
    { name: "no ports", apply: (o) => setAt(o, ["spec", "ports"], []) },
    { name: "named targetPort not a port name", apply: (o) => setAt(o, ["spec", "ports", 0, "targetPort"], "not_a_name!") },
    { name: "ExternalName without externalName", apply: (o) => { setAt(o, ["spec", "type"], "ExternalName"); deleteAt(o, ["spec", "loadBalancerClass"]); } },
    { name: "loadBalancerClass on ClusterIP", apply: (o) => setAt(o, ["spec", "type"], "ClusterIP") },
    { name: "Local traffic policy on ClusterIP", apply: (o) => { setAt(o, ["spec", "type"], "ClusterIP"); deleteAt(o, ["spec", "loadBalancerClass"]); setAt(o, ["spec", "externalTrafficPolicy"], "Local"); } },
    { name: "invalid clusterIP", apply: (o) => setAt(o, ["spec", "clusterIP"], "10.0.0.300") },
    { name: "selector value not a label value", apply: (o) => setAt(o, ["spec", "selector", "app.kubernetes.io/name"], "nginx web") },
    { name: "port 70000", apply: (o) => setAt(o, ["spec", "ports", 0, "port"], 70000) },
    { name: "nodePort on ClusterIP", apply: (o) => { setAt(o, ["spec", "type"], "ClusterIP"); deleteAt(o, ["spec", "loadBalancerClass"]); setAt(o, ["spec", "ports", 0, "nodePort"], 30080); } },
    { name: "externalName not a DNS name", apply: (o) => { setAt(o, ["spec", "type"], "ExternalName"); deleteAt(o, ["spec", "loadBalancerClass"]); setAt(o, ["spec", "externalName"], "not a host"); } },
    { name: "ClientIP timeout above a day", apply: (o) => { setAt(o, ["spec", "sessionAffinity"], "ClientIP"); setAt(o, ["spec", "sessionAffinityConfig"], { clientIP: { timeoutSeconds: 86401 } }); } },
  ],
  HorizontalPodAutoscaler: [
    { name: "minReplicas above maxReplicas", apply: (o) => { setAt(o, ["spec", "minReplicas"], 20); setAt(o, ["spec", "maxReplicas"], 10); } },
    { name: "minReplicas zero", apply: (o) => setAt(o, ["spec", "minReplicas"], 0) },
    { name: "Utilization target without averageUtilization", apply: (o) => setAt(o, ["spec", "metrics", 0, "resource", "target"], { type: "Utilization" }) },
    { name: "AverageValue target without averageValue", apply: (o) => setAt(o, ["spec", "metrics", 0, "resource", "target"], { type: "AverageValue", averageUtilization: 50 }) },
    { name: "Resource metric without resource", apply: (o) => setAt(o, ["spec", "metrics"], [{ type: "Resource" }]) },
    { name: "Pods metric carrying a resource source", apply: (o) => setAt(o, ["spec", "metrics", 0, "type"], "Pods") },
    { name: "scaleTargetRef without kind", apply: (o) => deleteAt(o, ["spec", "scaleTargetRef", "kind"]) },
    { name: "scaleTargetRef name empty", apply: (o) => setAt(o, ["spec", "scaleTargetRef", "name"], "") },
    { name: "scaling policy with zero value", apply: (o) => setAt(o, ["spec", "behavior", "scaleUp", "policies"], [{ type: "Pods", value: 0, periodSeconds: 60 }]) },
    { name: "scaling policy period above 1800", apply: (o) => setAt(o, ["spec", "behavior", "scaleDown", "policies"], [{ type: "Percent", value: 10, periodSeconds: 3600 }]) },
    { name: "maxReplicas missing", apply: (o) => deleteAt(o, ["spec", "maxReplicas"]) },
    { name: "maxReplicas zero", apply: (o) => setAt(o, ["spec", "maxReplicas"], 0) },
    { name: "selectPolicy with a typo", apply: (o) => setAt(o, ["spec", "behavior", "scaleUp", "selectPolicy"], "Maximum") },
    { name: "stabilization window above an hour", apply: (o) => setAt(o, ["spec", "behavior", "scaleDown", "stabilizationWindowSeconds"], 3601) },
    { name: "External metric without metric name", apply: (o) => setAt(o, ["spec", "metrics"], [{ type: "External", external: { metric: { name: "" }, target: { type: "Value", value: "10" } } }]) },
  ],
};

/** Edits kube-apiserver accepts (unusual but legal values near the rules): they catch checks that are too strict. */
export const ACCEPTED_EDITS: Record<MutatedKind, readonly RuleEdit[]> = {
  ...BUILTIN_ACCEPTED_EDITS,
  ...ADMISSION_ACCEPTED_EDITS,
  NodePool: [
    { name: "weight 100", apply: (o) => setAt(o, ["spec", "weight"], 100) },
    { name: "requirement Gt with an integer", apply: (o) => pushTo(o, REQS, requirement("karpenter.k8s.aws/instance-cpu", "Gt", ["3"])) },
  ],
  EC2NodeClass: [
    { name: "extra tag", apply: (o) => setAt(o, ["spec", "tags", "team"], "shop") },
    { name: "hop limit 64", apply: (o) => setAt(o, ["spec", "metadataOptions", "httpPutResponseHopLimit"], 64) },
  ],
  Deployment: [
    { name: "container port 65535", apply: (o) => setAt(o, [...C0, "ports"], [{ containerPort: 65535, name: "max" }]) },
    { name: "env var name with dots (1.36 relaxed names)", apply: (o) => setAt(o, [...C0, "env"], [{ name: "my.var-1", value: "x" }]) },
    { name: "request equal to limit", apply: (o) => setAt(o, [...C0, "resources"], { requests: { cpu: "250m", memory: "128Mi" }, limits: { cpu: "0.25", memory: "128Mi" } }) },
    { name: "probe on a named port that exists", apply: (o) => { setAt(o, [...C0, "ports"], [{ containerPort: 80, name: "http" }]); setAt(o, [...C0, "readinessProbe"], { httpGet: { port: "http" } }); } },
    { name: "Recreate without rollingUpdate", apply: (o) => setAt(o, ["spec", "strategy"], { type: "Recreate" }) },
    { name: "maxSurge 0 with maxUnavailable 1", apply: (o) => setAt(o, ["spec", "strategy", "rollingUpdate"], { maxSurge: 0, maxUnavailable: 1 }) },
    { name: "volume and its mount", apply: (o) => { setAt(o, ["spec", "template", "spec", "volumes"], [{ name: "tmp", emptyDir: {} }]); setAt(o, [...C0, "volumeMounts"], [{ name: "tmp", mountPath: "/tmp" }]); } },
  ],
  Service: [
    { name: "port 65535", apply: (o) => setAt(o, ["spec", "ports", 0, "port"], 65535) },
    { name: "named targetPort", apply: (o) => setAt(o, ["spec", "ports", 0, "targetPort"], "http") },
    { name: "two named ports", apply: (o) => pushTo(o, ["spec", "ports"], { name: "https", port: 443, protocol: "TCP", targetPort: 8443 }) },
    { name: "externalTrafficPolicy Local on a LoadBalancer", apply: (o) => setAt(o, ["spec", "externalTrafficPolicy"], "Local") },
  ],
  HorizontalPodAutoscaler: [
    { name: "minReplicas equal to maxReplicas", apply: (o) => { setAt(o, ["spec", "minReplicas"], 5); setAt(o, ["spec", "maxReplicas"], 5); } },
    { name: "scale-down disabled", apply: (o) => setAt(o, ["spec", "behavior", "scaleDown", "selectPolicy"], "Disabled") },
    { name: "stabilization window of an hour", apply: (o) => setAt(o, ["spec", "behavior", "scaleDown", "stabilizationWindowSeconds"], 3600) },
  ],
};

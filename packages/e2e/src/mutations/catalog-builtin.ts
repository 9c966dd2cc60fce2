// Per-kind knowledge for the built-in kinds of issue 11's native checks (batch, policy, rbac, networking, scheduling,
// storage, and more core/apps checks): enum fields, numeric fields, edits the API server rejects (rule-breaking) and
// edits it accepts (accepted-edit: unusual but legal values near the rules). Restated from the API's behaviour.
import type { EnumField, NumericField, RuleEdit } from "./catalog.ts";
import { STORRES_ACCEPTED_EDITS, STORRES_ENUM_FIELDS, STORRES_KINDS, STORRES_NUMERIC_FIELDS, STORRES_RULE_EDITS } from "./catalog-storres.ts";
import { deleteAt, getAt, type Json, type Path, setAt } from "./paths.ts";

export const BUILTIN_KINDS = [
  "Job",
  "CronJob",
  "PodDisruptionBudget",
  "Role",
  "ClusterRole",
  "RoleBinding",
  "ClusterRoleBinding",
  "Ingress",
  "NetworkPolicy",
  "PriorityClass",
  "StorageClass",
  "StatefulSet",
  "DaemonSet",
  "ConfigMap",
  "Secret",
  "ServiceAccount",
  // issue 23: admission, networking, node, coordination and storage kinds
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "IngressClass",
  "RuntimeClass",
  "Lease",
  "CSIDriver",
  ...STORRES_KINDS,
] as const;
export type BuiltinKind = (typeof BUILTIN_KINDS)[number];

const edit = (name: string, apply: (o: Json) => void): RuleEdit => ({ name, apply });
// a fresh copy each time: an object shared between mutations would change when a later edit of another one changes it
const set = (name: string, path: Path, value: Json): RuleEdit => edit(name, (o) => setAt(o, path, structuredClone(value)));
const push = (o: Json, path: Path, item: Json) => {
  const list = getAt(o, path);
  if (Array.isArray(list)) list.push(item);
  else setAt(o, path, [item]);
};

const JOB_POD = ["spec", "template", "spec"] as const;
const CRON_POD = ["spec", "jobTemplate", "spec", "template", "spec"] as const;
const STS_POD = ["spec", "template", "spec"] as const;
const C0 = (pod: Path) => [...pod, "containers", 0];

/** Pod-template edits shared by every workload kind (PodSpec checks of core). */
const podRejected = (pod: Path): RuleEdit[] => [
  set("container port 65536", [...C0(pod), "ports"], [{ containerPort: 65536 }]),
  set("container port 0", [...C0(pod), "ports"], [{ containerPort: 0 }]),
  set("cpu request above limit", [...C0(pod), "resources"], { requests: { cpu: "2" }, limits: { cpu: "1" } }),
  set("memory 4GB (not a quantity)", [...C0(pod), "resources", "requests", "memory"], "4GB"),
  set("probe with two handlers", [...C0(pod), "livenessProbe"], { exec: { command: ["true"] }, tcpSocket: { port: 80 } }),
  set("volumeMount naming no volume", [...C0(pod), "volumeMounts"], [{ name: "missing", mountPath: "/data" }]),
  set("env var name empty", [...C0(pod), "env"], [{ name: "", value: "x" }]),
  edit("duplicate container names", (o) => push(o, [...pod, "containers"], { name: (getAt(o, [...C0(pod), "name"]) as string) ?? "c", image: "busybox" })),
  set("container name not a DNS label", [...C0(pod), "name"], "Worker_1"),
  set("empty image", [...C0(pod), "image"], ""),
  set("toleration Exists with a value", [...pod, "tolerations"], [{ key: "k", operator: "Exists", value: "v" }]),
  set("node affinity operator Gt with two values", [...pod, "affinity"], {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "k", operator: "Gt", values: ["1", "2"] }] }] } },
  }),
  set("topology spread maxSkew 0", [...pod, "topologySpreadConstraints"], [{ maxSkew: 0, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "DoNotSchedule" }]),
  set("runAsUser negative", [...pod, "securityContext", "runAsUser"], -1),
  set("priorityClassName not a subdomain", [...pod, "priorityClassName"], "High_Priority"),
  set("serviceAccountName not a subdomain", [...pod, "serviceAccountName"], "Worker SA"),
  set("extended resource request not integral", [...C0(pod), "resources"], { requests: { "example.com/gpu": "500m" }, limits: { "example.com/gpu": "500m" } }),
  set("dnsPolicy None without dnsConfig", [...pod, "dnsPolicy"], "None"),
];

const podAccepted = (pod: Path): RuleEdit[] => [
  set("container port 65535", [...C0(pod), "ports"], [{ containerPort: 65535, name: "max" }]),
  set("env var name with dots and dashes (1.36 relaxed names)", [...C0(pod), "env"], [{ name: "my.var-1", value: "x" }]),
  set("cpu request equal to limit in millicores", [...C0(pod), "resources"], { requests: { cpu: "500m" }, limits: { cpu: "0.5" } }),
  set("one exec probe", [...C0(pod), "readinessProbe"], { exec: { command: ["true"] }, periodSeconds: 5 }),
  set("toleration Exists without key", [...pod, "tolerations"], [{ operator: "Exists" }]),
  set("emptyDir volume and its mount", [...pod, "volumes"], [{ name: "scratch", emptyDir: { sizeLimit: "1Gi" } }]),
  set("dnsPolicy None with dnsConfig", [...pod, "dnsConfig"], { nameservers: ["10.0.0.10"] }),
  set("priorityClassName system-node-critical", [...pod, "priorityClassName"], "system-node-critical"),
];

export const BUILTIN_ENUM_FIELDS: Record<BuiltinKind, readonly EnumField[]> = {
  ...STORRES_ENUM_FIELDS,
  Job: [
    { path: ["spec", "completionMode"], values: ["Indexed", "NonIndexed"] },
    { path: [...JOB_POD, "restartPolicy"], values: ["OnFailure", "Never"] },
    { path: ["spec", "podReplacementPolicy"], values: ["Failed", "TerminatingOrFailed"] },
  ],
  CronJob: [
    { path: ["spec", "concurrencyPolicy"], values: ["Allow", "Forbid", "Replace"] },
    { path: [...C0(CRON_POD), "imagePullPolicy"], values: ["Always", "IfNotPresent", "Never"] },
  ],
  PodDisruptionBudget: [{ path: ["spec", "unhealthyPodEvictionPolicy"], values: ["AlwaysAllow", "IfHealthyBudget"] }],
  Role: [],
  ClusterRole: [],
  RoleBinding: [
    { path: ["roleRef", "kind"], values: ["Role", "ClusterRole"] },
    { path: ["subjects", 0, "kind"], values: ["ServiceAccount", "User", "Group"] },
  ],
  ClusterRoleBinding: [{ path: ["roleRef", "kind"], values: ["ClusterRole"] }],
  Ingress: [{ path: ["spec", "rules", 0, "http", "paths", 0, "pathType"], values: ["Exact", "ImplementationSpecific", "Prefix"] }],
  NetworkPolicy: [
    { path: ["spec", "policyTypes", 0], values: ["Ingress", "Egress"] },
    { path: ["spec", "ingress", 0, "ports", 0, "protocol"], values: ["TCP", "UDP", "SCTP"] },
  ],
  PriorityClass: [{ path: ["preemptionPolicy"], values: ["Never", "PreemptLowerPriority"] }],
  StorageClass: [
    { path: ["reclaimPolicy"], values: ["Delete", "Retain"] },
    { path: ["volumeBindingMode"], values: ["Immediate", "WaitForFirstConsumer"] },
  ],
  StatefulSet: [
    { path: ["spec", "podManagementPolicy"], values: ["OrderedReady", "Parallel"] },
    { path: ["spec", "updateStrategy", "type"], values: ["OnDelete", "RollingUpdate"] },
  ],
  DaemonSet: [
    { path: ["spec", "updateStrategy", "type"], values: ["OnDelete", "RollingUpdate"] },
    { path: [...STS_POD, "tolerations", 0, "effect"], values: ["NoExecute", "NoSchedule", "PreferNoSchedule"] },
  ],
  ConfigMap: [],
  Secret: [],
  ServiceAccount: [],
  ValidatingWebhookConfiguration: [
    { path: ["webhooks", 0, "failurePolicy"], values: ["Fail", "Ignore"] },
    { path: ["webhooks", 0, "matchPolicy"], values: ["Equivalent", "Exact"] },
    { path: ["webhooks", 0, "sideEffects"], values: ["None", "NoneOnDryRun"] },
    { path: ["webhooks", 0, "rules", 0, "scope"], values: ["*", "Cluster", "Namespaced"] },
    { path: ["webhooks", 0, "rules", 0, "operations", 0], values: ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"] },
  ],
  MutatingWebhookConfiguration: [
    { path: ["webhooks", 0, "failurePolicy"], values: ["Fail", "Ignore"] },
    { path: ["webhooks", 0, "sideEffects"], values: ["None", "NoneOnDryRun"] },
    { path: ["webhooks", 0, "reinvocationPolicy"], values: ["IfNeeded", "Never"] },
  ],
  IngressClass: [{ path: ["spec", "parameters", "scope"], values: ["Cluster", "Namespace"] }],
  RuntimeClass: [{ path: ["scheduling", "tolerations", 0, "effect"], values: ["NoExecute", "NoSchedule", "PreferNoSchedule"] }],
  Lease: [],
  CSIDriver: [
    { path: ["spec", "fsGroupPolicy"], values: ["File", "None", "ReadWriteOnceWithFSType"] },
    { path: ["spec", "volumeLifecycleModes", 0], values: ["Ephemeral", "Persistent"] },
  ],
};

export const BUILTIN_NUMERIC_FIELDS: Record<BuiltinKind, readonly NumericField[]> = {
  ...STORRES_NUMERIC_FIELDS,
  Job: [
    { path: ["spec", "completions"], min: 0, integer: true },
    { path: ["spec", "parallelism"], min: 0, integer: true },
    { path: ["spec", "backoffLimit"], min: 0, integer: true },
    { path: ["spec", "activeDeadlineSeconds"], min: 1, integer: true },
  ],
  CronJob: [
    { path: ["spec", "startingDeadlineSeconds"], min: 0, integer: true },
    { path: ["spec", "successfulJobsHistoryLimit"], min: 0, integer: true },
    { path: ["spec", "jobTemplate", "spec", "backoffLimit"], min: 0, integer: true },
  ],
  PodDisruptionBudget: [{ path: ["spec", "minAvailable"], min: 0, integer: true }],
  Role: [],
  ClusterRole: [],
  RoleBinding: [],
  ClusterRoleBinding: [],
  Ingress: [{ path: ["spec", "rules", 0, "http", "paths", 0, "backend", "service", "port", "number"], min: 1, max: 65535, integer: true }],
  NetworkPolicy: [
    { path: ["spec", "ingress", 0, "ports", 0, "port"], min: 1, max: 65535, integer: true },
    { path: ["spec", "egress", 0, "ports", 0, "endPort"], min: 1, max: 65535, integer: true },
  ],
  PriorityClass: [{ path: ["value"], max: 1_000_000_000, integer: true }],
  StorageClass: [],
  StatefulSet: [
    { path: ["spec", "replicas"], min: 0, integer: true },
    { path: ["spec", "updateStrategy", "rollingUpdate", "partition"], min: 0, integer: true },
    { path: ["spec", "minReadySeconds"], min: 0, integer: true },
  ],
  DaemonSet: [
    { path: ["spec", "updateStrategy", "rollingUpdate", "maxUnavailable"], min: 0, integer: true },
    { path: ["spec", "revisionHistoryLimit"], min: 0, integer: true },
  ],
  ConfigMap: [],
  Secret: [],
  ServiceAccount: [],
  ValidatingWebhookConfiguration: [{ path: ["webhooks", 0, "timeoutSeconds"], min: 1, max: 30, integer: true }],
  MutatingWebhookConfiguration: [
    { path: ["webhooks", 0, "timeoutSeconds"], min: 1, max: 30, integer: true },
    { path: ["webhooks", 0, "clientConfig", "service", "port"], min: 1, max: 65535, integer: true },
  ],
  IngressClass: [],
  RuntimeClass: [],
  Lease: [
    { path: ["spec", "leaseDurationSeconds"], min: 1, integer: true },
    { path: ["spec", "leaseTransitions"], min: 0, integer: true },
  ],
  CSIDriver: [{ path: ["spec", "tokenRequests", 0, "expirationSeconds"], min: 600, max: 2 ** 32, integer: true }],
};

/** Webhook edits the API server rejects (validateWebhook), shared by both configuration kinds. */
const webhookRejected: RuleEdit[] = [
  set("webhook name of two segments", ["webhooks", 0, "name"], "hooks.example"),
  edit("duplicate webhook name", (o) => push(o, ["webhooks"], structuredClone(getAt(o, ["webhooks", 0]) as Json))),
  set("sideEffects Some", ["webhooks", 0, "sideEffects"], "Some"),
  edit("sideEffects missing", (o) => deleteAt(o, ["webhooks", 0, "sideEffects"])),
  set("timeout 31", ["webhooks", 0, "timeoutSeconds"], 31),
  set("admission review version v2 only", ["webhooks", 0, "admissionReviewVersions"], ["v2"]),
  set("duplicate admission review version", ["webhooks", 0, "admissionReviewVersions"], ["v1", "v1"]),
  set("url and service", ["webhooks", 0, "clientConfig", "url"], "https://hooks.example.com/x"),
  set("url over http", ["webhooks", 0, "clientConfig"], { url: "http://hooks.example.com/x" }),
  set("url with a fragment", ["webhooks", 0, "clientConfig"], { url: "https://hooks.example.com/x#y" }),
  set("no client config", ["webhooks", 0, "clientConfig"], {}),
  set("operations * with CREATE", ["webhooks", 0, "rules", 0, "operations"], ["*", "CREATE"]),
  set("resources */* with pods", ["webhooks", 0, "rules", 0, "resources"], ["*/*", "pods"]),
  set("no apiVersions", ["webhooks", 0, "rules", 0, "apiVersions"], []),
  set("duplicate match condition names", ["webhooks", 0, "matchConditions"], [{ name: "a", expression: "true" }, { name: "a", expression: "true" }]),
  set("blank match condition", ["webhooks", 0, "matchConditions"], [{ name: "a", expression: "  " }]),
  set("namespaceSelector operator Maybe", ["webhooks", 0, "namespaceSelector"], { matchExpressions: [{ key: "a", operator: "Maybe" }] }),
];

export const BUILTIN_RULE_EDITS: Record<BuiltinKind, readonly RuleEdit[]> = {
  ...STORRES_RULE_EDITS,
  Job: [
    ...podRejected(JOB_POD),
    set("FailIndex action without backoffLimitPerIndex", ["spec", "podFailurePolicy"], { rules: [{ action: "FailIndex", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] }] }),
    set("managedBy not a domain-prefixed path", ["spec", "managedBy"], "controller"),
    set("exit codes not ordered", ["spec", "podFailurePolicy"], { rules: [{ action: "FailJob", onExitCodes: { operator: "NotIn", values: [5, 1] } }] }),
    set("containerName of no container", ["spec", "podFailurePolicy"], { rules: [{ action: "FailJob", onExitCodes: { operator: "In", containerName: "sidecar", values: [1] } }] }),
    set("restartPolicy Always", [...JOB_POD, "restartPolicy"], "Always"),
    edit("restartPolicy unset", (o) => deleteAt(o, [...JOB_POD, "restartPolicy"])),
    set("Indexed without completions", ["spec", "completionMode"], "Indexed"),
    edit("Indexed without completions (removed)", (o) => {
      setAt(o, ["spec", "completionMode"], "Indexed");
      deleteAt(o, ["spec", "completions"]);
    }),
    set("backoffLimitPerIndex without Indexed", ["spec", "backoffLimitPerIndex"], 1),
    set("maxFailedIndexes without backoffLimitPerIndex", ["spec", "maxFailedIndexes"], 1),
    set("selector of its own without manualSelector", ["spec", "selector"], { matchLabels: { "app.kubernetes.io/name": "worker" } }),
    set("manualSelector without selector", ["spec", "manualSelector"], true),
    set("podFailurePolicy with restartPolicy OnFailure", ["spec", "podFailurePolicy"], { rules: [{ action: "FailJob", onExitCodes: { operator: "In", values: [42] } }] }),
    edit("podFailurePolicy rule with both conditions and exit codes", (o) => {
      setAt(o, [...JOB_POD, "restartPolicy"], "Never");
      setAt(o, ["spec", "podFailurePolicy"], { rules: [{ action: "Ignore", onExitCodes: { operator: "In", values: [1] }, onPodConditions: [{ type: "DisruptionTarget", status: "True" }] }] });
    }),
    edit("exit code 0 with In", (o) => setAt(o, ["spec", "podFailurePolicy"], { rules: [{ action: "FailJob", onExitCodes: { operator: "In", values: [0] } }] })),
    set("successPolicy without Indexed", ["spec", "successPolicy"], { rules: [{ succeededCount: 1 }] }),
    set("negative ttlSecondsAfterFinished", ["spec", "ttlSecondsAfterFinished"], -5),
  ],
  CronJob: [
    ...podRejected(CRON_POD),
    set("schedule day-of-week 7", ["spec", "schedule"], "0 0 * * 7"),
    set("schedule with two slashes", ["spec", "schedule"], "*/5/2 * * * *"),
    set("time zone with a space", ["spec", "timeZone"], "Europe/New York"),
    set("concurrencyPolicy empty", ["spec", "concurrencyPolicy"], ""),
    set("schedule with 4 fields", ["spec", "schedule"], "30 2 * *"),
    set("schedule minute 60", ["spec", "schedule"], "60 2 * * *"),
    set("schedule with a word", ["spec", "schedule"], "every day"),
    set("schedule unknown descriptor", ["spec", "schedule"], "@fortnightly"),
    set("schedule range backwards", ["spec", "schedule"], "0 20-8 * * *"),
    set("schedule with CRON_TZ", ["spec", "schedule"], "CRON_TZ=UTC 30 2 * * *"),
    set("schedule empty", ["spec", "schedule"], ""),
    set("unknown time zone", ["spec", "timeZone"], "Mars/Olympus_Mons"),
    set("time zone Local", ["spec", "timeZone"], "Local"),
    set("time zone empty", ["spec", "timeZone"], ""),
    set("time zone in lower case", ["spec", "timeZone"], "europe/berlin"),
    set("job template restartPolicy Always", [...CRON_POD, "restartPolicy"], "Always"),
    set("job template with a selector", ["spec", "jobTemplate", "spec", "selector"], { matchLabels: { a: "b" } }),
    set("negative failedJobsHistoryLimit", ["spec", "failedJobsHistoryLimit"], -1),
  ],
  PodDisruptionBudget: [
    set("minAvailable and maxUnavailable", ["spec", "maxUnavailable"], 1),
    set("minAvailable 150%", ["spec", "minAvailable"], "150%"),
    set("minAvailable not a percentage", ["spec", "minAvailable"], "half"),
    set("minAvailable negative", ["spec", "minAvailable"], -1),
    set("selector operator In without values", ["spec", "selector"], { matchExpressions: [{ key: "app", operator: "In" }] }),
    set("selector label value invalid", ["spec", "selector", "matchLabels"], { app: "bad value!" }),
  ],
  Role: [
    set("rule without verbs", ["rules", 0, "verbs"], []),
    set("rule without apiGroups", ["rules", 0, "apiGroups"], []),
    set("rule without resources", ["rules", 0, "resources"], []),
    set("namespaced rule with nonResourceURLs", ["rules", 0], { nonResourceURLs: ["/metrics"], verbs: ["get"] }),
  ],
  ClusterRole: [
    set("nonResourceURLs with resources", ["rules", 1, "resources"], ["pods"]),
    set("rule without verbs", ["rules", 0, "verbs"], []),
    set("empty aggregationRule", ["aggregationRule"], {}),
    set("aggregation selector with a bad operator", ["aggregationRule"], { clusterRoleSelectors: [{ matchExpressions: [{ key: "a", operator: "Is", values: ["b"] }] }] }),
  ],
  RoleBinding: [
    set("roleRef apiGroup wrong", ["roleRef", "apiGroup"], "rbac"),
    set("roleRef name with a slash", ["roleRef", "name"], "a/b"),
    set("roleRef name empty", ["roleRef", "name"], ""),
    set("ServiceAccount subject with apiGroup", ["subjects", 0, "apiGroup"], "rbac.authorization.k8s.io"),
    set("ServiceAccount subject name invalid", ["subjects", 0, "name"], "Worker_SA"),
    set("Group subject with another apiGroup", ["subjects", 1, "apiGroup"], "example.com"),
    set("subject without name", ["subjects", 1, "name"], ""),
  ],
  ClusterRoleBinding: [
    set("roleRef kind Role", ["roleRef", "kind"], "Role"),
    edit("ServiceAccount subject without namespace", (o) => deleteAt(o, ["subjects", 0, "namespace"])),
    set("User subject with apiGroup v1", ["subjects", 1, "apiGroup"], "v1"),
    set("subject kind Robot", ["subjects", 1, "kind"], "Robot"),
  ],
  Ingress: [
    set("resource backend without kind", ["spec", "defaultBackend"], { resource: { apiGroup: "k8s.example.com", name: "static" } }),
    set("backend with service and resource", ["spec", "rules", 0, "http", "paths", 0, "backend", "resource"], { kind: "Bucket", name: "b" }),
    set("TLS host wildcard twice", ["spec", "tls", 0, "hosts"], ["*.*.example.com"]),
    edit("no rules and no default backend", (o) => deleteAt(o, ["spec", "rules"])),
    set("host is an IP address", ["spec", "rules", 0, "host"], "10.0.0.1"),
    set("host with a double wildcard", ["spec", "rules", 0, "host"], "*.*.example.com"),
    set("host with upper case", ["spec", "rules", 0, "host"], "Shop.Example.com"),
    set("Prefix path not absolute", ["spec", "rules", 0, "http", "paths", 0, "path"], "api"),
    set("Exact path with /../", ["spec", "rules", 0, "http", "paths", 1, "path"], "/api/../admin"),
    edit("pathType missing", (o) => deleteAt(o, ["spec", "rules", 0, "http", "paths", 0, "pathType"])),
    set("backend port name and number", ["spec", "rules", 0, "http", "paths", 0, "backend", "service", "port"], { name: "http", number: 80 }),
    set("backend without port", ["spec", "rules", 0, "http", "paths", 0, "backend", "service", "port"], {}),
    set("backend service name not a DNS label", ["spec", "rules", 0, "http", "paths", 0, "backend", "service", "name"], "web.shop"),
    set("backend port 70000", ["spec", "rules", 0, "http", "paths", 0, "backend", "service", "port", "number"], 70000),
    set("empty paths", ["spec", "rules", 0, "http", "paths"], []),
    set("TLS secret name invalid", ["spec", "tls", 0, "secretName"], "Shop_TLS"),
    set("ingress.class annotation differs from ingressClassName", ["metadata", "annotations", "kubernetes.io/ingress.class"], "nginx"),
    set("ingressClassName invalid", ["spec", "ingressClassName"], "ALB Class"),
  ],
  NetworkPolicy: [
    set("cidr with bits beyond the prefix", ["spec", "egress", 0, "to", 0, "ipBlock"], { cidr: "10.0.5.1/16" }),
    set("cidr with a leading zero", ["spec", "egress", 0, "to", 0, "ipBlock"], { cidr: "010.0.0.0/16" }),
    set("IPv6 except outside an IPv4 cidr", ["spec", "egress", 0, "to", 0, "ipBlock", "except"], ["fd00::/64"]),
    set("namespaceSelector with a bad operator", ["spec", "ingress", 0, "from", 1, "namespaceSelector"], { matchExpressions: [{ key: "team", operator: "Equals", values: ["a"] }] }),
    set("endPort below port", ["spec", "egress", 0, "ports", 0, "endPort"], 5000),
    set("endPort with a named port", ["spec", "ingress", 0, "ports", 0], { port: "http", endPort: 9000 }),
    set("port 70000", ["spec", "ingress", 0, "ports", 0, "port"], 70000),
    set("empty peer", ["spec", "ingress", 0, "from", 0], {}),
    set("ipBlock with another peer", ["spec", "egress", 0, "to", 0, "podSelector"], {}),
    set("ipBlock cidr invalid", ["spec", "egress", 0, "to", 0, "ipBlock", "cidr"], "10.0.0.0/33"),
    set("except outside cidr", ["spec", "egress", 0, "to", 0, "ipBlock", "except"], ["192.168.0.0/24"]),
    set("except equal to cidr", ["spec", "egress", 0, "to", 0, "ipBlock", "except"], ["10.0.0.0/16"]),
    set("three policyTypes", ["spec", "policyTypes"], ["Ingress", "Egress", "Ingress"]),
    set("podSelector with a bad key", ["spec", "podSelector", "matchLabels"], { "bad key": "x" }),
    set("named port invalid", ["spec", "ingress", 0, "ports", 0, "port"], "HTTP_PORT"),
  ],
  PriorityClass: [
    set("globalDefault with a value above one billion", ["value"], 1_500_000_000),
    set("value above one billion", ["value"], 1_000_000_001),
    set("value two billion", ["value"], 2_000_000_000),
  ],
  StorageClass: [
    set("parameter with an empty key", ["parameters", ""], "x"),
    set("reclaimPolicy Recycle", ["reclaimPolicy"], "Recycle"),
    set("provisioner empty", ["provisioner"], ""),
    set("provisioner with a space", ["provisioner"], "ebs csi"),
    set("topology without values", ["allowedTopologies", 0, "matchLabelExpressions", 0, "values"], []),
    set("topology key invalid", ["allowedTopologies", 0, "matchLabelExpressions", 0, "key"], "bad key"),
    set("duplicate topology values", ["allowedTopologies", 0, "matchLabelExpressions", 0, "values"], ["eu-west-1a", "eu-west-1a"]),
    edit("duplicate topology terms", (o) => push(o, ["allowedTopologies"], structuredClone(getAt(o, ["allowedTopologies", 0]) ?? {}))),
  ],
  StatefulSet: [
    ...podRejected(STS_POD),
    set("selector does not match template labels", ["spec", "selector", "matchLabels"], { app: "other" }),
    set("podManagementPolicy with a typo", ["spec", "podManagementPolicy"], "Ordered"),
    set("restartPolicy Never", [...STS_POD, "restartPolicy"], "Never"),
    set("negative partition", ["spec", "updateStrategy", "rollingUpdate", "partition"], -1),
    set("OnDelete with rollingUpdate", ["spec", "updateStrategy", "type"], "OnDelete"),
  ],
  DaemonSet: [
    ...podRejected(STS_POD),
    set("selector does not match template labels", ["spec", "selector", "matchLabels"], { app: "other" }),
    set("maxUnavailable 0 (and maxSurge 0)", ["spec", "updateStrategy", "rollingUpdate", "maxUnavailable"], 0),
    set("maxUnavailable 120%", ["spec", "updateStrategy", "rollingUpdate", "maxUnavailable"], "120%"),
    set("empty selector", ["spec", "selector"], {}),
  ],
  ConfigMap: [
    set("key with a slash", ["data", "a/b"], "x"),
    set("key with a space", ["data", "my key"], "x"),
    set("key ..", ["data", ".."], "x"),
    set("same key in data and binaryData", ["binaryData", "LOG_LEVEL"], "aW5mbw=="),
  ],
  Secret: [
    set("key with a slash", ["stringData", "a/b"], "x"),
    set("key with a colon", ["data", "user:name"], "eA=="),
    set("dockerconfigjson type without its key", ["type"], "kubernetes.io/dockerconfigjson"),
    set("service-account-token without annotation", ["type"], "kubernetes.io/service-account-token"),
  ],
  ServiceAccount: [
    set("label value too long", ["metadata", "labels", "team"], "x".repeat(64)),
    set("annotation key invalid", ["metadata", "annotations", "bad key!"], "x"),
    set("finalizer not qualified", ["metadata", "finalizers"], ["bad finalizer"]),
  ],
  ValidatingWebhookConfiguration: webhookRejected,
  MutatingWebhookConfiguration: [
    ...webhookRejected,
    set("reinvocationPolicy Always", ["webhooks", 0, "reinvocationPolicy"], "Always"),
    set("service path without a leading slash", ["webhooks", 0, "clientConfig", "service", "path"], "mutate"),
    set("service path with an empty segment", ["webhooks", 0, "clientConfig", "service", "path"], "/a//b"),
    edit("service without namespace", (o) => deleteAt(o, ["webhooks", 0, "clientConfig", "service", "namespace"])),
  ],
  IngressClass: [
    set("controller without a domain", ["spec", "controller"], "nginx"),
    set("controller with an empty path", ["spec", "controller"], "example.com/"),
    set("parameters apiGroup not a subdomain", ["spec", "parameters", "apiGroup"], "Example.COM"),
    set("parameters kind with a slash", ["spec", "parameters", "kind"], "a/b"),
    set("parameters name ..", ["spec", "parameters", "name"], ".."),
    edit("Namespace scope without namespace", (o) => deleteAt(o, ["spec", "parameters", "namespace"])),
    edit("Cluster scope with a namespace", (o) => setAt(o, ["spec", "parameters", "scope"], "Cluster")),
    set("parameters namespace not a DNS label", ["spec", "parameters", "namespace"], "Ingress_NS"),
  ],
  RuntimeClass: [
    set("handler not a DNS label", ["handler"], "Run_Sc"),
    set("handler empty", ["handler"], ""),
    set("negative overhead", ["overhead", "podFixed", "cpu"], "-1"),
    set("node selector key not qualified", ["scheduling", "nodeSelector"], { "bad key!": "x" }),
    edit("duplicate toleration", (o) => push(o, ["scheduling", "tolerations"], structuredClone(getAt(o, ["scheduling", "tolerations", 0]) as Json))),
    set("toleration Exists with a value", ["scheduling", "tolerations"], [{ key: "k", operator: "Exists", value: "v" }]),
  ],
  Lease: [set("lease duration 0", ["spec", "leaseDurationSeconds"], 0), set("negative transitions", ["spec", "leaseTransitions"], -1)],
  CSIDriver: [
    set("token expiry under 10 minutes", ["spec", "tokenRequests", 0, "expirationSeconds"], 60),
    edit("duplicate token audience", (o) => push(o, ["spec", "tokenRequests"], { audience: getAt(o, ["spec", "tokenRequests", 0, "audience"]) as Json })),
    set("lifecycle mode Forever", ["spec", "volumeLifecycleModes"], ["Persistent", "Forever"]),
  ],
};

export const BUILTIN_ACCEPTED_EDITS: Record<BuiltinKind, readonly RuleEdit[]> = {
  ...STORRES_ACCEPTED_EDITS,
  Job: [
    ...podAccepted(JOB_POD),
    set("managedBy a domain-prefixed path", ["spec", "managedBy"], "example.com/batch-controller"),
    set("exit codes ordered with NotIn", ["spec", "podFailurePolicy"], { rules: [{ action: "Count", onExitCodes: { operator: "NotIn", values: [0, 1, 5] } }] }),
    set("restartPolicy OnFailure", [...JOB_POD, "restartPolicy"], "OnFailure"),
    edit("Indexed with completions and backoffLimitPerIndex", (o) => {
      setAt(o, ["spec", "completionMode"], "Indexed");
      setAt(o, ["spec", "backoffLimitPerIndex"], 1);
      setAt(o, ["spec", "maxFailedIndexes"], 2);
    }),
    set("podFailurePolicy with restartPolicy Never", ["spec", "podFailurePolicy"], { rules: [{ action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] }] }),
    set("parallelism 0 (suspended work)", ["spec", "parallelism"], 0),
    set("manualSelector false", ["spec", "manualSelector"], false),
  ],
  CronJob: [
    ...podAccepted(CRON_POD),
    set("day-of-week 6 and a question mark", ["spec", "schedule"], "0 0 ? * 6"),
    set("time zone Etc/GMT+5", ["spec", "timeZone"], "Etc/GMT+5"),
    set("@midnight", ["spec", "schedule"], "@midnight"),
    set("descriptor @hourly", ["spec", "schedule"], "@hourly"),
    set("@every 90m", ["spec", "schedule"], "@every 90m"),
    set("names for month and weekday", ["spec", "schedule"], "0 6 1 jan,jul mon-fri"),
    set("step and range", ["spec", "schedule"], "*/15 8-18 * * 1-5"),
    set("time zone America/New_York", ["spec", "timeZone"], "America/New_York"),
    set("time zone UTC", ["spec", "timeZone"], "UTC"),
    set("concurrencyPolicy Replace", ["spec", "concurrencyPolicy"], "Replace"),
  ],
  PodDisruptionBudget: [
    set("minAvailable 100%", ["spec", "minAvailable"], "100%"),
    set("minAvailable 0", ["spec", "minAvailable"], 0),
    edit("maxUnavailable instead", (o) => {
      deleteAt(o, ["spec", "minAvailable"]);
      setAt(o, ["spec", "maxUnavailable"], "25%");
    }),
    set("empty selector (every pod)", ["spec", "selector"], {}),
  ],
  Role: [
    set("wildcard verbs", ["rules", 0, "verbs"], ["*"]),
    set("resourceNames", ["rules", 0, "resourceNames"], ["worker-config"]),
  ],
  ClusterRole: [
    set("aggregationRule with a selector", ["aggregationRule"], { clusterRoleSelectors: [{ matchLabels: { "rbac.example.com/aggregate": "true" } }] }),
    set("name with a colon (a path segment)", ["rules", 0, "resources"], ["nodes/status"]),
  ],
  RoleBinding: [
    set("User subject without apiGroup (defaulted)", ["subjects", 1], { kind: "User", name: "jane" }),
    set("roleRef to a ClusterRole", ["roleRef", "kind"], "ClusterRole"),
    set("roleRef name with a colon", ["roleRef", "name"], "system:aggregate-to-view"),
    set("roleRef apiGroup empty (defaulted)", ["roleRef", "apiGroup"], ""),
  ],
  ClusterRoleBinding: [
    set("Group subject without apiGroup (defaulted)", ["subjects", 1], { kind: "Group", name: "system:authenticated" }),
    edit("roleRef without apiGroup (defaulted)", (o) => deleteAt(o, ["roleRef", "apiGroup"])),
  ],
  Ingress: [
    set("resource backend", ["spec", "defaultBackend"], { resource: { apiGroup: "k8s.example.com", kind: "StorageBucket", name: "static" } }),
    set("TLS without hosts", ["spec", "tls"], [{ secretName: "shop-tls" }]),
    set("wildcard host", ["spec", "rules", 0, "host"], "*.example.com"),
    set("ImplementationSpecific without path", ["spec", "rules", 0, "http", "paths", 0], { pathType: "ImplementationSpecific", backend: { service: { name: "web", port: { number: 80 } } } }),
    set("service name starting with a digit (1.36 relaxed names)", ["spec", "rules", 0, "http", "paths", 0, "backend", "service", "name"], "1-web"),
    set("defaultBackend only", ["spec"], { defaultBackend: { service: { name: "web", port: { number: 8080 } } } }),
    set("port 65535", ["spec", "rules", 0, "http", "paths", 0, "backend", "service", "port", "number"], 65535),
  ],
  NetworkPolicy: [
    set("SCTP port", ["spec", "ingress", 0, "ports", 0, "protocol"], "SCTP"),
    set("endPort equal to port", ["spec", "egress", 0, "ports", 0, "endPort"], 5432),
    set("named port", ["spec", "ingress", 0, "ports", 0, "port"], "http"),
    set("IPv6 ipBlock", ["spec", "egress", 0, "to", 0, "ipBlock"], { cidr: "fd00::/8", except: ["fd00:1::/32"] }),
    set("empty podSelector", ["spec", "podSelector"], {}),
    set("Egress only", ["spec", "policyTypes"], ["Egress"]),
  ],
  PriorityClass: [
    set("value one billion", ["value"], 1_000_000_000),
    set("negative value", ["value"], -100),
    set("preemptionPolicy Never", ["preemptionPolicy"], "Never"),
  ],
  StorageClass: [
    set("many parameters", ["parameters"], { type: "gp3", iops: "3000", throughput: "125", encrypted: "true" }),
    set("reclaimPolicy Retain", ["reclaimPolicy"], "Retain"),
    set("upper-case provisioner (checked lower-cased)", ["provisioner"], "EBS.CSI.AWS.COM"),
    edit("no allowedTopologies", (o) => deleteAt(o, ["allowedTopologies"])),
    set("volumeBindingMode Immediate", ["volumeBindingMode"], "Immediate"),
  ],
  StatefulSet: [
    ...podAccepted(STS_POD),
    set("podManagementPolicy Parallel", ["spec", "podManagementPolicy"], "Parallel"),
    set("replicas 0", ["spec", "replicas"], 0),
    edit("two claim templates of one name", (o) => push(o, ["spec", "volumeClaimTemplates"], structuredClone(getAt(o, ["spec", "volumeClaimTemplates", 0]) as Json))),
  ],
  DaemonSet: [
    ...podAccepted(STS_POD),
    set("maxUnavailable 10%", ["spec", "updateStrategy", "rollingUpdate", "maxUnavailable"], "10%"),
    set("OnDelete strategy", ["spec", "updateStrategy"], { type: "OnDelete" }),
  ],
  ConfigMap: [
    set("key with dots, dashes and underscores", ["data", "my-app_config.v2"], "x"),
    set("binaryData key", ["binaryData", "logo.png"], "iVBORw0KGgo="),
    set("immutable", ["immutable"], true),
  ],
  Secret: [
    set("data and stringData", ["data", "user"], "YWRtaW4="),
    set("custom type", ["type"], "example.com/credentials"),
    set("immutable", ["immutable"], true),
  ],
  ServiceAccount: [
    set("imagePullSecrets", ["imagePullSecrets"], [{ name: "registry" }]),
    set("automount true", ["automountServiceAccountToken"], true),
  ],
  ValidatingWebhookConfiguration: [
    set("timeout 30", ["webhooks", 0, "timeoutSeconds"], 30),
    set("sideEffects NoneOnDryRun", ["webhooks", 0, "sideEffects"], "NoneOnDryRun"),
    set("admission review versions v1 and v1beta1", ["webhooks", 0, "admissionReviewVersions"], ["v1", "v1beta1"]),
    set("resources with subresource wildcard", ["webhooks", 0, "rules", 0, "resources"], ["pods/*"]),
    set("url instead of service", ["webhooks", 0, "clientConfig"], { url: "https://hooks.example.com:8443/validate" }),
    set("match condition", ["webhooks", 0, "matchConditions"], [{ name: "not-kube-system", expression: "request.namespace != 'kube-system'" }]),
  ],
  MutatingWebhookConfiguration: [
    set("reinvocationPolicy IfNeeded", ["webhooks", 0, "reinvocationPolicy"], "IfNeeded"),
    set("service path /", ["webhooks", 0, "clientConfig", "service", "path"], "/"),
    edit("service port defaulted", (o) => deleteAt(o, ["webhooks", 0, "clientConfig", "service", "port"])),
    set("resources * with subresources", ["webhooks", 0, "rules", 0, "resources"], ["*", "*/status"]),
  ],
  IngressClass: [
    edit("parameters without scope (Cluster)", (o) => {
      deleteAt(o, ["spec", "parameters", "scope"]);
      deleteAt(o, ["spec", "parameters", "namespace"]);
    }),
    edit("no parameters", (o) => deleteAt(o, ["spec", "parameters"])),
    set("controller with a long path", ["spec", "controller"], "example.com/ingress/controller-v2"),
  ],
  RuntimeClass: [
    edit("no overhead", (o) => deleteAt(o, ["overhead"])),
    set("two different tolerations", ["scheduling", "tolerations"], [{ key: "sandbox", operator: "Exists", effect: "NoSchedule" }, { key: "sandbox", operator: "Exists", effect: "NoExecute" }]),
  ],
  Lease: [set("lease duration 1", ["spec", "leaseDurationSeconds"], 1), set("transitions 0", ["spec", "leaseTransitions"], 0)],
  CSIDriver: [
    set("token expiry of exactly 10 minutes", ["spec", "tokenRequests", 0, "expirationSeconds"], 600),
    set("two audiences", ["spec", "tokenRequests"], [{ audience: "vault" }, { audience: "" }]),
    set("fsGroupPolicy None", ["spec", "fsGroupPolicy"], "None"),
  ],
};

// Per-kind knowledge for the kinds of bases-storres.ts (storage, resource.k8s.io, quota, remaining core/apps kinds):
// enum fields, numeric fields, edits the API server rejects and unusual edits it accepts. Restated from the API's
// behaviour (k8s.io/kubernetes v1.36.5 pkg/apis/{storage,resource,core,apps}/validation); no upstream text is copied.
import type { EnumField, NumericField, RuleEdit } from "./catalog.ts";
import { deleteAt, getAt, type Json, type Path, setAt } from "./paths.ts";

export const STORRES_KINDS = [
  "ReplicaSet",
  "ControllerRevision",
  "ReplicationController",
  "Namespace",
  "Endpoints",
  "LimitRange",
  "ResourceQuota",
  "CSINode",
  "CSIStorageCapacity",
  "VolumeAttachment",
  "VolumeAttributesClass",
  "DeviceClass",
  "ResourceClaim",
  "ResourceClaimTemplate",
  "ResourceSlice",
] as const;
export type StorresKind = (typeof STORRES_KINDS)[number];

const edit = (name: string, apply: (o: Json) => void): RuleEdit => ({ name, apply });
const set = (name: string, path: Path, value: Json): RuleEdit => edit(name, (o) => setAt(o, path, structuredClone(value)));
const push = (o: Json, path: Path, item: Json) => {
  const list = getAt(o, path);
  if (Array.isArray(list)) list.push(item);
  else setAt(o, path, [item]);
};

const RS_POD = ["spec", "template", "spec"] as const;
const RC_POD = ["spec", "template", "spec"] as const;
const GPU = ["spec", "devices", "requests", 0, "exactly"] as const;
const TEMPLATE_GPU = ["spec", "spec", "devices", "requests", 0, "exactly"] as const;
const DEVICE = ["spec", "devices", 0] as const;
const CLASS_SELECTOR = ["spec", "selectors", 0, "cel", "expression"] as const;

/** Selector expressions the server refuses to compile, and ones it accepts (Kubernetes CEL libraries included). */
const BAD_SELECTORS: readonly [string, string][] = [
  ["selector with a syntax error", 'device.driver == "gpu.example.com" &&'],
  ["selector naming an undeclared variable", 'self.driver == "gpu.example.com"'],
  ["selector reading a field device does not have", 'device.vendor == "example"'],
  ["selector evaluating to a string", "device.driver"],
  ["selector evaluating to an int", "1 + 2"],
  ["empty selector", ""],
];
const GOOD_SELECTORS: readonly [string, string][] = [
  ["selector with semver", 'device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.0.0"))'],
  ["selector with cel.bind", 'cel.bind(gpu, device.attributes["gpu.example.com"], gpu.model == "a100" && gpu.numa == 0)'],
  ["selector with has() and a quantity", 'has(device.capacity["gpu.example.com"].memory) && device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("1Gi"))'],
  ["selector with in and exists", '"gpu.example.com" in device.attributes && device.attributes.exists(d, d.startsWith("gpu"))'],
  ["selector true", "true"],
  ["selector on a bare attribute (unknown type)", 'device.attributes["gpu.example.com"].mig'],
];

/** Claim-spec edits shared by ResourceClaim (spec) and ResourceClaimTemplate (spec.spec). */
const claimRejected = (spec: Path, exact: Path): RuleEdit[] => [
  set("request name not a DNS label", [...spec, "devices", "requests", 0, "name"], "GPU_0"),
  set("request with exactly and firstAvailable", [...spec, "devices", "requests", 0, "firstAvailable"], [{ name: "a", deviceClassName: "gpu.example.com" }]),
  edit("request with neither exactly nor firstAvailable", (o) => deleteAt(o, [...spec, "devices", "requests", 0, "exactly"])),
  set("deviceClassName empty", [...exact, "deviceClassName"], ""),
  set("deviceClassName not a subdomain", [...exact, "deviceClassName"], "GPU Class"),
  set("allocationMode All with a count", [...exact], { deviceClassName: "gpu.example.com", allocationMode: "All", count: 2 }),
  set("count negative", [...exact, "count"], -1),
  set("allocationMode Some", [...exact, "allocationMode"], "Some"),
  set("selector without cel", [...exact, "selectors"], [{}]),
  ...BAD_SELECTORS.map(([name, expression]) => set(name, [...exact, "selectors"], [{ cel: { expression } }])),
  set("toleration Exists with a value", [...exact, "tolerations"], [{ key: "k", operator: "Exists", value: "v" }]),
  set("toleration effect Sometimes", [...exact, "tolerations"], [{ key: "k", operator: "Exists", effect: "Sometimes" }]),
  set("toleration key not qualified", [...exact, "tolerations"], [{ key: "bad key", operator: "Exists" }]),
  edit("duplicate request names", (o) => push(o, [...spec, "devices", "requests"], structuredClone(getAt(o, [...spec, "devices", "requests", 0]) as Json))),
  set("constraint naming no request", [...spec, "devices", "constraints"], [{ requests: ["missing"], matchAttribute: "gpu.example.com/numa" }]),
  set("constraint without attribute", [...spec, "devices", "constraints"], [{ requests: ["gpu"] }]),
  set("constraint attribute without a domain", [...spec, "devices", "constraints"], [{ matchAttribute: "numa" }]),
  set("config without opaque", [...spec, "devices", "config"], [{}]),
  set("config driver not a DNS name", [...spec, "devices", "config"], [{ opaque: { driver: "GPU Driver", parameters: {} } }]),
  set("config parameters a list", [...spec, "devices", "config"], [{ opaque: { driver: "gpu.example.com", parameters: [1, 2] } }]),
];

const claimAccepted = (spec: Path, exact: Path): RuleEdit[] => [
  ...GOOD_SELECTORS.map(([name, expression]) => set(name, [...exact, "selectors"], [{ cel: { expression } }])),
  set("allocationMode All without count", [...exact], { deviceClassName: "gpu.example.com", allocationMode: "All" }),
  set("count 0 (defaulted to 1)", [...exact, "count"], 0),
  set("toleration Equal without operator", [...exact, "tolerations"], [{ key: "gpu.example.com/taint", value: "x", effect: "NoExecute" }]),
  set("constraint with distinctAttribute", [...spec, "devices", "constraints"], [{ distinctAttribute: "gpu.example.com/uuid" }]),
  set("config for all requests", [...spec, "devices", "config"], [{ opaque: { driver: "gpu.example.com", parameters: { a: [1, 2] } } }]),
  // adminAccess is not here: the server accepts it only in a namespace labelled for it (cluster state)
];

export const STORRES_ENUM_FIELDS: Record<StorresKind, readonly EnumField[]> = {
  ReplicaSet: [{ path: [...RS_POD, "containers", 0, "imagePullPolicy"], values: ["Always", "IfNotPresent", "Never"] }],
  ControllerRevision: [],
  ReplicationController: [{ path: [...RC_POD, "restartPolicy"], values: ["Always", "OnFailure", "Never"] }],
  Namespace: [],
  Endpoints: [{ path: ["subsets", 0, "ports", 0, "protocol"], values: ["SCTP", "TCP", "UDP"] }],
  LimitRange: [{ path: ["spec", "limits", 0, "type"], values: ["Container", "Pod", "PersistentVolumeClaim"] }],
  ResourceQuota: [{ path: ["spec", "scopes", 0], values: ["Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass"] }],
  CSINode: [],
  CSIStorageCapacity: [],
  VolumeAttachment: [],
  VolumeAttributesClass: [],
  DeviceClass: [],
  ResourceClaim: [{ path: [...GPU, "allocationMode"], values: ["All", "ExactCount"] }],
  ResourceClaimTemplate: [{ path: [...TEMPLATE_GPU, "tolerations", 0, "effect"], values: ["NoExecute", "NoSchedule", "None"] }],
  ResourceSlice: [],
};

export const STORRES_NUMERIC_FIELDS: Record<StorresKind, readonly NumericField[]> = {
  ReplicaSet: [
    { path: ["spec", "replicas"], min: 0, integer: true },
    { path: ["spec", "minReadySeconds"], min: 0, integer: true },
  ],
  ControllerRevision: [{ path: ["revision"], min: 0, integer: true }],
  ReplicationController: [{ path: ["spec", "replicas"], min: 0, integer: true }],
  Namespace: [],
  Endpoints: [{ path: ["subsets", 0, "ports", 0, "port"], min: 1, max: 65535, integer: true }],
  LimitRange: [],
  ResourceQuota: [],
  CSINode: [{ path: ["spec", "drivers", 0, "allocatable", "count"], min: 0, integer: true }],
  CSIStorageCapacity: [],
  VolumeAttachment: [],
  VolumeAttributesClass: [],
  DeviceClass: [],
  ResourceClaim: [{ path: [...GPU, "count"], min: 1, integer: true }],
  ResourceClaimTemplate: [],
  ResourceSlice: [
    { path: ["spec", "pool", "resourceSliceCount"], min: 1, integer: true },
    { path: ["spec", "pool", "generation"], min: 0, integer: true },
  ],
};

export const STORRES_RULE_EDITS: Record<StorresKind, readonly RuleEdit[]> = {
  ReplicaSet: [
    set("selector not matching the template", ["spec", "selector"], { matchLabels: { app: "other" } }),
    set("empty selector", ["spec", "selector"], {}),
    set("negative replicas", ["spec", "replicas"], -1),
    set("container port 0", [...RS_POD, "containers", 0, "ports"], [{ containerPort: 0 }]),
    set("restartPolicy Never", [...RS_POD, "restartPolicy"], "Never"),
  ],
  ControllerRevision: [
    edit("no data", (o) => deleteAt(o, ["data"])),
    set("data a string", ["data"], "spec"),
    set("data a list", ["data"], [1, 2]),
    set("negative revision", ["revision"], -1),
  ],
  ReplicationController: [
    set("selector not matching the template", ["spec", "selector"], { app: "other" }),
    set("restartPolicy OnFailure", [...RC_POD, "restartPolicy"], "OnFailure"),
    set("negative replicas", ["spec", "replicas"], -2),
    set("container name not a label", [...RC_POD, "containers", 0, "name"], "Legacy_RC"),
  ],
  Namespace: [
    set("finalizer not qualified", ["spec", "finalizers"], ["bad finalizer"]),
    set("label value too long", ["metadata", "labels", "team"], "x".repeat(64)),
  ],
  Endpoints: [
    set("address not an IP", ["subsets", 0, "addresses", 0, "ip"], "db.example.com"),
    set("loopback address", ["subsets", 0, "addresses", 0, "ip"], "127.0.0.1"),
    set("port name not a label", ["subsets", 0, "ports", 0, "name"], "PG_Port"),
    set("hostname not a label", ["subsets", 0, "addresses", 1, "hostname"], "db_1"),
  ],
  LimitRange: [
    set("default above max", ["spec", "limits", 0, "default", "cpu"], "4"),
    set("min above max", ["spec", "limits", 1, "min", "storage"], "20Gi"),
    set("defaultRequest above default", ["spec", "limits", 0, "defaultRequest", "memory"], "512Mi"),
    set("PVC limit with default", ["spec", "limits", 1, "default"], { storage: "2Gi" }),
  ],
  ResourceQuota: [
    set("BestEffort with a cpu limit", ["spec", "scopes"], ["BestEffort"]),
    set("VolumeAttributesClass scope with pods", ["spec", "scopes"], ["VolumeAttributesClass"]),
    set("conflicting scopes", ["spec", "scopes"], ["Terminating", "NotTerminating"]),
    set("scope selector BestEffort on cpu", ["spec", "scopeSelector"], { matchExpressions: [{ scopeName: "BestEffort", operator: "Exists" }] }),
    set("negative quantity", ["spec", "hard", "pods"], "-1"),
    set("fractional pods", ["spec", "hard", "pods"], "1.5"),
  ],
  CSINode: [
    set("driver name not a DNS name", ["spec", "drivers", 0, "name"], "EBS CSI"),
    set("driver name empty", ["spec", "drivers", 0, "name"], ""),
    set("node ID empty", ["spec", "drivers", 0, "nodeID"], ""),
    set("node ID over 256 characters", ["spec", "drivers", 0, "nodeID"], "i".repeat(257)),
    set("negative allocatable count", ["spec", "drivers", 0, "allocatable", "count"], -1),
    edit("duplicate driver", (o) => push(o, ["spec", "drivers"], structuredClone(getAt(o, ["spec", "drivers", 0]) as Json))),
    set("duplicate topology key", ["spec", "drivers", 0, "topologyKeys"], ["zone", "zone"]),
    set("topology key not qualified", ["spec", "drivers", 0, "topologyKeys"], ["bad key"]),
  ],
  CSIStorageCapacity: [
    set("storageClassName not a subdomain", ["storageClassName"], "GP3 Class"),
    set("negative capacity", ["capacity"], "-1Gi"),
    set("node topology operator Maybe", ["nodeTopology"], { matchExpressions: [{ key: "zone", operator: "Maybe" }] }),
    set("node topology label value invalid", ["nodeTopology", "matchLabels", "topology.ebs.csi.aws.com/zone"], "eu west"),
  ],
  VolumeAttachment: [
    set("attacher not a DNS name", ["spec", "attacher"], "EBS CSI"),
    set("attacher over 63 characters", ["spec", "attacher"], `${"a".repeat(60)}.example.com`),
    set("no source", ["spec", "source"], {}),
    set("both sources", ["spec", "source", "inlineVolumeSpec"], { csi: { driver: "ebs.csi.aws.com", volumeHandle: "vol-1" }, accessModes: ["ReadWriteOnce"] }),
    set("empty persistentVolumeName", ["spec", "source", "persistentVolumeName"], ""),
    set("nodeName not a subdomain", ["spec", "nodeName"], "Node 1"),
    set("inline volume with capacity", ["spec", "source"], { inlineVolumeSpec: { capacity: { storage: "1Gi" }, csi: { driver: "ebs.csi.aws.com", volumeHandle: "vol-1" }, accessModes: ["ReadWriteOnce"] } }),
    set("inline volume without csi", ["spec", "source"], { inlineVolumeSpec: { accessModes: ["ReadWriteOnce"], hostPath: { path: "/data" } } }),
  ],
  VolumeAttributesClass: [
    set("driverName empty", ["driverName"], ""),
    set("driverName with a space", ["driverName"], "ebs csi"),
    edit("no parameters", (o) => deleteAt(o, ["parameters"])),
    set("parameter with an empty key", ["parameters", ""], "x"),
  ],
  DeviceClass: [
    ...BAD_SELECTORS.map(([name, expression]) => set(name, [...CLASS_SELECTOR], expression)),
    set("selector without cel", ["spec", "selectors"], [{}]),
    set("config without opaque", ["spec", "config"], [{}]),
    set("config driver over 63 characters", ["spec", "config", 0, "opaque", "driver"], `${"d".repeat(60)}.example.com`),
    set("config parameters a string", ["spec", "config", 0, "opaque", "parameters"], "x"),
    set("extendedResourceName not extended", ["spec", "extendedResourceName"], "cpu"),
    set("33 selectors", ["spec", "selectors"], Array.from({ length: 33 }, () => ({ cel: { expression: "true" } }))),
  ],
  ResourceClaim: claimRejected(["spec"], GPU),
  ResourceClaimTemplate: [
    ...claimRejected(["spec", "spec"], TEMPLATE_GPU),
    set("template label value invalid", ["spec", "metadata", "labels", "workload"], "in ference"),
  ],
  ResourceSlice: [
    set("driver not a DNS name", ["spec", "driver"], "GPU Driver"),
    set("pool name empty", ["spec", "pool", "name"], ""),
    set("pool name not a subdomain", ["spec", "pool", "name"], "Pool_1"),
    set("resourceSliceCount 0", ["spec", "pool", "resourceSliceCount"], 0),
    set("negative generation", ["spec", "pool", "generation"], -1),
    set("nodeName and allNodes", ["spec", "allNodes"], true),
    edit("no node selection", (o) => deleteAt(o, ["spec", "nodeName"])),
    set("allNodes false", ["spec", "allNodes"], false),
    set("empty nodeName", ["spec", "nodeName"], ""),
    set("device name not a DNS label", [...DEVICE, "name"], "GPU_0"),
    edit("duplicate device", (o) => push(o, ["spec", "devices"], structuredClone(getAt(o, [...DEVICE]) as Json))),
    set("attribute with two values", [...DEVICE, "attributes", "model"], { string: "a100", int: 1 }),
    set("attribute without value", [...DEVICE, "attributes", "model"], {}),
    set("version not semver", [...DEVICE, "attributes", "driverVersion"], { version: "535.104" }),
    set("string attribute over 64 characters", [...DEVICE, "attributes", "model"], { string: "m".repeat(65) }),
    set("attribute name not a C identifier", [...DEVICE, "attributes", "gpu-model"], { string: "x" }),
    set("capacity requestPolicy without multiple allocations", [...DEVICE, "capacity", "memory", "requestPolicy"], { default: "1Gi", validValues: ["1Gi"] }),
    set("taint without effect", [...DEVICE, "taints"], [{ key: "gpu.example.com/broken" }]),
    set("device nodeName without perDeviceNodeSelection", [...DEVICE, "nodeName"], "node-1"),
    set("shared counters and devices", ["spec", "sharedCounters"], [{ name: "gpu-0", counters: { memory: { value: "40Gi" } } }]),
    set("binding conditions without failure conditions", [...DEVICE, "bindingConditions"], ["example.com/ready"]),
  ],
};

export const STORRES_ACCEPTED_EDITS: Record<StorresKind, readonly RuleEdit[]> = {
  ReplicaSet: [set("replicas 0", ["spec", "replicas"], 0), set("selector with matchExpressions", ["spec", "selector"], { matchExpressions: [{ key: "app.kubernetes.io/name", operator: "In", values: ["legacy"] }] })],
  ControllerRevision: [set("revision 0", ["revision"], 0), set("empty data object", ["data"], {}), set("data with any fields", ["data"], { anything: [1, "two", { three: null }] })],
  ReplicationController: [edit("selector defaulted from template", (o) => deleteAt(o, ["spec", "selector"])), set("replicas 0", ["spec", "replicas"], 0)],
  Namespace: [set("finalizer kubernetes", ["spec", "finalizers"], ["kubernetes"]), set("domain finalizer", ["spec", "finalizers"], ["example.com/cleanup"])],
  Endpoints: [set("IPv6 address", ["subsets", 0, "addresses", 0, "ip"], "2001:db8::10"), set("notReadyAddresses", ["subsets", 0, "notReadyAddresses"], [{ ip: "10.0.1.12" }])],
  LimitRange: [set("maxLimitRequestRatio", ["spec", "limits", 0, "maxLimitRequestRatio"], { cpu: "4" }), set("Pod limits", ["spec", "limits", 2], { type: "Pod", max: { cpu: "4" } })],
  ResourceQuota: [
    set("BestEffort with pods only", ["spec"], { hard: { pods: "10" }, scopes: ["BestEffort"] }),
    set("VolumeAttributesClass scope with PVC resources", ["spec"], { hard: { persistentvolumeclaims: "5", "requests.storage": "100Gi" }, scopeSelector: { matchExpressions: [{ scopeName: "VolumeAttributesClass", operator: "In", values: ["fast"] }] } }),
    set("Terminating scope with an extended resource", ["spec"], { hard: { "requests.example.com/gpu": "2", pods: "4" }, scopes: ["Terminating"] }),
    set("PriorityClass scope selector", ["spec", "scopeSelector"], { matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }] }),
  ],
  CSINode: [
    set("no drivers", ["spec", "drivers"], []),
    set("uppercase driver name", ["spec", "drivers", 0, "name"], "EBS.CSI.AWS.COM"),
    set("allocatable count 0", ["spec", "drivers", 0, "allocatable", "count"], 0),
  ],
  CSIStorageCapacity: [set("zero capacity", ["capacity"], "0"), edit("no topology", (o) => deleteAt(o, ["nodeTopology"])), set("storageClassName with dots", ["storageClassName"], "gp3.encrypted")],
  VolumeAttachment: [
    set("uppercase attacher", ["spec", "attacher"], "EBS.CSI.AWS.COM"),
    set("inline CSI volume", ["spec", "source"], { inlineVolumeSpec: { accessModes: ["ReadWriteOnce"], csi: { driver: "ebs.csi.aws.com", volumeHandle: "vol-1" } } }),
  ],
  VolumeAttributesClass: [set("uppercase driverName", ["driverName"], "EBS.CSI.AWS.COM"), set("one parameter", ["parameters"], { iops: "3000" })],
  DeviceClass: [
    ...GOOD_SELECTORS.map(([name, expression]) => set(name, [...CLASS_SELECTOR], expression)),
    set("extendedResourceName", ["spec", "extendedResourceName"], "example.com/gpu"),
    edit("no config", (o) => deleteAt(o, ["spec", "config"])),
  ],
  ResourceClaim: claimAccepted(["spec"], GPU),
  ResourceClaimTemplate: claimAccepted(["spec", "spec"], TEMPLATE_GPU),
  ResourceSlice: [
    edit("allNodes instead of nodeName", (o) => {
      deleteAt(o, ["spec", "nodeName"]);
      setAt(o, ["spec", "allNodes"], true);
    }),
    edit("one-term nodeSelector instead of nodeName", (o) => {
      deleteAt(o, ["spec", "nodeName"]);
      setAt(o, ["spec", "nodeSelector"], { nodeSelectorTerms: [{ matchExpressions: [{ key: "gpu", operator: "Exists" }] }] });
    }),
    set("domain-qualified attribute", [...DEVICE, "attributes", "example.com/vendor"], { string: "example" }),
    set("device taint", [...DEVICE, "taints"], [{ key: "gpu.example.com/degraded", value: "true", effect: "NoSchedule" }]),
    set("multi-allocatable capacity with a range", [...DEVICE], {
      name: "gpu-0",
      allowMultipleAllocations: true,
      capacity: { memory: { value: "40Gi", requestPolicy: { default: "1Gi", validRange: { min: "1Gi", max: "40Gi", step: "1Gi" } } } },
    }),
    set("binding and failure conditions", [...DEVICE], { name: "gpu-0", bindingConditions: ["example.com/ready"], bindingFailureConditions: ["example.com/failed"] }),
  ],
};

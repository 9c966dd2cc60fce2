// Per-kind knowledge for the networking, discovery, certificates, flowcontrol and events kinds of issue 23 (bases in
// bases-corenet.ts), and the Service IP-family edits: enum fields, numeric fields, edits the API server rejects and
// edits it accepts. Restated from the API's behaviour (single-stack IPv4 test cluster).
import type { EnumField, NumericField, RuleEdit } from "./catalog.ts";
import { deleteAt, type Json, type Path, setAt } from "./paths.ts";

export const CORENET_KINDS = ["EndpointSlice", "IPAddress", "ServiceCIDR", "CertificateSigningRequest", "FlowSchema", "PriorityLevelConfiguration", "Event", "Node"] as const;
export type CorenetKind = (typeof CORENET_KINDS)[number];

const edit = (name: string, apply: (o: Json) => void): RuleEdit => ({ name, apply });
const set = (name: string, path: Path, value: Json): RuleEdit => edit(name, (o) => setAt(o, path, structuredClone(value)));

const EP0 = ["endpoints", 0] as const;
const RULE0 = ["spec", "rules", 0] as const;
const LIMITED = ["spec", "limited"] as const;
const QUEUING = [...LIMITED, "limitResponse", "queuing"] as const;
const pem = (type: string, body: string) => Buffer.from(`-----BEGIN ${type}-----\n${body}\n-----END ${type}-----\n`).toString("base64");

export const CORENET_ENUM_FIELDS: Record<CorenetKind, readonly EnumField[]> = {
  EndpointSlice: [
    { path: ["addressType"], values: ["FQDN", "IPv4", "IPv6"] },
    { path: ["ports", 0, "protocol"], values: ["SCTP", "TCP", "UDP"] },
  ],
  IPAddress: [],
  ServiceCIDR: [],
  CertificateSigningRequest: [{ path: ["spec", "usages", 1], values: ["client auth", "server auth", "digital signature", "key encipherment"] }],
  FlowSchema: [
    { path: ["spec", "distinguisherMethod", "type"], values: ["ByNamespace", "ByUser"] },
    { path: [...RULE0, "subjects", 1, "kind"], values: ["Group", "ServiceAccount", "User"] },
    { path: [...RULE0, "resourceRules", 0, "verbs", 0], values: ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "proxy", "*"] },
  ],
  PriorityLevelConfiguration: [
    { path: ["spec", "type"], values: ["Exempt", "Limited"] },
    { path: [...LIMITED, "limitResponse", "type"], values: ["Queue", "Reject"] },
  ],
  Event: [{ path: ["type"], values: ["Normal", "Warning"] }],
  Node: [{ path: ["spec", "taints", 0, "effect"], values: ["NoSchedule", "PreferNoSchedule", "NoExecute"] }],
};

export const CORENET_NUMERIC_FIELDS: Record<CorenetKind, readonly NumericField[]> = {
  EndpointSlice: [{ path: ["ports", 0, "port"], min: 0, max: 65535, integer: true }],
  IPAddress: [],
  ServiceCIDR: [],
  CertificateSigningRequest: [{ path: ["spec", "expirationSeconds"], min: 600, integer: true }],
  FlowSchema: [{ path: ["spec", "matchingPrecedence"], min: 2, max: 10000, integer: true }],
  PriorityLevelConfiguration: [
    { path: [...LIMITED, "nominalConcurrencyShares"], min: 0, integer: true },
    { path: [...LIMITED, "lendablePercent"], min: 0, max: 100, integer: true },
    { path: [...LIMITED, "borrowingLimitPercent"], min: 0, integer: true },
    { path: [...QUEUING, "queues"], min: 1, max: 10_000_000, integer: true },
    { path: [...QUEUING, "handSize"], min: 1, max: 32, integer: true },
    { path: [...QUEUING, "queueLengthLimit"], min: 1, integer: true },
  ],
  Event: [{ path: ["deprecatedCount"], min: 0, max: 0, integer: true }],
  Node: [],
};

export const CORENET_RULE_EDITS: Record<CorenetKind, readonly RuleEdit[]> = {
  EndpointSlice: [
    set("IPv6 address in an IPv4 slice", [...EP0, "addresses"], ["2001:db8::1"]),
    set("loopback address", [...EP0, "addresses"], ["127.0.0.1"]),
    set("link-local address", [...EP0, "addresses"], ["169.254.10.1"]),
    set("unspecified address", [...EP0, "addresses"], ["0.0.0.0"]),
    set("address with leading zeros", [...EP0, "addresses"], ["10.01.2.3"]),
    set("IPv6 slice of IPv4 addresses", ["addressType"], "IPv6"),
    set("no addresses", [...EP0, "addresses"], []),
    set("nodeName not a DNS subdomain", [...EP0, "nodeName"], "Node_A"),
    set("hostname not a DNS label", [...EP0, "hostname"], "web.0"),
    set("duplicate port names", ["ports", 1, "name"], "http"),
    set("port name not a DNS label", ["ports", 0, "name"], "HTTP"),
    set("appProtocol not a qualified name", ["ports", 0, "appProtocol"], "a/b/c"),
    set("duplicate zone hints", [...EP0, "hints", "forZones"], [{ name: "eu-west-1a" }, { name: "eu-west-1a" }]),
    edit("FQDN slice with a one-label name", (o) => {
      setAt(o, ["addressType"], "FQDN");
      setAt(o, [...EP0, "addresses"], ["web"]);
    }),
  ],
  IPAddress: [
    edit("no parentRef", (o) => deleteAt(o, ["spec", "parentRef"])),
    set("parentRef resource empty", ["spec", "parentRef", "resource"], ""),
    set("parentRef name with a slash", ["spec", "parentRef", "name"], "web/x"),
    set("parentRef group not a DNS subdomain", ["spec", "parentRef", "group"], "Example_Group"),
    set("parentRef namespace '..'", ["spec", "parentRef", "namespace"], ".."),
  ],
  ServiceCIDR: [
    set("two IPv4 CIDRs", ["spec", "cidrs"], ["10.100.0.0/24", "10.101.0.0/24"]),
    set("three CIDRs", ["spec", "cidrs"], ["10.100.0.0/24", "fd00:10::/112", "10.101.0.0/24"]),
    set("host bits set", ["spec", "cidrs", 0], "10.100.0.1/24"),
    set("IPv6 CIDR not canonical", ["spec", "cidrs", 1], "FD00:10::/112"),
    set("no CIDRs", ["spec", "cidrs"], []),
    set("not a CIDR", ["spec", "cidrs", 0], "10.100.0.0"),
  ],
  CertificateSigningRequest: [
    set("no usages", ["spec", "usages"], []),
    set("unknown usage", ["spec", "usages"], ["client auth", "wizardry"]),
    set("duplicate usage", ["spec", "usages"], ["client auth", "client auth"]),
    set("expiration under ten minutes", ["spec", "expirationSeconds"], 599),
    set("legacy signer", ["spec", "signerName"], "kubernetes.io/legacy-unknown"),
    set("signer without a path", ["spec", "signerName"], "example.com"),
    set("signer domain of one label", ["spec", "signerName"], "example/signer"),
    set("request that is no PEM", ["spec", "request"], Buffer.from("not a certificate request").toString("base64")),
    set("PEM of another block type", ["spec", "request"], pem("CERTIFICATE", "MIIBAA==")),
    set("CERTIFICATE REQUEST block of garbage", ["spec", "request"], pem("CERTIFICATE REQUEST", "MIIBAA==")),
  ],
  FlowSchema: [
    set("matchingPrecedence 1 on another schema", ["spec", "matchingPrecedence"], 1),
    set("matchingPrecedence above 10000", ["spec", "matchingPrecedence"], 10001),
    set("negative matchingPrecedence", ["spec", "matchingPrecedence"], -5),
    set("unknown distinguisher", ["spec", "distinguisherMethod", "type"], "ByPod"),
    set("no priority level", ["spec", "priorityLevelConfiguration", "name"], ""),
    set("priority level not a DNS subdomain", ["spec", "priorityLevelConfiguration", "name"], "Batch_Level"),
    set("unknown verb", [...RULE0, "resourceRules", 0, "verbs"], ["get", "fly"]),
    set("wildcard verb beside others", [...RULE0, "resourceRules", 0, "verbs"], ["*", "get"]),
    set("namespace-scoped rule without namespaces", [...RULE0, "resourceRules", 0, "namespaces"], []),
    set("namespace not a DNS label", [...RULE0, "resourceRules", 0, "namespaces"], ["Batch_NS"]),
    set("non-resource URL without slash", [...RULE0, "nonResourceRules", 0, "nonResourceURLs"], ["healthz"]),
    set("non-resource URL wildcard in the middle", [...RULE0, "nonResourceRules", 0, "nonResourceURLs"], ["/metrics/*/x"]),
    set("no subjects", [...RULE0, "subjects"], []),
    set("ServiceAccount subject without serviceAccount", [...RULE0, "subjects", 0], { kind: "ServiceAccount" }),
    set("ServiceAccount subject without namespace", [...RULE0, "subjects", 0, "serviceAccount", "namespace"], ""),
    set("Group subject carrying a user", [...RULE0, "subjects", 1, "user"], { name: "alice" }),
    edit("rule without resource or non-resource rules", (o) => {
      deleteAt(o, [...RULE0, "resourceRules"]);
      deleteAt(o, [...RULE0, "nonResourceRules"]);
    }),
  ],
  PriorityLevelConfiguration: [
    set("Exempt type on another level", ["spec", "type"], "Exempt"),
    edit("Limited without limited", (o) => deleteAt(o, LIMITED)),
    set("Limited with exempt", ["spec", "exempt"], {}),
    set("hand larger than the deck", QUEUING, { queues: 4, handSize: 5 }),
    set("hand needing over 60 bits", QUEUING, { queues: 1024, handSize: 10 }),
    set("lendablePercent 101", [...LIMITED, "lendablePercent"], 101),
    set("negative borrowingLimitPercent", [...LIMITED, "borrowingLimitPercent"], -1),
    set("negative nominalConcurrencyShares", [...LIMITED, "nominalConcurrencyShares"], -1),
    set("Reject with queuing", [...LIMITED, "limitResponse", "type"], "Reject"),
    edit("Queue without queuing", (o) => deleteAt(o, QUEUING)),
    set("the v1beta3 zero-shares annotation", ["metadata", "annotations"], { "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares": "true" }),
  ],
  Event: [
    set("type Info", ["type"], "Info"),
    edit("no eventTime", (o) => deleteAt(o, ["eventTime"])),
    set("reportingController not a qualified name", ["reportingController"], "batch controller"),
    set("no action", ["action"], ""),
    set("no reason", ["reason"], ""),
    set("reason over 128 characters", ["reason"], "R".repeat(129)),
    set("note over 1024 characters", ["note"], "n".repeat(1025)),
    set("series of one", ["series"], { count: 1, lastObservedTime: "2026-09-01T10:00:00.000000Z" }),
    set("deprecatedCount set", ["deprecatedCount"], 3),
    set("deprecatedSource set", ["deprecatedSource"], { component: "kubelet" }),
    set("regarding another namespace", ["regarding", "namespace"], "other"),
  ],
  Node: [
    set("taint key not a qualified name", ["spec", "taints", 0, "key"], "dedicated pool"),
    set("taint value not a label value", ["spec", "taints", 0, "value"], "-batch"),
    set("taint without effect", ["spec", "taints", 0, "effect"], ""),
    edit("duplicate taint key and effect", (o) => setAt(o, ["spec", "taints", 1], { key: "dedicated", value: "other", effect: "NoSchedule" })),
    set("two IPv4 pod CIDRs", ["spec", "podCIDRs"], ["10.244.1.0/24", "10.244.2.0/24"]),
    set("pod CIDR with host bits", ["spec", "podCIDRs"], ["10.244.1.1/24"]),
    set("negative cpu capacity", ["status", "capacity", "cpu"], "-1"),
    set("fractional pods allocatable", ["status", "allocatable", "pods"], "1500m"),
    set("taints annotation that is not a list", ["metadata", "annotations"], { "scheduler.alpha.kubernetes.io/taints": '{"key":"a"}' }),
    set("taints annotation with a bad effect", ["metadata", "annotations"], { "scheduler.alpha.kubernetes.io/taints": '[{"key":"a","effect":"Sometimes"}]' }),
    set("declared features out of order", ["status", "declaredFeatures"], ["Zeta", "Alpha"]),
  ],
};

export const CORENET_ACCEPTED_EDITS: Record<CorenetKind, readonly RuleEdit[]> = {
  EndpointSlice: [
    edit("no ports", (o) => deleteAt(o, ["ports"])),
    set("one unnamed port", ["ports"], [{ port: 80 }]),
    edit("FQDN slice of host names", (o) => {
      setAt(o, ["addressType"], "FQDN");
      setAt(o, [...EP0, "addresses"], ["web-0.example.com", "api.example.com."]);
      setAt(o, ["endpoints", 1, "addresses"], ["db.example.com"]);
    }),
    edit("IPv6 slice of canonical addresses", (o) => {
      setAt(o, ["addressType"], "IPv6");
      setAt(o, [...EP0, "addresses"], ["2001:db8::1"]);
      setAt(o, ["endpoints", 1, "addresses"], ["fd00:1::2"]);
    }),
    set("node hints", [...EP0, "hints", "forNodes"], [{ name: "node-a" }]),
    set("appProtocol with a domain", ["ports", 0, "appProtocol"], "kubernetes.io/h2c"),
  ],
  IPAddress: [
    edit("parentRef without namespace", (o) => deleteAt(o, ["spec", "parentRef", "namespace"])),
    set("parentRef with a group", ["spec", "parentRef", "group"], "gateway.networking.k8s.io"),
  ],
  ServiceCIDR: [set("one IPv4 CIDR", ["spec", "cidrs"], ["10.100.0.0/24"]), set("one IPv6 CIDR", ["spec", "cidrs"], ["fd00:10::/112"]), set("IPv6 first", ["spec", "cidrs"], ["fd00:10::/112", "10.100.0.0/24"])],
  CertificateSigningRequest: [
    edit("no expiration", (o) => deleteAt(o, ["spec", "expirationSeconds"])),
    set("expiration of exactly ten minutes", ["spec", "expirationSeconds"], 600),
    set("custom signer with a dotted path", ["spec", "signerName"], "example.com/team.signer"),
    set("many usages", ["spec", "usages"], ["digital signature", "key encipherment", "client auth", "server auth"]),
  ],
  FlowSchema: [
    set("matchingPrecedence 10000", ["spec", "matchingPrecedence"], 10000),
    edit("default matchingPrecedence", (o) => deleteAt(o, ["spec", "matchingPrecedence"])),
    set("every namespace", [...RULE0, "resourceRules", 0, "namespaces"], ["*"]),
    edit("cluster scope without namespaces", (o) => {
      setAt(o, [...RULE0, "resourceRules", 0, "clusterScope"], true);
      deleteAt(o, [...RULE0, "resourceRules", 0, "namespaces"]);
    }),
    set("every non-resource URL", [...RULE0, "nonResourceRules", 0, "nonResourceURLs"], ["*"]),
    set("every verb", [...RULE0, "resourceRules", 0, "verbs"], ["*"]),
    edit("no distinguisher", (o) => deleteAt(o, ["spec", "distinguisherMethod"])),
    set("every service account of a namespace", [...RULE0, "subjects", 0, "serviceAccount", "name"], "*"),
  ],
  PriorityLevelConfiguration: [
    set("queues 0 (defaulted to 64)", [...QUEUING, "queues"], 0),
    set("empty queuing (defaults)", QUEUING, {}),
    set("lendablePercent 100", [...LIMITED, "lendablePercent"], 100),
    set("borrowingLimitPercent 0", [...LIMITED, "borrowingLimitPercent"], 0),
    set("zero shares", [...LIMITED, "nominalConcurrencyShares"], 0),
    set("Reject", [...LIMITED, "limitResponse"], { type: "Reject" }),
    set("hand equal to the deck", QUEUING, { queues: 8, handSize: 8 }),
  ],
  Event: [
    set("type Warning", ["type"], "Warning"),
    edit("no note", (o) => deleteAt(o, ["note"])),
    set("series of two", ["series"], { count: 2, lastObservedTime: "2026-09-01T10:05:00.000000Z" }),
    set("related object", ["related"], { kind: "Pod", name: "report-abcde", namespace: "mutations" }),
    set("note of 1024 characters", ["note"], "n".repeat(1024)),
  ],
  Node: [
    set("same taint key under another effect", ["spec", "taints", 1], { key: "dedicated", value: "batch", effect: "NoExecute" }),
    set("dual-stack pod CIDRs", ["spec", "podCIDRs"], ["10.244.1.0/24", "fd00:1::/64"]),
    edit("no taints", (o) => deleteAt(o, ["spec", "taints"])),
    set("taints annotation that is a list", ["metadata", "annotations"], { "scheduler.alpha.kubernetes.io/taints": '[{"key":"a","value":"b","effect":"NoSchedule"}]' }),
    set("declared features in order", ["status", "declaredFeatures"], ["Alpha", "Beta/sub"]),
    set("hugepages capacity", ["status", "capacity", "hugepages-2Mi"], "1Gi"),
  ],
};

/** Service edits on the ipFamilyPolicy/ipFamilies/clusterIPs combinations (single-stack IPv4 cluster). */
export const SERVICE_IP_FAMILY_RULE_EDITS: readonly RuleEdit[] = [
  set("RequireDualStack on a single-stack cluster", ["spec", "ipFamilyPolicy"], "RequireDualStack"),
  set("IPv6 family on an IPv4 cluster", ["spec", "ipFamilies"], ["IPv6"]),
  edit("SingleStack with two families", (o) => {
    setAt(o, ["spec", "ipFamilyPolicy"], "SingleStack");
    setAt(o, ["spec", "ipFamilies"], ["IPv4", "IPv6"]);
  }),
  edit("PreferDualStack with both families", (o) => {
    setAt(o, ["spec", "ipFamilyPolicy"], "PreferDualStack");
    setAt(o, ["spec", "ipFamilies"], ["IPv4", "IPv6"]);
  }),
  set("duplicate family", ["spec", "ipFamilies"], ["IPv4", "IPv4"]),
  edit("clusterIPs without clusterIP", (o) => {
    deleteAt(o, ["spec", "clusterIP"]);
    setAt(o, ["spec", "clusterIPs"], ["10.0.0.40"]);
  }),
  edit("two cluster IPs of one family", (o) => {
    setAt(o, ["spec", "clusterIP"], "10.0.0.41");
    setAt(o, ["spec", "clusterIPs"], ["10.0.0.41", "10.0.0.42"]);
    setAt(o, ["spec", "ipFamilyPolicy"], "PreferDualStack");
  }),
  edit("clusterIP of another family than ipFamilies", (o) => {
    setAt(o, ["spec", "clusterIP"], "10.0.0.43");
    setAt(o, ["spec", "ipFamilies"], ["IPv6"]);
  }),
  edit("IPv6 clusterIP", (o) => setAt(o, ["spec", "clusterIP"], "fd00::43")),
];

export const SERVICE_IP_FAMILY_ACCEPTED_EDITS: readonly RuleEdit[] = [
  set("PreferDualStack on a single-stack cluster", ["spec", "ipFamilyPolicy"], "PreferDualStack"),
  set("explicit SingleStack", ["spec", "ipFamilyPolicy"], "SingleStack"),
  set("IPv4 family", ["spec", "ipFamilies"], ["IPv4"]),
  edit("IPv4 family with PreferDualStack", (o) => {
    setAt(o, ["spec", "ipFamilies"], ["IPv4"]);
    setAt(o, ["spec", "ipFamilyPolicy"], "PreferDualStack");
  }),
];

// NodePool.Hash() and EC2NodeClass.Hash() as Karpenter v1.14.1 computes them, for static drift. Go structs described
// after sigs.k8s.io/karpenter@v1.14.1 pkg/apis/v1/nodepool.go, nodeclaim.go, duration.go, k8s.io/api core/v1 Taint,
// and github.com/aws/karpenter-provider-aws@v1.14.1 pkg/apis/v1/ec2nodeclass.go (field order = declaration order).
import { decodeGo, type GoField, type GoType, hashList, visitGo } from "./hashstructure.ts";

/** karpenter.sh/nodepool-hash-version (nodepool.go NodePoolHashVersion). */
export const NODEPOOL_HASH_VERSION = "v3";
/** karpenter.k8s.aws/ec2nodeclass-hash-version (ec2nodeclass.go EC2NodeClassHashVersion). */
export const EC2NODECLASS_HASH_VERSION = "v5";
export const NODEPOOL_HASH_ANNOTATION = "karpenter.sh/nodepool-hash";
export const EC2NODECLASS_HASH_ANNOTATION = "karpenter.k8s.aws/ec2nodeclass-hash";

const str: GoType = { kind: "string" };
const int32: GoType = { kind: "int", bytes: 4 };
const int64: GoType = { kind: "int", bytes: 8 };
const ptr = (elem: GoType): GoType => ({ kind: "ptr", elem });
const slice = (elem: GoType): GoType => ({ kind: "slice", elem });
const map = (value: GoType): GoType => ({ kind: "map", value });
const struct = (name: string, fields: GoField[]): GoType & { kind: "struct" } => ({ kind: "struct", name, fields });
const f = (go: string, json: string, type: GoType, tag?: "ignore" | "string"): GoField => ({ go, json, type, ...(tag ? { tag } : {}) });
const ignored = (go: string, json: string): GoField => f(go, json, { kind: "opaque" }, "ignore");

const TAINT = struct("Taint", [f("Key", "key", str), f("Value", "value", str), f("Effect", "effect", str), f("TimeAdded", "timeAdded", ptr({ kind: "metaTime" }))]);

/** nodepool.go NodeClaimTemplate: what NodePool.Hash() covers (spec.template). */
export const NODE_CLAIM_TEMPLATE = struct("NodeClaimTemplate", [
  f("ObjectMeta", "metadata", struct("ObjectMeta", [f("Labels", "labels", map(str)), f("Annotations", "annotations", map(str))])),
  f(
    "Spec",
    "spec",
    struct("NodeClaimTemplateSpec", [
      f("Taints", "taints", slice(TAINT)),
      f("StartupTaints", "startupTaints", slice(TAINT)),
      ignored("Requirements", "requirements"),
      f("NodeClassRef", "nodeClassRef", ptr(struct("NodeClassReference", [f("Kind", "kind", str), f("Name", "name", str), f("Group", "group", str)]))),
      f("TerminationGracePeriod", "terminationGracePeriod", ptr({ kind: "metaDuration" })),
      f("ExpireAfter", "expireAfter", { kind: "nillableDuration" }),
    ]),
  ),
]);

const KUBELET = struct("KubeletConfiguration", [
  f("ClusterDNS", "clusterDNS", slice(str)),
  f("MaxPods", "maxPods", ptr(int32)),
  f("PodsPerCore", "podsPerCore", ptr(int32)),
  f("SystemReserved", "systemReserved", map(str)),
  f("KubeReserved", "kubeReserved", map(str)),
  f("EvictionHard", "evictionHard", map(str)),
  f("EvictionSoft", "evictionSoft", map(str)),
  f("EvictionSoftGracePeriod", "evictionSoftGracePeriod", map({ kind: "metaDuration" })),
  f("EvictionMaxPodGracePeriod", "evictionMaxPodGracePeriod", ptr(int32)),
  f("ImageGCHighThresholdPercent", "imageGCHighThresholdPercent", ptr(int32)),
  f("ImageGCLowThresholdPercent", "imageGCLowThresholdPercent", ptr(int32)),
  f("CPUCFSQuota", "cpuCFSQuota", ptr({ kind: "bool" })),
]);

const BLOCK_DEVICE = struct("BlockDevice", [
  f("DeleteOnTermination", "deleteOnTermination", ptr({ kind: "bool" })),
  f("Encrypted", "encrypted", ptr({ kind: "bool" })),
  f("IOPS", "iops", ptr(int64)),
  f("KMSKeyID", "kmsKeyID", ptr(str)),
  f("SnapshotID", "snapshotID", ptr(str)),
  f("Throughput", "throughput", ptr(int64)),
  f("VolumeInitializationRate", "volumeInitializationRate", ptr(int32)),
  f("VolumeSize", "volumeSize", ptr({ kind: "quantity" }), "string"),
  f("VolumeType", "volumeType", ptr(str)),
]);

/** ec2nodeclass.go EC2NodeClassSpec. */
export const EC2_NODE_CLASS_SPEC = struct("EC2NodeClassSpec", [
  ignored("SubnetSelectorTerms", "subnetSelectorTerms"),
  ignored("SecurityGroupSelectorTerms", "securityGroupSelectorTerms"),
  ignored("CapacityReservationSelectorTerms", "capacityReservationSelectorTerms"),
  f("PlacementGroupSelector", "placementGroupSelector", ptr(struct("PlacementGroupSelector", [f("Name", "name", ptr(str)), f("ID", "id", ptr(str))]))),
  f("AssociatePublicIPAddress", "associatePublicIPAddress", ptr({ kind: "bool" })),
  ignored("IPPrefixCount", "ipPrefixCount"),
  ignored("AMISelectorTerms", "amiSelectorTerms"),
  ignored("AMIFamily", "amiFamily"),
  f("UserData", "userData", ptr(str)),
  f("Role", "role", str),
  f("InstanceProfile", "instanceProfile", ptr(str)),
  f("Tags", "tags", map(str)),
  f("Kubelet", "kubelet", ptr(KUBELET)),
  f("BlockDeviceMappings", "blockDeviceMappings", slice(ptr(struct("BlockDeviceMapping", [f("DeviceName", "deviceName", ptr(str)), f("EBS", "ebs", ptr(BLOCK_DEVICE)), f("RootVolume", "rootVolume", { kind: "bool" })])))),
  f("InstanceStorePolicy", "instanceStorePolicy", ptr(str)),
  f("NetworkInterfaces", "networkInterfaces", slice(ptr(struct("NetworkInterface", [f("NetworkCardIndex", "networkCardIndex", int32), f("DeviceIndex", "deviceIndex", int32), f("InterfaceType", "interfaceType", str)])))),
  f("DetailedMonitoring", "detailedMonitoring", ptr({ kind: "bool" })),
  f(
    "MetadataOptions",
    "metadataOptions",
    ptr(struct("MetadataOptions", [f("HTTPEndpoint", "httpEndpoint", ptr(str)), f("HTTPProtocolIPv6", "httpProtocolIPv6", ptr(str)), f("HTTPPutResponseHopLimit", "httpPutResponseHopLimit", ptr(int64)), f("HTTPTokens", "httpTokens", ptr(str))])),
  ),
  f("ConnectionTracking", "connectionTracking", ptr(struct("ConnectionTracking", [f("TCPEstablishedTimeout", "tcpEstablishedTimeout", ptr(int32)), f("UDPStreamTimeout", "udpStreamTimeout", ptr(int32)), f("UDPTimeout", "udpTimeout", ptr(int32))]))),
  f("Context", "context", ptr(str)),
  f("CPUOptions", "cpuOptions", ptr(struct("CPUOptions", [f("NestedVirtualization", "nestedVirtualization", ptr(str))]))),
]);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** NodePool.Hash(): hashstructure of spec.template, printed as a decimal uint64 (the karpenter.sh/nodepool-hash value). */
export function nodePoolHash(nodePool: unknown): string {
  const template = obj(obj(nodePool).spec).template;
  return visitGo(decodeGo(template, NODE_CLAIM_TEMPLATE, "spec.template"), NODE_CLAIM_TEMPLATE).toString();
}

/** The AMI families an alias names (ec2nodeclass.go amiFamilyFromAlias: the family whose lower-case name is the alias prefix). */
const ALIAS_FAMILIES = ["AL2", "AL2023", "Bottlerocket", "Windows2019", "Windows2022", "Windows2025"];

/** EC2NodeClass.AMIFamily(): spec.amiFamily, else the alias's family, else Custom. */
export function amiFamily(nodeClass: unknown): string {
  const spec = obj(obj(nodeClass).spec);
  if (typeof spec.amiFamily === "string") return spec.amiFamily;
  const terms = Array.isArray(spec.amiSelectorTerms) ? spec.amiSelectorTerms : [];
  const alias = terms.map((t) => obj(t).alias).find((a): a is string => typeof a === "string" && a !== "");
  if (alias !== undefined) {
    const parts = alias.split("@");
    // Upstream log.Fatalf's on a malformed alias or an unknown family (the CRD's CEL rules refuse both before).
    if (parts.length !== 2) throw new Error(`spec.amiSelectorTerms: failed to parse AMI alias ${JSON.stringify(alias)}, invalid format`);
    const family = ALIAS_FAMILIES.find((fam) => fam.toLowerCase() === parts[0]);
    if (family === undefined) throw new Error(`spec.amiSelectorTerms: ${JSON.stringify(parts[0])} is an invalid alias family`);
    return family;
  }
  return "Custom";
}

/**
 * EC2NodeClass.Hash(caBundle): hashstructure of []any{spec, AMIFamily(), caBundle} (the karpenter.k8s.aws/ec2nodeclass-hash
 * value). caBundle is the cluster's CA as Karpenter discovered it (nil -> ""); since list items combine by XOR it shifts
 * every hash of a cluster alike, so whether a change drifts does not depend on it.
 */
export function ec2NodeClassHash(nodeClass: unknown, caBundle = ""): string {
  const spec = obj(nodeClass).spec;
  return hashList([
    { value: decodeGo(spec, EC2_NODE_CLASS_SPEC, "spec"), type: EC2_NODE_CLASS_SPEC },
    { value: amiFamily(nodeClass), type: str },
    { value: caBundle, type: str },
  ]).toString();
}

// StorageClass native checks with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { STORAGE } from "./storage.ts";
import { runNative } from "./testing.ts";

const sc = (extra: Record<string, unknown>) => ({ apiVersion: "storage.k8s.io/v1", kind: "StorageClass", metadata: { name: "gp3" }, provisioner: "ebs.csi.aws.com", ...extra });
const zone = (values: string[], key = "topology.kubernetes.io/zone") => ({ matchLabelExpressions: [{ key, values }] });

describe("StorageClass", () => {
  it("accepts a CSI provisioner with parameters and topologies", () => {
    expect(runNative(STORAGE, sc({ parameters: { type: "gp3" }, reclaimPolicy: "Retain", allowedTopologies: [zone(["eu-west-1a"])] }))).toEqual([]);
  });

  it("requires a qualified provisioner name and refuses Recycle", () => {
    expect(runNative(STORAGE, sc({ provisioner: "" }))).toEqual(["/provisioner provisioner: Required value [native:storage/provisioner]"]);
    expect(runNative(STORAGE, sc({ provisioner: "ebs csi" }))[0]).toMatch(/^\/provisioner provisioner: Invalid value: "ebs csi": name part must consist of alphanumeric characters/);
    expect(runNative(STORAGE, sc({ reclaimPolicy: "Recycle" }))).toEqual([
      '/reclaimPolicy reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain" [native:storage/reclaim-policy]',
    ]);
  });

  it("checks allowed topologies: values required and unique, keys qualified, terms unique", () => {
    expect(runNative(STORAGE, sc({ allowedTopologies: [zone([]), zone(["a", "a"], "bad key"), zone(["b"]), zone(["b"])] }))).toEqual([
      "/allowedTopologies/0/matchLabelExpressions/0/values allowedTopologies[0].matchLabelExpressions[0].values: Required value [native:storage/allowed-topologies]",
      '/allowedTopologies/1/matchLabelExpressions/0/values/1 allowedTopologies[1].matchLabelExpressions[0].values[1]: Duplicate value: "a" [native:storage/allowed-topologies]',
      `/allowedTopologies/1/matchLabelExpressions/0/key allowedTopologies[1].matchLabelExpressions[0].key: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') [native:storage/allowed-topologies]`,
      '/allowedTopologies/3/matchLabelExpressions allowedTopologies[3].matchLabelExpressions: Duplicate value: "" [native:storage/allowed-topologies]',
    ]);
  });
});

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QUALIFIED_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const of = (kind: string, body: Record<string, unknown>) => ({ apiVersion: "storage.k8s.io/v1", kind, metadata: { name: "x" }, ...body });

describe("CSINode", () => {
  const driver = { name: "ebs.csi.aws.com", nodeID: "i-1", topologyKeys: ["topology.ebs.csi.aws.com/zone"] };
  it("accepts drivers with node IDs and topology keys; a driver name is case-insensitive", () => {
    expect(runNative(STORAGE, of("CSINode", { spec: { drivers: [driver, { name: "EFS.CSI.AWS.COM", nodeID: "i-1" }] } }))).toEqual([]);
  });

  it("checks driver names, node IDs, counts, duplicates and topology keys (reported at the driver)", () => {
    const drivers = [{ name: "EBS CSI", nodeID: "", allocatable: { count: -1 }, topologyKeys: ["zone", "zone", "bad key"] }, driver, driver];
    expect(runNative(STORAGE, of("CSINode", { spec: { drivers } }))).toEqual([
      `/spec/drivers/0/name spec.drivers[0].name: Invalid value: "EBS CSI": ${SUBDOMAIN_MSG} [native:storage/csi-node]`,
      "/spec/drivers/0/nodeID spec.drivers[0].nodeID: Required value [native:storage/csi-node]",
      "/spec/drivers/0/allocatable/count spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0 [native:storage/csi-node]",
      '/spec/drivers/0 spec.drivers[0]: Duplicate value: "zone" [native:storage/csi-node]',
      `/spec/drivers/0 spec.drivers[0]: Invalid value: "bad key": ${QUALIFIED_MSG} [native:storage/csi-node]`,
      '/spec/drivers/2/name spec.drivers[2].name: Duplicate value: "ebs.csi.aws.com" [native:storage/csi-node]',
    ]);
  });
});

describe("CSIStorageCapacity, VolumeAttachment, VolumeAttributesClass", () => {
  it("checks the class name, the capacity sign and the topology selector", () => {
    const capacity = of("CSIStorageCapacity", { storageClassName: "GP3 Class", capacity: "-1Gi", nodeTopology: { matchExpressions: [{ key: "zone", operator: "Maybe" }] } });
    expect(runNative(STORAGE, capacity)).toEqual([
      '/nodeTopology/matchExpressions/0/operator nodeTopology.matchExpressions[0].operator: Invalid value: "Maybe": not a valid selector operator [native:meta/label-selector]',
      `/storageClassName storageClassName: Invalid value: "GP3 Class": ${SUBDOMAIN_MSG} [native:storage/csi-storage-capacity]`,
      '/capacity capacity: Invalid value: "-1Gi": must be greater than or equal to 0 [native:storage/csi-storage-capacity]',
    ]);
  });

  it("wants exactly one attachment source, a CSI attacher and subdomain names", () => {
    const va = (source: unknown, attacher = "ebs.csi.aws.com") => of("VolumeAttachment", { spec: { attacher, nodeName: "node-1", source } });
    expect(runNative(STORAGE, va({ persistentVolumeName: "pv-1" }))).toEqual([]);
    expect(runNative(STORAGE, va({}, "a".repeat(64)))).toEqual([
      "/spec/attacher spec.attacher: Too long: may not be more than 63 bytes [native:storage/volume-attachment]",
      "/spec/source spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName [native:storage/volume-attachment]",
    ]);
    expect(runNative(STORAGE, va({ inlineVolumeSpec: { accessModes: ["ReadWriteOnce"], capacity: { storage: "1Gi" }, hostPath: { path: "/d" } } }))).toEqual([
      "/spec/source/inlineVolumeSpec/capacity spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes [native:storage/volume-attachment]",
      "/spec/source/inlineVolumeSpec/csi spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes [native:storage/volume-attachment]",
    ]);
  });

  it("requires a VolumeAttributesClass driver and at least one parameter", () => {
    expect(runNative(STORAGE, of("VolumeAttributesClass", { driverName: "" }))).toEqual([
      "/driverName driverName: Required value [native:storage/provisioner]",
      "/parameters parameters: Required value: must contain at least one key/value pair [native:storage/parameters]",
    ]);
  });
});

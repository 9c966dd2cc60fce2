// The storage.k8s.io/v1 kinds as the API server validates them on create: StorageClass, CSIDriver, CSINode,
// CSIStorageCapacity, VolumeAttachment and VolumeAttributesClass.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/storage/validation/validation.go (ValidateStorageClass, validateProvisioner,
// validateParameters, validateReclaimPolicy, validateAllowedTopologies, ValidateCSIDriver, validateCSIDriverSpec,
// ValidateCSINode, validateCSINodeDriver, ValidateCSIStorageCapacity, ValidateVolumeAttachment,
// validateVolumeAttachmentSource, ValidateVolumeAttributesClass) and pkg/apis/core/validation/validation.go
// (ValidateTopologySelectorTerm, ValidateCSIDriverName, ValidatePersistentVolumeSpec for inline volumes).
// reclaimPolicy and volumeBindingMode are defaulted (Delete, Immediate) when unset; a VolumeAttachment's status is
// cleared on create (PrepareForCreate), so it is not checked.
import { validateLabelSelector } from "./labelselector.ts";
import { isDns1123Subdomain, isQualifiedName } from "./names.ts";
import { FieldPath } from "./path.ts";
import { validatePersistentVolume } from "./persistentvolume.ts";
import { quantitySign, quantityString, readQuantity } from "./quantity.ts";
import type { NativeGroup } from "./registry.ts";
import type { Reporter } from "./report.ts";
import { type Obj, asArr, asNum, asObj, asStr, objItems } from "./values.ts";

/**
 * core's ValidateCSIDriverName: required, at most 63 characters, a DNS-1123 subdomain once lowercased. Also the
 * DRA driver name rule (resource.k8s.io reuses it).
 */
export function validateCsiDriverName(name: string, path: FieldPath, r: Reporter, check: string): void {
  if (name.length === 0) {
    r.required(path, "", check);
    return;
  }
  if (name.length > 63) r.tooLong(path, 63, check);
  r.invalidEach(path, name, isDns1123Subdomain(name.toLowerCase()), check);
}

const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;
/** Recycle is an enum value of the Go type but not allowed for a StorageClass (the schema stage leaves this field to us). */
const RECLAIM_POLICIES = ["Delete", "Retain"];

/** ValidateTopologySelectorTerm: each expression's values (required, no duplicates) and key; the term as a map. */
function topologyTerm(term: Obj, path: FieldPath, r: Reporter): Map<string, string[]> {
  const check = "storage/allowed-topologies";
  const exprs = new Map<string, string[]>();
  for (const [j, expr] of objItems(term.matchLabelExpressions)) {
    const exprPath = path.child("matchLabelExpressions").index(j);
    const key = asStr(expr.key) ?? "";
    const values = (asArr(expr.values) ?? []).filter((v): v is string => typeof v === "string");
    if (values.length === 0) r.required(exprPath.child("values"), "", check);
    const set = new Set<string>();
    values.forEach((v, k) => {
      if (set.has(v)) r.duplicate(exprPath.child("values").index(k), v, check);
      set.add(v);
    });
    r.invalidEach(exprPath.child("key"), key, isQualifiedName(key), check);
    if (exprs.has(key)) r.duplicate(exprPath.child("key"), key, check);
    exprs.set(key, [...set].sort());
  }
  return exprs;
}

const termKey = (m: Map<string, string[]>) => JSON.stringify([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** validateProvisioner: required, a qualified name once lowercased (also a VolumeAttributesClass's driverName). */
function validateProvisioner(provisioner: string, path: FieldPath, r: Reporter): void {
  if (provisioner.length === 0) r.required(path, "", "storage/provisioner");
  else r.invalidEach(path, provisioner.toLowerCase(), isQualifiedName(provisioner.toLowerCase()), "storage/provisioner");
}

/** validateParameters: at most 512 keys, none empty, 256 KiB in all; `allowEmpty` false requires one pair. */
function validateParameters(parameters: unknown, allowEmpty: boolean, path: FieldPath, r: Reporter): void {
  const params = asObj(parameters) ?? {};
  const keys = Object.keys(params);
  if (keys.length > MAX_PARAMETERS) {
    r.tooLong(path, MAX_PARAMETERS, "storage/parameters");
    return;
  }
  let size = 0;
  for (const k of keys) {
    if (k.length < 1) r.invalid(path, k, "field can not be empty.", "storage/parameters");
    const v = params[k];
    size += Buffer.byteLength(k) + (typeof v === "string" ? Buffer.byteLength(v) : 0);
  }
  if (size > MAX_PARAMETERS_SIZE) r.tooLong(path, MAX_PARAMETERS_SIZE, "storage/parameters");
  if (!allowEmpty && keys.length === 0) r.required(path, "must contain at least one key/value pair", "storage/parameters");
}

function validateStorageClass(sc: Obj, r: Reporter): void {
  validateProvisioner(asStr(sc.provisioner) ?? "", FieldPath.of("provisioner"), r);
  validateParameters(sc.parameters, true, FieldPath.of("parameters"), r);
  const reclaim = asStr(sc.reclaimPolicy);
  if (reclaim !== undefined && reclaim.length > 0 && !RECLAIM_POLICIES.includes(reclaim)) {
    r.notSupported(FieldPath.of("reclaimPolicy"), reclaim, RECLAIM_POLICIES, "storage/reclaim-policy");
  }
  // volumeBindingMode: the schema stage reports values outside the enum (Immediate, WaitForFirstConsumer)
  // Go compares each term with the earlier ones and with len(allowedTopologies) nil placeholders, which a term
  // without expressions equals (semantic equality treats an empty map as nil): such a term is a duplicate too
  const seen: string[] = [];
  for (const [i, term] of objItems(sc.allowedTopologies)) {
    const path = FieldPath.of("allowedTopologies").index(i);
    const exprs = topologyTerm(term, path, r);
    const key = termKey(exprs);
    if (exprs.size === 0 || seen.includes(key)) r.duplicate(path.child("matchLabelExpressions"), "", "storage/allowed-topologies");
    seen.push(key);
  }
}

const FS_GROUP_POLICIES = ["File", "None", "ReadWriteOnceWithFSType"];
const LIFECYCLE_MODES = ["Persistent", "Ephemeral"];
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

/**
 * ValidateCSIDriver (validateCSIDriverSpec): attachRequired, podInfoOnMount and storageCapacity are defaulted
 * (SetDefaults_CSIDriver) so never missing; fields of features off by default are not checked.
 */
function validateCsiDriver(driver: Obj, r: Reporter): void {
  const check = "storage/csi-driver";
  const spec = asObj(driver.spec) ?? {};
  const path = FieldPath.of("spec");
  const fsGroupPolicy = asStr(spec.fsGroupPolicy);
  if (fsGroupPolicy !== undefined && !FS_GROUP_POLICIES.includes(fsGroupPolicy)) r.notSupported(path.child("fsGroupPolicy"), fsGroupPolicy, FS_GROUP_POLICIES, check);
  const audiences = new Set<string>();
  for (const [i, request] of objItems(spec.tokenRequests)) {
    const p = path.child("tokenRequests").index(i);
    const audience = asStr(request.audience) ?? "";
    if (audiences.has(audience)) {
      r.duplicate(p.child("audience"), audience, check);
      continue;
    }
    audiences.add(audience);
    const seconds = asNum(request.expirationSeconds);
    if (seconds === undefined) continue;
    if (seconds < MIN_TOKEN_SECONDS) r.invalid(p.child("expirationSeconds"), seconds, "may not specify a duration less than 10 minutes", check);
    if (seconds > MAX_TOKEN_SECONDS) r.invalid(p.child("expirationSeconds"), seconds, "may not specify a duration larger than 2^32 seconds", check);
  }
  for (const mode of asArr(spec.volumeLifecycleModes) ?? []) {
    if (typeof mode !== "string" || !LIFECYCLE_MODES.includes(mode)) r.notSupported(path.child("volumeLifecycleModes"), mode, LIFECYCLE_MODES, check);
  }
}

const CSI_NODE_ID_MAX = 256;

/** ValidateCSINode (validateCSINodeDriver): driver names, node IDs, allocatable count, unique drivers, topology keys. */
function validateCsiNode(node: Obj, r: Reporter): void {
  const check = "storage/csi-node";
  const path = FieldPath.of("spec", "drivers");
  const names = new Set<string>();
  for (const [i, driver] of objItems(asObj(node.spec)?.drivers)) {
    const p = path.index(i);
    const name = asStr(driver.name) ?? "";
    validateCsiDriverName(name, p.child("name"), r, check);
    const nodeId = asStr(driver.nodeID) ?? "";
    if (nodeId.length === 0) r.required(p.child("nodeID"), "", check);
    if (nodeId.length > CSI_NODE_ID_MAX) r.invalid(p.child("nodeID"), nodeId, `must be ${CSI_NODE_ID_MAX} characters or less`, check);
    const count = asNum(asObj(driver.allocatable)?.count);
    if (count !== undefined && count < 0) r.invalid(p.child("allocatable", "count"), count, "must be greater than or equal to 0", check);
    if (names.has(name)) r.duplicate(p.child("name"), name, check);
    names.add(name);
    // Go reports topology keys against the driver's path, not the key's
    const keys = new Set<string>();
    for (const key of asArr(driver.topologyKeys) ?? []) {
      if (typeof key !== "string") continue;
      if (key.length === 0) r.required(p, "", check);
      if (keys.has(key)) r.duplicate(p, key, check);
      keys.add(key);
      r.invalidEach(p, key, isQualifiedName(key), check);
    }
  }
}

/** ValidateCSIStorageCapacity: nodeTopology as a label selector, storageClassName a subdomain, capacity not negative. */
function validateCsiStorageCapacity(capacity: Obj, r: Reporter): void {
  const check = "storage/csi-storage-capacity";
  validateLabelSelector(capacity.nodeTopology, FieldPath.of("nodeTopology"), r);
  const className = asStr(capacity.storageClassName) ?? "";
  r.invalidEach(FieldPath.of("storageClassName"), className, isDns1123Subdomain(className), check);
  const q = readQuantity(capacity.capacity);
  if (q && quantitySign(q) < 0) r.invalid(FieldPath.of("capacity"), quantityString(q), "must be greater than or equal to 0", check);
}

const EXACTLY_ONE_SOURCE = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";

/** ValidateVolumeAttachment: attacher (a CSI driver name), exactly one source, nodeName and the PV name subdomains. */
function validateVolumeAttachment(va: Obj, r: Reporter): void {
  const check = "storage/volume-attachment";
  const spec = asObj(va.spec) ?? {};
  const path = FieldPath.of("spec");
  validateCsiDriverName(asStr(spec.attacher) ?? "", path.child("attacher"), r, check);
  const source = asObj(spec.source) ?? {};
  const sp = path.child("source");
  const pvName = asStr(source.persistentVolumeName);
  const inline = asObj(source.inlineVolumeSpec);
  if (!inline && pvName === undefined) r.required(sp, EXACTLY_ONE_SOURCE, check);
  else if (inline && pvName !== undefined) r.forbidden(sp, EXACTLY_ONE_SOURCE, check);
  else if (pvName !== undefined && pvName.length === 0) r.required(sp.child("persistentVolumeName"), "must specify non empty persistentVolumeName", check);
  else if (inline) validateInlineVolumeSpec(inline, sp.child("inlineVolumeSpec"), r);
  const nodeName = asStr(spec.nodeName) ?? "";
  r.invalidEach(path.child("nodeName"), nodeName, isDns1123Subdomain(nodeName), check);
  if (pvName !== undefined) r.invalidEach(path.child("source", "persistentVolumeName"), pvName, isDns1123Subdomain(pvName), check);
}

/**
 * ValidatePersistentVolumeSpec with validateInlinePersistentVolumeSpec: no claimRef, no capacity, a csi source
 * required; then the spec rules that do not need capacity (access modes, sources).
 */
function validateInlineVolumeSpec(spec: Obj, path: FieldPath, r: Reporter): void {
  const check = "storage/volume-attachment";
  if (asObj(spec.claimRef)) r.forbidden(path.child("claimRef"), "may not be specified in the context of inline volumes", check);
  if (Object.keys(asObj(spec.capacity) ?? {}).length > 0) r.forbidden(path.child("capacity"), "may not be specified in the context of inline volumes", check);
  if (!asObj(spec.csi)) r.required(path.child("csi"), "has to be specified in the context of inline volumes", check);
  // the shared PV checks; a stand-in capacity keeps out the capacity rules that only apply outside inline volumes
  validatePersistentVolume({ spec: { ...spec, capacity: { storage: "1" } } }, r, path);
}

/** ValidateVolumeAttributesClass: driverName as a provisioner, parameters required (at least one pair). */
function validateVolumeAttributesClass(vac: Obj, r: Reporter): void {
  validateProvisioner(asStr(vac.driverName) ?? "", FieldPath.of("driverName"), r);
  validateParameters(vac.parameters, false, FieldPath.of("parameters"), r);
}

export const STORAGE: NativeGroup = {
  group: "storage.k8s.io",
  kinds: {
    StorageClass: validateStorageClass,
    CSIDriver: validateCsiDriver,
    CSINode: validateCsiNode,
    CSIStorageCapacity: validateCsiStorageCapacity,
    VolumeAttachment: validateVolumeAttachment,
    VolumeAttributesClass: validateVolumeAttributesClass,
  },
};

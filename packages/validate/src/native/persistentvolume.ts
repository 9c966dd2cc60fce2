// PersistentVolume as the API server validates it on create: access modes, a storage-only positive capacity, reclaim
// policy, node affinity, exactly one volume source and that source's fields (the PersistentVolume variants of the pod
// volume checks: secret references with namespaces, iscsi's portal length, local paths needing node affinity...).
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (ValidatePersistentVolume,
// ValidatePersistentVolumeSpec, validate*PersistentVolumeSource, validateVolumeNodeAffinity, validatePVSecretReference).
import { validatePathNoBacksteps } from "./local-path.ts";
import { inclusiveRangeError, isDns1123Label, isDns1123Subdomain } from "./names.ts";
import type { FieldPath } from "./path.ts";
import { validateNodeSelector } from "./podspec.ts";
import { validateAccessModeValues } from "./pvc.ts";
import { quantitySign, quantityString, readQuantity } from "./quantity.ts";
import type { Reporter } from "./report.ts";
import { roundUpToMilli } from "./resources.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr } from "./values.ts";
import { validateAwsElasticBlockStore, validateCsiDriverName, validateFc, validateGcePersistentDisk, validateFlex, validateFlocker, validateHostPath, validateNfs, validateQuobyte, validateStorageOs } from "./volumes.ts";

const CHECK = "core/persistent-volume";
const str = (v: unknown): string => asStr(v) ?? "";

/** The sources in the order Go looks at them, with the field name Go gives each in its "more than 1" error. */
const PV_SOURCES: readonly (readonly [string, string])[] = [
  ["hostPath", "hostPath"],
  ["gcePersistentDisk", "gcePersistentDisk"],
  ["awsElasticBlockStore", "awsElasticBlockStore"],
  ["glusterfs", "glusterfs"],
  ["flocker", "flocker"],
  ["nfs", "nfs"],
  ["rbd", "rbd"],
  ["quobyte", "quobyte"],
  ["cephfs", "cephFS"],
  ["iscsi", "iscsi"],
  ["cinder", "cinder"],
  ["fc", "fc"],
  ["flexVolume", "flexVolume"],
  ["azureFile", "azureFile"],
  ["vsphereVolume", "vsphereVolume"],
  ["photonPersistentDisk", "photonPersistentDisk"],
  ["portworxVolume", "portworxVolume"],
  ["azureDisk", "azureDisk"],
  ["scaleIO", "scaleIO"],
  ["local", "local"],
  ["storageos", "storageos"],
  ["csi", "csi"],
];

export function validatePersistentVolume(pv: Obj, r: Reporter, path: FieldPath): void {
  const spec = asObj(pv.spec) ?? {};
  validateAccessModes(spec, path, r);
  validateCapacity(spec, path, r);
  const reclaim = str(spec.persistentVolumeReclaimPolicy);
  if (reclaim && !["Delete", "Recycle", "Retain"].includes(reclaim)) {
    r.notSupported(path.child("persistentVolumeReclaimPolicy"), reclaim, ["Delete", "Recycle", "Retain"], CHECK);
  }
  const affinity = asObj(spec.nodeAffinity);
  if (affinity) {
    const required = asObj(affinity.required);
    if (required) validateNodeSelector(required, false, path.child("nodeAffinity", "required"), r);
    else r.required(path.child("nodeAffinity", "required"), "must specify required node constraints", CHECK);
  }
  validateSources(spec, str(asObj(pv.metadata)?.name), affinity !== undefined, path, r);
  const hostPath = asObj(spec.hostPath);
  if (hostPath && cleanPath(str(hostPath.path)) === "/" && reclaim === "Recycle") {
    r.forbidden(path.child("persistentVolumeReclaimPolicy"), "may not be 'recycle' for a hostPath mount of '/'", CHECK);
  }
  const className = str(spec.storageClassName);
  if (className) r.invalidEach(path.child("storageClassName"), className, isDns1123Subdomain(className), CHECK);
  const mode = asStr(spec.volumeMode);
  if (mode !== undefined && mode !== "Block" && mode !== "Filesystem") r.notSupported(path.child("volumeMode"), mode, ["Block", "Filesystem"], CHECK);
  const vac = asStr(spec.volumeAttributesClassName);
  if (vac !== undefined) {
    if (vac === "") r.required(path.child("volumeAttributesClassName"), "an empty string is disallowed", CHECK);
    else r.invalidEach(path.child("volumeAttributesClassName"), vac, isDns1123Subdomain(vac), CHECK);
    if (!asObj(spec.csi)) r.required(path.child("csi"), "has to be specified when using volumeAttributesClassName", CHECK);
  }
}

function validateAccessModes(spec: Obj, path: FieldPath, r: Reporter): void {
  const modes = asArr(spec.accessModes) ?? [];
  if (modes.length === 0) r.required(path.child("accessModes"), "", CHECK);
  validateAccessModeValues(modes, path, r, CHECK);
}

function validateCapacity(spec: Obj, path: FieldPath, r: Reporter): void {
  const capacity = asObj(spec.capacity) ?? {};
  const names = Object.keys(capacity);
  if (names.length === 0) r.required(path.child("capacity"), "", CHECK);
  // Go prints the ResourceList as JSON: keys sorted, quantities as their String()
  const printed: Record<string, unknown> = {};
  for (const name of [...names].sort()) {
    const parsed = readQuantity(capacity[name]);
    printed[name] = parsed ? quantityString(roundUpToMilli(parsed)) : capacity[name];
  }
  if (!names.includes("storage") || names.length > 1) r.notSupported(path.child("capacity"), printed, ["storage"], CHECK);
  for (const name of names) {
    const parsed = readQuantity(capacity[name]);
    if (!parsed) continue;
    const value = roundUpToMilli(parsed);
    if (quantitySign(value) <= 0) r.invalid(path.child("capacity").key(name), quantityString(value), "must be greater than zero", CHECK);
  }
}

function validateSources(spec: Obj, pvName: string, hasAffinity: boolean, path: FieldPath, r: Reporter): void {
  let count = 0;
  for (const [key, goName] of PV_SOURCES) {
    const src = asObj(spec[key]);
    if (!src) continue;
    // Go checks flexVolume without the "more than 1" guard
    if (count > 0 && key !== "flexVolume") {
      r.forbidden(path.child(goName), "may not specify more than 1 volume type", CHECK, path.child(key).pointer());
      continue;
    }
    count++;
    validateSource(key, src, pvName, hasAffinity, path, r);
  }
  if (count === 0) r.required(path, "must specify a volume type", CHECK);
}

function validateSource(key: string, src: Obj, pvName: string, hasAffinity: boolean, path: FieldPath, r: Reporter): void {
  const p = path.child(key);
  const need = (...fields: string[]) => {
    for (const f of fields) if (str(src[f]) === "") r.required(p.child(f), "", CHECK);
  };
  switch (key) {
    case "hostPath":
      validateHostPath(src, p, r, CHECK);
      break;
    case "gcePersistentDisk":
      validateGcePersistentDisk(src, path, p, r, CHECK);
      break;
    case "awsElasticBlockStore":
      validateAwsElasticBlockStore(src, p, r, CHECK);
      break;
    case "glusterfs": {
      need("endpoints", "path");
      const ns = asStr(src.endpointsNamespace);
      if (ns === "") r.invalid(p.child("endpointsNamespace"), ns, "if the endpointnamespace is set, it must be a valid namespace name", CHECK);
      else if (ns !== undefined) r.invalidEach(p.child("endpointsNamespace"), ns, isDns1123Label(ns), CHECK);
      break;
    }
    case "flocker":
      validateFlocker(src, p, r);
      break;
    case "nfs":
      validateNfs(src, p, r, CHECK);
      break;
    case "rbd":
      if ((asArr(src.monitors)?.length ?? 0) === 0) r.required(p.child("monitors"), "", CHECK);
      need("image");
      break;
    case "quobyte":
      validateQuobyte(src, p, r, CHECK);
      break;
    case "cephfs":
      // validated under Go's name `cephfs` (the same as the JSON field)
      if ((asArr(src.monitors)?.length ?? 0) === 0) r.required(p.child("monitors"), "", CHECK);
      break;
    case "iscsi":
      validateIscsiPv(src, pvName, p, r);
      break;
    case "cinder": {
      need("volumeID");
      const ref = asObj(src.secretRef);
      if (ref) {
        if (str(ref.name) === "") r.required(p.child("secretRef", "name"), "", CHECK);
        if (str(ref.namespace) === "") r.required(p.child("secretRef", "namespace"), "", CHECK);
      }
      break;
    }
    case "fc":
      validateFc(src, p, r, CHECK);
      break;
    case "flexVolume":
      validateFlex(src, p, r, CHECK);
      break;
    case "azureFile":
      need("secretName", "shareName");
      if (asStr(src.secretNamespace) === "") r.required(p.child("secretNamespace"), "", CHECK);
      break;
    case "vsphereVolume":
      need("volumePath");
      break;
    case "photonPersistentDisk":
      need("pdID");
      break;
    case "portworxVolume":
      need("volumeID");
      break;
    case "scaleIO":
      need("gateway", "system", "volumeName");
      break;
    case "local":
      if (str(src.path) === "") r.required(p.child("path"), "", CHECK);
      else validatePathNoBacksteps(str(src.path), p.child("path"), r, CHECK);
      if (!hasAffinity) r.required(path.child("nodeAffinity"), "Local volume requires node affinity", CHECK);
      break;
    case "storageos":
      validateStorageOs(src, p, r, CHECK, true);
      break;
    case "csi":
      validateCsiPv(src, p, r);
      break;
    default:
      break;
  }
}

const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;
const formatOk = (v: string): boolean => (v.startsWith("iqn") ? IQN.test(v) : v.startsWith("eui") ? EUI.test(v) : v.startsWith("naa") ? NAA.test(v) : true);
const prefixOk = (v: string): boolean => v.startsWith("iqn") || v.startsWith("eui") || v.startsWith("naa");

/** validateISCSIPersistentVolumeSource: as the pod's, with the PV's name in the portal length rule and "must be valid format" only. */
function validateIscsiPv(src: Obj, pvName: string, p: FieldPath, r: Reporter): void {
  const portal = str(src.targetPortal);
  if (portal === "") r.required(p.child("targetPortal"), "", CHECK);
  if (src.initiatorName !== undefined && src.initiatorName !== null && `${pvName}:${portal}`.length > 64) {
    r.invalid(p.child("targetportal"), portal, "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.", CHECK, p.child("targetPortal").pointer());
  }
  const iqn = str(src.iqn);
  if (iqn === "") r.required(p.child("iqn"), "", CHECK);
  else if (!prefixOk(iqn) || !formatOk(iqn)) r.invalid(p.child("iqn"), iqn, "must be valid format", CHECK);
  const lun = asNum(src.lun) ?? 0;
  if (lun < 0 || lun > 255) r.invalid(p.child("lun"), lun, inclusiveRangeError(0, 255), CHECK);
  const ref = asObj(src.secretRef);
  if ((asBool(src.chapAuthDiscovery) === true || asBool(src.chapAuthSession) === true) && !ref) r.required(p.child("secretRef"), "", CHECK);
  if (ref && str(ref.name) === "") r.required(p.child("secretRef", "name"), "", CHECK);
  const initiator = asStr(src.initiatorName);
  if (initiator !== undefined) {
    const ip = p.child("initiatorname");
    const pointer = p.child("initiatorName").pointer();
    if (!prefixOk(initiator)) r.invalid(ip, initiator, "must be valid format", CHECK, pointer);
    if (!formatOk(initiator)) r.invalid(ip, initiator, "must be valid format", CHECK, pointer);
  }
}


/** validateCSIPersistentVolumeSource: driver name, volume handle, and each secret reference (name and namespace). */
function validateCsiPv(src: Obj, p: FieldPath, r: Reporter): void {
  validateCsiDriverName(str(src.driver), p.child("driver"), r, CHECK);
  if (str(src.volumeHandle) === "") r.required(p.child("volumeHandle"), "", CHECK);
  for (const key of ["controllerPublishSecretRef", "controllerExpandSecretRef", "nodePublishSecretRef", "nodeExpandSecretRef"]) {
    const ref = asObj(src[key]);
    if (!ref) continue;
    const rp = p.child(key);
    const name = str(ref.name);
    if (name === "") r.required(rp.child("name"), "", CHECK);
    else r.invalidEach(rp.child("name"), name, isDns1123Subdomain(name), CHECK);
    const ns = str(ref.namespace);
    if (ns === "") r.required(rp.child("namespace"), "", CHECK);
    else r.invalidEach(rp.child("namespace"), ns, isDns1123Label(ns), CHECK);
  }
}

/** path.Clean, enough to tell whether a path is the root. */
function cleanPath(p: string): string {
  if (p === "") return ".";
  const rooted = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
    } else out.push(part);
  }
  const joined = out.join("/");
  return rooted ? `/${joined}` : joined || ".";
}

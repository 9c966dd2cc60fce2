// A pod's volumes as the API server validates them on create: names, exactly one source each, and the fields of each
// source (downwardAPI items, projected sources and their paths, nfs, iscsi, csi driver names, ephemeral claim
// templates...), after the v1 defaults (a volume without source is an emptyDir; file modes, hostPath type and image
// pull policy are defaulted to valid values).
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (ValidateVolumes, validateVolumeSource and the
// validate*VolumeSource functions, validateProjectionSources, validateDownwardAPIVolumeFile, ValidateCSIDriverName,
// validateEphemeralVolumeSource, ValidateTemplateObjectMeta).
import { VOLUME_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from "./field-selectors.ts";
import { validateLocalDescendingPath, validateLocalNonReservedPath, validatePathNoBacksteps } from "./local-path.ts";
import { inclusiveRangeError, isDns1123Label, isDns1123Subdomain } from "./names.ts";
import { validateAnnotations, validateLabels } from "./objectmeta.ts";
import type { FieldPath } from "./path.ts";
import { quantitySign, readQuantity } from "./quantity.ts";
import type { Reporter } from "./report.ts";
import { validatePvcSpec } from "./pvc.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr, objItems } from "./values.ts";

const CHECK = "core/volume";
export const FILE_MODE_ERROR = "must be a number between 0 and 0777 (octal), both inclusive";
const PULL_POLICIES = ["Always", "IfNotPresent", "Never"];

/**
 * The volume source fields in the order Go's validateVolumeSource looks at them, with the name Go gives the field in its
 * "more than 1 volume type" error (its typos kept: `downwarAPI`, `cephFS`).
 */
const VOLUME_SOURCES: readonly (readonly [string, string])[] = [
  ["emptyDir", "emptyDir"],
  ["hostPath", "hostPath"],
  ["gitRepo", "gitRepo"],
  ["gcePersistentDisk", "gcePersistentDisk"],
  ["awsElasticBlockStore", "awsElasticBlockStore"],
  ["secret", "secret"],
  ["nfs", "nfs"],
  ["iscsi", "iscsi"],
  ["glusterfs", "glusterfs"],
  ["flocker", "flocker"],
  ["persistentVolumeClaim", "persistentVolumeClaim"],
  ["rbd", "rbd"],
  ["cinder", "cinder"],
  ["cephfs", "cephFS"],
  ["quobyte", "quobyte"],
  ["downwardAPI", "downwarAPI"],
  ["fc", "fc"],
  ["flexVolume", "flexVolume"],
  ["configMap", "configMap"],
  ["azureFile", "azureFile"],
  ["vsphereVolume", "vsphereVolume"],
  ["photonPersistentDisk", "photonPersistentDisk"],
  ["portworxVolume", "portworxVolume"],
  ["azureDisk", "azureDisk"],
  ["storageos", "storageos"],
  ["projected", "projected"],
  ["scaleIO", "scaleIO"],
  ["csi", "csi"],
  ["ephemeral", "ephemeral"],
  ["image", "image"],
];

const str = (v: unknown): string => asStr(v) ?? "";

export interface VolumesOptions {
  /** The pod's own name (Pods only): ephemeral volumes get a claim named `<pod>-<volume>`. */
  readonly podName?: string;
  /** The spec is a Pod's own (an image volume needs a reference). @default false */
  readonly resourceIsPod?: boolean;
}

/** ValidateVolumes: the names of the volumes that validated (a mount naming a bad volume is "Not found" too). */
export function validateVolumes(list: unknown, path: FieldPath, r: Reporter, options: VolumesOptions = {}): Set<string> {
  const names = new Set<string>();
  const items = objItems(list);
  const podName = options.podName ?? "";
  const createdClaims = new Set(podName ? items.filter(([, v]) => asObj(v.ephemeral)).map(([, v]) => `${podName}-${str(v.name)}`) : []);
  for (const [i, vol] of items) {
    const p = path.index(i);
    const before = r.findings.length;
    const name = str(vol.name);
    validateVolumeSource(vol, name, p, r, options);
    if (name === "") r.required(p.child("name"), "", CHECK);
    else r.invalidEach(p.child("name"), name, isDns1123Label(name), CHECK);
    if (names.has(name)) r.duplicate(p.child("name"), name, CHECK);
    if (r.findings.length === before) names.add(name);
    const claim = asObj(vol.persistentVolumeClaim);
    if (claim && createdClaims.has(str(claim.claimName))) {
      r.invalid(p.child("persistentVolumeClaim", "claimName"), str(claim.claimName), "must not reference a PVC that gets created for an ephemeral volume", CHECK);
    }
  }
  return names;
}

function validateVolumeSource(vol: Obj, volName: string, path: FieldPath, r: Reporter, options: VolumesOptions): void {
  let count = 0;
  for (const [key, goName] of VOLUME_SOURCES) {
    const src = asObj(vol[key]);
    if (!src) continue;
    if (count > 0) {
      r.forbidden(path.child(goName), "may not specify more than 1 volume type", CHECK, path.child(key).pointer());
      continue;
    }
    count++;
    validateOneSource(key, src, volName, path, r, options);
  }
  // a volume without any source is defaulted to an emptyDir (SetDefaults_Volume), so "must specify a volume type" never fires here
}

function validateOneSource(key: string, src: Obj, volName: string, path: FieldPath, r: Reporter, options: VolumesOptions): void {
  const p = path.child(key);
  switch (key) {
    case "emptyDir": {
      const limit = readQuantity(src.sizeLimit);
      if (limit && quantitySign(limit) < 0) r.forbidden(p.child("sizeLimit"), "SizeLimit field must be a valid resource quantity", CHECK);
      break;
    }
    case "hostPath":
      validateHostPath(src, p, r, CHECK);
      break;
    case "gitRepo":
      if (str(src.repository) === "") r.required(p.child("repository"), "", CHECK);
      validateLocalDescendingPath(str(src.directory), p.child("directory"), r, CHECK);
      break;
    case "gcePersistentDisk":
      validateGcePersistentDisk(src, path, p, r, CHECK);
      break;
    case "awsElasticBlockStore":
      validateAwsElasticBlockStore(src, p, r, CHECK);
      break;
    case "secret":
      if (str(src.secretName) === "") r.required(p.child("secretName"), "", CHECK);
      validateModeAndItems(src, p, r);
      break;
    case "configMap":
      if (str(src.name) === "") r.required(p.child("name"), "", CHECK);
      validateModeAndItems(src, p, r);
      break;
    case "nfs":
      validateNfs(src, p, r, CHECK);
      break;
    case "iscsi":
      validateIscsi(src, p, r);
      if (src.initiatorName !== undefined && src.initiatorName !== null && `${volName}:${str(src.targetPortal)}`.length > 64) {
        r.invalid(path.child("name"), volName, "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.", CHECK);
      }
      break;
    case "glusterfs":
      if (str(src.endpoints) === "") r.required(p.child("endpoints"), "", CHECK);
      if (str(src.path) === "") r.required(p.child("path"), "", CHECK);
      break;
    case "persistentVolumeClaim":
      if (str(src.claimName) === "") r.required(p.child("claimName"), "", CHECK);
      break;
    case "rbd":
      if ((asArr(src.monitors)?.length ?? 0) === 0) r.required(p.child("monitors"), "", CHECK);
      if (str(src.image) === "") r.required(p.child("image"), "", CHECK);
      break;
    case "quobyte":
      validateQuobyte(src, p, r, CHECK);
      break;
    case "flocker":
      validateFlocker(src, p, r);
      break;
    case "cinder":
      if (str(src.volumeID) === "") r.required(p.child("volumeID"), "", CHECK);
      if (asObj(src.secretRef) && str(asObj(src.secretRef)?.name) === "") r.required(p.child("secretRef", "name"), "", CHECK);
      break;
    case "cephfs":
      if ((asArr(src.monitors)?.length ?? 0) === 0) r.required(p.child("monitors"), "", CHECK);
      break;
    case "downwardAPI":
      validateDownwardApiVolume(src, p, r);
      break;
    case "fc":
      validateFc(src, p, r);
      break;
    case "flexVolume":
      validateFlex(src, p, r, CHECK);
      break;
    case "azureFile":
      if (str(src.secretName) === "") r.required(p.child("secretName"), "", CHECK);
      if (str(src.shareName) === "") r.required(p.child("shareName"), "", CHECK);
      break;
    case "vsphereVolume":
      if (str(src.volumePath) === "") r.required(p.child("volumePath"), "", CHECK);
      break;
    case "photonPersistentDisk":
      if (str(src.pdID) === "") r.required(p.child("pdID"), "", CHECK);
      break;
    case "portworxVolume":
      if (str(src.volumeID) === "") r.required(p.child("volumeID"), "", CHECK);
      break;
    case "scaleIO":
      for (const f of ["gateway", "system", "volumeName"]) if (str(src[f]) === "") r.required(p.child(f), "", CHECK);
      break;
    case "storageos":
      validateStorageOs(src, p, r, CHECK);
      break;
    case "projected":
      validateProjected(src, p, r);
      break;
    case "csi":
      validateCsiVolume(src, p, r);
      break;
    case "ephemeral":
      validateEphemeral(src, volName, path, r, options);
      break;
    case "image": {
      if (options.resourceIsPod && str(src.reference) === "") r.required(p.child("reference"), "", CHECK);
      const pull = asStr(src.pullPolicy);
      // unset is defaulted from the reference's tag
      if (pull !== undefined && pull !== "" && !PULL_POLICIES.includes(pull)) r.notSupported(p.child("pullPolicy"), pull, PULL_POLICIES, CHECK);
      break;
    }
    default:
      break;
  }
}

/** validateHostPathVolumeSource (the type is an enum the schema stage checks; unset is defaulted to ""). */
export function validateHostPath(src: Obj, p: FieldPath, r: Reporter, check: string): void {
  const target = str(src.path);
  if (target === "") {
    r.required(p.child("path"), "", check);
    return;
  }
  validatePathNoBacksteps(target, p.child("path"), r, check);
  const type = asStr(src.type);
  const types = ["", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"];
  if (type !== undefined && !types.includes(type)) r.notSupported(p.child("type"), type, types, check);
}

function validatePartition(src: Obj, p: FieldPath, r: Reporter, check: string, pointer?: string): void {
  const partition = asNum(src.partition) ?? 0;
  if (partition < 0 || partition > 255) r.invalid(p.child("partition"), partition, inclusiveRangeError(1, 255), check, pointer);
}

/**
 * validateGCEPersistentDiskVolumeSource, for pod volumes and PersistentVolumes alike: Go names the source
 * `persistentDisk` (under `parent`), the findings point at the real key (`p`).
 */
export function validateGcePersistentDisk(src: Obj, parent: FieldPath, p: FieldPath, r: Reporter, check: string): void {
  const gp = parent.child("persistentDisk");
  if (str(src.pdName) === "") r.required(gp.child("pdName"), "", check, p.child("pdName").pointer());
  validatePartition(src, gp, r, check, p.child("partition").pointer());
}

/** validateAWSElasticBlockStoreVolumeSource, for pod volumes and PersistentVolumes alike. */
export function validateAwsElasticBlockStore(src: Obj, p: FieldPath, r: Reporter, check: string): void {
  if (str(src.volumeID) === "") r.required(p.child("volumeID"), "", check);
  validatePartition(src, p, r, check);
}

/** net.SplitHostPort's verdict: `host:port` or `[host]:port`, one colon outside brackets. */
const isHostPort = (v: string): boolean => /^\[[^\]]*\]:[^:[\]]*$/.test(v) || /^[^:[\]]*:[^:[\]]*$/.test(v);

/** validateQuobyteVolumeSource (also the PersistentVolume's). */
export function validateQuobyte(src: Obj, p: FieldPath, r: Reporter, check: string): void {
  const registry = str(src.registry);
  if (registry === "") r.required(p.child("registry"), "must be a host:port pair or multiple pairs separated by commas", check);
  else if (str(src.tenant).length >= 65) r.required(p.child("tenant"), "must be a UUID and may not exceed a length of 64 characters", check);
  else {
    for (const pair of registry.split(",")) {
      if (!isHostPort(pair)) r.invalid(p.child("registry"), registry, "must be a host:port pair or multiple pairs separated by commas", check);
    }
  }
  if (str(src.volume) === "") r.required(p.child("volume"), "", check);
}

/** validateFlockerVolumeSource (also the PersistentVolume's). */
export function validateFlocker(src: Obj, p: FieldPath, r: Reporter): void {
  const name = str(src.datasetName);
  const uuid = str(src.datasetUUID);
  if (name === "" && uuid === "") r.required(p, "one of datasetName and datasetUUID is required", CHECK);
  if (name !== "" && uuid !== "") r.invalid(p, "resource", "datasetName and datasetUUID can not be specified simultaneously", CHECK);
  if (name.includes("/")) r.invalid(p.child("datasetName"), name, "must not contain '/'", CHECK);
}

/** validateNFSVolumeSource (also the PersistentVolume's nfs). */
export function validateNfs(src: Obj, p: FieldPath, r: Reporter, check: string): void {
  if (str(src.server) === "") r.required(p.child("server"), "", check);
  if (str(src.path) === "") r.required(p.child("path"), "", check);
  // path.IsAbs
  if (!str(src.path).startsWith("/")) r.invalid(p.child("path"), str(src.path), "must be an absolute path", check);
}

// Go's regexp.MatchString is unanchored unless the pattern says so; [[:alnum:]] is ASCII.
const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;
const iscsiFormatOk = (v: string): boolean => (v.startsWith("iqn") ? IQN.test(v) : v.startsWith("eui") ? EUI.test(v) : v.startsWith("naa") ? NAA.test(v) : true);
const iscsiPrefixOk = (v: string): boolean => v.startsWith("iqn") || v.startsWith("eui") || v.startsWith("naa");

/** validateISCSIVolumeSource. */
function validateIscsi(src: Obj, p: FieldPath, r: Reporter): void {
  if (str(src.targetPortal) === "") r.required(p.child("targetPortal"), "", CHECK);
  const iqn = str(src.iqn);
  if (iqn === "") r.required(p.child("iqn"), "", CHECK);
  else if (!iscsiPrefixOk(iqn)) r.invalid(p.child("iqn"), iqn, "must be valid format starting with iqn, eui, or naa", CHECK);
  else if (!iscsiFormatOk(iqn)) r.invalid(p.child("iqn"), iqn, "must be valid format", CHECK);
  const lun = asNum(src.lun) ?? 0;
  if (lun < 0 || lun > 255) r.invalid(p.child("lun"), lun, inclusiveRangeError(0, 255), CHECK);
  if ((asBool(src.chapAuthDiscovery) === true || asBool(src.chapAuthSession) === true) && !asObj(src.secretRef)) r.required(p.child("secretRef"), "", CHECK);
  const initiator = asStr(src.initiatorName);
  if (initiator !== undefined) {
    // Go's field name is lower case here; the finding points at the real key
    const ip = p.child("initiatorname");
    const pointer = p.child("initiatorName").pointer();
    if (!iscsiPrefixOk(initiator)) r.invalid(ip, initiator, "must be valid format starting with iqn, eui, or naa", CHECK, pointer);
    if (!iscsiFormatOk(initiator)) r.invalid(ip, initiator, "must be valid format", CHECK, pointer);
  }
}

/** validateFCVolumeSource, which Go runs for pod volumes and PersistentVolumes alike (`check` names the caller). */
export function validateFc(src: Obj, p: FieldPath, r: Reporter, check = CHECK): void {
  const wwns = asArr(src.targetWWNs) ?? [];
  const wwids = asArr(src.wwids) ?? [];
  if (wwns.length < 1 && wwids.length < 1) r.required(p.child("targetWWNs"), "must specify either targetWWNs or wwids, but not both", check);
  if (wwns.length !== 0 && wwids.length !== 0) r.invalid(p.child("targetWWNs"), wwns, "targetWWNs and wwids can not be specified simultaneously", check);
  if (wwns.length !== 0) {
    const lun = asNum(src.lun);
    if (lun === undefined) r.required(p.child("lun"), "lun is required if targetWWNs is specified", check);
    else if (lun < 0 || lun > 255) r.invalid(p.child("lun"), lun, inclusiveRangeError(0, 255), check);
  }
}

/** validateFlexVolumeSource (also the PersistentVolume's): options may not use the kubernetes.io or k8s.io namespaces. */
export function validateFlex(src: Obj, p: FieldPath, r: Reporter, check: string): void {
  if (str(src.driver) === "") r.required(p.child("driver"), "", check);
  for (const k of Object.keys(asObj(src.options) ?? {})) {
    const slash = k.indexOf("/");
    const ns = `.${(slash >= 0 ? k.slice(0, slash) : k).toLowerCase()}`;
    if (ns.endsWith(".kubernetes.io") || ns.endsWith(".k8s.io")) r.invalid(p.child("options").key(k), k, "kubernetes.io and k8s.io namespaces are reserved", check);
  }
}

/** validateStorageOSVolumeSource (the PersistentVolume's also wants the secret's namespace). */
export function validateStorageOs(src: Obj, p: FieldPath, r: Reporter, check: string, pv = false): void {
  const name = str(src.volumeName);
  if (name === "") r.required(p.child("volumeName"), "", check);
  else r.invalidEach(p.child("volumeName"), name, isDns1123Label(name), check);
  const ns = str(src.volumeNamespace);
  if (ns) r.invalidEach(p.child("volumeNamespace"), ns, isDns1123Label(ns), check);
  const ref = asObj(src.secretRef);
  if (ref) {
    if (str(ref.name) === "") r.required(p.child("secretRef", "name"), "", check);
    if (pv && str(ref.namespace) === "") r.required(p.child("secretRef", "namespace"), "", check);
  }
}

/** ValidateCSIDriverName: at most 63 characters, a DNS-1123 subdomain once lower-cased. */
export function validateCsiDriverName(driver: string, p: FieldPath, r: Reporter, check: string): void {
  if (driver === "") {
    r.required(p, "", check);
    return;
  }
  if (driver.length > 63) r.tooLong(p, 63, check);
  r.invalidEach(p, driver, isDns1123Subdomain(driver.toLowerCase()), check);
}

/** validateCSIVolumeSource: the driver name, and the node-publish secret's name (reported, as Go does, at `csi.name`). */
function validateCsiVolume(src: Obj, p: FieldPath, r: Reporter): void {
  validateCsiDriverName(str(src.driver), p.child("driver"), r, CHECK);
  const ref = asObj(src.nodePublishSecretRef);
  if (!ref) return;
  const name = str(ref.name);
  if (name === "") r.required(p.child("nodePublishSecretRef", "name"), "", CHECK);
  else r.invalidEach(p.child("name"), name, isDns1123Subdomain(name), CHECK, p.child("nodePublishSecretRef", "name").pointer());
}

/** validateSecretVolumeSource / validateConfigMapVolumeSource: defaultMode, then each item (validateKeyToPath). */
function validateModeAndItems(src: Obj, path: FieldPath, r: Reporter): void {
  validateMode(src.defaultMode, path.child("defaultMode"), r);
  for (const [i, item] of objItems(src.items)) validateKeyToPath(item, path.child("items").index(i), r);
}

function validateMode(raw: unknown, path: FieldPath, r: Reporter): void {
  const mode = asNum(raw);
  if (mode !== undefined && (mode > 0o777 || mode < 0)) r.invalid(path, mode, FILE_MODE_ERROR, CHECK);
}

function validateKeyToPath(item: Obj, p: FieldPath, r: Reporter): void {
  if (str(item.key) === "") r.required(p.child("key"), "", CHECK);
  const target = str(item.path);
  if (target === "") r.required(p.child("path"), "", CHECK);
  validateLocalNonReservedPath(target, p.child("path"), r, CHECK);
  validateMode(item.mode, p.child("mode"), r);
}

/** validateDownwardAPIVolumeSource: its items are checked at the source's own path (Go does not index them). */
function validateDownwardApiVolume(src: Obj, p: FieldPath, r: Reporter): void {
  validateMode(src.defaultMode, p.child("defaultMode"), r);
  for (const [i, file] of objItems(src.items)) validateDownwardApiFile(file, p, r, p.child("items").index(i).pointer());
}

/**
 * validateDownwardAPIVolumeFile: a local path, exactly one of fieldRef (the volume's field paths) and resourceFieldRef
 * (with its container), the mode. `pointer` is where the item is: Go's path does not name it.
 */
function validateDownwardApiFile(file: Obj, p: FieldPath, r: Reporter, pointer: string): void {
  const target = str(file.path);
  if (target === "") r.required(p.child("path"), "", CHECK, `${pointer}/path`);
  validateLocalNonReservedPath(target, p.child("path"), r, CHECK, `${pointer}/path`);
  const fieldRef = asObj(file.fieldRef);
  const resourceFieldRef = asObj(file.resourceFieldRef);
  if (fieldRef) {
    const before = r.findings.length;
    validateObjectFieldSelector(fieldRef, VOLUME_FIELD_PATHS, p.child("fieldRef"), r, CHECK);
    repoint(r, before, p.child("fieldRef").pointer(), `${pointer}/fieldRef`);
    if (resourceFieldRef) r.invalid(p, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously", CHECK, pointer);
  } else if (resourceFieldRef) {
    const before = r.findings.length;
    validateResourceFieldSelector(resourceFieldRef, p.child("resourceFieldRef"), r, CHECK, true);
    repoint(r, before, p.child("resourceFieldRef").pointer(), `${pointer}/resourceFieldRef`);
  } else {
    r.required(p, "one of fieldRef and resourceFieldRef is required", CHECK, pointer);
  }
  const mode = asNum(file.mode);
  if (mode !== undefined && (mode > 0o777 || mode < 0)) r.invalid(p.child("mode"), mode, FILE_MODE_ERROR, CHECK, `${pointer}/mode`);
}

/** Moves the pointers of the findings made since `from` from one prefix to another (Go's path skips the item index). */
function repoint(r: Reporter, from: number, prefix: string, to: string): void {
  for (let i = from; i < r.findings.length; i++) {
    const f = r.findings[i];
    if (f?.path.startsWith(prefix)) r.findings[i] = { ...f, path: to + f.path.slice(prefix.length) };
  }
}

/**
 * validateProjectedVolumeSource / validateProjectionSources: defaultMode; per source exactly one projection; item paths
 * unique over all sources; serviceAccountToken expiry between 10 minutes and 2^32 seconds and a local path.
 * clusterTrustBundle and podCertificate sources belong to features off by default in 1.36 (dropped on create).
 */
function validateProjected(src: Obj, p: FieldPath, r: Reporter): void {
  validateMode(src.defaultMode, p.child("defaultMode"), r);
  const allPaths = new Set<string>();
  const claim = (target: string, value: unknown, pointer: string) => {
    if (target.length === 0) return;
    if (allPaths.has(target)) r.invalid(p, value, "conflicting duplicate paths", CHECK, pointer);
    else allPaths.add(target);
  };
  for (const [i, source] of objItems(src.sources)) {
    const sp = p.child("sources").index(i);
    let sources = 0;
    for (const kind of ["secret", "configMap"] as const) {
      const s = asObj(source[kind]);
      if (!s) continue;
      sources++;
      const pp = sp.child(kind);
      if (str(s.name) === "") r.required(pp.child("name"), "", CHECK);
      for (const [j, item] of objItems(s.items)) {
        const ip = pp.child("items").index(j);
        validateKeyToPath(item, ip, r);
        // Go prints the secret's or config map's name as the value here
        claim(str(item.path), str(s.name), ip.child("path").pointer());
      }
    }
    const downward = asObj(source.downwardAPI);
    if (downward) {
      sources++;
      const pp = sp.child("downwardAPI");
      for (const [j, file] of objItems(downward.items)) {
        const pointer = pp.child("items").index(j).pointer();
        validateDownwardApiFile(file, pp, r, pointer);
        claim(str(file.path), str(file.path), `${pointer}/path`);
      }
    }
    const token = asObj(source.serviceAccountToken);
    if (token) {
      sources++;
      validateServiceAccountToken(token, p, sp.child("serviceAccountToken"), r);
    }
    if (sources > 1) r.forbidden(sp, "may not specify more than 1 volume type per source", CHECK);
  }
}

function validateServiceAccountToken(token: Obj, projected: FieldPath, tp: FieldPath, r: Reporter): void {
  // SetDefaults_ServiceAccountTokenProjection: 1 hour when unset
  const seconds = asNum(token.expirationSeconds) ?? 3600;
  if (seconds < 600) r.invalid(tp.child("expirationSeconds"), seconds, "may not specify a duration less than 10 minutes", CHECK);
  if (seconds > 2 ** 32) r.invalid(tp.child("expirationSeconds"), seconds, "may not specify a duration larger than 2^32 seconds", CHECK);
  // Go names the projected volume's `path` here, not the token's
  const target = str(token.path);
  const pointer = tp.child("path").pointer();
  if (target === "") r.required(projected.child("path"), "", CHECK, pointer);
  else validateLocalNonReservedPath(target, projected.child("path"), r, CHECK, pointer);
}

/** validateEphemeralVolumeSource: a claim template (metadata as ValidateTemplateObjectMeta, spec as a PVC's); the claim's name. */
function validateEphemeral(src: Obj, volName: string, volPath: FieldPath, r: Reporter, options: VolumesOptions): void {
  const p = volPath.child("ephemeral");
  const template = asObj(src.volumeClaimTemplate);
  if (!template) r.required(p.child("volumeClaimTemplate"), "", CHECK);
  else {
    const tp = p.child("volumeClaimTemplate");
    validateTemplateObjectMeta(asObj(template.metadata) ?? {}, tp.child("metadata"), r);
    validatePvcSpec(asObj(template.spec) ?? {}, tp.child("spec"), r);
  }
  const podName = options.podName ?? "";
  if (podName && volName) {
    const claimName = `${podName}-${volName}`;
    for (const msg of isDns1123Subdomain(claimName)) r.invalid(volPath.child("name"), volName, `PVC name "${claimName}": ${msg}`, CHECK);
  }
}

/** ObjectMeta fields a template may set; any other field set is "cannot be set" (Go's validateFieldAllowList over ObjectMeta). */
const TEMPLATE_META_FORBIDDEN: readonly (readonly [string, string])[] = [
  ["name", "name"],
  ["generateName", "generateName"],
  ["namespace", "namespace"],
  ["selfLink", "selfLink"],
  ["uid", "uID"],
  ["resourceVersion", "resourceVersion"],
  ["generation", "generation"],
  ["deletionGracePeriodSeconds", "deletionGracePeriodSeconds"],
  ["ownerReferences", "ownerReferences"],
  ["finalizers", "finalizers"],
];

/** ValidateTemplateObjectMeta: annotations, labels, and nothing else set. */
export function validateTemplateObjectMeta(meta: Obj, path: FieldPath, r: Reporter): void {
  validateAnnotations(meta.annotations, path.child("annotations"), r, "meta/annotations");
  validateLabels(meta.labels, path.child("labels"), r, "meta/labels");
  for (const [key, goName] of TEMPLATE_META_FORBIDDEN) {
    const v = meta[key];
    const set = typeof v === "string" ? v !== "" : typeof v === "number" ? v !== 0 : Array.isArray(v) ? v.length > 0 : false;
    if (set) r.forbidden(path.child(goName), "cannot be set", CHECK, path.child(key).pointer());
  }
}

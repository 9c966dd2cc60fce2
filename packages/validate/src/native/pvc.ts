// PersistentVolumeClaimSpec as the API server validates it on create (PVCs, StatefulSet volumeClaimTemplates, ephemeral
// volumes): access modes, a positive storage request, class names, volume mode.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (ValidatePersistentVolumeClaimSpec,
// and pkg/apis/core/v1/defaults.go (volumeMode Filesystem, resource values rounded to milli units).
import { validateLabelSelector } from "./labelselector.ts";
import { isDns1123Subdomain } from "./names.ts";
import type { FieldPath } from "./path.ts";
import { quantitySign, quantityString, readQuantity } from "./quantity.ts";
import type { Reporter } from "./report.ts";
import { roundUpToMilli } from "./resources.ts";
import { asArr, asObj, asStr, type Obj } from "./values.ts";

const ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const CHECK = "core/persistent-volume-claim";

export function validatePvcSpec(spec: Obj, path: FieldPath, r: Reporter): void {
  const modes = asArr(spec.accessModes) ?? [];
  if (modes.length === 0) r.required(path.child("accessModes"), "at least 1 access mode is required", CHECK);
  if (spec.selector !== undefined && spec.selector !== null) validateLabelSelector(spec.selector, path.child("selector"), r);
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (typeof mode !== "string") continue;
    if (!ACCESS_MODES.includes(mode)) r.notSupported(path.child("accessModes"), mode, ACCESS_MODES, CHECK);
    if (mode === "ReadWriteOncePod") rwop = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (rwop && other) r.forbidden(path.child("accessModes"), "may not use ReadWriteOncePod with other access modes", CHECK);
  // Go names `resources[storage]`; the value sits under resources.requests
  const storagePath = path.child("resources").key("storage");
  const pointer = path.child("resources", "requests", "storage").pointer();
  const raw = asObj(asObj(spec.resources)?.requests)?.storage;
  const parsed = readQuantity(raw);
  if (raw === undefined || raw === null) r.required(storagePath, "", CHECK, pointer);
  else if (parsed) {
    const storage = roundUpToMilli(parsed);
    if (quantitySign(storage) <= 0) r.invalid(storagePath, quantityString(storage), "must be greater than zero", CHECK, pointer);
  }
  const className = asStr(spec.storageClassName);
  if (className) r.invalidEach(path.child("storageClassName"), className, isDns1123Subdomain(className), CHECK);
  const mode = asStr(spec.volumeMode);
  if (mode !== undefined && mode !== "Block" && mode !== "Filesystem") r.notSupported(path.child("volumeMode"), mode, ["Block", "Filesystem"], CHECK);
  // dataSource/dataSourceRef are normalised (and unsupported ones dropped) by the PVC strategy before validation:
  // not checked here (the server accepted a core-group VolumeSnapshot dataSource on create)
  const vac = asStr(spec.volumeAttributesClassName);
  if (vac) r.invalidEach(path.child("volumeAttributesClassName"), vac, isDns1123Subdomain(vac), CHECK);
}

/** PersistentVolume sources in the order Go's ValidatePersistentVolumeSpec looks at them. */
const PV_SOURCES = [
  "hostPath",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "glusterfs",
  "flocker",
  "nfs",
  "rbd",
  "quobyte",
  "cephfs",
  "iscsi",
  "cinder",
  "fc",
  "flexVolume",
  "azureFile",
  "vsphereVolume",
  "photonPersistentDisk",
  "portworxVolume",
  "azureDisk",
  "scaleIO",
  "local",
  "storageos",
  "csi",
] as const;
const PV_CHECK = "core/persistent-volume";

/**
 * PersistentVolume (ValidatePersistentVolumeSpec, not inline): access modes, a storage-only positive capacity,
 * reclaim policy (defaulted to Retain), one volume source (hostPath, nfs, local and csi checked in detail),
 * class name and volume mode.
 */
export function validatePersistentVolume(pv: Obj, r: Reporter, path: FieldPath): void {
  const spec = asObj(pv.spec) ?? {};
  const modes = asArr(spec.accessModes) ?? [];
  if (modes.length === 0) r.required(path.child("accessModes"), "", PV_CHECK);
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (typeof mode !== "string") continue;
    if (!ACCESS_MODES.includes(mode)) r.notSupported(path.child("accessModes"), mode, ACCESS_MODES, PV_CHECK);
    if (mode === "ReadWriteOncePod") rwop = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (rwop && other) r.forbidden(path.child("accessModes"), "may not use ReadWriteOncePod with other access modes", PV_CHECK);
  const capacity = asObj(spec.capacity) ?? {};
  const names = Object.keys(capacity);
  if (names.length === 0) r.required(path.child("capacity"), "", PV_CHECK);
  // Go prints the ResourceList as JSON: keys sorted, quantities as their String()
  const printed: Record<string, unknown> = {};
  for (const name of [...names].sort()) {
    const parsed = readQuantity(capacity[name]);
    printed[name] = parsed ? quantityString(roundUpToMilli(parsed)) : capacity[name];
  }
  if (!names.includes("storage") || names.length > 1) r.notSupported(path.child("capacity"), printed, ["storage"], PV_CHECK);
  for (const name of names) {
    const parsed = readQuantity(capacity[name]);
    if (!parsed) continue;
    const value = roundUpToMilli(parsed);
    if (quantitySign(value) <= 0) r.invalid(path.child("capacity").key(name), quantityString(value), "must be greater than zero", PV_CHECK);
  }
  const reclaim = asStr(spec.persistentVolumeReclaimPolicy);
  if (reclaim && !["Delete", "Recycle", "Retain"].includes(reclaim)) {
    r.notSupported(path.child("persistentVolumeReclaimPolicy"), reclaim, ["Delete", "Recycle", "Retain"], PV_CHECK);
  }
  let count = 0;
  for (const key of PV_SOURCES) {
    const src = asObj(spec[key]);
    if (!src) continue;
    const p = path.child(key);
    if (count > 0) {
      r.forbidden(p, "may not specify more than 1 volume type", PV_CHECK);
      continue;
    }
    count++;
    const text = (k: string) => asStr(src[k]) ?? "";
    switch (key) {
      case "hostPath":
        if (text("path") === "") r.required(p.child("path"), "", PV_CHECK);
        else if (text("path").split("/").includes("..")) r.invalid(p.child("path"), text("path"), "must not contain '..'", PV_CHECK);
        break;
      case "local":
        if (text("path") === "") r.required(p.child("path"), "", PV_CHECK);
        else if (text("path").split("/").includes("..")) r.invalid(p.child("path"), text("path"), "must not contain '..'", PV_CHECK);
        break;
      case "nfs":
        if (text("server") === "") r.required(p.child("server"), "", PV_CHECK);
        if (text("path") === "") r.required(p.child("path"), "", PV_CHECK);
        if (!text("path").startsWith("/")) r.invalid(p.child("path"), text("path"), "must be an absolute path", PV_CHECK);
        break;
      case "csi": {
        const driver = text("driver");
        if (driver === "") r.required(p.child("driver"), "", PV_CHECK);
        else {
          if (driver.length > 63) r.tooLong(p.child("driver"), 63, PV_CHECK);
          r.invalidEach(p.child("driver"), driver, isDns1123Subdomain(driver.toLowerCase()), PV_CHECK);
        }
        if (text("volumeHandle") === "") r.required(p.child("volumeHandle"), "", PV_CHECK);
        break;
      }
      default:
        break;
    }
  }
  if (count === 0) r.required(path, "must specify a volume type", PV_CHECK);
  const className = asStr(spec.storageClassName);
  if (className) r.invalidEach(path.child("storageClassName"), className, isDns1123Subdomain(className), PV_CHECK);
  const mode = asStr(spec.volumeMode);
  if (mode !== undefined && mode !== "Block" && mode !== "Filesystem") r.notSupported(path.child("volumeMode"), mode, ["Block", "Filesystem"], PV_CHECK);
}

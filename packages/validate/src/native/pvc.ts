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

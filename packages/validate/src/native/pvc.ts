// PersistentVolumeClaimSpec as the API server validates it on create (PVCs, StatefulSet volumeClaimTemplates, ephemeral
// volumes): access modes, a positive storage request, class names, volume mode.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (ValidatePersistentVolumeClaimSpec,
// and pkg/apis/core/v1/defaults.go (volumeMode Filesystem, resource values rounded to milli units).
import { validateLabelSelector } from "./labelselector.ts";
import { isDns1123Label, isDns1123Subdomain } from "./names.ts";
import type { FieldPath } from "./path.ts";
import { quantitySign, quantityString, readQuantity } from "./quantity.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { roundUpToMilli } from "./resources.ts";
import { asArr, asObj, asStr, type Obj } from "./values.ts";

export const ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const CHECK = "core/persistent-volume-claim";

/**
 * The access modes of a PersistentVolume or a claim, as both ValidatePersistentVolumeSpec and
 * ValidatePersistentVolumeClaimSpec check them: known values, and ReadWriteOncePod alone. (`check` names the caller.)
 */
export function validateAccessModeValues(modes: readonly unknown[], path: FieldPath, r: Reporter, check: string): void {
  let rwop = false;
  let other = false;
  for (const [i, mode] of modes.entries()) {
    if (typeof mode !== "string") continue;
    // Go names the list; the pointer names the entry (so this finding replaces the schema stage's enum one)
    if (!ACCESS_MODES.includes(mode)) r.notSupported(path.child("accessModes"), mode, ACCESS_MODES, check, path.child("accessModes").index(i).pointer());
    if (mode === "ReadWriteOncePod") rwop = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (rwop && other) r.forbidden(path.child("accessModes"), "may not use ReadWriteOncePod with other access modes", check);
}

export interface PvcSpecOptions {
  /**
   * The spec is a PersistentVolumeClaim's own: the claim strategy first drops a cross-namespace dataSourceRef
   * (CrossNamespaceVolumeDataSource is off) and a legacy dataSource that is neither a claim nor a snapshot, then copies
   * dataSource and dataSourceRef into each other (NormalizeDataSources). Templates are validated as written.
   * @default false
   */
  readonly claimObject?: boolean;
}

export function validatePvcSpec(input: Obj, path: FieldPath, r: Reporter, options: PvcSpecOptions = {}): void {
  const spec = options.claimObject ? normalizeDataSources(input) : input;
  const modes = asArr(spec.accessModes) ?? [];
  if (modes.length === 0) r.required(path.child("accessModes"), "at least 1 access mode is required", CHECK);
  if (spec.selector !== undefined && spec.selector !== null) validateLabelSelector(spec.selector, path.child("selector"), r);
  validateAccessModeValues(modes, path, r, CHECK);
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
  validateDataSources(spec, path, r);
  const vac = asStr(spec.volumeAttributesClassName);
  if (vac) r.invalidEach(path.child("volumeAttributesClassName"), vac, isDns1123Subdomain(vac), CHECK);
}

/** The claim strategy's data source handling on create (pkg/api/persistentvolumeclaim/util.go). */
function normalizeDataSources(input: Obj): Obj {
  if (input.dataSource === undefined && input.dataSourceRef === undefined) return input;
  let ds = asObj(input.dataSource);
  let ref = asObj(input.dataSourceRef);
  if (ref && (asStr(ref.namespace) ?? "") !== "") ref = undefined;
  if (!ref && ds) {
    const group = asStr(ds.apiGroup) ?? "";
    const kind = asStr(ds.kind) ?? "";
    const claimOrSnapshot = (kind === "PersistentVolumeClaim" && group === "") || (kind === "VolumeSnapshot" && group === "snapshot.storage.k8s.io");
    if (!claimOrSnapshot) ds = undefined;
  }
  const copy = (o: Obj): Obj => ({ kind: o.kind, name: o.name, ...(o.apiGroup !== undefined && o.apiGroup !== null ? { apiGroup: o.apiGroup } : {}) });
  if (ds && !ref) ref = copy(ds);
  else if (ref && !ds && (asStr(ref.namespace) ?? "") === "") ds = copy(ref);
  if (ds === input.dataSource && ref === input.dataSourceRef) return input;
  return { ...input, dataSource: ds, dataSourceRef: ref };
}

/** validateDataSource, validateDataSourceRef, and the two against each other (ValidatePersistentVolumeClaimSpec). */
function validateDataSources(spec: Obj, path: FieldPath, r: Reporter): void {
  const ds = asObj(spec.dataSource);
  const ref = asObj(spec.dataSourceRef);
  if (ds) validateDataSource(ds, path.child("dataSource"), r);
  if (ref) {
    validateDataSource(ref, path.child("dataSourceRef"), r);
    const ns = asStr(ref.namespace) ?? "";
    if (ns) r.invalidEach(path.child("dataSourceRef", "namespace"), ns, isDns1123Label(ns), CHECK);
  }
  // Go prints the *field.Path it passes as the bad value: json.Marshal makes it {}
  if (ref && (asStr(ref.namespace) ?? "") !== "") {
    if (ds) r.invalid(path, new JsonValue({}), "may not be specified when dataSourceRef.namespace is specified", CHECK, path.child("dataSource").pointer());
  } else if (ds && ref) {
    const sameGroup = (ds.apiGroup ?? null) === (ref.apiGroup ?? null);
    if (!sameGroup || ds.kind !== ref.kind || ds.name !== ref.name) r.invalid(path, new JsonValue({}), "must match dataSourceRef", CHECK, path.child("dataSource").pointer());
  }
}

function validateDataSource(ds: Obj, p: FieldPath, r: Reporter): void {
  if ((asStr(ds.name) ?? "") === "") r.required(p.child("name"), "", CHECK);
  const kind = asStr(ds.kind) ?? "";
  if (kind === "") r.required(p.child("kind"), "", CHECK);
  const group = asStr(ds.apiGroup) ?? "";
  if (group === "" && kind !== "PersistentVolumeClaim") r.invalid(p, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup", CHECK);
  if (group !== "") r.invalidEach(p.child("apiGroup"), group, isDns1123Subdomain(group), CHECK);
}

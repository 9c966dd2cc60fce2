// StorageClass and CSIDriver (storage.k8s.io/v1) as the API server validates them on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/storage/validation/validation.go (ValidateStorageClass, validateProvisioner,
// validateParameters, validateReclaimPolicy, validateAllowedTopologies, ValidateCSIDriver, validateCSIDriverSpec) and pkg/apis/core/validation/validation.go
// (ValidateTopologySelectorTerm). reclaimPolicy and volumeBindingMode are defaulted (Delete, Immediate) when unset.
import { isQualifiedName } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import type { Reporter } from "./report.ts";
import { type Obj, asArr, asNum, asObj, asStr, objItems } from "./values.ts";

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

function validateStorageClass(sc: Obj, r: Reporter): void {
  const provisioner = asStr(sc.provisioner) ?? "";
  if (provisioner.length === 0) r.required(FieldPath.of("provisioner"), "", "storage/provisioner");
  else r.invalidEach(FieldPath.of("provisioner"), provisioner.toLowerCase(), isQualifiedName(provisioner.toLowerCase()), "storage/provisioner");
  const params = asObj(sc.parameters);
  if (params) {
    const keys = Object.keys(params);
    if (keys.length > MAX_PARAMETERS) r.tooLong(FieldPath.of("parameters"), MAX_PARAMETERS, "storage/parameters");
    else {
      let size = 0;
      for (const k of keys) {
        if (k.length < 1) r.invalid(FieldPath.of("parameters"), k, "field can not be empty.", "storage/parameters");
        const v = params[k];
        size += Buffer.byteLength(k) + (typeof v === "string" ? Buffer.byteLength(v) : 0);
      }
      if (size > MAX_PARAMETERS_SIZE) r.tooLong(FieldPath.of("parameters"), MAX_PARAMETERS_SIZE, "storage/parameters");
    }
  }
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

export const STORAGE: NativeGroup = { group: "storage.k8s.io", kinds: { StorageClass: validateStorageClass, CSIDriver: validateCsiDriver } };

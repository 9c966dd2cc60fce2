// ObjectMeta as the API server validates it on create: the name rule of each kind, generateName, namespace,
// label keys/values, annotation keys and their 256 KiB total, owner references, finalizers.
// After k8s.io/apimachinery@v0.36.5/pkg/api/validation/{objectmeta,generic}.go,
// k8s.io/apimachinery@v0.36.5/pkg/apis/meta/v1/validation/validation.go (labels) and
// k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (ValidateObjectMeta, validateKubeFinalizerName,
// the per-kind name functions of each API group's validation.go).
import { pointerSegment } from "../pointer.ts";
import { type NameRule, byteLength, isLabelValue, isQualifiedName, nameIsDnsLabel, nameIsDnsSubdomain, nameIsPathSegment } from "./names.ts";
import { strictIpProblems } from "./ip.ts";
import { FieldPath } from "./path.ts";
import type { Reporter } from "./report.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr } from "./values.ts";

/**
 * Name rules that differ from the DNS-1123 subdomain most kinds use, keyed `group/kind`.
 * Service: KEP-5311 RelaxedServiceNameValidation is beta and on by default in 1.36, so a DNS-1123 label
 * (a leading digit is fine; measured against kube-apiserver 1.36.5), not the DNS-1035 label of older servers.
 */
const NAME_RULES: Readonly<Record<string, NameRule>> = {
  "/Service": nameIsDnsLabel,
  "/Namespace": nameIsDnsLabel,
  "apps/StatefulSet": nameIsDnsLabel,
  "rbac.authorization.k8s.io/Role": nameIsPathSegment,
  "rbac.authorization.k8s.io/ClusterRole": nameIsPathSegment,
  "rbac.authorization.k8s.io/RoleBinding": nameIsPathSegment,
  "rbac.authorization.k8s.io/ClusterRoleBinding": nameIsPathSegment,
  // ValidateIPAddressName: the name is the address itself, strict and canonical (generateName is not supported)
  "networking.k8s.io/IPAddress": (name) => strictIpProblems(name),
  // ValidateCertificateRequestName allows any name; the generic check after validation wants a path segment
  "certificates.k8s.io/CertificateSigningRequest": nameIsPathSegment,
  // core/v1 Events skip ValidateObjectMeta; the generic check after validation allows any path segment
  "/Event": nameIsPathSegment,
};

/** The name rule of a built-in kind (DNS-1123 subdomain unless its group's validation says otherwise). */
export const nameRuleFor = (group: string, kind: string): NameRule => NAME_RULES[`${group}/${kind}`] ?? nameIsDnsSubdomain;


const STANDARD_FINALIZERS = new Set(["kubernetes", "orphan", "foregroundDeletion"]);
const META = FieldPath.of("metadata");
const ANNOTATIONS_LIMIT = 256 * 1024;

export interface ObjectMetaOptions {
  /** The kind's name rule. @default the DNS-1123 subdomain */
  readonly nameRule?: NameRule;
  /** Built-in kinds also get core's finalizer-name check (custom resources do not). @default true */
  readonly kubeFinalizers?: boolean;
  /** Where the metadata lives (`metadata`, or `spec.template.metadata`). @default metadata */
  readonly path?: FieldPath;
}

/** Labels as ValidateLabels checks them: errors name the map (`metadata.labels`), the pointer names the key. */
export function validateLabels(labels: unknown, path: FieldPath, r: Reporter, check = "meta/labels", pointerOf: () => string = () => path.pointer()): void {
  const o = asObj(labels);
  if (!o) return;
  // the map's pointer, made only for a finding
  let base: string | undefined;
  for (const k in o) {
    const v = o[k];
    const keyErrors = isQualifiedName(k);
    const valueErrors = typeof v === "string" ? isLabelValue(v) : [];
    if (keyErrors.length === 0 && valueErrors.length === 0) continue;
    base ??= pointerOf();
    const pointer = `${base}/${pointerSegment(k)}`;
    for (const m of keyErrors) r.invalid(path, k, m, check, pointer);
    for (const m of valueErrors) r.invalid(path, v, m, check, pointer);
  }
}

export function validateAnnotations(annotations: unknown, path: FieldPath, r: Reporter, check = "meta/annotations", pointerOf: () => string = () => path.pointer()): void {
  const o = asObj(annotations);
  if (!o) return;
  let total = 0;
  for (const k in o) {
    // keys are checked lower-cased: upper-case letters are allowed in annotation keys
    const errors = isQualifiedName(k.toLowerCase());
    if (errors.length > 0) for (const m of errors) r.invalid(path, k, m, check, `${pointerOf()}/${pointerSegment(k)}`);
    const v = o[k];
    total += byteLength(k) + (typeof v === "string" ? byteLength(v) : 0);
  }
  if (total > ANNOTATIONS_LIMIT) r.tooLong(path, ANNOTATIONS_LIMIT, check, "bytes", pointerOf());
}

/** ObjectMeta of a top-level object on create (the name is generated from generateName before validation). */
export function validateObjectMeta(object: Obj, r: Reporter, options: ObjectMetaOptions = {}): void {
  const path = options.path ?? META;
  const m = asObj(object.metadata);
  const nameRule = options.nameRule ?? nameIsDnsSubdomain;
  const name = asStr(m?.name) ?? "";
  const generateName = asStr(m?.generateName) ?? "";
  if (generateName.length > 0) {
    for (const msg of nameRule(generateName, true)) r.invalid(path.child("generateName"), generateName, msg, "meta/name");
  }
  if (name.length === 0) {
    if (generateName.length === 0) r.required(path.child("name"), "name or generateName is required", "meta/name");
  } else {
    for (const msg of nameRule(name, false)) r.invalid(path.child("name"), name, msg, "meta/name");
  }
  if (!m) return;
  const namespace = asStr(m.namespace);
  if (namespace) for (const msg of nameIsDnsLabel(namespace, false)) r.invalid(path.child("namespace"), namespace, msg, "meta/namespace");
  const generation = asNum(m.generation);
  if (generation !== undefined && generation < 0) r.invalid(path.child("generation"), generation, "must be greater than or equal to 0", "meta/generation");
  validateLabels(m.labels, path.child("labels"), r);
  validateAnnotations(m.annotations, path.child("annotations"), r);
  validateOwnerReferences(m.ownerReferences, path.child("ownerReferences"), r);
  validateFinalizers(m.finalizers, path.child("finalizers"), r, options.kubeFinalizers !== false);
}

function validateOwnerReferences(refs: unknown, path: FieldPath, r: Reporter): void {
  const list = asArr(refs);
  if (!list) return;
  let firstController = "";
  for (const item of list) {
    const ref = asObj(item);
    if (!ref) continue;
    const apiVersion = asStr(ref.apiVersion) ?? "";
    const kind = asStr(ref.kind) ?? "";
    const version = apiVersion.includes("/") ? apiVersion.slice(apiVersion.indexOf("/") + 1) : apiVersion;
    if (version.length === 0) r.invalid(path.child("apiVersion"), apiVersion, "version must not be empty", "meta/owner-references");
    if (kind.length === 0) r.invalid(path.child("kind"), kind, "must not be empty", "meta/owner-references");
    if ((asStr(ref.name) ?? "").length === 0) r.invalid(path.child("name"), asStr(ref.name) ?? "", "must not be empty", "meta/owner-references");
    if ((asStr(ref.uid) ?? "").length === 0) r.invalid(path.child("uid"), asStr(ref.uid) ?? "", "must not be empty", "meta/owner-references");
    if (apiVersion === "v1" && kind === "Event") r.invalid(path, ref, "/v1, Kind=Event is disallowed from being an owner", "meta/owner-references");
    if (asBool(ref.controller) === true) {
      const current = `${kind}/${asStr(ref.name) ?? ""}`;
      if (firstController !== "") {
        r.invalid(path, list, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`, "meta/owner-references");
      } else firstController = current;
    }
  }
}

function validateFinalizers(finalizers: unknown, path: FieldPath, r: Reporter, kube: boolean): void {
  const list = asArr(finalizers);
  if (!list) return;
  let orphan = false;
  let foreground = false;
  for (const item of list) {
    const f = asStr(item);
    if (f === undefined) continue;
    for (const msg of isQualifiedName(f)) r.invalid(path, f, msg, "meta/finalizers");
    if (f === "orphan") orphan = true;
    if (f === "foregroundDeletion") foreground = true;
  }
  if (orphan && foreground) r.invalid(path, list, "finalizer orphan and foregroundDeletion cannot be both set", "meta/finalizers");
  if (!kube) return;
  list.forEach((item, i) => {
    const f = asStr(item);
    if (f !== undefined && !f.includes("/") && !STANDARD_FINALIZERS.has(f)) {
      r.invalid(path.index(i), f, "name is neither a standard finalizer name nor is it fully qualified", "meta/finalizers");
    }
  });
}

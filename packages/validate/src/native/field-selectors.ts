// The downward API's field selectors, shared by env vars (valueFrom) and downwardAPI volume items.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (validateObjectFieldSelector,
// validateContainerResourceFieldSelector, validateContainerResourceDivisor) and pkg/api/pod's
// ConvertDownwardAPIFieldLabel (the field labels a v1 pod knows), after SetDefaults_ObjectFieldSelector (apiVersion v1).
import { isQualifiedName } from "./names.ts";
import type { FieldPath } from "./path.ts";
import { quantitySign, quantityString, readQuantity } from "./quantity.ts";
import type { Reporter } from "./report.ts";
import { asStr, type Obj } from "./values.ts";

/** The field labels ConvertDownwardAPIFieldLabel accepts for v1 (subscripted labels and annotations aside). */
const DOWNWARD_LABELS = new Set([
  "metadata.annotations",
  "metadata.labels",
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
  "spec.nodeName",
  "spec.restartPolicy",
  "spec.serviceAccountName",
  "spec.schedulerName",
  "status.phase",
  "status.hostIP",
  "status.hostIPs",
  "status.podIP",
  "status.podIPs",
]);

/** validEnvDownwardAPIFieldPathExpressions. */
export const ENV_FIELD_PATHS = [
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
  "spec.nodeName",
  "spec.serviceAccountName",
  "status.hostIP",
  "status.hostIPs",
  "status.podIP",
  "status.podIPs",
];
/** validVolumeDownwardAPIFieldPathExpressions. */
export const VOLUME_FIELD_PATHS = ["metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"];

const RESOURCE_FIELD_PATHS = ["limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"];
const BYTE_DIVISORS = new Set(["1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"]);
const BYTE_DIVISORS_TEXT = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";

const str = (v: unknown): string => asStr(v) ?? "";

/** validateObjectFieldSelector: a field label the pod knows, one of `expressions` (subscripted labels/annotations aside). */
export function validateObjectFieldSelector(fs: Obj, expressions: readonly string[], path: FieldPath, r: Reporter, check: string): void {
  const apiVersion = str(fs.apiVersion) || "v1";
  const fieldPath = str(fs.fieldPath);
  if (fieldPath === "") {
    r.required(path.child("fieldPath"), "", check);
    return;
  }
  if (apiVersion !== "v1") {
    r.invalid(path.child("fieldPath"), fieldPath, `error converting fieldPath: unsupported pod version: ${apiVersion}`, check);
    return;
  }
  const sub = /^(metadata\.(?:annotations|labels))\['(.*)'\]$/.exec(fieldPath);
  if (!sub && !DOWNWARD_LABELS.has(fieldPath)) {
    r.invalid(path.child("fieldPath"), fieldPath, `error converting fieldPath: field label not supported: ${fieldPath}`, check);
    return;
  }
  if (sub) {
    const key = sub[1] === "metadata.annotations" ? (sub[2] as string).toLowerCase() : (sub[2] as string);
    r.invalidEach(path, key, isQualifiedName(key), check);
  } else if (!expressions.includes(fieldPath)) {
    r.notSupported(path.child("fieldPath"), fieldPath, [...expressions].sort(), check);
  }
}

/**
 * validateContainerResourceFieldSelector: a known resource (hugepages by prefix) and a divisor it supports. A volume
 * item must also name its container (checked first, and then the resource is not looked at).
 */
export function validateResourceFieldSelector(fs: Obj, path: FieldPath, r: Reporter, check: string, volume: boolean): void {
  const resource = str(fs.resource);
  if (volume && str(fs.containerName) === "") r.required(path.child("containerName"), "", check);
  else if (resource === "") r.required(path.child("resource"), "", check);
  else if (!RESOURCE_FIELD_PATHS.includes(resource) && !resource.startsWith("requests.hugepages-") && !resource.startsWith("limits.hugepages-")) {
    r.notSupported(path.child("resource"), resource, RESOURCE_FIELD_PATHS, check);
  }
  validateResourceDivisor(resource, fs.divisor, path, r, check);
}

function validateResourceDivisor(resource: string, raw: unknown, path: FieldPath, r: Reporter, check: string): void {
  const divisor = readQuantity(raw);
  if (!divisor || quantitySign(divisor) === 0) return;
  const text = quantityString(divisor);
  const dp = path.child("divisor");
  if (resource === "limits.cpu" || resource === "requests.cpu") {
    if (text !== "1m" && text !== "1") r.invalid(dp, resource, "only divisor's values 1m and 1 are supported with the cpu resource", check);
  } else if (resource === "limits.memory" || resource === "requests.memory") {
    if (!BYTE_DIVISORS.has(text)) r.invalid(dp, resource, `only divisor's values ${BYTE_DIVISORS_TEXT} are supported with the memory resource`, check);
  } else if (resource === "limits.ephemeral-storage" || resource === "requests.ephemeral-storage") {
    if (!BYTE_DIVISORS.has(text)) r.invalid(dp, resource, `only divisor's values ${BYTE_DIVISORS_TEXT} are supported with the local ephemeral storage resource`, check);
  }
  if ((resource.startsWith("requests.hugepages-") || resource.startsWith("limits.hugepages-")) && !BYTE_DIVISORS.has(text)) {
    r.invalid(dp, resource, `only divisor's values ${BYTE_DIVISORS_TEXT} are supported with the hugepages resource`, check);
  }
}

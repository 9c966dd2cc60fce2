// The ObjectMeta rules the API server checks in Go code (not in OpenAPI): name, namespace, label and annotation syntax.
import { pointerSegment } from "./pointer.ts";
import type { Finding } from "./types.ts";

// Hand-written because these rules live in apimachinery's Go validation, which no schema carries.
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const RBAC_KINDS = new Set(["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"]);

/** The name rule of each kind, as the API server's per-kind validation applies it (subdomain unless said otherwise). */
function nameProblem(name: string, apiVersion: string, kind: string): string | undefined {
  if (apiVersion.startsWith("rbac.authorization.k8s.io/") && RBAC_KINDS.has(kind)) {
    if (name === "." || name === "..") return `may not be '${name}'`;
    return /[/%]/.test(name) ? "may not contain '/' or '%'" : undefined;
  }
  if (apiVersion === "v1" && kind === "Service") {
    return name.length > 63 || !DNS1035_LABEL.test(name)
      ? "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (at most 63 characters)"
      : undefined;
  }
  if (apiVersion === "v1" && kind === "Namespace") {
    return name.length > 63 || !DNS1123_LABEL.test(name)
      ? "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (at most 63 characters)"
      : undefined;
  }
  return name.length > 253 || !DNS1123_SUBDOMAIN.test(name)
    ? "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
    : undefined;
}

const err = (path: string, message: string, rule: string): Finding => ({ severity: "error", path, message, rule });

function qualifiedNameProblem(key: string): string | undefined {
  const slash = key.lastIndexOf("/");
  const name = slash < 0 ? key : key.slice(slash + 1);
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) return "prefix part must be a lowercase RFC 1123 subdomain";
  if (name.length === 0 || name.length > 63) return "name part must be no more than 63 characters and non-empty";
  if (!QUALIFIED_NAME.test(name)) return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** Checks `metadata` of a top-level object (a missing name is allowed when generateName is set). */
export function checkObjectMeta(object: Readonly<Record<string, unknown>>): Finding[] {
  const meta = object.metadata;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    return meta === undefined ? [err("/metadata/name", "Required value: name or generateName is required", "metadata:name")] : [];
  }
  const m = meta as Record<string, unknown>;
  const out: Finding[] = [];
  if (typeof m.name === "string") {
    const problem = nameProblem(m.name, String(object.apiVersion ?? ""), String(object.kind ?? ""));
    if (problem) out.push(err("/metadata/name", `Invalid value: ${JSON.stringify(m.name)}: ${problem}`, "metadata:name"));
  } else if (m.name === undefined && typeof m.generateName !== "string") {
    out.push(err("/metadata/name", "Required value: name or generateName is required", "metadata:name"));
  }
  if (typeof m.namespace === "string" && m.namespace !== "" && (m.namespace.length > 63 || !DNS1123_LABEL.test(m.namespace))) {
    out.push(err("/metadata/namespace", `Invalid value: ${JSON.stringify(m.namespace)}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character`, "metadata:namespace"));
  }
  for (const field of ["labels", "annotations"] as const) {
    const map = m[field];
    if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
    let total = 0;
    for (const [k, v] of Object.entries(map)) {
      const problem = qualifiedNameProblem(k);
      if (problem) out.push(err(`/metadata/${field}/${pointerSegment(k)}`, `Invalid value: ${JSON.stringify(k)}: ${problem}`, `metadata:${field}`));
      if (field === "labels" && typeof v === "string" && (v.length > 63 || !LABEL_VALUE.test(v))) {
        out.push(err(`/metadata/labels/${pointerSegment(k)}`, `Invalid value: ${JSON.stringify(v)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (at most 63 characters)`, "metadata:labels"));
      }
      if (field === "annotations") total += k.length + (typeof v === "string" ? v.length : 0);
    }
    if (total > 256 * 1024) out.push(err("/metadata/annotations", `Too long: annotations are ${total} bytes, must have at most 262144 bytes`, "metadata:annotations"));
  }
  return out;
}

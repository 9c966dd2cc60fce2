// The ObjectMeta rules the API server checks in Go code (not in OpenAPI): name, namespace, label and annotation syntax.
import type { Finding } from "./types.ts";

// Hand-written because these rules live in apimachinery's Go validation, which no schema carries.
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const err = (path: string, message: string, rule: string): Finding => ({ severity: "error", path, message, rule });
const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

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
    if (m.name.length > 253 || !DNS1123_SUBDOMAIN.test(m.name)) {
      out.push(err("/metadata/name", `Invalid value: ${JSON.stringify(m.name)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`, "metadata:name"));
    }
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
      if (problem) out.push(err(`/metadata/${field}/${escape(k)}`, `Invalid value: ${JSON.stringify(k)}: ${problem}`, `metadata:${field}`));
      if (field === "labels" && typeof v === "string" && (v.length > 63 || !LABEL_VALUE.test(v))) {
        out.push(err(`/metadata/labels/${escape(k)}`, `Invalid value: ${JSON.stringify(v)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (at most 63 characters)`, "metadata:labels"));
      }
      if (field === "annotations") total += k.length + (typeof v === "string" ? v.length : 0);
    }
    if (total > 256 * 1024) out.push(err("/metadata/annotations", `Too long: annotations are ${total} bytes, must have at most 262144 bytes`, "metadata:annotations"));
  }
  return out;
}

// What a CRD among the documents claims and may not have: a built-in, pinned or already-defined kind (reported on
// the CRD's own document; the registry never lets it replace that kind), and a protected group without approval
// (k8s.io/apiextensions-apiserver v0.36.5 pkg/apis/apiextensions/validation/validation.go, validateAPIApproval).
import type { Finding, ParsedResource } from "../types.ts";
import type { SchemaRegistry } from "./registry.ts";
import { documentSource, isCrd, typesFromCrd } from "./sources.ts";

const APPROVAL = "api-approved.kubernetes.io";
const APPROVAL_PR = "see https://github.com/kubernetes/enhancements/pull/1111";

/** Groups of the Kubernetes community (pkg/apihelpers/helpers.go, IsProtectedCommunityGroup). */
export const isProtectedCommunityGroup = (group: string): boolean =>
  group === "k8s.io" || group.endsWith(".k8s.io") || group === "kubernetes.io" || group.endsWith(".kubernetes.io");

/** An absolute URL with a scheme and a host, as Go's url.ParseRequestURI and the Host/Scheme test of GetAPIApprovalState accept it. */
function isApprovalUrl(s: string): boolean {
  if (/\s/.test(s)) return false;
  try {
    const u = new URL(s);
    return u.protocol.length > 1 && u.host.length > 0;
  } catch {
    return false;
  }
}

/** validateAPIApproval on create: a CRD of a protected group needs the approval annotation, a URL or a reason starting with "unapproved". */
export function apiApprovalFindings(crd: Readonly<Record<string, unknown>>): Finding[] {
  const spec = crd.spec as { group?: unknown } | undefined;
  if (typeof spec?.group !== "string" || !isProtectedCommunityGroup(spec.group)) return [];
  const annotations = (crd.metadata as { annotations?: Record<string, unknown> } | undefined)?.annotations;
  const value = typeof annotations?.[APPROVAL] === "string" ? (annotations[APPROVAL] as string) : "";
  const path = `/metadata/annotations/${APPROVAL}`;
  const field = `metadata.annotations[${APPROVAL}]`;
  if (value === "") return [{ severity: "error", path, message: `${field}: Required value: protected groups must have approval annotation "${APPROVAL}", ${APPROVAL_PR}`, rule: "crd:api-approval" }];
  if (value.startsWith("unapproved") || isApprovalUrl(value)) return [];
  const reason = `protected groups must have approval annotation "${APPROVAL}" with either a URL or a reason starting with "unapproved", ${APPROVAL_PR}`;
  return [{ severity: "error", path, message: `${field}: Invalid value: ${JSON.stringify(value)}: ${reason}`, rule: "crd:api-approval" }];
}

/**
 * The kinds a CRD among the documents defines but does not get (each served version's group/version/kind): one
 * that is built in, pinned, given with --crd or defined by an earlier CRD of the run. The API server never lets a
 * CRD replace a built-in kind, and its names controller refuses a kind already in use (NamesAccepted false) while
 * still storing the CRD: a warning on the CRD's own document, never a change to how other documents are validated.
 */
export function claimedKindFindings(crd: ParsedResource, registry: SchemaRegistry): Finding[] {
  if (!isCrd(crd.object)) return [];
  const own = documentSource(crd);
  const out: Finding[] = [];
  for (const t of typesFromCrd(crd.object, own)) {
    const apiVersion = t.gvk.group ? `${t.gvk.group}/${t.gvk.version}` : t.gvk.version;
    const found = registry.lookup(apiVersion, t.gvk.kind);
    if (!found || found.source === own) continue;
    const what = found.flavour === "builtin" ? "a built-in kind" : "already defined";
    out.push({
      severity: "warning",
      path: "/spec/names/kind",
      message: `${apiVersion} ${t.gvk.kind} is ${what} (${found.source}): this CRD's schema is not used for it`,
      rule: "crd:kind-taken",
      hint: "rename the CRD's kind or group, or remove the CRD",
    });
  }
  return out;
}

// A Service's cluster IPs and IP families as the API server judges them on create, before the strategy's validation:
// the REST layer normalizes clusterIP into clusterIPs, defaults ipFamilyPolicy, runs
// ValidateServiceClusterIPsRelatedFields and then its own family checks; any error there is the server's whole answer.
// After k8s.io/kubernetes@v1.36.5/pkg/registry/core/service/storage/alloc.go (initIPFamilyFields),
// pkg/registry/core/service/storage/storage.go (normalizeClusterIPs) and
// pkg/apis/core/validation/validation.go (ValidateServiceClusterIPsRelatedFields).
import { ipProblems } from "./ip.ts";
import { FieldPath } from "./path.ts";
import type { Reporter } from "./report.ts";
import { type Obj, asArr, asObj, asStr } from "./values.ts";

const SPEC = FieldPath.of("spec");
const CHECK = "core/cluster-ip";
const FAMILIES = ["IPv4", "IPv6"];
const POLICIES = ["PreferDualStack", "RequireDualStack", "SingleStack"];

/**
 * The service IP families the cluster serves. EKS clusters (and the e2e peer, --service-cluster-ip-range=10.0.0.0/24)
 * are single-stack IPv4 unless created for IPv6; dual-stack Services are not offered by EKS.
 */
export const CLUSTER_SERVICE_FAMILIES: readonly string[] = ["IPv4"];

/** netutils.IsIPv6String for an address that already parsed: IPv6 text always has a colon. */
const familyOf = (ip: string): string => (ip.includes(":") ? "IPv6" : "IPv4");

interface IpFields {
  readonly clusterIP: string;
  readonly clusterIPs: readonly string[];
  readonly families: readonly unknown[];
  readonly policy: string;
  readonly headless: boolean;
}

/**
 * ValidateServiceClusterIPsRelatedFields on create (no old Service). `policy` is already defaulted; Go prints the
 * clusterIPs list with json.Marshal, as our JsonValue does through formatValue of an array.
 */
export function validateServiceClusterIPsRelatedFields(f: IpFields, r: Reporter): void {
  const field = SPEC.child("clusterIPs");
  const list = [...f.clusterIPs];
  if (f.clusterIP !== "") {
    if (list.length === 0) r.required(field, "", CHECK);
    else if (list[0] !== f.clusterIP) r.invalid(field, list, "first value must match `clusterIP`", CHECK);
  } else if (list.length > 0) r.invalid(field, list, "must be empty when `clusterIP` is not specified", CHECK);
  const seen = new Set<unknown>();
  f.families.forEach((family, i) => {
    if (!FAMILIES.includes(family as string)) r.notSupported(SPEC.child("ipFamilies").index(i), family, FAMILIES, CHECK);
    if (seen.has(family)) r.duplicate(SPEC.child("ipFamilies").index(i), family, CHECK);
    seen.add(family);
  });
  if (!POLICIES.includes(f.policy)) r.notSupported(SPEC.child("ipFamilyPolicy"), f.policy, POLICIES, CHECK);
  let invalidIps = false;
  list.forEach((ip, i) => {
    if (i === 0 && ip === "None") {
      if (list.length > 1) {
        invalidIps = true;
        r.invalid(field, list, "'None' must be the first and only value", CHECK);
      }
      return;
    }
    const problems = ipProblems(ip);
    if (problems.length > 0) invalidIps = true;
    r.invalidEach(field.index(i), ip, problems, CHECK);
  });
  if (list.length > 2) r.invalid(field, list, "may only hold up to 2 values", CHECK);
  if (invalidIps) return;
  if (list.length > 1 && new Set(list.map(familyOf)).size !== list.length) {
    r.invalid(field, list, "may specify no more than one IP for each IP family", CHECK);
  }
  if (f.headless || list.length === 0 || f.families.length === 0) return;
  list.forEach((ip, i) => {
    if (i > f.families.length - 1) return;
    if (f.families[i] === "IPv4" && familyOf(ip) === "IPv6") r.invalid(field.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``, CHECK);
    if (f.families[i] === "IPv6" && familyOf(ip) !== "IPv6") r.invalid(field.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``, CHECK);
  });
}

/**
 * initIPFamilyFields on create after normalizeClusterIPs: reports what the allocator refuses and returns whether it
 * refused (then the server validates nothing else). ExternalName Services skip it (validation forbids the fields).
 */
export function initIpFamilyFields(spec: Obj, type: string, r: Reporter): boolean {
  if (type === "ExternalName") return false;
  const before = r.findings.length;
  const clusterIP = asStr(spec.clusterIP) ?? "";
  let clusterIPs = (asArr(spec.clusterIPs) ?? []).map((v) => asStr(v) ?? "");
  if (clusterIPs.length === 0 && clusterIP !== "") clusterIPs = [clusterIP];
  const selectorless = Object.keys(asObj(spec.selector) ?? {}).length === 0;
  const headlessSelectorless = clusterIP === "None" && selectorless;
  // no policy on create: headless and selectorless means RequireDualStack, anything else SingleStack
  const policy = asStr(spec.ipFamilyPolicy) ?? (headlessSelectorless ? "RequireDualStack" : "SingleStack");
  const families = [...(asArr(spec.ipFamilies) ?? [])];
  validateServiceClusterIPsRelatedFields({ clusterIP, clusterIPs, families, policy, headless: clusterIPs.length === 1 && clusterIPs[0] === "None" }, r);
  if (r.findings.length > before) return true;
  if (policy === "SingleStack") {
    if (clusterIPs.length === 2) r.invalid(SPEC.child("ipFamilyPolicy"), policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified", CHECK);
    if (families.length === 2) r.invalid(SPEC.child("ipFamilyPolicy"), policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified", CHECK);
  }
  // families are inferred from the cluster IPs; an IP of a family the cluster lacks is named with the whole list
  for (let i = 0; i < clusterIPs.length; i++) {
    const ip = clusterIPs[i] as string;
    if (ip === "None") break;
    if (i < families.length) continue;
    const family = familyOf(ip);
    if (CLUSTER_SERVICE_FAMILIES.includes(family)) families.push(family);
    else r.invalid(SPEC.child("clusterIPs").index(i), clusterIPs, `${family} is not configured on this cluster`, CHECK);
  }
  if (r.findings.length > before) return true;
  // headless and selectorless: any families are allowed, even on a single-stack cluster
  if (headlessSelectorless) return false;
  if (policy === "RequireDualStack" && CLUSTER_SERVICE_FAMILIES.length < 2) {
    r.invalid(SPEC.child("ipFamilyPolicy"), policy, "this cluster is not configured for dual-stack services", CHECK);
  }
  families.forEach((family, i) => {
    if (!CLUSTER_SERVICE_FAMILIES.includes(family as string)) r.invalid(SPEC.child("ipFamilies").index(i), family, "not configured on this cluster", CHECK);
  });
  return r.findings.length > before;
}

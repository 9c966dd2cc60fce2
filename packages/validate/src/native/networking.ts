// Ingress, IngressClass, NetworkPolicy, IPAddress and ServiceCIDR (networking.k8s.io/v1) as the API server validates them on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/networking/validation/validation.go (ValidateIngressCreate,
// ValidateIngressSpec, validateIngressRules, validateHTTPIngressPath, validateIngressBackend, validateIngressTLS,
// ValidateNetworkPolicySpec, ValidateIngressClass, ValidateNetworkPolicyPort, ValidateNetworkPolicyPeer, ValidateIPBlock,
// ValidateIPAddress, ValidateIPAddressName, ValidateServiceCIDR) and
// k8s.io/apimachinery@v0.36.5/pkg/util/validation (IsWildcardDNS1123Subdomain, IsValidCIDR's parse errors).
// Service names in backends are DNS-1123 labels: RelaxedServiceNameValidation is on by default in 1.36.
import { CIDR_MSG, cidrRange, isCidrSloppy, isIpSloppy, legacyCidrProblems, strictCidrProblem } from "./cidr.ts";
import { canonicalIp } from "./ip.ts";
import { validateLabelSelector } from "./labelselector.ts";
import { isDns1123Label, isDns1123Subdomain, isValidPathSegmentName, isValidPortName, isValidPortNum, maxLenError, regexError } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import { goQuote, JsonValue, type Reporter } from "./report.ts";
import { type Obj, asArr, asNum, asObj, asStr, objItems } from "./values.ts";

const INVALID_SEQUENCES = ["//", "/./", "/../", "%2f", "%2F"];
const INVALID_SUFFIXES = ["/..", "/."];
const SUBDOMAIN_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const WILDCARD_FMT = `\\*\\.${SUBDOMAIN_FMT}`;
const WILDCARD = new RegExp(`^${WILDCARD_FMT}$`);
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

function isWildcardDns1123Subdomain(v: string): string[] {
  const out: string[] = [];
  if (v.length > 253) out.push(maxLenError(253));
  if (!WILDCARD.test(v)) out.push(regexError(WILDCARD_MSG, WILDCARD_FMT, "*.example.com"));
  return out;
}

function validateBackend(backend: Obj, path: FieldPath, r: Reporter): void {
  const check = "networking/ingress-backend";
  const resource = asObj(backend.resource);
  const service = asObj(backend.service);
  if (resource && service) {
    r.invalid(path, "", "cannot set both resource and service backends", check);
    return;
  }
  if (resource) {
    const rp = path.child("resource");
    const apiGroup = asStr(resource.apiGroup);
    if (apiGroup !== undefined) r.invalidEach(rp.child("apiGroup"), apiGroup, isDns1123Subdomain(apiGroup), check);
    for (const f of ["kind", "name"]) {
      const v = asStr(resource[f]) ?? "";
      if (v === "") r.required(rp.child(f), "", check);
      else r.invalidEach(rp.child(f), v, isValidPathSegmentName(v), check);
    }
  } else if (service) {
    const name = asStr(service.name) ?? "";
    if (name.length === 0) r.required(path.child("service", "name"), "", check);
    else r.invalidEach(path.child("service", "name"), name, isDns1123Label(name), check);
    const port = asObj(service.port) ?? {};
    const portName = asStr(port.name) ?? "";
    const portNumber = asNum(port.number) ?? 0;
    if (portName.length > 0 && portNumber !== 0) r.invalid(path, "", "cannot set both port name & port number", check);
    else if (portName.length > 0) r.invalidEach(path.child("service", "port", "name"), portName, isValidPortName(portName), check);
    else if (portNumber !== 0) r.invalidEach(path.child("service", "port", "number"), portNumber, isValidPortNum(portNumber), check);
    else r.required(path, "port name or number is required", check);
  } else r.invalid(path, "", "resource or service backend is required", check);
}

function validatePath(p: Obj, path: FieldPath, r: Reporter): void {
  const check = "networking/ingress-path";
  const pathType = asStr(p.pathType);
  const value = asStr(p.path) ?? "";
  if (pathType === undefined) {
    r.required(path.child("pathType"), "pathType must be specified", check);
    return;
  }
  if (pathType === "Exact" || pathType === "Prefix") {
    if (!value.startsWith("/")) r.invalid(path.child("path"), value, "must be an absolute path", check);
    if (value.length > 0) {
      for (const seq of INVALID_SEQUENCES) if (value.includes(seq)) r.invalid(path.child("path"), value, `must not contain '${seq}'`, check);
      for (const suffix of INVALID_SUFFIXES) if (value.endsWith(suffix)) r.invalid(path.child("path"), value, `cannot end with '${suffix}'`, check);
    }
  } else if (pathType === "ImplementationSpecific") {
    if (value.length > 0 && !value.startsWith("/")) r.invalid(path.child("path"), value, "must be an absolute path", check);
  }
  // other pathType values: the schema stage reports the enum
  validateBackend(asObj(p.backend) ?? {}, path.child("backend"), r);
}

function validateIngress(ingress: Obj, r: Reporter): void {
  const spec = asObj(ingress.spec) ?? {};
  const path = FieldPath.of("spec");
  const rules = asArr(spec.rules) ?? [];
  const defaultBackend = asObj(spec.defaultBackend);
  if (rules.length === 0 && !defaultBackend) r.invalid(path, new JsonValue(Array.isArray(spec.rules) ? [] : null), "either `defaultBackend` or `rules` must be specified", "networking/ingress-spec");
  if (defaultBackend) validateBackend(defaultBackend, path.child("defaultBackend"), r);
  for (const [i, rule] of objItems(rules)) {
    const rulePath = path.child("rules").index(i);
    const host = asStr(rule.host) ?? "";
    if (host.length > 0) {
      if (isIpSloppy(host)) r.invalid(rulePath.child("host"), host, "must be a DNS name, not an IP address", "networking/ingress-host");
      if (host.includes("*")) r.invalidEach(rulePath.child("host"), host, isWildcardDns1123Subdomain(host), "networking/ingress-host");
      else r.invalidEach(rulePath.child("host"), host, isDns1123Subdomain(host), "networking/ingress-host");
    }
    const http = asObj(rule.http);
    if (http) {
      const paths = asArr(http.paths) ?? [];
      if (paths.length === 0) r.required(rulePath.child("http", "paths"), "", "networking/ingress-path");
      for (const [j, p] of objItems(paths)) validatePath(p, rulePath.child("http", "paths").index(j), r);
    }
  }
  for (const [i, tls] of objItems(spec.tls)) {
    const tlsPath = path.child("tls").index(i);
    (asArr(tls.hosts) ?? []).forEach((h, j) => {
      if (typeof h !== "string") return;
      r.invalidEach(tlsPath.child("hosts").index(j), h, h.includes("*") ? isWildcardDns1123Subdomain(h) : isDns1123Subdomain(h), "networking/ingress-tls");
    });
    const secret = asStr(tls.secretName) ?? "";
    if (secret.length > 0) r.invalidEach(tlsPath.child("secretName"), secret, isDns1123Subdomain(secret), "networking/ingress-tls");
  }
  const className = asStr(spec.ingressClassName);
  if (className !== undefined) r.invalidEach(path.child("ingressClassName"), className, isDns1123Subdomain(className), "networking/ingress-class");
  const annotation = asStr(asObj(asObj(ingress.metadata)?.annotations)?.["kubernetes.io/ingress.class"]);
  if (annotation !== undefined && className !== undefined && annotation !== className) {
    r.invalid(FieldPath.of("annotations").child("kubernetes.io/ingress.class"), annotation, "must match `ingressClassName` when both are specified", "networking/ingress-class");
  }
}

function validatePort(port: Obj, path: FieldPath, r: Reporter): void {
  const check = "networking/network-policy-port";
  const endPort = asNum(port.endPort);
  const p = port.port;
  if (typeof p === "number") {
    r.invalidEach(path.child("port"), p, isValidPortNum(p), check);
    if (endPort !== undefined) {
      if (endPort < p) r.invalid(path.child("endPort"), p, "must be greater than or equal to `port`", check);
      r.invalidEach(path.child("endPort"), endPort, isValidPortNum(endPort), check);
    }
  } else if (typeof p === "string") {
    if (endPort !== undefined) r.invalid(path.child("endPort"), endPort, "may not be specified when `port` is non-numeric", check);
    r.invalidEach(path.child("port"), p, isValidPortName(p), check);
  } else if (endPort !== undefined) r.invalid(path.child("endPort"), endPort, "may not be specified when `port` is not specified", check);
  // protocol: the schema stage reports values outside the enum (TCP, UDP, SCTP)
}

function validateIpBlock(block: Obj, path: FieldPath, r: Reporter): void {
  const check = "networking/network-policy-ip-block";
  const cidr = asStr(block.cidr) ?? "";
  if (cidr === "") {
    r.required(path.child("cidr"), "", check);
    return;
  }
  if (!isCidrSloppy(cidr)) {
    r.invalid(path.child("cidr"), cidr, CIDR_MSG, check);
    return;
  }
  const strict = strictCidrProblem(cidr);
  if (strict) r.invalid(path.child("cidr"), cidr, strict, check);
  const outer = cidrRange(cidr);
  (asArr(block.except) ?? []).forEach((e, i) => {
    if (typeof e !== "string") return;
    const ep = path.child("except").index(i);
    if (!isCidrSloppy(e)) {
      r.invalid(ep, e, CIDR_MSG, check);
      return;
    }
    const strictExcept = strictCidrProblem(e);
    if (strictExcept) r.invalid(ep, e, strictExcept, check);
    const inner = cidrRange(e);
    const width = outer.v6 ? 128 : 32;
    const contained = inner.v6 === outer.v6 && inner.start >> BigInt(width - outer.bits) === outer.start >> BigInt(width - outer.bits);
    if (!contained || outer.bits >= inner.bits) r.invalid(ep, e, "must be a strict subset of `cidr`", check);
  });
}

function validatePeer(peer: Obj, path: FieldPath, r: Reporter): void {
  let peers = 0;
  if (peer.podSelector !== undefined) {
    peers++;
    validateLabelSelector(peer.podSelector, path.child("podSelector"), r);
  }
  if (peer.namespaceSelector !== undefined) {
    peers++;
    validateLabelSelector(peer.namespaceSelector, path.child("namespaceSelector"), r);
  }
  const block = asObj(peer.ipBlock);
  if (block) {
    peers++;
    validateIpBlock(block, path.child("ipBlock"), r);
  }
  if (peers === 0) r.required(path, "must specify a peer", "networking/network-policy-peer");
  else if (peers > 1 && block) r.forbidden(path, "may not specify both ipBlock and another peer", "networking/network-policy-peer");
}

function validateNetworkPolicy(np: Obj, r: Reporter): void {
  const spec = asObj(np.spec) ?? {};
  const path = FieldPath.of("spec");
  validateLabelSelector(spec.podSelector, path.child("podSelector"), r);
  for (const [direction, peersField] of [
    ["ingress", "from"],
    ["egress", "to"],
  ] as const) {
    for (const [i, rule] of objItems(spec[direction])) {
      const rulePath = path.child(direction).index(i);
      for (const [j, port] of objItems(rule.ports)) validatePort(port, rulePath.child("ports").index(j), r);
      for (const [j, peer] of objItems(rule[peersField])) validatePeer(peer, rulePath.child(peersField).index(j), r);
    }
  }
  const types = asArr(spec.policyTypes) ?? [];
  if (types.length > 2) r.invalid(path.child("policyTypes"), new JsonValue(types), "may not specify more than two policyTypes", "networking/network-policy-types");
  // values outside Ingress/Egress: the schema stage reports the enum
}

const MAX_INGRESS_CLASS_CONTROLLER = 250;
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;
const PARAMETER_SCOPES = ["Cluster", "Namespace"];

/** IsDomainPrefixedPath (k8s.io/apimachinery@v0.36.5/pkg/util/validation/validation.go): `acme.io/foo`. */
function validateDomainPrefixedPath(value: string, path: FieldPath, r: Reporter, check: string): void {
  if (value.length === 0) {
    r.required(path, "", check);
    return;
  }
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) {
    r.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")', check);
    return;
  }
  const host = value.slice(0, slash);
  for (const m of isDns1123Subdomain(host)) r.invalid(path, host, m, check);
  const rest = value.slice(slash + 1);
  if (!HTTP_PATH.test(rest)) r.invalid(path, rest, regexError("Invalid path", HTTP_PATH_FMT), check);
}

/** ValidateIngressClass: validateIngressClassSpec and validateIngressClassParametersReference (scope defaults to Cluster). */
function validateIngressClass(ic: Obj, r: Reporter): void {
  const check = "networking/ingress-class";
  const spec = asObj(ic.spec) ?? {};
  const path = FieldPath.of("spec");
  const controller = asStr(spec.controller) ?? "";
  if (controller.length > MAX_INGRESS_CLASS_CONTROLLER) r.tooLong(path.child("controller"), MAX_INGRESS_CLASS_CONTROLLER, check);
  validateDomainPrefixedPath(controller, path.child("controller"), r, check);
  const params = asObj(spec.parameters);
  if (!params) return;
  const pp = path.child("parameters");
  const apiGroup = asStr(params.apiGroup);
  if (apiGroup !== undefined) for (const m of isDns1123Subdomain(apiGroup)) r.invalid(pp.child("apiGroup"), apiGroup, m, check);
  for (const field of ["kind", "name"]) {
    const v = asStr(params[field]) ?? "";
    if (v === "") r.required(pp.child(field), "", check);
    else for (const m of isValidPathSegmentName(v)) r.invalid(pp.child(field), v, m, check);
  }
  const scope = asStr(params.scope) ?? "Cluster";
  const namespace = asStr(params.namespace);
  if (!PARAMETER_SCOPES.includes(scope)) r.notSupported(pp.child("scope"), scope, PARAMETER_SCOPES, check);
  else if (scope === "Namespace") {
    if (namespace === undefined) r.required(pp.child("namespace"), "`parameters.scope` is set to 'Namespace'", check);
    else for (const m of isDns1123Label(namespace)) r.invalid(pp.child("namespace"), namespace, m, check);
  } else if (namespace !== undefined) r.forbidden(pp.child("namespace"), "`parameters.scope` is set to 'Cluster'", check);
}

/** validateIPAddressParentReference: parentRef is required; group, resource, name and namespace are path segments. */
function validateIPAddress(ip: Obj, r: Reporter): void {
  const check = "networking/ip-address";
  const parent = asObj(asObj(ip.spec)?.parentRef);
  const path = FieldPath.of("spec", "parentRef");
  if (!parent) {
    r.required(path, "", check);
    return;
  }
  const group = asStr(parent.group) ?? "";
  if (group !== "") r.invalidEach(path.child("group"), group, isDns1123Subdomain(group), check);
  for (const field of ["resource", "name"]) {
    const v = asStr(parent[field]) ?? "";
    if (v === "") r.required(path.child(field), "", check);
    else r.invalidEach(path.child(field), v, isValidPathSegmentName(v), check);
  }
  const namespace = asStr(parent.namespace) ?? "";
  if (namespace !== "") r.invalidEach(path.child("namespace"), namespace, isValidPathSegmentName(namespace), check);
}

/** validation.IsValidCIDR: strict parsing, then the canonical form (`2001:db8::/64`). */
function strictCidrProblems(value: string): string[] {
  const problems = legacyCidrProblems(value);
  if (problems.length > 0) return problems;
  const [ip = "", bits = ""] = value.split("/");
  const canonical = `${canonicalIp(ip)}/${bits}`;
  return canonical === value ? [] : [`must be in canonical form (${goQuote(canonical)})`];
}

/** validateServiceCIDRSpec: one or two CIDRs, strict and canonical, one of each family. */
function validateServiceCIDR(sc: Obj, r: Reporter): void {
  const check = "networking/service-cidr";
  const path = FieldPath.of("spec", "cidrs");
  const cidrs = (asArr(asObj(sc.spec)?.cidrs) ?? []).map((c) => asStr(c) ?? "");
  if (cidrs.length === 0) {
    r.required(path, "at least one CIDR required", check);
    return;
  }
  if (cidrs.length > 2) {
    // Go prints the internal spec struct, whose field has no JSON tag
    r.invalid(path, new JsonValue({ CIDRs: cidrs }), "may only hold up to 2 values", check);
    return;
  }
  cidrs.forEach((c, i) => {
    r.invalidEach(path.index(i), c, strictCidrProblems(c), check);
  });
  const family = (c: string) => (isCidrSloppy(c) ? (cidrRange(c).v6 ? "IPv6" : "IPv4") : "");
  if (cidrs.length === 2 && family(cidrs[0] as string) !== "" && family(cidrs[0] as string) === family(cidrs[1] as string)) {
    r.invalid(path, cidrs, "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64", check);
  }
}

export const NETWORKING: NativeGroup = {
  group: "networking.k8s.io",
  kinds: { Ingress: validateIngress, NetworkPolicy: validateNetworkPolicy, IngressClass: validateIngressClass, IPAddress: validateIPAddress, ServiceCIDR: validateServiceCIDR },
};

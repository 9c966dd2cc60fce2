// EndpointSlice (discovery.k8s.io/v1) as the API server validates it on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/discovery/validation/validation.go (ValidateEndpointSlice,
// ValidateEndpointSliceCreate, validateEndpoints, validatePorts, validateAddressType, validateHints),
// pkg/apis/discovery/v1/defaults.go (port name "" and protocol TCP) and pkg/registry/discovery/endpointslice/strategy.go
// (deprecatedTopology is dropped on create through v1, so it is never validated), and
// k8s.io/apimachinery@v0.36.5/pkg/util/validation (IsValidIP, IsFullyQualifiedDomainName).
import { endpointIpProblems, ipProblems, strictIpProblems } from "./ip.ts";
import { isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import type { Reporter } from "./report.ts";
import { type Obj, asArr, asObj, asStr, objItems } from "./values.ts";

const ADDRESS_TYPES = ["FQDN", "IPv4", "IPv6"];
const PROTOCOLS = ["SCTP", "TCP", "UDP"];
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;
const MAX_NODE_HINTS = 8;
const C = "discovery/endpoint-slice";

/** IsFullyQualifiedDomainName: the first problem only, the DNS messages joined with ",". */
export function fqdnProblem(path: FieldPath, name: string, r: Reporter, check: string): void {
  if (name.length === 0) {
    r.required(path, "", check);
    return;
  }
  const trimmed = name.endsWith(".") ? name.slice(0, -1) : name;
  const sub = isDns1123Subdomain(trimmed);
  if (sub.length > 0) {
    r.invalid(path, trimmed, sub.join(","), check);
    return;
  }
  const labels = trimmed.split(".");
  if (labels.length < 2) {
    r.invalid(path, trimmed, "should be a domain with at least two segments separated by dots", check);
    return;
  }
  for (const label of labels) {
    const errs = isDns1123Label(label);
    if (errs.length > 0) {
      r.invalid(path, label, errs.join(","), check);
      return;
    }
  }
}

function validateAddress(address: string, addressType: string, addressPath: FieldPath, i: number, r: Reporter): void {
  const ap = addressPath.index(i);
  if (addressType === "IPv4" || addressType === "IPv6") {
    const v4 = addressType === "IPv4";
    const problems = v4 ? ipProblems(address) : strictIpProblems(address);
    if (problems.length > 0) {
      r.invalidEach(ap, address, problems, C);
      return;
    }
    const isV6 = address.includes(":");
    if (v4 && isV6) r.invalid(addressPath, address, "must be an IPv4 address", C);
    if (!v4 && !isV6) r.invalid(addressPath, address, "must be an IPv6 address", C);
    r.invalidEach(ap, address, endpointIpProblems(address), C);
  } else if (addressType === "FQDN") fqdnProblem(ap, address, r, C);
  // unknown address types fall through unvalidated (validateAddressType reports them)
}

function validateHints(hints: Obj, path: FieldPath, r: Reporter): void {
  const zones = objItems(hints.forZones);
  const zonesPath = path.child("forZones");
  if ((asArr(hints.forZones)?.length ?? 0) > MAX_ZONE_HINTS) {
    r.tooMany(zonesPath, asArr(hints.forZones)?.length ?? 0, MAX_ZONE_HINTS, C);
    return;
  }
  const seenZones = new Set<string>();
  for (const [i, zone] of zones) {
    const name = asStr(zone.name) ?? "";
    const zp = zonesPath.index(i).child("name");
    if (seenZones.has(name)) r.duplicate(zp, name, C);
    else seenZones.add(name);
    r.invalidEach(zp, name, isLabelValue(name), C);
  }
  const nodesPath = path.child("forNodes");
  if ((asArr(hints.forNodes)?.length ?? 0) > MAX_NODE_HINTS) {
    r.tooMany(nodesPath, asArr(hints.forNodes)?.length ?? 0, MAX_NODE_HINTS, C);
    return;
  }
  const seenNodes = new Set<string>();
  for (const [i, node] of objItems(hints.forNodes)) {
    const name = asStr(node.name) ?? "";
    const np = nodesPath.index(i).child("name");
    if (seenNodes.has(name)) r.duplicate(np, name, C);
    else seenNodes.add(name);
    r.invalidEach(np, name, isDns1123Subdomain(name), C);
  }
}

function validateEndpoints(list: unknown, addressType: string, r: Reporter): void {
  const path = FieldPath.of("endpoints");
  const all = asArr(list) ?? [];
  if (all.length > MAX_ENDPOINTS) {
    r.tooMany(path, all.length, MAX_ENDPOINTS, C);
    return;
  }
  for (const [i, endpoint] of objItems(list)) {
    const ep = path.index(i);
    const addressPath = ep.child("addresses");
    const addresses = asArr(endpoint.addresses) ?? [];
    if (addresses.length === 0) r.required(addressPath, "must contain at least 1 address", C);
    else if (addresses.length > MAX_ADDRESSES) r.tooMany(addressPath, addresses.length, MAX_ADDRESSES, C);
    addresses.forEach((a, j) => {
      if (typeof a === "string") validateAddress(a, addressType, addressPath, j, r);
    });
    const nodeName = asStr(endpoint.nodeName);
    if (nodeName !== undefined) r.invalidEach(ep.child("nodeName"), nodeName, isDns1123Subdomain(nodeName), C);
    const hostname = asStr(endpoint.hostname);
    if (hostname !== undefined) r.invalidEach(ep.child("hostname"), hostname, isDns1123Label(hostname), C);
    const hints = asObj(endpoint.hints);
    if (hints) validateHints(hints, ep.child("hints"), r);
  }
}

function validatePorts(list: unknown, r: Reporter): void {
  const path = FieldPath.of("ports");
  const all = asArr(list) ?? [];
  if (all.length > MAX_PORTS) {
    r.tooMany(path, all.length, MAX_PORTS, C);
    return;
  }
  const names = new Set<string>();
  for (const [i, port] of objItems(list)) {
    const pp = path.index(i);
    // v1 defaults: name "" and protocol TCP
    const name = asStr(port.name) ?? "";
    if (name.length > 0) r.invalidEach(pp.child("name"), name, isDns1123Label(name), C);
    if (names.has(name)) r.duplicate(pp.child("name"), name, C);
    else names.add(name);
    const protocol = asStr(port.protocol) ?? "TCP";
    if (!PROTOCOLS.includes(protocol)) r.notSupported(pp.child("protocol"), protocol, PROTOCOLS, C);
    const appProtocol = asStr(port.appProtocol);
    if (appProtocol !== undefined) r.invalidEach(pp.child("appProtocol"), appProtocol, isQualifiedName(appProtocol), C);
  }
}

/** ValidateEndpointSliceCreate (ObjectMeta is validated for every kind by objectmeta.ts). */
function validateEndpointSlice(slice: Obj, r: Reporter): void {
  const addressType = asStr(slice.addressType) ?? "";
  if (addressType === "") r.required(FieldPath.of("addressType"), "", C);
  else if (!ADDRESS_TYPES.includes(addressType)) r.notSupported(FieldPath.of("addressType"), addressType, ADDRESS_TYPES, C);
  validatePorts(slice.ports, r);
  validateEndpoints(slice.endpoints, addressType, r);
}

export const DISCOVERY: NativeGroup = { group: "discovery.k8s.io", kinds: { EndpointSlice: validateEndpointSlice } };

// The core API group (v1): Service, Pod, PodTemplate, ReplicationController, Namespace, ConfigMap, Secret,
// ServiceAccount, as the API server validates them on create after the v1 defaults.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (validateService, validateServicePort,
// ValidateServiceClusterIPsRelatedFields, validateServiceExternalTrafficPolicy, ValidateConfigMap, ValidateSecret,
// ValidateNamespace, ValidatePodCreate, ValidateReplicationController) and pkg/apis/core/v1/defaults.go.
import { selectorMatches } from "./labelselector.ts";
import { legacyCidrProblems } from "./cidr.ts";
import { endpointIpProblems, ipProblems } from "./ip.ts";
import { isConfigMapKey, isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidPortNum } from "./names.ts";
import { validateLabels } from "./objectmeta.ts";
import { FieldPath } from "./path.ts";
import { validateAnnotationsMatchFields } from "./pod-security.ts";
import { podRestartPolicy, validatePodSpec, validatePodSpecificAnnotations, validatePodTemplateSpec, validatePortNumOrName } from "./podspec.ts";
import { validateLimitRange } from "./limitrange.ts";
import { validatePersistentVolume } from "./persistentvolume.ts";
import { validatePvcSpec } from "./pvc.ts";
import { quantityString } from "./quantity.ts";
import { aggregateContainerResources, STANDARD_QUOTA, validateQuotaHard } from "./resources.ts";
import { initIpFamilyFields } from "./service-ips.ts";
import type { NativeGroup } from "./registry.ts";
import { goMap, JsonValue, type Reporter } from "./report.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr, objItems, stringEntries } from "./values.ts";

const C = "core";
const SPEC = FieldPath.of("spec");
const PROTOCOLS = ["SCTP", "TCP", "UDP"];
const SERVICE_TYPES = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const MAX_SECRET_SIZE = 1024 * 1024;

const str = (v: unknown): string => asStr(v) ?? "";
const int = (v: unknown): number => asNum(v) ?? 0;

const SOURCE_RANGES_ANNOTATION = "service.beta.kubernetes.io/load-balancer-source-ranges";

/**
 * loadBalancerSourceRanges (CIDRs, space-padding allowed; the server names the field `LoadBalancerSourceRanges`), or
 * without them the load-balancer-source-ranges annotation (a comma-separated list): LoadBalancer only, each a CIDR.
 */
function validateSourceRanges(service: Obj, spec: Obj, type: string, r: Reporter): void {
  const check = `${C}/load-balancer`;
  const ranges = asArr(spec.loadBalancerSourceRanges) ?? [];
  const pointer = SPEC.child("loadBalancerSourceRanges");
  if (ranges.length > 0) {
    const path = SPEC.child("LoadBalancerSourceRanges");
    if (type !== "LoadBalancer") r.forbidden(path, "may only be used when `type` is 'LoadBalancer'", check, pointer.pointer());
    ranges.forEach((v, i) => {
      const value = str(v).trim();
      for (const m of legacyCidrProblems(value)) r.invalid(path.index(i), value, m, check, pointer.index(i).pointer());
    });
    return;
  }
  const annotations = asObj(asObj(service.metadata)?.annotations) ?? {};
  const raw = annotations[SOURCE_RANGES_ANNOTATION];
  if (typeof raw !== "string") return;
  const path = FieldPath.of("metadata", "annotations").key(SOURCE_RANGES_ANNOTATION);
  if (type !== "LoadBalancer") r.forbidden(path, "may only be used when `type` is 'LoadBalancer'", check);
  const value = raw.trim();
  if (value === "") return;
  for (const cidr of value.split(",")) for (const m of legacyCidrProblems(cidr.trim())) r.invalid(path, cidr.trim(), m, check);
}

function validateService(svc: Obj, r: Reporter): void {
  const spec = asObj(svc.spec) ?? {};
  const meta = asObj(svc.metadata) ?? {};
  // v1 defaults: type ClusterIP, sessionAffinity None, port protocol TCP, targetPort = port,
  // externalTrafficPolicy Cluster when externally accessible, internalTrafficPolicy Cluster,
  // allocateLoadBalancerNodePorts true for LoadBalancer
  const type = str(spec.type) || "ClusterIP";
  const clusterIP = str(spec.clusterIP);
  // the REST layer copies clusterIP into clusterIPs before validating (normalizeClusterIPs)
  let clusterIPs = (asArr(spec.clusterIPs) ?? []).map(str);
  if (clusterIPs.length === 0 && clusterIP !== "") clusterIPs = [clusterIP];
  const headless = clusterIPs.length === 1 && clusterIPs[0] === "None";
  const ports = objItems(spec.ports);
  const check = `${C}/service`;
  // the allocator's IP-family checks run before validation; when they refuse, nothing else is reported
  if (initIpFamilyFields(spec, type, r)) return;

  if (ports.length === 0 && !headless && type !== "ExternalName") r.required(SPEC.child("ports"), "", `${C}/service-port`);
  if (type === "LoadBalancer" && headless) r.invalid(SPEC.child("clusterIPs").index(0), "None", "may not be set to 'None' for LoadBalancer services", check);
  if (type === "NodePort" && headless) r.invalid(SPEC.child("clusterIPs").index(0), "None", "may not be set to 'None' for NodePort services", check);
  if (type === "ExternalName") {
    if (clusterIPs.length > 0) r.forbidden(SPEC.child("clusterIPs"), "may not be set for ExternalName services", check);
    if ((asArr(spec.ipFamilies)?.length ?? 0) > 0) r.forbidden(SPEC.child("ipFamilies"), "may not be set for ExternalName services", check);
    if (spec.ipFamilyPolicy !== undefined) r.forbidden(SPEC.child("ipFamilyPolicy"), "may not be set for ExternalName services", check);
    const cname = str(spec.externalName).replace(/\.$/, "");
    if (cname) r.invalidEach(SPEC.child("externalName"), cname, isDns1123Subdomain(cname), check);
    else r.required(SPEC.child("externalName"), "", check);
  }

  const portNames = new Set<string>();
  const portCheck = `${C}/service-port`;
  for (const [i, port] of ports) {
    const p = SPEC.child("ports").index(i);
    const name = str(port.name);
    if (ports.length > 1 && name === "") r.required(p.child("name"), "", portCheck);
    else if (name !== "") {
      r.invalidEach(p.child("name"), name, isDns1123Label(name), portCheck);
      if (portNames.has(name)) r.duplicate(p.child("name"), name, portCheck);
      else portNames.add(name);
    }
    const num = int(port.port);
    r.invalidEach(p.child("port"), num, isValidPortNum(num), portCheck);
    const protocol = str(port.protocol) || "TCP";
    if (!PROTOCOLS.includes(protocol)) r.notSupported(p.child("protocol"), protocol, PROTOCOLS, portCheck);
    const target = port.targetPort === undefined || port.targetPort === 0 || port.targetPort === "" ? num : port.targetPort;
    validatePortNumOrName(target, p.child("targetPort"), r, portCheck);
    const appProtocol = asStr(port.appProtocol);
    if (appProtocol !== undefined) r.invalidEach(p.child("appProtocol"), appProtocol, isQualifiedName(appProtocol), portCheck);
  }

  if (spec.selector !== undefined) validateLabels(spec.selector, SPEC.child("selector"), r, `${C}/service-selector`);

  const affinity = str(spec.sessionAffinity) || "None";
  if (affinity !== "ClientIP" && affinity !== "None") r.notSupported(SPEC.child("sessionAffinity"), affinity, ["ClientIP", "None"], `${C}/session-affinity`);
  if (affinity === "ClientIP") {
    // defaulting fills a missing timeout with 10800
    const timeout = asNum(asObj(asObj(spec.sessionAffinityConfig)?.clientIP)?.timeoutSeconds);
    if (timeout !== undefined && (timeout <= 0 || timeout > 86400)) {
      r.invalid(SPEC.child("sessionAffinityConfig", "clientIP", "timeoutSeconds"), timeout, "must be greater than 0 and less than 86400", `${C}/session-affinity`);
    }
  }
  // with affinity None, defaulting drops sessionAffinityConfig, so it is never "forbidden" on create


  (asArr(spec.externalIPs) ?? []).forEach((ip, i) => {
    if (typeof ip !== "string") return;
    const problems = ipProblems(ip);
    r.invalidEach(SPEC.child("externalIPs").index(i), ip, problems.length > 0 ? problems : endpointIpProblems(ip), check);
  });

  if (!SERVICE_TYPES.includes(type)) r.notSupported(SPEC.child("type"), type, SERVICE_TYPES, `${C}/service-type`);

  const nodePortCheck = `${C}/node-port`;
  const seenNodePorts = new Set<string>();
  const seenPorts = new Set<string>();
  for (const [i, port] of ports) {
    const p = SPEC.child("ports").index(i);
    const nodePort = int(port.nodePort);
    const protocol = str(port.protocol) || "TCP";
    if (nodePort !== 0) {
      if (type === "ClusterIP") r.forbidden(p.child("nodePort"), "may not be used when `type` is 'ClusterIP'", nodePortCheck);
      const key = `${protocol}/${nodePort}`;
      // the node port allocator runs before validation and refuses the second use first (Go's "Duplicate value" never shows)
      if (seenNodePorts.has(key)) r.invalid(p.child("nodePort"), nodePort, "provided port is already allocated", nodePortCheck);
      seenNodePorts.add(key);
    }
    const key = `${protocol}/${int(port.port)}`;
    if (seenPorts.has(key)) r.duplicate(p, new JsonValue({ Name: "", Protocol: protocol, AppProtocol: null, Port: int(port.port), TargetPort: 0, NodePort: 0 }), `${C}/service-port`);
    seenPorts.add(key);
  }

  validateSourceRanges(svc, spec, type, r);
  if (spec.allocateLoadBalancerNodePorts !== undefined && type !== "LoadBalancer") {
    r.forbidden(SPEC.child("allocateLoadBalancerNodePorts"), "may only be used when `type` is 'LoadBalancer'", `${C}/load-balancer`);
  }
  const lbClass = asStr(spec.loadBalancerClass);
  if (lbClass !== undefined) {
    if (type === "LoadBalancer") r.invalidEach(SPEC.child("loadBalancerClass"), lbClass, isQualifiedName(lbClass), `${C}/load-balancer`);
    else r.forbidden(SPEC.child("loadBalancerClass"), "may only be used when `type` is 'LoadBalancer'", `${C}/load-balancer`);
  }

  const externallyAccessible = type === "LoadBalancer" || type === "NodePort" || (type === "ClusterIP" && (asArr(spec.externalIPs)?.length ?? 0) > 0);
  const etp = str(spec.externalTrafficPolicy) || (externallyAccessible ? "Cluster" : "");
  const trafficCheck = `${C}/traffic-policy`;
  if (!externallyAccessible) {
    if (etp !== "") r.invalid(SPEC.child("externalTrafficPolicy"), etp, "may only be set for externally-accessible services", trafficCheck);
  } else if (etp !== "Cluster" && etp !== "Local") {
    r.notSupported(SPEC.child("externalTrafficPolicy"), etp, ["Cluster", "Local"], trafficCheck);
  }
  const hcnp = int(spec.healthCheckNodePort);
  const needsHealthCheck = type === "LoadBalancer" && etp === "Local";
  if (!needsHealthCheck && hcnp !== 0) {
    r.invalid(SPEC.child("healthCheckNodePort"), hcnp, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'", trafficCheck);
  } else if (needsHealthCheck && hcnp !== 0) {
    r.invalidEach(SPEC.child("healthCheckNodePort"), hcnp, isValidPortNum(hcnp), trafficCheck);
  }
  const itp = asStr(spec.internalTrafficPolicy);
  if (itp !== undefined && itp !== "Cluster" && itp !== "Local") r.notSupported(SPEC.child("internalTrafficPolicy"), itp, ["Cluster", "Local"], trafficCheck);
  const td = asStr(spec.trafficDistribution);
  if (td !== undefined && !["PreferClose", "PreferSameZone", "PreferSameNode"].includes(td)) {
    r.notSupported(SPEC.child("trafficDistribution"), td, ["PreferClose", "PreferSameZone", "PreferSameNode"], trafficCheck);
  }
  const annotations = asObj(meta.annotations) ?? {};
  const hints = asStr(annotations["service.kubernetes.io/topology-aware-hints"]);
  const mode = asStr(annotations["service.kubernetes.io/topology-mode"]);
  if (hints !== undefined && mode !== undefined && hints !== mode) {
    r.invalid(FieldPath.of("metadata", "annotations").key("service.kubernetes.io/topology-mode"), mode, "must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified", check);
  }
}

function validateConfigMap(cm: Obj, r: Reporter): void {
  const check = `${C}/configmap-key`;
  const data = asObj(cm.data) ?? {};
  const binary = asObj(cm.binaryData) ?? {};
  let total = 0;
  for (const key in data) {
    const p = FieldPath.of("data").key(key);
    r.invalidEach(p, key, isConfigMapKey(key), check);
    if (key in binary) r.invalid(p, key, "duplicate of key present in binaryData", check);
    total += Buffer.byteLength(str(data[key]), "utf8");
  }
  for (const key in binary) {
    r.invalidEach(FieldPath.of("binaryData").key(key), key, isConfigMapKey(key), check);
    total += Buffer.from(str(binary[key]), "base64").length;
  }
  if (total > MAX_SECRET_SIZE) r.tooLong(FieldPath.of(""), MAX_SECRET_SIZE, `${C}/configmap-size`, "bytes", "");
}

/**
 * Why Go's json.Unmarshal of a text into a map[string]interface{} fails, or undefined when it does not (null decodes
 * to an empty map). The two usual failures are worded as Go words them; other syntax errors keep JavaScript's wording.
 */
function goJsonObjectProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    return text.trim() === "" || /end of (JSON|data)/i.test(message) ? "unexpected end of JSON input" : `invalid JSON: ${message}`;
  }
  if (value === null || (typeof value === "object" && !Array.isArray(value))) return undefined;
  const goType = Array.isArray(value) ? "array" : typeof value === "boolean" ? "bool" : typeof value;
  return `json: cannot unmarshal ${goType} into Go value of type map[string]interface {}`;
}

function validateSecret(secret: Obj, r: Reporter): void {
  const check = `${C}/secret-key`;
  const dataPath = FieldPath.of("data");
  // stringData is merged into data (as bytes) by the v1 conversion, before validation
  const keys = new Map<string, number>();
  const data = asObj(secret.data) ?? {};
  for (const key in data) keys.set(key, Buffer.from(str(data[key]), "base64").length);
  for (const [key, value] of stringEntries(secret.stringData)) keys.set(key, Buffer.byteLength(value, "utf8"));
  let total = 0;
  for (const [key, size] of keys) {
    const pointer = key in data ? dataPath.key(key).pointer() : FieldPath.of("stringData").key(key).pointer();
    r.invalidEach(dataPath.key(key), key, isConfigMapKey(key), check, pointer);
    total += size;
  }
  if (total > MAX_SECRET_SIZE) r.tooLong(dataPath, MAX_SECRET_SIZE, `${C}/secret-size`);
  const type = str(secret.type) || "Opaque";
  const annotations = asObj(asObj(secret.metadata)?.annotations) ?? {};
  const typeCheck = `${C}/secret-type`;
  const need = (key: string) => {
    if (!keys.has(key)) r.required(dataPath.key(key), "", typeCheck);
  };
  switch (type) {
    case "kubernetes.io/service-account-token":
      if (str(annotations["kubernetes.io/service-account.name"]) === "") {
        r.required(FieldPath.of("metadata", "annotations").key("kubernetes.io/service-account.name"), "", typeCheck);
      }
      break;
    case "kubernetes.io/dockercfg":
    case "kubernetes.io/dockerconfigjson": {
      const key = type === "kubernetes.io/dockercfg" ? ".dockercfg" : ".dockerconfigjson";
      if (!keys.has(key)) {
        need(key);
        break;
      }
      // the content must be a JSON object (json.Unmarshal into a map); its value is never printed
      const stringData = asObj(secret.stringData) ?? {};
      const text = typeof stringData[key] === "string" ? (stringData[key] as string) : Buffer.from(str(data[key]), "base64").toString("utf8");
      const problem = goJsonObjectProblem(text);
      if (problem) r.invalid(dataPath.key(key), "<secret contents redacted>", problem, typeCheck, key in stringData ? FieldPath.of("stringData").key(key).pointer() : undefined);
      break;
    }
    case "kubernetes.io/basic-auth":
      if (!keys.has("username") && !keys.has("password")) {
        need("username");
        need("password");
      }
      break;
    case "kubernetes.io/ssh-auth":
      if ((keys.get("ssh-privatekey") ?? 0) === 0) r.required(dataPath.key("ssh-privatekey"), "", typeCheck);
      break;
    case "kubernetes.io/tls":
      need("tls.crt");
      need("tls.key");
      break;
    default:
      break;
  }
}

function validateNamespace(ns: Obj, r: Reporter): void {
  const finalizers = asArr(asObj(ns.spec)?.finalizers) ?? [];
  const path = FieldPath.of("spec", "finalizers");
  for (const f of finalizers) {
    if (typeof f !== "string") continue;
    r.invalidEach(path, f, isQualifiedName(f), `${C}/namespace-finalizers`);
    if (!f.includes("/") && !["kubernetes", "orphan", "foregroundDeletion"].includes(f)) {
      r.invalid(path, f, "name is neither a standard finalizer name nor is it fully qualified", `${C}/namespace-finalizers`);
    }
  }
}

/**
 * SetDefaults_Pod: a container's requests default to its limits; with PodLevelResources, pod-level hugepage limits and
 * requests are filled from the containers (defaultHugePagePodLimits, defaultPodRequests); with hostNetwork, a
 * container port's hostPort defaults to its containerPort.
 */
function defaultPodSpec(input: Obj): Obj {
  const withDefaults = (list: unknown, hostNetwork: boolean) =>
    list === undefined
      ? undefined
      : objItems(list).map(([, c]) => {
          const resources = asObj(c.resources);
          const limits = asObj(resources?.limits);
          const out: Record<string, unknown> = { ...c };
          if (limits) out.resources = { ...resources, requests: { ...limits, ...(asObj(resources?.requests) ?? {}) } };
          if (hostNetwork) out.ports = objItems(c.ports).map(([, p]) => (int(p.hostPort) === 0 ? { ...p, hostPort: p.containerPort } : p));
          return out;
        });
  const hostNetwork = asBool(input.hostNetwork) === true;
  const podResources = asObj(input.resources);
  // most pods need none of this: keep the object as it is then
  if (!hostNetwork && !podResources && !requestsToDefault(input.containers) && !requestsToDefault(input.initContainers)) return input;
  const spec: Record<string, unknown> = { ...input };
  if (input.containers !== undefined) spec.containers = withDefaults(input.containers, hostNetwork);
  if (input.initContainers !== undefined) spec.initContainers = withDefaults(input.initContainers, hostNetwork);
  if (podResources) spec.resources = defaultPodLevelResources(spec, podResources);
  return spec;
}

/** Whether a container of the list has a limit without the matching request. */
function requestsToDefault(list: unknown): boolean {
  for (const [, c] of objItems(list)) {
    const limits = asObj(asObj(c.resources)?.limits);
    if (!limits) continue;
    const requests = asObj(asObj(c.resources)?.requests) ?? {};
    for (const k in limits) if (!(k in requests)) return true;
  }
  return false;
}

const POD_LEVEL_RESOURCE = (name: string) => name === "cpu" || name === "memory" || name.startsWith("hugepages-");

/** defaultHugePagePodLimits then defaultPodRequests (pkg/apis/core/v1/defaults.go), on a spec whose containers are defaulted. */
function defaultPodLevelResources(spec: Obj, resources: Obj): Obj {
  const limits: Record<string, unknown> = { ...(asObj(resources.limits) ?? {}) };
  const requests: Record<string, unknown> = { ...(asObj(resources.requests) ?? {}) };
  if (Object.keys(limits).length === 0 && Object.keys(requests).length === 0) return resources;
  for (const [name, q] of aggregateContainerResources(spec, "limits")) {
    if (name.startsWith("hugepages-") && !(name in requests) && !(name in limits)) limits[name] = quantityString(q);
  }
  if (Object.keys(limits).length === 0) return resources;
  for (const [name, q] of aggregateContainerResources(spec, "requests")) {
    // overcommittable pod-level resources only: not hugepages
    if (!(name in requests) && POD_LEVEL_RESOURCE(name) && !name.startsWith("hugepages-")) requests[name] = quantityString(q);
  }
  for (const [name, q] of Object.entries(limits)) if (!(name in requests) && POD_LEVEL_RESOURCE(name)) requests[name] = q;
  return { ...resources, limits, ...(Object.keys(requests).length > 0 ? { requests } : {}) };
}

/** ValidatePodCreate: the pod's annotations and spec, what only a new Pod may not set, annotations against fields. */
function validatePod(pod: Obj, r: Reporter): void {
  const meta = asObj(pod.metadata) ?? {};
  const raw = asObj(pod.spec) ?? {};
  const spec = defaultPodSpec(raw);
  const annotations = asObj(meta.annotations) ?? {};
  validatePodSpecificAnnotations(annotations, spec, { goPath: FieldPath.of("metadata", "annotations"), pointer: "/metadata/annotations" }, r);
  validatePodSpec(spec, SPEC, r, { resourceIsPod: true, podName: str(meta.name) });
  for (const list of ["containers", "initContainers"]) {
    for (const [i, ctr] of objItems(raw[list])) {
      const image = str(ctr.image);
      if (image !== image.trim()) r.invalid(SPEC.child(list).index(i).child("image"), image, "must not have leading or trailing whitespace", `${C}/container-image`);
    }
  }
  if ((asArr(raw.ephemeralContainers)?.length ?? 0) > 0) r.forbidden(SPEC.child("ephemeralContainers"), "cannot be set on create", `${C}/ephemeral-containers`);
  if (str(raw.nodeName) !== "" && (asArr(raw.schedulingGates)?.length ?? 0) > 0) {
    r.forbidden(SPEC.child("nodeName"), "cannot be set until all schedulingGates have been cleared", `${C}/scheduling-gates`);
  }
  validateAnnotationsMatchFields(annotations, spec, SPEC, r, true);
}

const QUOTA_SCOPES = ["Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "VolumeAttributesClass", "CrossNamespacePodAffinity"];
const EXISTS_ONLY_SCOPES = new Set(["BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "CrossNamespacePodAffinity"]);
const isStandardQuotaResource = (name: string) => STANDARD_QUOTA.has(name) || name.startsWith("hugepages-") || name.startsWith("requests.hugepages-");
const POD_QUOTA_RESOURCES = new Set(["pods", "cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory"]);

/** helper.IsResourceQuotaScopeValidForResource: which tracked resources a scope may limit. */
function scopeAllowsResource(scope: string, resource: string): boolean {
  switch (scope) {
    case "Terminating":
    case "NotTerminating":
    case "NotBestEffort":
    case "PriorityClass":
    case "CrossNamespacePodAffinity":
      return POD_QUOTA_RESOURCES.has(resource);
    case "BestEffort":
      return resource === "pods";
    case "VolumeAttributesClass":
      return resource === "persistentvolumeclaims" || resource === "requests.storage";
    default:
      return true;
  }
}

/** The internal core.ScopeSelector as json.Marshal prints it (no json tags: Go field names). */
const internalScopeSelector = (selector: Obj) => ({
  MatchExpressions: objItems(selector.matchExpressions).map(([, e]) => ({ ScopeName: str(e.scopeName), Operator: str(e.operator), Values: asArr(e.values) ?? null })),
});

/**
 * ResourceQuota (ValidateResourceQuotaSpec): hard resource names and values, scopes (validateResourceQuotaScopes) and
 * the scope selector (validateScopedResourceSelectorRequirement), each scope against the hard resources it may limit.
 */
function validateResourceQuota(quota: Obj, r: Reporter): void {
  const spec = asObj(quota.spec) ?? {};
  const check = `${C}/resource-quota`;
  validateQuotaHard(spec.hard, SPEC.child("hard"), r);
  const hard = Object.keys(asObj(spec.hard) ?? {}).sort();
  const unsuited = (scope: string) => hard.filter((k) => isStandardQuotaResource(k) && !scopeAllowsResource(scope, k));
  const scopes = (asArr(spec.scopes) ?? []).filter((s): s is string => typeof s === "string");
  // Go checks each conflicting pair (BestEffort/NotBestEffort, Terminating/NotTerminating) on its own
  const conflicts = (set: ReadonlySet<string>) => [set.has("BestEffort") && set.has("NotBestEffort"), set.has("Terminating") && set.has("NotTerminating")].filter(Boolean).length;
  // the server names the whole list; the pointer names the scope
  scopes.forEach((scope, i) => {
    if (!QUOTA_SCOPES.includes(scope)) r.invalid(SPEC.child("scopes"), scopes, "unsupported scope", check, SPEC.child("scopes").index(i).pointer());
    // one finding per resource the scope cannot limit, as Go loops over them
    for (const resource of unsuited(scope)) {
      r.invalid(SPEC.child("scopes"), scopes, "unsupported scope applied to resource", check, SPEC.child("hard").key(resource).pointer());
    }
  });
  for (let n = conflicts(new Set(scopes)); n > 0; n--) r.invalid(SPEC.child("scopes"), scopes, "conflicting scopes", check);
  const selector = asObj(spec.scopeSelector);
  if (!selector) return;
  const mp = SPEC.child("scopeSelector", "matchExpressions");
  const seen = new Set<string>();
  for (const [i, req] of objItems(selector.matchExpressions)) {
    const scope = str(req.scopeName);
    const op = str(req.operator);
    const values = asArr(req.values) ?? [];
    const pointer = mp.index(i);
    if (!QUOTA_SCOPES.includes(scope)) r.invalid(mp.child("scopeName"), scope, "unsupported scope", check, pointer.child("scopeName").pointer());
    for (const resource of unsuited(scope)) {
      // Go prints the internal ScopeSelector struct here: JSON with Go's field names, values null when absent
      r.invalid(mp, new JsonValue(internalScopeSelector(selector)), "unsupported scope applied to resource", check, SPEC.child("hard").key(resource).pointer());
    }
    if (EXISTS_ONLY_SCOPES.has(scope) && op !== "Exists") {
      r.invalid(
        mp.child("operator"),
        op,
        "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        check,
        pointer.child("operator").pointer(),
      );
    }
    if (op === "In" || op === "NotIn") {
      if (values.length === 0) r.required(mp.child("values"), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector", check, pointer.child("values").pointer());
    } else if (op === "Exists" || op === "DoesNotExist") {
      if (values.length > 0) r.invalid(mp.child("values"), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector", check, pointer.child("values").pointer());
    } else {
      r.invalid(mp.child("operator"), op, "not a valid selector operator", check, pointer.child("operator").pointer());
    }
    seen.add(scope);
  }
  // Go reports the scope list (not the selector) here, null when the quota has no scopes
  for (let n = conflicts(seen); n > 0; n--) r.invalid(mp, scopes.length > 0 ? scopes : null, "conflicting scopes", check);
}

/** Endpoints (ValidateEndpoints after SetDefaults_Endpoints: port protocol TCP). */
function validateEndpoints(ep: Obj, r: Reporter): void {
  const check = `${C}/endpoints`;
  const path = FieldPath.of("subsets");
  for (const [i, subset] of objItems(ep.subsets)) {
    const sp = path.index(i);
    const addresses = objItems(subset.addresses);
    const notReady = objItems(subset.notReadyAddresses);
    if (addresses.length === 0 && notReady.length === 0) r.required(sp, "must specify `addresses` or `notReadyAddresses`", check);
    for (const [field, list] of [
      ["addresses", addresses],
      ["notReadyAddresses", notReady],
    ] as const) {
      for (const [j, address] of list) {
        const ap = sp.child(field).index(j);
        const ip = str(address.ip);
        r.invalidEach(ap.child("ip"), ip, ipProblems(ip), check);
        const hostname = str(address.hostname);
        if (hostname) r.invalidEach(ap.child("hostname"), hostname, isDns1123Label(hostname), check);
        const nodeName = asStr(address.nodeName);
        if (nodeName !== undefined) r.invalidEach(ap.child("nodeName"), nodeName, isDns1123Subdomain(nodeName), check);
        // ValidateEndpointIP parses again: an unparsable address is reported a second time
        const sloppy = ipProblems(ip);
        if (sloppy.length === 1 && sloppy[0]?.startsWith("must be a valid IP address")) r.invalid(ap.child("ip"), ip, "must be a valid IP address", check);
        else r.invalidEach(ap.child("ip"), ip, endpointIpProblems(ip), check);
      }
    }
    const ports = objItems(subset.ports);
    for (const [j, port] of ports) {
      const pp = sp.child("ports").index(j);
      const name = str(port.name);
      if (ports.length > 1 && name === "") r.required(pp.child("name"), "", check);
      else if (name) r.invalidEach(pp.child("name"), name, isDns1123Label(name), check);
      const num = int(port.port);
      r.invalidEach(pp.child("port"), num, isValidPortNum(num), check);
      const protocol = str(port.protocol) || "TCP";
      if (!PROTOCOLS.includes(protocol)) r.notSupported(pp.child("protocol"), protocol, PROTOCOLS, check);
      const appProtocol = asStr(port.appProtocol);
      if (appProtocol !== undefined) r.invalidEach(pp.child("appProtocol"), appProtocol, isQualifiedName(appProtocol), check);
    }
  }
}

function validatePersistentVolumeClaim(pvc: Obj, r: Reporter): void {
  validatePvcSpec(asObj(pvc.spec) ?? {}, SPEC, r, { claimObject: true });
}

function validatePodTemplate(pt: Obj, r: Reporter): void {
  validatePodTemplateSpec(pt.template, FieldPath.of("template"), r);
}

function validateReplicationController(rc: Obj, r: Reporter): void {
  const spec = asObj(rc.spec) ?? {};
  const check = `${C}/replication-controller`;
  const replicas = asNum(spec.replicas) ?? 1;
  if (replicas < 0) r.invalid(SPEC.child("replicas"), replicas, "must be greater than or equal to 0", check);
  const minReady = int(spec.minReadySeconds);
  if (minReady < 0) r.invalid(SPEC.child("minReadySeconds"), minReady, "must be greater than or equal to 0", check);
  const template = asObj(spec.template);
  // an RC without selector is defaulted to its template's labels
  // (SetDefaults_ReplicationController: also an empty selector map, which is the unset map after decoding)
  const given = asObj(spec.selector);
  const selector = (given && Object.keys(given).length > 0 ? given : undefined) ?? asObj(asObj(template?.metadata)?.labels) ?? {};
  const selectorPath = SPEC.child("selector");
  if (Object.keys(selector).length === 0) r.required(selectorPath, "", check);
  else validateLabels(selector, selectorPath, r, check);
  if (!template) {
    r.required(SPEC.child("template"), "", check);
    return;
  }
  const labels = asObj(asObj(template.metadata)?.labels) ?? {};
  if (Object.keys(selector).length > 0 && !selectorMatches({ matchLabels: selector }, labels)) {
    r.invalid(SPEC.child("template", "metadata", "labels"), new JsonValue(goMap(labels)), "`selector` does not match template `labels`", check);
  }
  validatePodTemplateSpec(template, SPEC.child("template"), r);
  const restart = podRestartPolicy(asObj(template.spec));
  if (restart !== "Always") r.notSupported(SPEC.child("template", "spec", "restartPolicy"), restart, ["Always"], check);
  if (asObj(template.spec)?.activeDeadlineSeconds !== undefined) {
    r.forbidden(SPEC.child("template", "spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicationController is not Supported", check);
  }
}

export const core: NativeGroup = {
  group: "",
  kinds: {
    Service: validateService,
    ConfigMap: validateConfigMap,
    Secret: validateSecret,
    Namespace: validateNamespace,
    Pod: validatePod,
    PodTemplate: validatePodTemplate,
    PersistentVolumeClaim: validatePersistentVolumeClaim,
    ResourceQuota: validateResourceQuota,
    LimitRange: validateLimitRange,
    Endpoints: validateEndpoints,
    PersistentVolume: (pv, r) => validatePersistentVolume(pv, r, SPEC),
    ReplicationController: validateReplicationController,
    // ServiceAccount: ObjectMeta only (ValidateServiceAccount), run for every kind
  },
};

// PodTemplateSpec and PodSpec as the API server validates them on create, after the v1 defaults it applies first
// (dnsPolicy ClusterFirst, restartPolicy Always, terminationGracePeriodSeconds 30, terminationMessagePolicy File,
// port protocol TCP, probe timeouts and thresholds, httpGet path and scheme, a volume without source is an emptyDir,
// fieldRef apiVersion v1, resource values rounded up to milli units). Shared by every kind with a pod template.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (ValidatePodTemplateSpec, ValidatePodSpec and
// the functions it calls) and pkg/apis/core/v1/defaults.go.
import { ENV_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from "./field-selectors.ts";
import { ipProblems } from "./ip.ts";
import { validateLabelSelector } from "./labelselector.ts";
import { validateLocalDescendingPath } from "./local-path.ts";
import {
  isConfigMapKey,
  isDns1123Label,
  isDns1123Subdomain,
  isDns1123SubdomainWithUnderscore,
  isHttpHeaderName,
  isLabelValue,
  isQualifiedName,
  isRelaxedEnvVarName,
  isValidPortName,
  isValidPortNum,
  inclusiveRangeError,
  nameIsDnsSubdomain,
} from "./names.ts";
import { validateAnnotations, validateLabels } from "./objectmeta.ts";
import type { FieldPath } from "./path.ts";
import {
  type AnnotationPaths,
  validateAnnotationsMatchFields,
  validateAppArmorPodAnnotations,
  validateAppArmorProfile,
  validateLinux,
  validateSeccompPodAnnotations,
  validateWindows,
  validateWindowsHostProcessPod,
  validateWindowsOptions,
  visitContainers,
} from "./pod-security.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { validatePodResourceConsistency, validateResourceRequirements } from "./resources.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr, objItems } from "./values.ts";
import { validateVolumes } from "./volumes.ts";

const C = "core";
const PROTOCOLS = ["SCTP", "TCP", "UDP"];
const PULL_POLICIES = ["Always", "IfNotPresent", "Never"];
const RESTART_POLICIES = ["Always", "OnFailure", "Never"];
const DNS_POLICIES = ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];
const MAX_INT32 = 2147483647;


const str = (v: unknown): string => asStr(v) ?? "";
const int = (v: unknown): number => asNum(v) ?? 0;

export interface PodSpecOptions {
  /** The spec is a Pod's own (hostPort must equal containerPort with hostNetwork). @default false */
  readonly resourceIsPod?: boolean;
  /** The Pod's name (Pods only): its ephemeral volumes' claims are named after it. */
  readonly podName?: string;
}

/** ValidatePodTemplateSpec: template labels and annotations, then the pod spec. */
export function validatePodTemplateSpec(template: unknown, path: FieldPath, r: Reporter, options: PodSpecOptions = {}): void {
  const t = asObj(template) ?? {};
  const meta = asObj(t.metadata) ?? {};
  // ObjectMeta is embedded in Go's PodTemplateSpec: the server says `spec.template.labels`
  validateLabels(meta.labels, path.child("labels"), r, "meta/labels", () => path.child("metadata", "labels").pointer());
  validateAnnotations(meta.annotations, path.child("annotations"), r, "meta/annotations", () => path.child("metadata", "annotations").pointer());
  const spec = asObj(t.spec) ?? {};
  const annotations = asObj(meta.annotations) ?? {};
  validatePodSpecificAnnotations(annotations, spec, { goPath: path.child("annotations"), pointer: path.child("metadata", "annotations").pointer() }, r);
  validatePodSpec(spec, path.child("spec"), r, options);
  validateAnnotationsMatchFields(annotations, spec, path.child("spec"), r, false);
  if ((asArr(spec.ephemeralContainers)?.length ?? 0) > 0) {
    r.forbidden(path.child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template", `${C}/ephemeral-containers`);
  }
}

/**
 * ValidatePodSpecificAnnotations: a mirror pod names its node, the tolerations annotation holds valid tolerations, the
 * deletion cost is an int32, and the seccomp and AppArmor annotations are well formed.
 */
export function validatePodSpecificAnnotations(annotations: Obj, spec: Obj, paths: AnnotationPaths, r: Reporter): void {
  let any = false;
  for (const _ in annotations) {
    any = true;
    break;
  }
  if (!any) return;
  const check = `${C}/pod-annotations`;
  const keyPointer = (k: string) => `${paths.pointer}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  const mirror = asStr(annotations[MIRROR_POD_ANNOTATION]);
  if (mirror !== undefined && str(spec.nodeName) === "") {
    r.invalid(paths.goPath.key(MIRROR_POD_ANNOTATION), mirror, "must set spec.nodeName if mirror pod annotation is set", check, keyPointer(MIRROR_POD_ANNOTATION));
  }
  const tolerations = str(annotations[TOLERATIONS_ANNOTATION]);
  if (tolerations !== "") validateTolerationsInPodAnnotations(tolerations, paths, r, keyPointer(TOLERATIONS_ANNOTATION));
  const cost = asStr(annotations[DELETION_COST_ANNOTATION]);
  if (cost !== undefined && !isDeletionCost(cost)) {
    r.invalid(paths.goPath.key(DELETION_COST_ANNOTATION), cost, "must be a 32bit integer", check, keyPointer(DELETION_COST_ANNOTATION));
  }
  validateSeccompPodAnnotations(annotations, paths, r);
  validateAppArmorPodAnnotations(annotations, spec, paths, r);
}

const MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";
const TOLERATIONS_ANNOTATION = "scheduler.alpha.kubernetes.io/tolerations";
const DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";

/** GetDeletionCostFromPodAnnotations: a decimal int32 without '+' or leading zeros. */
function isDeletionCost(v: string): boolean {
  const firstDigitOk = v.length > 0 && (v[0] === "-" || v === "0" || (v[0] as string) >= "1" && (v[0] as string) <= "9");
  if (!firstDigitOk || !/^-?[0-9]+$/.test(v)) return false;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647;
}

/** ValidateTolerationsInPodAnnotations: a JSON list of tolerations, each valid (Go's path appends the key as a field). */
function validateTolerationsInPodAnnotations(text: string, paths: AnnotationPaths, r: Reporter, pointer: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // Go's encoding/json words its syntax errors differently; the verdict is the same
    r.invalid(paths.goPath, TOLERATIONS_ANNOTATION, `invalid JSON: ${(err as Error).message}`, `${C}/pod-annotations`, pointer);
    return;
  }
  if (parsed === null) return;
  if (!Array.isArray(parsed)) {
    const goType = typeof parsed === "object" ? "object" : typeof parsed === "boolean" ? "bool" : typeof parsed;
    r.invalid(paths.goPath, TOLERATIONS_ANNOTATION, `json: cannot unmarshal ${goType} into Go value of type []core.Toleration`, `${C}/pod-annotations`, pointer);
    return;
  }
  const before = r.findings.length;
  validateTolerations(parsed, paths.goPath.child(TOLERATIONS_ANNOTATION), r);
  for (let i = before; i < r.findings.length; i++) {
    const f = r.findings[i];
    if (f) r.findings[i] = { ...f, path: pointer };
  }
}

/** The restart policy a template's pods get (after defaulting), for owners that restrict it. */
export const podRestartPolicy = (spec: Obj | undefined): string => str(spec?.restartPolicy) || "Always";

export function validatePodSpec(spec: Obj, path: FieldPath, r: Reporter, options: PodSpecOptions = {}): void {
  const gracePeriod = asNum(spec.terminationGracePeriodSeconds) ?? 30;
  const sc = asObj(spec.securityContext) ?? {};
  // v1 keeps hostUsers (and hostNetwork/hostPID/hostIPC) on the PodSpec; Go's internal type has them in the security context
  const hostUsers = asBool(spec.hostUsers) !== false;
  const volumes = validateVolumes(spec.volumes, path.child("volumes"), r, { podName: options.podName, resourceIsPod: options.resourceIsPod });
  const claimNames = new Set(objItems(spec.resourceClaims).map(([, c]) => str(c.name)));
  const restartPolicy = podRestartPolicy(spec);
  validateContainers(spec.containers, volumes, claimNames, gracePeriod, path.child("containers"), r, restartPolicy, hostUsers);
  validateInitContainers(spec.initContainers, spec.containers, volumes, claimNames, gracePeriod, path.child("initContainers"), r, restartPolicy, hostUsers);
  validatePodResources(spec, claimNames, path, r);
  validateHostNetworkDeps(spec, path, r, options);
  if (!RESTART_POLICIES.includes(restartPolicy)) r.notSupported(path.child("restartPolicy"), restartPolicy, RESTART_POLICIES, `${C}/restart-policy`);
  const dnsPolicy = str(spec.dnsPolicy) || "ClusterFirst";
  if (!DNS_POLICIES.includes(dnsPolicy)) r.notSupported(path.child("dnsPolicy"), dnsPolicy, DNS_POLICIES, `${C}/dns-policy`);
  validateLabels(spec.nodeSelector, path.child("nodeSelector"), r, `${C}/node-selector`);
  validatePodSecurityContext(sc, path.child("securityContext"), r);
  if (asBool(spec.shareProcessNamespace) === true && asBool(spec.hostPID) === true) {
    // Go's internal type keeps shareProcessNamespace in the security context, hence its path
    r.invalid(path.child("securityContext", "shareProcessNamespace"), true, "ShareProcessNamespace and HostPID cannot both be enabled", `${C}/security-context`, path.child("shareProcessNamespace").pointer());
  }
  validateSysctls(sc, spec, path.child("securityContext", "sysctls"), r);
  validateWindowsOptions(asObj(sc.windowsOptions), path.child("securityContext", "windowsOptions"), r);
  validateAppArmorProfile(asObj(sc.appArmorProfile), path.child("securityContext", "appArmorProfile"), r);
  for (const [i, s] of objItems(spec.imagePullSecrets)) {
    if (Object.keys(s).some((k) => k !== "name")) r.invalid(path.child("imagePullSecrets").index(i), s, "only name may be set", `${C}/image-pull-secrets`);
  }
  validateAffinity(asObj(spec.affinity), path.child("affinity"), r);
  validateDnsConfig(spec.dnsConfig, dnsPolicy, path.child("dnsConfig"), r);
  for (const [i, g] of objItems(spec.readinessGates)) {
    const t = str(g.conditionType);
    r.invalidEach(path.child("readinessGates").index(i).child("conditionType"), t, isQualifiedName(t), `${C}/readiness-gates`);
  }
  const seenGates = new Set<string>();
  for (const [i, g] of objItems(spec.schedulingGates)) {
    const n = str(g.name);
    r.invalidEach(path.child("schedulingGates").index(i), n, isQualifiedName(n), `${C}/scheduling-gates`);
    if (seenGates.has(n)) r.duplicate(path.child("schedulingGates").index(i), n, `${C}/scheduling-gates`);
    seenGates.add(n);
  }
  validateTopologySpread(spec.topologySpreadConstraints, path.child("topologySpreadConstraints"), r);
  validateWindowsHostProcessPod(spec, path, r);
  validateHostUsers(spec, path, r);
  validatePodHostName(spec, path, r);
  const sa = str(spec.serviceAccountName);
  if (sa) r.invalidEach(path.child("serviceAccountName"), sa, isDns1123Subdomain(sa), `${C}/service-account-name`);
  const nodeName = str(spec.nodeName);
  if (nodeName) r.invalidEach(path.child("nodeName"), nodeName, isDns1123Subdomain(nodeName), `${C}/node-name`);
  const ads = asNum(spec.activeDeadlineSeconds);
  if (ads !== undefined && (ads < 1 || ads > MAX_INT32)) r.invalid(path.child("activeDeadlineSeconds"), ads, inclusiveRangeError(1, MAX_INT32), `${C}/active-deadline-seconds`);
  const hostname = str(spec.hostname);
  if (hostname) r.invalidEach(path.child("hostname"), hostname, isDns1123Label(hostname), `${C}/hostname`);
  const subdomain = str(spec.subdomain);
  if (subdomain) r.invalidEach(path.child("subdomain"), subdomain, isDns1123Label(subdomain), `${C}/hostname`);
  validateTolerations(spec.tolerations, path.child("tolerations"), r);
  for (const [i, alias] of objItems(spec.hostAliases)) {
    const ap = path.child("hostAliases").index(i);
    const ip = str(alias.ip);
    r.invalidEach(ap.child("ip"), ip, ipProblems(ip), `${C}/host-aliases`);
    (asArr(alias.hostnames) ?? []).forEach((h, j) => {
      if (typeof h === "string") r.invalidEach(ap.child("hostnames").index(j), h, isDns1123Subdomain(h), `${C}/host-aliases`);
    });
  }
  const pc = str(spec.priorityClassName);
  if (pc) r.invalidEach(path.child("priorityClassName"), pc, isDns1123Subdomain(pc), `${C}/priority-class-name`);
  const rc = asStr(spec.runtimeClassName);
  if (rc !== undefined) r.invalidEach(path.child("runtimeClassName"), rc, isDns1123Subdomain(rc), `${C}/runtime-class-name`);
  const pp = asStr(spec.preemptionPolicy);
  if (pp === "") r.required(path.child("preemptionPolicy"), "", `${C}/preemption-policy`);
  else if (pp !== undefined && pp !== "PreemptLowerPriority" && pp !== "Never") r.notSupported(path.child("preemptionPolicy"), pp, ["PreemptLowerPriority", "Never"], `${C}/preemption-policy`);
  const os = asObj(spec.os);
  if (os) {
    const name = str(os.name);
    if (name === "") r.required(path.child("os", "name"), "", `${C}/os`);
    else if (name !== "linux" && name !== "windows") r.notSupported(path.child("os"), name, ["linux", "windows"], `${C}/os`, path.child("os", "name").pointer());
    else if (name === "linux") validateLinux(spec, path, r);
    else validateWindows(spec, path, r);
  }
}

function validateContainerCommon(ctr: Obj, volumes: ReadonlySet<string>, claimNames: ReadonlySet<string>, path: FieldPath, r: Reporter, restartPolicy: string, hostUsers: boolean): void {
  const name = str(ctr.name);
  if (name === "") r.required(path.child("name"), "", `${C}/container-name`);
  else r.invalidEach(path.child("name"), name, isDns1123Label(name), `${C}/container-name`);
  if (str(ctr.image) === "") r.required(path.child("image"), "", `${C}/container-image`);
  const tmp = str(ctr.terminationMessagePolicy) || "File";
  if (tmp !== "File" && tmp !== "FallbackToLogsOnError") r.notSupported(path.child("terminationMessagePolicy"), tmp, ["File", "FallbackToLogsOnError"], `${C}/termination-message-policy`);
  validateContainerPorts(ctr.ports, path.child("ports"), r);
  validateEnv(ctr.env, path.child("env"), r);
  validateEnvFrom(ctr.envFrom, path.child("envFrom"), r);
  validateVolumeMounts(ctr, volumes, path.child("volumeMounts"), r);
  const pull = asStr(ctr.imagePullPolicy);
  // unset is defaulted from the image tag (Always or IfNotPresent), both valid
  if (pull !== undefined && pull !== "" && !PULL_POLICIES.includes(pull)) r.notSupported(path.child("imagePullPolicy"), pull, PULL_POLICIES, `${C}/image-pull-policy`);
  validateResourceRequirements(ctr.resources, path.child("resources"), r, { podClaimNames: claimNames });
  validateResizePolicy(ctr.resizePolicy, path.child("resizePolicy"), r, restartPolicy);
  validateSecurityContext(asObj(ctr.securityContext), path.child("securityContext"), r, hostUsers);
}

function validateContainers(
  list: unknown,
  volumes: ReadonlySet<string>,
  claimNames: ReadonlySet<string>,
  gracePeriod: number,
  path: FieldPath,
  r: Reporter,
  restartPolicy: string,
  hostUsers: boolean,
): void {
  const containers = objItems(list);
  if (containers.length === 0) {
    r.required(path, "", `${C}/containers`);
    return;
  }
  const names = new Set<string>();
  for (const [i, ctr] of containers) {
    const p = path.index(i);
    validateContainerCommon(ctr, volumes, claimNames, p, r, restartPolicy, hostUsers);
    const name = str(ctr.name);
    if (names.has(name)) r.duplicate(p.child("name"), name, `${C}/container-name`);
    else names.add(name);
    validateLifecycle(asObj(ctr.lifecycle), gracePeriod, p.child("lifecycle"), r);
    validateProbe(asObj(ctr.livenessProbe), gracePeriod, p.child("livenessProbe"), r, "liveness");
    validateProbe(asObj(ctr.readinessProbe), gracePeriod, p.child("readinessProbe"), r, "readiness");
    validateProbe(asObj(ctr.startupProbe), gracePeriod, p.child("startupProbe"), r, "startup");
    warnUnknownProbePorts(ctr, p, r);
    // 1.36: ContainerRestartRules (beta, on) lets regular containers set restartPolicy with rules; checked there
    validateContainerRestartPolicy(ctr, p, r, false);
  }
  checkHostPortConflicts(containers, path, r);
}

function validateInitContainers(
  list: unknown,
  regular: unknown,
  volumes: ReadonlySet<string>,
  claimNames: ReadonlySet<string>,
  gracePeriod: number,
  path: FieldPath,
  r: Reporter,
  restartPolicy: string,
  hostUsers: boolean,
): void {
  const names = new Set(objItems(regular).map(([, c]) => str(c.name)));
  for (const [i, ctr] of objItems(list)) {
    const p = path.index(i);
    validateContainerCommon(ctr, volumes, claimNames, p, r, restartPolicy, hostUsers);
    validateContainerRestartPolicy(ctr, p, r, true);
    const restartAlways = asStr(ctr.restartPolicy) === "Always";
    const name = str(ctr.name);
    if (names.has(name)) r.duplicate(p.child("name"), name, `${C}/container-name`);
    else if (name.length > 0) names.add(name);
    checkHostPortConflicts([[i, ctr]], path, r);
    if (restartAlways) {
      validateLifecycle(asObj(ctr.lifecycle), gracePeriod, p.child("lifecycle"), r);
      validateProbe(asObj(ctr.livenessProbe), gracePeriod, p.child("livenessProbe"), r, "liveness");
      validateProbe(asObj(ctr.readinessProbe), gracePeriod, p.child("readinessProbe"), r, "readiness");
      validateProbe(asObj(ctr.startupProbe), gracePeriod, p.child("startupProbe"), r, "startup");
    } else {
      for (const f of ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"]) {
        if (ctr[f] !== undefined) r.forbidden(p.child(f), "may not be set for init containers without restartPolicy=Always", `${C}/init-containers`);
      }
      for (const [j, rp] of objItems(ctr.resizePolicy)) {
        if (str(rp.restartPolicy) === "RestartContainer") {
          r.invalid(p.child("resizePolicy").index(j).child("restartPolicy"), "RestartContainer", "must not be set to 'RestartContainer' for non-sidecar initContainers", `${C}/init-containers`);
        }
      }
    }
  }
}

/**
 * Container restartPolicy and restartPolicyRules. In 1.36 ContainerRestartRules and RestartAllContainersOnContainerExits
 * are beta and on: every container (regular, init, sidecar) goes through the same check.
 */
function validateContainerRestartPolicy(ctr: Obj, path: FieldPath, r: Reporter, _init: boolean): void {
  const check = `${C}/container-restart-policy`;
  const policy = asStr(ctr.restartPolicy);
  const rules = objItems(ctr.restartPolicyRules);
  if (policy === undefined) {
    if (rules.length === 0) return;
    r.required(path.child("restartPolicy"), "must specify restartPolicy when restart rules are used", check);
  } else if (!["Always", "Never", "OnFailure"].includes(policy)) {
    r.notSupported(path.child("restartPolicy"), policy, ["Always", "Never", "OnFailure"], check);
  }
  if (rules.length > 20) r.tooMany(path.child("restartPolicyRules"), rules.length, 20, check);
  for (const [i, rule] of rules) {
    const p = path.child("restartPolicyRules").index(i);
    const action = str(rule.action);
    if (action !== "Restart" && action !== "RestartAllContainers") r.notSupported(p.child("action"), action, ["Restart", "RestartAllContainers"], check);
    const exitCodes = asObj(rule.exitCodes);
    if (!exitCodes) {
      r.required(p.child("exitCodes"), "must be specified", check);
      continue;
    }
    const op = str(exitCodes.operator);
    if (op !== "In" && op !== "NotIn") r.notSupported(p.child("exitCodes", "operator"), op, ["In", "NotIn"], check);
    const values = asArr(exitCodes.values) ?? [];
    if (values.length > 255) r.tooMany(p.child("exitCodes", "values"), values.length, 255, check);
  }
}

function validateContainerPorts(list: unknown, path: FieldPath, r: Reporter): void {
  const names = new Set<string>();
  const check = `${C}/container-port`;
  for (const [i, port] of objItems(list)) {
    const p = path.index(i);
    const name = str(port.name);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) r.invalidEach(p.child("name"), name, msgs, check);
      else if (names.has(name)) r.duplicate(p.child("name"), name, check);
      else names.add(name);
    }
    const cp = int(port.containerPort);
    if (cp === 0) r.required(p.child("containerPort"), "", check);
    else r.invalidEach(p.child("containerPort"), cp, isValidPortNum(cp), check);
    const hp = int(port.hostPort);
    if (hp !== 0) r.invalidEach(p.child("hostPort"), hp, isValidPortNum(hp), check);
    const protocol = str(port.protocol) || "TCP";
    if (!PROTOCOLS.includes(protocol)) r.notSupported(p.child("protocol"), protocol, PROTOCOLS, check);
  }
}

function checkHostPortConflicts(containers: readonly (readonly [number, Obj])[], path: FieldPath, r: Reporter): void {
  const seen = new Set<string>();
  for (const [ci, ctr] of containers) {
    for (const [pi, port] of objItems(ctr.ports)) {
      const hp = int(port.hostPort);
      if (hp === 0) continue;
      const key = `${str(port.protocol) || "TCP"}/${str(port.hostIP)}/${hp}`;
      if (seen.has(key)) r.duplicate(path.index(ci).child("ports").index(pi).child("hostPort"), key, `${C}/host-port`);
      else seen.add(key);
    }
  }
}

function validateHostNetworkDeps(spec: Obj, path: FieldPath, r: Reporter, options: PodSpecOptions): void {
  if (asBool(spec.hostNetwork) !== true) return;
  for (const [i, ctr] of objItems(spec.containers)) {
    for (const [j, port] of objItems(ctr.ports)) {
      const hp = int(port.hostPort);
      const cp = int(port.containerPort);
      if ((options.resourceIsPod || hp !== 0) && hp !== cp) {
        r.invalid(path.child("containers").index(i).child("ports").index(j).child("hostPort"), hp, "must match `containerPort` when `hostNetwork` is true", `${C}/host-port`);
      }
    }
  }
}


function validateEnv(list: unknown, path: FieldPath, r: Reporter): void {
  const check = `${C}/env`;
  for (const [i, ev] of objItems(list)) {
    const p = path.index(i);
    const name = str(ev.name);
    if (name === "") r.required(p.child("name"), "", check);
    else r.invalidEach(p.child("name"), name, isRelaxedEnvVarName(name), check);
    const from = asObj(ev.valueFrom);
    if (!from) continue;
    const fp = p.child("valueFrom");
    let sources = 0;
    const fieldRef = asObj(from.fieldRef);
    if (fieldRef) {
      sources++;
      validateObjectFieldSelector(fieldRef, ENV_FIELD_PATHS, fp.child("fieldRef"), r, check);
    }
    const resourceFieldRef = asObj(from.resourceFieldRef);
    if (resourceFieldRef) {
      sources++;
      validateResourceFieldSelector(resourceFieldRef, fp.child("resourceFieldRef"), r, check, false);
    }
    for (const key of ["configMapKeyRef", "secretKeyRef"] as const) {
      const sel = asObj(from[key]);
      if (!sel) continue;
      sources++;
      const sp = fp.child(key);
      const n = str(sel.name);
      r.invalidEach(sp.child("name"), n, isDns1123Subdomain(n), check);
      const k = str(sel.key);
      if (k === "") r.required(sp.child("key"), "", check);
      else r.invalidEach(sp.child("key"), k, isConfigMapKey(k), check);
    }
    const fileKeyRef = asObj(from.fileKeyRef);
    if (fileKeyRef) sources++;
    if (sources === 0) r.invalid(fp, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`", check);
    else if (str(ev.value) !== "") r.invalid(fp, "", "may not be specified when `value` is not empty", check);
    else if (sources > 1) r.invalid(fp, "", "may not have more than one field specified at a time", check);
  }
}


function validateEnvFrom(list: unknown, path: FieldPath, r: Reporter): void {
  const check = `${C}/env-from`;
  for (const [i, ev] of objItems(list)) {
    const p = path.index(i);
    const prefix = str(ev.prefix);
    if (prefix) r.invalidEach(p.child("prefix"), prefix, isRelaxedEnvVarName(prefix), check);
    let sources = 0;
    for (const key of ["configMapRef", "secretRef"] as const) {
      const ref = asObj(ev[key]);
      if (!ref) continue;
      sources++;
      const n = str(ref.name);
      if (n === "") r.required(p.child(key, "name"), "", check);
      // Go checks these names as prefixes (a trailing '-' is allowed)
      else r.invalidEach(p.child(key, "name"), n, nameIsDnsSubdomain(n, true), check);
    }
    // Go reports these at the envFrom list, not the entry
    if (sources === 0) r.invalid(path, "", "must specify one of: `configMapRef` or `secretRef`", check, p.pointer());
    else if (sources > 1) r.invalid(path, "", "may not have more than one field specified at a time", check, p.pointer());
  }
}

/** validateMountRecursiveReadOnly: Enabled/IfPossible need readOnly and no propagation (Go names the list, not the entry). */
function validateMountRecursiveReadOnly(m: Obj, listPath: FieldPath, p: FieldPath, r: Reporter): void {
  const rro = asStr(m.recursiveReadOnly);
  if (rro === undefined) return;
  const check = `${C}/volume-mount`;
  const rp = listPath.child("recursiveReadOnly");
  const pointer = p.child("recursiveReadOnly").pointer();
  if (rro === "Disabled") return;
  if (rro === "Enabled" || rro === "IfPossible") {
    if (asBool(m.readOnly) !== true) r.forbidden(rp, "may only be specified when readOnly is true", check, pointer);
    const propagation = asStr(m.mountPropagation);
    if (propagation !== undefined && propagation !== "None") r.forbidden(rp, "may only be specified when mountPropagation is None or not specified", check, pointer);
  } else {
    r.notSupported(rp, rro, ["Disabled", "Enabled", "IfPossible"], check, pointer);
  }
}

function validateVolumeMounts(ctr: Obj, volumes: ReadonlySet<string>, path: FieldPath, r: Reporter): void {
  const check = `${C}/volume-mount`;
  const mountPoints = new Set<string>();
  const devices = new Map(objItems(ctr.volumeDevices).map(([, d]) => [str(d.name), str(d.devicePath)] as const));
  const devicePaths = new Set(devices.values());
  for (const [i, m] of objItems(ctr.volumeMounts)) {
    const p = path.index(i);
    const name = str(m.name);
    if (name === "") r.required(p.child("name"), "", check);
    if (!volumes.has(name)) r.notFound(p.child("name"), name, check);
    const mountPath = str(m.mountPath);
    if (mountPath === "") r.required(p.child("mountPath"), "", check);
    if (mountPoints.has(mountPath)) r.invalid(p.child("mountPath"), mountPath, "must be unique", check);
    mountPoints.add(mountPath);
    if (devices.has(name)) r.invalid(p.child("name"), name, "must not already exist in volumeDevices", check);
    if (devicePaths.has(mountPath)) r.invalid(p.child("mountPath"), mountPath, "must not already exist as a path in volumeDevices", check);
    const subPath = str(m.subPath);
    // Go names the list (volumeMounts.subPath), not the entry, for these two
    if (subPath) validateLocalDescendingPath(subPath, path.child("subPath"), r, check, p.child("subPath").pointer());
    const subPathExpr = str(m.subPathExpr);
    if (subPathExpr) {
      if (subPath) r.invalid(p.child("subPathExpr"), subPathExpr, "subPathExpr and subPath are mutually exclusive", check);
      validateLocalDescendingPath(subPathExpr, path.child("subPathExpr"), r, check, p.child("subPathExpr").pointer());
    }
    const propagation = asStr(m.mountPropagation);
    if (propagation !== undefined && !["None", "HostToContainer", "Bidirectional"].includes(propagation)) {
      r.notSupported(path.child("mountPropagation"), propagation, ["Bidirectional", "HostToContainer", "None"], check, p.child("mountPropagation").pointer());
    } else if (propagation === "Bidirectional" && asBool(asObj(ctr.securityContext)?.privileged) !== true) {
      r.forbidden(path.child("mountPropagation"), "Bidirectional mount propagation is available only to privileged containers", check, p.child("mountPropagation").pointer());
    }
    validateMountRecursiveReadOnly(m, path, p, r);
  }
}


type ProbeKind = "liveness" | "readiness" | "startup";

/** A probe after defaulting (timeout 1, period 10, success 1, failure 3 where 0); exactly one handler. */
function validateProbe(probe: Obj | undefined, gracePeriod: number, path: FieldPath, r: Reporter, kind: ProbeKind): void {
  if (!probe) return;
  const check = `${C}/probe`;
  validateHandler(probe, gracePeriod, path, r, true);
  const value = (k: string, dflt: number) => {
    const v = int(probe[k]);
    return v === 0 ? dflt : v;
  };
  for (const [k, d] of [
    ["initialDelaySeconds", 0],
    ["timeoutSeconds", 1],
    ["periodSeconds", 10],
    ["successThreshold", 1],
    ["failureThreshold", 3],
  ] as const) {
    const v = value(k, d);
    if (v < 0) r.invalid(path.child(k), v, "must be greater than or equal to 0", check);
  }
  const tgps = asNum(probe.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps <= 0) r.invalid(path.child("terminationGracePeriodSeconds"), tgps, "must be greater than 0", check);
  if (kind !== "readiness" && value("successThreshold", 1) !== 1) r.invalid(path.child("successThreshold"), value("successThreshold", 1), "must be 1", check);
  if (kind === "readiness" && tgps !== undefined) r.invalid(path.child("terminationGracePeriodSeconds"), tgps, "must not be set for readinessProbes", check);
}

/**
 * Not a server check: the API server accepts a probe whose port names no port of the container (Go only checks the
 * name's format), and the kubelet then fails the probe at run time. Reported as a warning.
 */
function warnUnknownProbePorts(ctr: Obj, path: FieldPath, r: Reporter): void {
  const names = new Set(objItems(ctr.ports).map(([, p]) => str(p.name)));
  for (const probe of ["livenessProbe", "readinessProbe", "startupProbe"]) {
    const pr = asObj(ctr[probe]);
    for (const handler of ["httpGet", "tcpSocket"]) {
      const port = asObj(pr?.[handler])?.port;
      if (typeof port !== "string" || names.has(port) || isValidPortName(port).length > 0) continue;
      r.warn(
        path.child(probe, handler, "port"),
        `container ${JSON.stringify(str(ctr.name))} has no port named ${JSON.stringify(port)}; the API server accepts this, the kubelet's probe fails`,
        `${C}/probe-port-name`,
        `name a port of the container (${[...names].filter(Boolean).join(", ") || "it has none"}) or use the port number`,
      );
    }
  }
}

/** validateHandler: exactly one of exec, httpGet, tcpSocket, grpc (probes) or sleep (lifecycle hooks). */
function validateHandler(h: Obj, gracePeriod: number, path: FieldPath, r: Reporter, probe: boolean): void {
  const check = probe ? `${C}/probe` : `${C}/lifecycle`;
  let handlers = 0;
  const kinds = probe ? ["exec", "httpGet", "tcpSocket", "grpc"] : ["exec", "httpGet", "tcpSocket", "sleep"];
  for (const k of kinds) {
    const action = asObj(h[k]);
    if (!action) continue;
    if (handlers > 0) {
      r.forbidden(path.child(k), "may not specify more than 1 handler type", check);
      continue;
    }
    handlers++;
    const p = path.child(k);
    switch (k) {
      case "exec":
        if ((asArr(action.command)?.length ?? 0) === 0) r.required(p.child("command"), "", check);
        break;
      case "httpGet": {
        validatePortNumOrName(action.port, p.child("port"), r, check);
        const scheme = str(action.scheme) || "HTTP";
        if (scheme !== "HTTP" && scheme !== "HTTPS") r.notSupported(p.child("scheme"), scheme, ["HTTP", "HTTPS"], check);
        for (const [, header] of objItems(action.httpHeaders)) {
          const n = str(header.name);
          r.invalidEach(p.child("httpHeaders"), n, isHttpHeaderName(n), check);
        }
        break;
      }
      case "tcpSocket":
        validatePortNumOrName(action.port, p.child("port"), r, check);
        break;
      case "grpc":
        validatePortNumOrName(int(action.port), p.child("port"), r, check);
        break;
      case "sleep": {
        const seconds = int(action.seconds);
        // 1.36: PodLifecycleSleepActionAllowZero is GA, so 0 is accepted
        if (seconds < 0 || seconds > gracePeriod) {
          r.invalid(p, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`, check);
        }
        break;
      }
    }
  }
  if (handlers === 0) r.required(path, "must specify a handler type", check);
}

export function validatePortNumOrName(port: unknown, path: FieldPath, r: Reporter, check: string): void {
  if (typeof port === "number") r.invalidEach(path, port, isValidPortNum(port), check);
  else if (typeof port === "string") r.invalidEach(path, port, isValidPortName(port), check);
  else if (port === undefined || port === null) r.invalidEach(path, 0, isValidPortNum(0), check);
}

function validateLifecycle(lifecycle: Obj | undefined, gracePeriod: number, path: FieldPath, r: Reporter): void {
  if (!lifecycle) return;
  for (const k of ["postStart", "preStop"]) {
    const h = asObj(lifecycle[k]);
    if (h) validateHandler(h, gracePeriod, path.child(k), r, false);
  }
}

function validateResizePolicy(list: unknown, path: FieldPath, r: Reporter, restartPolicy: string): void {
  const check = `${C}/resize-policy`;
  const seen = new Set<string>();
  for (const [i, p] of objItems(list)) {
    const name = str(p.resourceName);
    if (seen.has(name)) r.duplicate(path.index(i), name, check);
    seen.add(name);
    if (name === "") r.required(path, "", check);
    else if (name !== "cpu" && name !== "memory") r.notSupported(path, name, ["cpu", "memory"], check);
    const policy = str(p.restartPolicy);
    if (policy === "") r.required(path, "", check);
    else if (policy !== "NotRequired" && policy !== "RestartContainer") r.notSupported(path, policy, ["NotRequired", "RestartContainer"], check);
    if (restartPolicy === "Never" && policy !== "NotRequired") r.invalid(path, policy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'", check);
  }
}

const isValidId = (n: number) => n >= 0 && n <= MAX_INT32;

const SYSCTL = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const SYSCTL_RE = "^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";
const IPC_SYSCTLS = new Set(["kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced", "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni"]);

/** The namespace a sysctl lives in (component-helpers' GetNamespace, after NormalizeName's '/' to '.' swap). */
function sysctlNamespace(name: string): "Net" | "IPC" | "" {
  const slash = name.indexOf("/");
  const dot = name.indexOf(".");
  const normal = slash >= 0 && (dot < 0 || slash < dot) ? name.replace(/[./]/g, (c) => (c === "/" ? "." : "/")) : name;
  const base = normal.includes("*") ? normal.slice(0, normal.indexOf("*")) : normal;
  if (IPC_SYSCTLS.has(base)) return "IPC";
  if (base.startsWith("net.")) return "Net";
  if (base.startsWith("fs.mqueue.")) return "IPC";
  return "";
}

/** validateSysctls (pod security context): names, duplicates, none of the host's namespaces with hostNetwork/hostIPC. */
function validateSysctls(sc: Obj, spec: Obj, path: FieldPath, r: Reporter): void {
  const check = `${C}/sysctls`;
  const seen = new Set<string>();
  for (const [i, s] of objItems(sc.sysctls)) {
    const name = str(s.name);
    const p = path.index(i).child("name");
    if (name === "") r.required(p, "", check);
    else if (name.length > 253 || !SYSCTL.test(name)) r.invalid(p, name, `must have at most 253 characters and match regex ${SYSCTL_RE}`, check);
    else if (seen.has(name)) r.duplicate(p, name, check);
    const ns = sysctlNamespace(name);
    if (asBool(spec.hostNetwork) === true && ns === "Net") r.invalid(p, name, "may not be specified when 'hostNetwork' is true", check);
    else if (asBool(spec.hostIPC) === true && ns === "IPC") r.invalid(p, name, "may not be specified when 'hostIPC' is true", check);
    seen.add(name);
  }
}

function validatePodSecurityContext(sc: Obj, path: FieldPath, r: Reporter): void {
  const check = `${C}/security-context`;
  for (const k of ["fsGroup", "runAsUser", "runAsGroup"]) {
    const v = asNum(sc[k]);
    if (v !== undefined && !isValidId(v)) r.invalid(path.child(k), v, inclusiveRangeError(0, MAX_INT32), check);
  }
  (asArr(sc.supplementalGroups) ?? []).forEach((g, i) => {
    if (typeof g === "number" && !isValidId(g)) r.invalid(path.child("supplementalGroups").index(i), g, inclusiveRangeError(0, MAX_INT32), check);
  });
  const fsPolicy = asStr(sc.fsGroupChangePolicy);
  if (fsPolicy !== undefined && fsPolicy !== "OnRootMismatch" && fsPolicy !== "Always") r.notSupported(path.child("fsGroupChangePolicy"), fsPolicy, ["Always", "OnRootMismatch"], check);
  validateSeccompProfile(asObj(sc.seccompProfile), path.child("seccompProfile"), r);
  const sgp = asStr(sc.supplementalGroupsPolicy);
  if (sgp !== undefined && sgp !== "Merge" && sgp !== "Strict") r.notSupported(path.child("supplementalGroupsPolicy"), sgp, ["Merge", "Strict"], check);
}

function validateSeccompProfile(profile: Obj | undefined, path: FieldPath, r: Reporter): void {
  if (!profile) return;
  const check = `${C}/security-context`;
  const type = str(profile.type);
  const local = asStr(profile.localhostProfile);
  if (type === "") r.required(path.child("type"), "type is required when seccompProfile is set", check);
  else if (!["Localhost", "RuntimeDefault", "Unconfined"].includes(type)) r.notSupported(path.child("type"), type, ["Localhost", "RuntimeDefault", "Unconfined"], check);
  if (type === "Localhost") {
    if (local === undefined) r.required(path.child("localhostProfile"), "must be set when seccomp type is Localhost", check);
    else validateLocalDescendingPath(local, path.child("localhostProfile"), r, check);
  } else if (local !== undefined) {
    r.invalid(path.child("localhostProfile"), new JsonValue(goProfile(profile)), "can only be set when seccomp type is Localhost", check);
  }
}

function validateSecurityContext(sc: Obj | undefined, path: FieldPath, r: Reporter, hostUsers: boolean): void {
  if (!sc) return;
  const check = `${C}/security-context`;
  for (const k of ["runAsUser", "runAsGroup"]) {
    const v = asNum(sc[k]);
    if (v !== undefined && !isValidId(v)) r.invalid(path.child(k), v, inclusiveRangeError(0, MAX_INT32), check);
  }
  const procMount = asStr(sc.procMount);
  if (procMount !== undefined) {
    if (procMount !== "Default" && procMount !== "Unmasked") r.notSupported(path.child("procMount"), procMount, ["Default", "Unmasked"], check);
    if (hostUsers && procMount === "Unmasked") r.invalid(path.child("procMount"), procMount, "`hostUsers` must be false to use `Unmasked`", check);
  }
  validateSeccompProfile(asObj(sc.seccompProfile), path.child("seccompProfile"), r);
  // `privileged: true` is refused only by servers started with --allow-privileged=false (EKS allows it): not checked
  if (asBool(sc.allowPrivilegeEscalation) === false) {
    if (asBool(sc.privileged) === true) r.invalid(path, new JsonValue(goSecurityContext(sc)), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true", check);
    for (const cap of asArr(asObj(sc.capabilities)?.add) ?? []) {
      if (cap === "CAP_SYS_ADMIN") r.invalid(path, new JsonValue(goSecurityContext(sc)), "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN", check);
    }
  }
  validateWindowsOptions(asObj(sc.windowsOptions), path.child("windowsOptions"), r);
  validateAppArmorProfile(asObj(sc.appArmorProfile), path.child("appArmorProfile"), r);
}

// Go prints internal structs (no JSON tags: Go field names, every field, nil as null) as bad values.
const orNull = (v: unknown): unknown => (v === undefined ? null : v);
const goProfile = (p: Obj | undefined) => (p ? { Type: str(p.type), LocalhostProfile: orNull(p.localhostProfile) } : null);

function goSecurityContext(sc: Obj): Record<string, unknown> {
  const caps = asObj(sc.capabilities);
  const se = asObj(sc.seLinuxOptions);
  const win = asObj(sc.windowsOptions);
  return {
    Capabilities: caps ? { Add: orNull(caps.add), Drop: orNull(caps.drop) } : null,
    Privileged: orNull(sc.privileged),
    SELinuxOptions: se ? { User: str(se.user), Role: str(se.role), Type: str(se.type), Level: str(se.level) } : null,
    WindowsOptions: win
      ? { GMSACredentialSpecName: orNull(win.gmsaCredentialSpecName), GMSACredentialSpec: orNull(win.gmsaCredentialSpec), RunAsUserName: orNull(win.runAsUserName), HostProcess: orNull(win.hostProcess) }
      : null,
    RunAsUser: orNull(sc.runAsUser),
    RunAsGroup: orNull(sc.runAsGroup),
    RunAsNonRoot: orNull(sc.runAsNonRoot),
    ReadOnlyRootFilesystem: orNull(sc.readOnlyRootFilesystem),
    AllowPrivilegeEscalation: orNull(sc.allowPrivilegeEscalation),
    ProcMount: orNull(sc.procMount),
    SeccompProfile: goProfile(asObj(sc.seccompProfile)),
    AppArmorProfile: goProfile(asObj(sc.appArmorProfile)),
  };
}

function validateHostUsers(spec: Obj, path: FieldPath, r: Reporter): void {
  if (asBool(spec.hostUsers) !== false) return;
  const check = `${C}/host-users`;
  // UserNamespacesHostNetworkSupport is alpha (off) in 1.36
  if (asBool(spec.hostNetwork) === true) r.forbidden(path.child("hostNetwork"), "when `hostUsers` is false", check);
  // the internal type keeps hostPID/hostIPC in the security context, hence Go's paths
  if (asBool(spec.hostPID) === true) r.forbidden(path.child("HostPID"), "when `hostUsers` is false", check, path.child("hostPID").pointer());
  if (asBool(spec.hostIPC) === true) r.forbidden(path.child("HostIPC"), "when `hostUsers` is false", check, path.child("hostIPC").pointer());
  visitContainers(spec, path, (ctr, cp) => {
    if ((asArr(ctr.volumeDevices)?.length ?? 0) > 0) r.forbidden(cp.child("volumeDevices"), "when `hostUsers` is false", check);
  });
}

/** validatePodHostName (HostnameOverride, beta and on in 1.36). */
function validatePodHostName(spec: Obj, path: FieldPath, r: Reporter): void {
  const override = asStr(spec.hostnameOverride);
  if (override === undefined) return;
  const check = `${C}/hostname`;
  const p = path.child("hostnameOverride");
  if (asBool(spec.setHostnameAsFQDN) === true) r.forbidden(p, "may not be specified when setHostnameAsFQDN is true", check);
  if (asBool(spec.hostNetwork) === true) r.forbidden(p, "may not be specified when hostNetwork is true", check);
  if (override.length > 64) r.tooLong(p, 64, check);
  r.invalidEach(p, override, isDns1123Subdomain(override), check);
}

/** validatePodResources (PodLevelResources, beta and on): not for windows pods, no claims, then against the containers. */
function validatePodResources(spec: Obj, claimNames: ReadonlySet<string>, path: FieldPath, r: Reporter): void {
  if (spec.resources === undefined || spec.resources === null) return;
  const p = path.child("resources");
  if (str(asObj(spec.os)?.name) === "windows") {
    r.forbidden(p, "may not be set for a windows pod", `${C}/resources`);
    return;
  }
  if (asObj(spec.resources)?.claims !== undefined && asObj(spec.resources)?.claims !== null) r.forbidden(p.child("claims"), "claims may not be set for Resources at pod-level", `${C}/resources`);
  validateResourceRequirements(spec.resources, p, r, { podLevel: true, podClaimNames: claimNames });
  validatePodResourceConsistency(spec, path, r);
}

function validateDnsConfig(config: unknown, dnsPolicy: string, path: FieldPath, r: Reporter): void {
  const check = `${C}/dns-config`;
  const c = asObj(config);
  if (dnsPolicy === "None") {
    if (!c) {
      r.required(path, "must provide `dnsConfig` when `dnsPolicy` is None", check);
      return;
    }
    if ((asArr(c.nameservers)?.length ?? 0) === 0) {
      r.required(path.child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None", check);
      return;
    }
  }
  if (!c) return;
  const nameservers = asArr(c.nameservers) ?? [];
  if (nameservers.length > 3) r.invalid(path.child("nameservers"), nameservers, "must not have more than 3 nameservers", check);
  nameservers.forEach((ns, i) => {
    if (typeof ns === "string") r.invalidEach(path.child("nameservers").index(i), ns, ipProblems(ns), check);
  });
  const searches = (asArr(c.searches) ?? []).filter((s): s is string => typeof s === "string");
  if (searches.length > 32) r.invalid(path.child("searches"), searches, "must not have more than 32 search paths", check);
  if (searches.join(" ").length > 2048) r.invalid(path.child("searches"), searches, "must not have more than 2048 characters (including spaces) in the search list", check);
  // RelaxedDNSSearchValidation is GA: "." alone is allowed, and underscores
  (asArr(c.searches) ?? []).forEach((search, i) => {
    if (typeof search !== "string" || search === ".") return;
    const trimmed = search.endsWith(".") ? search.slice(0, -1) : search;
    r.invalidEach(path.child("searches").index(i), trimmed, isDns1123SubdomainWithUnderscore(trimmed), check);
  });
  for (const [i, o] of objItems(c.options)) if (str(o.name) === "") r.required(path.child("options").index(i), "must not be empty", check);
}

const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

export function validateTolerations(list: unknown, path: FieldPath, r: Reporter): void {
  const check = `${C}/tolerations`;
  for (const [i, t] of objItems(list)) {
    const p = path.index(i);
    const key = str(t.key);
    const op = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (key) r.invalidEach(p.child("key"), key, isQualifiedName(key), check);
    if (key === "" && op !== "Exists") r.invalid(p.child("operator"), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"', check);
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== "NoExecute") {
      r.invalid(p.child("effect"), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set", check);
    }
    if (op === "Equal" || op === "") {
      const errs = isLabelValue(value);
      if (errs.length > 0) r.invalid(p.child("operator"), value, errs.join(";"), check);
    } else if (op === "Exists") {
      if (value) r.invalid(p.child("operator"), value, "value must be empty when `operator` is 'Exists'", check);
    } else if (op === "Lt" || op === "Gt") {
      // TaintTolerationComparisonOperators is alpha (off) in 1.36
      r.notSupported(p.child("operator"), op, ["Equal", "Exists", "Lt", "Gt"], check);
    } else {
      r.notSupported(p.child("operator"), op, ["Equal", "Exists"], check);
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) r.notSupported(p.child("effect"), effect, TAINT_EFFECTS, check);
  }
}

function validateAffinity(affinity: Obj | undefined, path: FieldPath, r: Reporter): void {
  if (!affinity) return;
  const node = asObj(affinity.nodeAffinity);
  if (node) {
    const np = path.child("nodeAffinity");
    const required = asObj(node.requiredDuringSchedulingIgnoredDuringExecution);
    if (required) validateNodeSelector(required, false, np.child("requiredDuringSchedulingIgnoredDuringExecution"), r);
    for (const [i, term] of objItems(node.preferredDuringSchedulingIgnoredDuringExecution)) {
      const tp = np.child("preferredDuringSchedulingIgnoredDuringExecution").index(i);
      const w = int(term.weight);
      if (w <= 0 || w > 100) r.invalid(tp.child("weight"), w, "must be in the range 1-100", `${C}/affinity`);
      validateNodeSelectorTerm(asObj(term.preference) ?? {}, true, tp.child("preference"), r);
    }
  }
  for (const kind of ["podAffinity", "podAntiAffinity"]) {
    const pa = asObj(affinity[kind]);
    if (!pa) continue;
    const pp = path.child(kind);
    for (const [i, term] of objItems(pa.requiredDuringSchedulingIgnoredDuringExecution)) {
      validatePodAffinityTerm(term, pp.child("requiredDuringSchedulingIgnoredDuringExecution").index(i), r);
    }
    for (const [i, wt] of objItems(pa.preferredDuringSchedulingIgnoredDuringExecution)) {
      const tp = pp.child("preferredDuringSchedulingIgnoredDuringExecution").index(i);
      const w = int(wt.weight);
      if (w <= 0 || w > 100) r.invalid(tp.child("weight"), w, "must be in the range 1-100", `${C}/affinity`);
      validatePodAffinityTerm(asObj(wt.podAffinityTerm) ?? {}, tp.child("podAffinityTerm"), r);
    }
  }
}

/** NodeSelector (required node affinity); also used by other kinds (PersistentVolume, RuntimeClass). */
export function validateNodeSelector(sel: Obj, allowInvalidValues: boolean, path: FieldPath, r: Reporter): void {
  const terms = objItems(sel.nodeSelectorTerms);
  const tp = path.child("nodeSelectorTerms");
  if ((asArr(sel.nodeSelectorTerms)?.length ?? 0) === 0) {
    r.required(tp, "must have at least one node selector term", `${C}/affinity`);
    return;
  }
  for (const [i, term] of terms) validateNodeSelectorTerm(term, allowInvalidValues, tp.index(i), r);
}

function validateNodeSelectorTerm(term: Obj, allowInvalidValues: boolean, path: FieldPath, r: Reporter): void {
  const check = `${C}/affinity`;
  for (const [j, req] of objItems(term.matchExpressions)) {
    const p = path.child("matchExpressions").index(j);
    const op = str(req.operator);
    const values = asArr(req.values) ?? [];
    if (op === "In" || op === "NotIn") {
      if (values.length === 0) r.required(p.child("values"), "must be specified when `operator` is 'In' or 'NotIn'", check);
    } else if (op === "Exists" || op === "DoesNotExist") {
      if (values.length > 0) r.forbidden(p.child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", check);
    } else if (op === "Gt" || op === "Lt") {
      if (values.length !== 1) r.required(p.child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'", check);
    } else {
      r.invalid(p.child("operator"), op, "not a valid selector operator", check);
    }
    const key = str(req.key);
    r.invalidEach(p.child("key"), key, isQualifiedName(key), check);
    if (!allowInvalidValues) {
      values.forEach((v, k) => {
        if (typeof v === "string") r.invalidEach(p.child("values").index(k), v, isLabelValue(v), check);
      });
    }
  }
  for (const [j, req] of objItems(term.matchFields)) {
    const p = path.child("matchFields").index(j);
    const op = str(req.operator);
    const values = asArr(req.values) ?? [];
    if (op === "In" || op === "NotIn") {
      if (values.length !== 1) r.required(p.child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector", check);
    } else {
      r.invalid(p.child("operator"), op, "not a valid selector operator", check);
    }
    if (str(req.key) !== "metadata.name") r.invalid(p.child("key"), str(req.key), "not a valid field selector key", check);
    else {
      values.forEach((v, k) => {
        if (typeof v === "string") r.invalidEach(p.child("values").index(k), v, isDns1123Subdomain(v), check);
      });
    }
  }
}

function validatePodAffinityTerm(term: Obj, path: FieldPath, r: Reporter): void {
  const check = `${C}/affinity`;
  validateLabelSelector(term.labelSelector, path.child("labelSelector"), r);
  validateLabelSelector(term.namespaceSelector, path.child("namespaceSelector"), r);
  for (const ns of asArr(term.namespaces) ?? []) {
    if (typeof ns === "string") r.invalidEach(path.child("namespace"), ns, isDns1123Label(ns), check);
  }
  const match = (asArr(term.matchLabelKeys) ?? []).filter((k): k is string => typeof k === "string");
  const mismatch = (asArr(term.mismatchLabelKeys) ?? []).filter((k): k is string => typeof k === "string");
  validateLabelKeys(match, mismatch, asObj(term.labelSelector), path, r);
  const topologyKey = str(term.topologyKey);
  if (topologyKey === "") r.required(path.child("topologyKey"), "can not be empty", check);
  r.invalidEach(path.child("topologyKey"), topologyKey, isQualifiedName(topologyKey), check);
}

/** ValidateMatchLabelKeysAndMismatchLabelKeys. */
function validateLabelKeys(match: readonly string[], mismatch: readonly string[], selector: Obj | undefined, path: FieldPath, r: Reporter): void {
  const check = `${C}/affinity`;
  for (const [field, keys] of [
    ["matchLabelKeys", match],
    ["mismatchLabelKeys", mismatch],
  ] as const) {
    if (keys.length === 0) continue;
    // validateLabelKeys: without a selector, only that is said
    if (!selector) {
      r.forbidden(path.child(field), "must not be specified when labelSelector is not set", check);
      continue;
    }
    keys.forEach((k, i) => {
      r.invalidEach(path.child(field).index(i), k, isQualifiedName(k), check);
    });
  }
  if (selector) {
    const matchIndex = new Map(match.map((k, i) => [k, i] as const));
    const selectorKeys = new Set(Object.keys(asObj(selector.matchLabels) ?? {}));
    for (const [, expr] of objItems(selector.matchExpressions)) {
      const key = str(expr.key);
      const i = matchIndex.get(key);
      if (i !== undefined && selectorKeys.has(key)) r.invalid(path.index(i), key, "exists in both matchLabelKeys and labelSelector", check);
      selectorKeys.add(key);
    }
  }
  const mismatchSet = new Set(mismatch);
  match.forEach((k, i) => {
    if (mismatchSet.has(k)) r.invalid(path.child("matchLabelKeys").index(i), k, "exists in both matchLabelKeys and mismatchLabelKeys", check);
  });
}

function validateTopologySpread(list: unknown, path: FieldPath, r: Reporter): void {
  const check = `${C}/topology-spread`;
  const items = objItems(list);
  items.forEach(([i, c], n) => {
    const p = path.index(i);
    const maxSkew = int(c.maxSkew);
    if (maxSkew <= 0) r.invalid(p.child("maxSkew"), maxSkew, "must be greater than zero", check);
    const topologyKey = str(c.topologyKey);
    if (topologyKey === "") r.required(p.child("topologyKey"), "can not be empty", check);
    const when = str(c.whenUnsatisfiable);
    if (when !== "DoNotSchedule" && when !== "ScheduleAnyway") r.notSupported(p.child("whenUnsatisfiable"), when, ["DoNotSchedule", "ScheduleAnyway"], check);
    for (const [, other] of items.slice(n + 1)) {
      if (str(other.topologyKey) === topologyKey && str(other.whenUnsatisfiable) === when) {
        r.duplicate(p.child("{topologyKey, whenUnsatisfiable}"), `{${topologyKey}, ${when}}`, check, p.pointer());
        break;
      }
    }
    const minDomains = asNum(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) r.invalid(p.child("minDomains"), minDomains, "must be greater than zero", check);
      if (when !== "DoNotSchedule") r.invalid(p.child("minDomains"), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`, check);
    }
    for (const k of ["nodeAffinityPolicy", "nodeTaintsPolicy"]) {
      const v = asStr(c[k]);
      if (v !== undefined && v !== "Honor" && v !== "Ignore") r.notSupported(p.child(k), v, ["Honor", "Ignore"], check);
    }
    const match = (asArr(c.matchLabelKeys) ?? []).filter((k): k is string => typeof k === "string");
    const selector = asObj(c.labelSelector);
    // MatchLabelKeysInPodTopologySpreadSelectorMerge (1.34+): the selector-merge rule set
    validateLabelKeys(match, [], selector, p, r);
    validateLabelSelector(c.labelSelector, p.child("labelSelector"), r);
  });
}

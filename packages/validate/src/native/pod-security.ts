// Pod security settings that depend on the pod's OS or on annotations: the fields a linux or windows pod may not set,
// Windows options and hostProcess pods, AppArmor profiles, and the deprecated seccomp/AppArmor annotations (their
// format, and that they agree with the fields on create).
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (validateLinux, validateWindows,
// validateWindowsSecurityContextOptions, validateWindowsHostProcessPod, ValidateAppArmorProfileField,
// ValidateAppArmorPodAnnotations, ValidateAppArmorProfileFormat, validateAppArmorAnnotationsAndFieldsMatchOnCreate,
// ValidateSeccompProfile, ValidateSeccompPodAnnotations, validateSeccompAnnotationsAndFields) and
// pkg/registry/core/pod/strategy.go (applyAppArmorVersionSkew: a Pod's annotation becomes its container's field).
import { validateLocalDescendingPath } from "./local-path.ts";
import { isDns1123Subdomain } from "./names.ts";
import type { FieldPath } from "./path.ts";
import { goQuote, type Reporter } from "./report.ts";
import { type Obj, asBool, asObj, asStr, objItems } from "./values.ts";

const C = "core/security-context";
const OS_CHECK = "core/os";
const str = (v: unknown): string => asStr(v) ?? "";

export const SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
export const SECCOMP_CONTAINER_PREFIX = "container.seccomp.security.alpha.kubernetes.io/";
export const APPARMOR_CONTAINER_PREFIX = "container.apparmor.security.beta.kubernetes.io/";

/** podshelper.VisitContainersWithPath: init containers, then containers, then ephemeral containers. */
export function visitContainers(spec: Obj, path: FieldPath, visit: (ctr: Obj, cpath: FieldPath) => void): void {
  for (const list of ["initContainers", "containers", "ephemeralContainers"]) {
    for (const [i, ctr] of objItems(spec[list])) visit(ctr, path.child(list).index(i));
  }
}

/** validateLinux: no Windows options anywhere. */
export function validateLinux(spec: Obj, path: FieldPath, r: Reporter): void {
  const detail = "windows options cannot be set for a linux pod";
  if (asObj(asObj(spec.securityContext)?.windowsOptions)) r.forbidden(path.child("securityContext", "windowsOptions"), detail, OS_CHECK);
  visitContainers(spec, path, (ctr, cp) => {
    if (asObj(asObj(ctr.securityContext)?.windowsOptions)) r.forbidden(cp.child("securityContext", "windowsOptions"), detail, OS_CHECK);
  });
}

const WINDOWS_POD_FORBIDDEN = [
  "appArmorProfile",
  "seLinuxOptions",
  "hostUsers",
  "hostPID",
  "hostIPC",
  "seccompProfile",
  "fsGroup",
  "fsGroupChangePolicy",
  "sysctls",
  "shareProcessNamespace",
  "runAsUser",
  "runAsGroup",
  "supplementalGroups",
  "supplementalGroupsPolicy",
  "seLinuxChangePolicy",
] as const;
/** These live on the v1 PodSpec (Go's internal type keeps them in the security context). */
const ON_SPEC = new Set(["hostUsers", "hostPID", "hostIPC", "shareProcessNamespace"]);
const WINDOWS_CONTAINER_FORBIDDEN = [
  "appArmorProfile",
  "seLinuxOptions",
  "seccompProfile",
  "capabilities",
  "readOnlyRootFilesystem",
  "privileged",
  "allowPrivilegeEscalation",
  "procMount",
  "runAsUser",
  "runAsGroup",
];

/** validateWindows: the Linux-only settings a windows pod may not set, in Go's order. */
export function validateWindows(spec: Obj, path: FieldPath, r: Reporter): void {
  const detail = "cannot be set for a windows pod";
  const sc = asObj(spec.securityContext);
  // SetDefaults_PodSpec gives every pod a security context, so Go always looks
  for (const k of WINDOWS_POD_FORBIDDEN) {
    if (!isSetForWindows(k, ON_SPEC.has(k) ? spec : (sc ?? {}))) continue;
    r.forbidden(ON_SPEC.has(k) ? path.child(k) : path.child("securityContext", k), detail, OS_CHECK);
  }
  visitContainers(spec, path, (ctr, cp) => {
    const csc = asObj(ctr.securityContext);
    if (!csc) return;
    for (const k of WINDOWS_CONTAINER_FORBIDDEN) {
      if (csc[k] !== undefined && csc[k] !== null) r.forbidden(cp.child("securityContext", k), detail, OS_CHECK);
    }
  });
}

/** Whether Go sees the field as set: pointers when present, hostPID/hostIPC when true, lists when not empty. */
function isSetForWindows(k: string, holder: Obj): boolean {
  const v = holder[k];
  if (v === undefined || v === null) return false;
  if (k === "hostPID" || k === "hostIPC") return v === true;
  if (k === "sysctls") return Array.isArray(v) && v.length > 0;
  return true;
}

// Windows user names (validateWindowsSecurityContextOptions).
// Go's [[:cntrl:]]: ASCII control characters
const hasControl = (s: string): boolean => [...s].some((ch) => (ch.codePointAt(0) as number) < 0x20 || ch === "\x7f");
const NETBIOS = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const DNS_LABEL = "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?";
const DOMAIN_DNS = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);
const BAD_USER_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const DOTS_SPACES = /^[. ]+$/;
const utf8Length = (s: string): number => Buffer.byteLength(s, "utf8");

/** validateWindowsSecurityContextOptions: GMSA credential spec name and size, runAsUserName's domain and user. */
export function validateWindowsOptions(options: Obj | undefined, path: FieldPath, r: Reporter): void {
  if (!options) return;
  const specName = asStr(options.gmsaCredentialSpecName);
  if (specName !== undefined) r.invalidEach(path.child("gmsaCredentialSpecName"), specName, isDns1123Subdomain(specName), C);
  const spec = asStr(options.gmsaCredentialSpec);
  if (spec !== undefined) {
    if (spec.length === 0) r.invalid(path.child("gmsaCredentialSpec"), spec, "gmsaCredentialSpec cannot be an empty string", C);
    else if (utf8Length(spec) > 64 * 1024) r.invalid(path.child("gmsaCredentialSpec"), spec, "gmsaCredentialSpec size must be under 64 KiB", C);
  }
  const user = asStr(options.runAsUserName);
  if (user !== undefined) validateRunAsUserName(user, path.child("runAsUserName"), r);
}

function validateRunAsUserName(name: string, p: FieldPath, r: Reporter): void {
  if (name.length === 0) {
    r.invalid(p, name, "runAsUserName cannot be an empty string", C);
    return;
  }
  if (hasControl(name)) {
    r.invalid(p, name, "runAsUserName cannot contain control characters", C);
    return;
  }
  const parts = name.split("\\");
  if (parts.length > 2) {
    r.invalid(p, name, "runAsUserName cannot contain more than one backslash", C);
    return;
  }
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? (parts[0] as string) : "";
  const user = hasDomain ? (parts[1] as string) : (parts[0] as string);
  if (utf8Length(domain) >= 256) r.invalid(p, name, "runAsUserName's Domain length must be under 256 characters", C);
  if (hasDomain && !(NETBIOS.test(domain) || DOMAIN_DNS.test(domain))) r.invalid(p, name, "runAsUserName's Domain doesn't match the NetBios nor the DNS format", C);
  const userLength = utf8Length(user);
  if (userLength === 0) r.invalid(p, name, "runAsUserName's User cannot be empty", C);
  else if (userLength > 104) r.invalid(p, name, "runAsUserName's User length must not be longer than 104 characters", C);
  if (DOTS_SPACES.test(user)) r.invalid(p, name, "runAsUserName's User cannot contain only periods or spaces", C);
  if (BAD_USER_CHARS.test(user)) r.invalid(p, name, 'runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]', C);
}

/**
 * validateWindowsHostProcessPod: container and pod hostProcess agree; all containers or none are hostProcess; hostProcess
 * needs hostNetwork. (Privileged containers are allowed: EKS runs with --allow-privileged.)
 */
export function validateWindowsHostProcessPod(spec: Obj, path: FieldPath, r: Reporter): void {
  const podHostProcess = asBool(asObj(asObj(spec.securityContext)?.windowsOptions)?.hostProcess);
  if (podHostProcess === undefined && !anyContainerHasWindowsOptions(spec)) return;
  let containers = 0;
  let hostProcess = 0;
  visitContainers(spec, path, (ctr, cp) => {
    containers++;
    const own = asBool(asObj(asObj(ctr.securityContext)?.windowsOptions)?.hostProcess);
    if (podHostProcess !== undefined && own !== undefined && own !== podHostProcess) {
      r.invalid(cp.child("securityContext", "windowsOptions", "hostProcess"), own, `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`, C);
    }
    if (own === true || (own === undefined && podHostProcess === true)) hostProcess++;
  });
  if (hostProcess === 0) return;
  if (hostProcess !== containers) r.invalid(path, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers", C);
  const hostNetwork = asBool(spec.hostNetwork) === true;
  if (!hostNetwork) r.invalid(path.child("hostNetwork"), false, "hostNetwork must be true if pod contains any hostProcess containers", C);
}

function anyContainerHasWindowsOptions(spec: Obj): boolean {
  for (const list of ["initContainers", "containers", "ephemeralContainers"]) {
    const items = spec[list];
    if (!Array.isArray(items)) continue;
    for (const c of items) if (asObj(asObj(asObj(c)?.securityContext)?.windowsOptions)) return true;
  }
  return false;
}

/** ValidateAppArmorProfileField. */
export function validateAppArmorProfile(profile: Obj | undefined, path: FieldPath, r: Reporter): void {
  if (!profile) return;
  const type = str(profile.type);
  const local = asStr(profile.localhostProfile);
  const hasLocal = profile.localhostProfile !== undefined && profile.localhostProfile !== null;
  const lp = path.child("localhostProfile");
  switch (type) {
    case "Localhost":
      if (local === undefined) r.required(lp, "must be set when AppArmor type is Localhost", C);
      else {
        if (local.trim() !== local) r.invalid(lp, local, "must not be padded with whitespace", C);
        else if (local === "") r.required(lp, "must be set when AppArmor type is Localhost", C);
        if (Buffer.byteLength(local, "utf8") > 4095) r.tooLong(lp, 4095, C);
      }
      break;
    case "RuntimeDefault":
    case "Unconfined":
      if (hasLocal) r.invalid(lp, local ?? profile.localhostProfile, "can only be set when AppArmor type is Localhost", C);
      break;
    case "":
      r.required(path.child("type"), "type is required when appArmorProfile is set", C);
      break;
    default:
      r.notSupported(path.child("type"), type, ["Localhost", "RuntimeDefault", "Unconfined"], C);
  }
}

/** Where an annotation of a pod or template is: Go's path, and the JSON Pointer of the value. */
export interface AnnotationPaths {
  /** Go's path of the annotations map (`metadata.annotations`, `spec.template.annotations`). */
  readonly goPath: FieldPath;
  /** JSON Pointer of the annotations map. */
  readonly pointer: string;
}

const keyPointer = (paths: AnnotationPaths, key: string): string => `${paths.pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
const sortedEntries = (annotations: Obj): [string, string][] =>
  Object.keys(annotations)
    .sort()
    .flatMap((k) => (typeof annotations[k] === "string" ? [[k, annotations[k] as string] as [string, string]] : []));

/** Whether some key contains `part` (the annotations these checks read are rare: most pods skip them). */
function hasKeyWith(annotations: Obj, part: string): boolean {
  for (const k in annotations) if (k.includes(part)) return true;
  return false;
}

/** ValidateSeccompProfile: an annotation's seccomp profile name. */
function validateSeccompProfileName(p: string, path: FieldPath, r: Reporter, pointer: string): void {
  if (p === "runtime/default" || p === "docker/default" || p === "unconfined") return;
  if (p.startsWith("localhost/")) validateLocalDescendingPath(p.slice("localhost/".length), path, r, C, pointer);
  else r.invalid(path, p, "must be a valid seccomp profile", C, pointer);
}

/** ValidateSeccompPodAnnotations: Go appends the key as a field name (`metadata.annotations.seccomp...`). */
export function validateSeccompPodAnnotations(annotations: Obj, paths: AnnotationPaths, r: Reporter): void {
  if (!hasKeyWith(annotations, "seccomp.security.alpha.kubernetes.io/")) return;
  const pod = asStr(annotations[SECCOMP_POD_ANNOTATION]);
  if (pod !== undefined) validateSeccompProfileName(pod, paths.goPath.child(SECCOMP_POD_ANNOTATION), r, keyPointer(paths, SECCOMP_POD_ANNOTATION));
  for (const [k, v] of sortedEntries(annotations)) {
    if (k.startsWith(SECCOMP_CONTAINER_PREFIX)) validateSeccompProfileName(v, paths.goPath.child(k), r, keyPointer(paths, k));
  }
}

/** ValidateAppArmorPodAnnotations: each container annotation names a container and a profile in the annotation's format. */
export function validateAppArmorPodAnnotations(annotations: Obj, spec: Obj, paths: AnnotationPaths, r: Reporter): void {
  if (!hasKeyWith(annotations, APPARMOR_CONTAINER_PREFIX)) return;
  const names = new Set<string>();
  visitContainers(spec, paths.goPath, (ctr) => names.add(str(ctr.name)));
  for (const [k, v] of sortedEntries(annotations)) {
    if (!k.startsWith(APPARMOR_CONTAINER_PREFIX)) continue;
    const container = k.slice(APPARMOR_CONTAINER_PREFIX.length);
    const p = paths.goPath.key(k);
    if (!names.has(container)) r.invalid(p, container, "container not found", C, keyPointer(paths, k));
    if (v !== "" && v !== "runtime/default" && v !== "unconfined" && !v.startsWith("localhost/")) {
      r.invalid(p, v, `invalid AppArmor profile name: ${goQuote(v)}`, C, keyPointer(paths, k));
    }
  }
}

/** podutil.ApparmorFieldForAnnotation, kept only when ValidateAppArmorProfileField accepts it. */
function appArmorFieldForAnnotation(annotation: string): Obj | undefined {
  if (annotation === "runtime/default") return { type: "RuntimeDefault" };
  if (annotation === "unconfined") return { type: "Unconfined" };
  if (annotation.startsWith("localhost/")) {
    const local = annotation.slice("localhost/".length);
    if (local === "" || local.trim() !== local || Buffer.byteLength(local, "utf8") > 4095) return undefined;
    return { type: "Localhost", localhostProfile: local };
  }
  return undefined;
}

/** A profile field against an annotation value (validateSeccompAnnotationsAndFieldsMatch and its AppArmor twin). */
function checkMatch(kind: "seccomp" | "apparmor", profile: Obj, annotation: string, path: FieldPath, r: Reporter): void {
  const type = str(profile.type);
  const unconfined = annotation === "unconfined";
  const runtimeDefault = annotation === "runtime/default" || (kind === "seccomp" && annotation === "docker/default");
  const typeMismatch = () => r.forbidden(path.child("type"), `${kind} type in annotation and field must match`, C);
  if (type === "Unconfined" && !unconfined) typeMismatch();
  else if (type === "RuntimeDefault" && !runtimeDefault) typeMismatch();
  else if (type === "Localhost") {
    if (!annotation.startsWith("localhost/")) typeMismatch();
    else if (asStr(profile.localhostProfile) !== annotation.slice("localhost/".length)) {
      r.forbidden(path.child("localhostProfile"), `${kind} profile in annotation and field must match`, C);
    }
  }
}

/**
 * validateSeccompAnnotationsAndFields and validateAppArmorAnnotationsAndFieldsMatchOnCreate. For a Pod (`isPod`), the
 * strategy has first copied a container's AppArmor annotation into a container without a profile of its own.
 */
export function validateAnnotationsMatchFields(annotations: Obj, spec: Obj, specPath: FieldPath, r: Reporter, isPod: boolean): void {
  if (!hasKeyWith(annotations, "seccomp.security.alpha.kubernetes.io/") && !hasKeyWith(annotations, APPARMOR_CONTAINER_PREFIX)) return;
  const podSc = asObj(spec.securityContext);
  const podSeccomp = asObj(podSc?.seccompProfile);
  const podAnnotation = asStr(annotations[SECCOMP_POD_ANNOTATION]);
  if (podSeccomp && podAnnotation !== undefined) checkMatch("seccomp", podSeccomp, podAnnotation, specPath.child("securityContext", "seccompProfile"), r);
  visitContainers(spec, specPath, (ctr, cp) => {
    const own = asObj(asObj(ctr.securityContext)?.seccompProfile);
    const annotation = asStr(annotations[SECCOMP_CONTAINER_PREFIX + str(ctr.name)]);
    if (own && annotation !== undefined) checkMatch("seccomp", own, annotation, cp.child("securityContext", "seccompProfile"), r);
  });
  if (str(asObj(spec.os)?.name) === "windows") return;
  const podAppArmor = asObj(podSc?.appArmorProfile);
  visitContainers(spec, specPath, (ctr, cp) => {
    const annotation = asStr(annotations[APPARMOR_CONTAINER_PREFIX + str(ctr.name)]);
    if (annotation === undefined) return;
    const own = asObj(asObj(ctr.securityContext)?.appArmorProfile);
    const profile = own ?? (isPod ? (appArmorFieldForAnnotation(annotation) ?? podAppArmor) : podAppArmor);
    if (profile) checkMatch("apparmor", profile, annotation, cp.child("securityContext", "appArmorProfile"), r);
  });
}

// The apps API group: Deployment, ReplicaSet, StatefulSet, DaemonSet, as the API server validates them on create,
// after the apps/v1 defaults (replicas 1, RollingUpdate strategies with 25%/25% or 1/0, revisionHistoryLimit 10,
// progressDeadlineSeconds 600, podManagementPolicy OrderedReady, partition 0, PVC retention Retain).
// After k8s.io/kubernetes@v1.36.5/pkg/apis/apps/validation/validation.go and pkg/apis/apps/v1/defaults.go.
import { selectorIsEmpty, selectorMatches, validateLabelSelector } from "./labelselector.ts";
import { isDns1123Label, isValidPercent } from "./names.ts";
import { FieldPath } from "./path.ts";
import { podRestartPolicy, validatePodTemplateSpec } from "./podspec.ts";
import { validatePvcSpec } from "./pvc.ts";
import type { NativeGroup } from "./registry.ts";
import { goMap, JsonValue, type Reporter } from "./report.ts";
import { type Obj, asNum, asObj, asStr, objItems } from "./values.ts";

const SPEC = FieldPath.of("spec");
const NEGATIVE = "must be greater than or equal to 0";

const int = (v: unknown): number => asNum(v) ?? 0;

function nonNegative(value: number, path: FieldPath, r: Reporter, check: string): void {
  if (value < 0) r.invalid(path, value, NEGATIVE, check);
}

/** An IntOrString value: a number, or a percent string ("25%"). */
function percentValue(v: unknown): number | undefined {
  if (typeof v !== "string" || isValidPercent(v).length > 0) return undefined;
  return Number.parseInt(v.slice(0, -1), 10);
}

/** getIntOrPercentValue: the percent, or the int (a non-percent string counts as 0). */
const intOrPercent = (v: unknown): number => percentValue(v) ?? (typeof v === "number" ? v : 0);

function validatePositiveIntOrPercent(v: unknown, path: FieldPath, r: Reporter, check: string): void {
  if (typeof v === "string") r.invalidEach(path, v, isValidPercent(v), check);
  else if (typeof v === "number") nonNegative(v, path, r, check);
}

function notMoreThan100Percent(v: unknown, path: FieldPath, r: Reporter, check: string): void {
  const p = percentValue(v);
  if (p !== undefined && p > 100) r.invalid(path, v, "must not be greater than 100%", check);
}

/**
 * The selector and the template: selector required, valid and not empty; template labels must match it
 * (a missing selector matches nothing, so that is reported too, as the server does).
 */
function validateSelectorAndTemplate(spec: Obj, kind: string, r: Reporter, check: string): void {
  const selector = spec.selector;
  const template = asObj(spec.template) ?? {};
  const labels = asObj(template.metadata)?.labels;
  const selectorPath = SPEC.child("selector");
  // DaemonSet has no explicit required check: a missing selector just matches nothing
  if (asObj(selector) === undefined) {
    if (kind !== "daemonset") r.required(selectorPath, "", check);
  }
  else {
    const before = r.findings.length;
    validateLabelSelector(selector, selectorPath, r);
    if (selectorIsEmpty(selector)) r.invalid(selectorPath, new JsonValue(selector), `empty selector is invalid for ${kind}`, check);
    // an invalid selector cannot be converted: Go then reports "invalid label selector" instead of matching
    if (r.findings.length > before && !selectorIsEmpty(selector)) {
      if (kind !== "daemonset") r.invalid(selectorPath, new JsonValue(selector), kind === "statefulset" ? "" : "invalid label selector", check);
      return;
    }
  }
  if (asObj(selector) !== undefined && selectorIsEmpty(selector)) return;
  if (!selectorMatches(selector, labels)) {
    const l = asObj(labels);
    r.invalid(SPEC.child("template", "metadata", "labels"), new JsonValue(l ? goMap(l) : null), "`selector` does not match template `labels`", check);
  }
}

function validateTemplateRestart(spec: Obj, kind: string, r: Reporter, check: string): void {
  const podSpec = asObj(asObj(spec.template)?.spec);
  const restart = podRestartPolicy(podSpec);
  if (restart !== "Always") r.notSupported(SPEC.child("template", "spec", "restartPolicy"), restart, ["Always"], check);
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    r.forbidden(SPEC.child("template", "spec", "activeDeadlineSeconds"), `activeDeadlineSeconds in ${kind} is not Supported`, check);
  }
}

function validateDeployment(d: Obj, r: Reporter): void {
  const spec = asObj(d.spec) ?? {};
  const check = "apps/deployment";
  nonNegative(asNum(spec.replicas) ?? 1, SPEC.child("replicas"), r, check);
  validateSelectorAndTemplate(spec, "deployment", r, check);
  validatePodTemplateSpec(spec.template, SPEC.child("template"), r);
  validateTemplateRestart(spec, "ReplicaSet", r, check);
  validateDeploymentStrategy(asObj(spec.strategy) ?? {}, SPEC.child("strategy"), r);
  const minReady = int(spec.minReadySeconds);
  nonNegative(minReady, SPEC.child("minReadySeconds"), r, check);
  nonNegative(asNum(spec.revisionHistoryLimit) ?? 10, SPEC.child("revisionHistoryLimit"), r, check);
  const rollback = asObj(spec.rollbackTo);
  if (rollback) nonNegative(int(rollback.revision), SPEC.child("rollback", "version"), r, check);
  const pds = asNum(spec.progressDeadlineSeconds) ?? 600;
  nonNegative(pds, SPEC.child("progressDeadlineSeconds"), r, check);
  if (pds <= minReady) r.invalid(SPEC.child("progressDeadlineSeconds"), pds, "must be greater than minReadySeconds", check);
}

function validateDeploymentStrategy(strategy: Obj, path: FieldPath, r: Reporter): void {
  const check = "apps/deployment-strategy";
  const type = asStr(strategy.type) || "RollingUpdate";
  if (type === "Recreate") {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      r.forbidden(path.child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'", check);
    }
  } else if (type === "RollingUpdate") {
    // defaulted: maxUnavailable and maxSurge 25%
    const ru = asObj(strategy.rollingUpdate) ?? {};
    const maxUnavailable = ru.maxUnavailable ?? "25%";
    const maxSurge = ru.maxSurge ?? "25%";
    const rp = path.child("rollingUpdate");
    validatePositiveIntOrPercent(maxUnavailable, rp.child("maxUnavailable"), r, check);
    validatePositiveIntOrPercent(maxSurge, rp.child("maxSurge"), r, check);
    if (intOrPercent(maxUnavailable) === 0 && intOrPercent(maxSurge) === 0) {
      r.invalid(rp.child("maxUnavailable"), maxUnavailable, "may not be 0 when `maxSurge` is 0", check);
    }
    notMoreThan100Percent(maxUnavailable, rp.child("maxUnavailable"), r, check);
  } else {
    // Go prints the internal struct (no JSON tags) as the value
    r.notSupported(path, new JsonValue({ Type: type, RollingUpdate: strategy.rollingUpdate ?? null }), ["Recreate", "RollingUpdate"], check);
  }
}

function validateReplicaSet(rs: Obj, r: Reporter): void {
  const spec = asObj(rs.spec) ?? {};
  const check = "apps/replicaset";
  nonNegative(asNum(spec.replicas) ?? 1, SPEC.child("replicas"), r, check);
  nonNegative(int(spec.minReadySeconds), SPEC.child("minReadySeconds"), r, check);
  // Go's message says "deployment" for ReplicaSets too
  validateSelectorAndTemplate(spec, "deployment", r, check);
  validatePodTemplateSpec(spec.template, SPEC.child("template"), r);
  validateTemplateRestart(spec, "ReplicaSet", r, check);
}

function validateDaemonSet(ds: Obj, r: Reporter): void {
  const spec = asObj(ds.spec) ?? {};
  const check = "apps/daemonset";
  validateSelectorAndTemplate(spec, "daemonset", r, check);
  validatePodTemplateSpec(spec.template, SPEC.child("template"), r);
  validateTemplateRestart(spec, "DaemonSet", r, check);
  nonNegative(int(spec.minReadySeconds), SPEC.child("minReadySeconds"), r, check);
  nonNegative(int(spec.templateGeneration), SPEC.child("templateGeneration"), r, check);
  const strategy = asObj(spec.updateStrategy) ?? {};
  const sp = SPEC.child("updateStrategy");
  const type = asStr(strategy.type) || "RollingUpdate";
  if (type === "RollingUpdate") {
    const ru = asObj(strategy.rollingUpdate) ?? {};
    const maxUnavailable = ru.maxUnavailable ?? 1;
    const maxSurge = ru.maxSurge ?? 0;
    const rp = sp.child("rollingUpdate");
    validatePositiveIntOrPercent(maxUnavailable, rp.child("maxUnavailable"), r, check);
    validatePositiveIntOrPercent(maxSurge, rp.child("maxSurge"), r, check);
    notMoreThan100Percent(maxUnavailable, rp.child("maxUnavailable"), r, check);
    notMoreThan100Percent(maxSurge, rp.child("maxSurge"), r, check);
    const hasUnavailable = intOrPercent(maxUnavailable) !== 0;
    const hasSurge = intOrPercent(maxSurge) !== 0;
    if (hasUnavailable && hasSurge) r.invalid(rp.child("maxSurge"), maxSurge, "may not be set when maxUnavailable is non-zero", check);
    else if (!hasUnavailable && !hasSurge) r.required(rp.child("maxUnavailable"), "cannot be 0 when maxSurge is 0", check);
  } else if (type !== "OnDelete") {
    r.notSupported(sp, new JsonValue({ Type: type, RollingUpdate: strategy.rollingUpdate ?? null }), ["RollingUpdate", "OnDelete"], check);
  }
  nonNegative(asNum(spec.revisionHistoryLimit) ?? 10, SPEC.child("revisionHistoryLimit"), r, check);
}

function validateStatefulSet(sts: Obj, r: Reporter): void {
  const spec = asObj(sts.spec) ?? {};
  const check = "apps/statefulset";
  const pmp = asStr(spec.podManagementPolicy) || "OrderedReady";
  if (pmp !== "OrderedReady" && pmp !== "Parallel") {
    // Go appends this error twice; the API server's message shows it once
    r.invalid(SPEC.child("podManagementPolicy"), pmp, "must be 'OrderedReady' or 'Parallel'", check);
  }
  const strategy = asObj(spec.updateStrategy) ?? {};
  const type = asStr(strategy.type) || "RollingUpdate";
  const ru = asObj(strategy.rollingUpdate);
  // MaxUnavailableStatefulSet is off in 1.36: rollingUpdate.maxUnavailable is dropped before validation
  const goRollingUpdate = ru ? { Partition: int(ru.partition), MaxUnavailable: null } : null;
  if (type === "OnDelete") {
    if (ru) r.invalid(SPEC.child("updateStrategy", "rollingUpdate"), new JsonValue(goRollingUpdate), "only allowed for updateStrategy 'RollingUpdate'", check);
  } else if (type === "RollingUpdate") {
    if (ru) nonNegative(int(ru.partition), SPEC.child("updateStrategy", "rollingUpdate", "partition"), r, check);
  } else {
    r.invalid(SPEC.child("updateStrategy"), new JsonValue({ Type: type, RollingUpdate: goRollingUpdate }), "must be 'RollingUpdate' or 'OnDelete'", check);
  }
  const retention = asObj(spec.persistentVolumeClaimRetentionPolicy) ?? {};
  for (const k of ["whenDeleted", "whenScaled"]) {
    const v = asStr(retention[k]) || "Retain";
    if (v !== "Retain" && v !== "Delete") r.notSupported(SPEC.child("persistentVolumeClaimRetentionPolicy", k), v, ["Retain", "Delete"], check);
  }
  for (const [i, claim] of objItems(spec.volumeClaimTemplates)) {
    validatePvcSpec(asObj(claim.spec) ?? {}, SPEC.child("volumeClaimTemplates").index(i).child("spec"), r);
  }
  nonNegative(asNum(spec.replicas) ?? 1, SPEC.child("replicas"), r, check);
  nonNegative(int(spec.minReadySeconds), SPEC.child("minReadySeconds"), r, check);
  const ordinals = asObj(spec.ordinals);
  if (ordinals) nonNegative(int(ordinals.start), SPEC.child("ordinals.start"), r, check);
  const serviceName = asStr(spec.serviceName) ?? "";
  if (serviceName) r.invalidEach(SPEC.child("serviceName"), serviceName, isDns1123Label(serviceName), check);
  validateSelectorAndTemplate(spec, "statefulset", r, check);
  // the template is validated with the claim templates' volumes added and hostname/subdomain cleared
  const template = asObj(spec.template) ?? {};
  const podSpec = asObj(template.spec) ?? {};
  // one volume per claim name: the server keys them by name (volumesToAddForTemplates), so two claim templates of
  // one name are not a duplicate volume
  const claimVolumes = [...new Set(objItems(spec.volumeClaimTemplates).map(([, c]) => asStr(asObj(c.metadata)?.name) ?? ""))];
  const volumes = [
    ...claimVolumes.map((name) => ({ name, persistentVolumeClaim: { claimName: name } })),
    ...objItems(podSpec.volumes)
      .map(([, v]) => v)
      .filter((v) => !claimVolumes.includes(asStr(v.name) ?? "")),
  ];
  const { hostname: _h, subdomain: _s, ...rest } = podSpec;
  validatePodTemplateSpec({ ...template, spec: { ...rest, ...(volumes.length > 0 ? { volumes } : {}) } }, SPEC.child("template"), r);
  // ValidatePodTemplateSpecForStatefulSet checks labels and annotations a second time: the server shows each once
  validateTemplateRestart(spec, "StatefulSet", r, check);
}

/**
 * ValidateControllerRevisionCreate: revision not negative, data (a RawExtension) present and a JSON object.
 * (apps/validation/validation.go validateControllerRevision, ValidateControllerRevisionCreate)
 */
function validateControllerRevision(revision: Obj, r: Reporter): void {
  const check = "apps/controller-revision";
  const number = asNum(revision.revision);
  if (number !== undefined && number < 0) r.invalid(FieldPath.of("revision"), number, "must be greater than or equal to 0", check);
  const data = revision.data;
  // JSON null leaves the RawExtension empty, as an absent field does
  if (data === undefined || data === null) r.required(FieldPath.of("data"), "data is mandatory", check);
  else if (!asObj(data)) r.required(FieldPath.of("data"), "data must be a valid JSON object", check);
}

export const apps: NativeGroup = {
  group: "apps",
  kinds: {
    Deployment: validateDeployment,
    ReplicaSet: validateReplicaSet,
    DaemonSet: validateDaemonSet,
    StatefulSet: validateStatefulSet,
    ControllerRevision: validateControllerRevision,
  },
};

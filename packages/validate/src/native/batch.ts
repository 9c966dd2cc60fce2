// Job and CronJob (batch/v1) as the API server validates them on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/batch/validation/validation.go (ValidateJob, validateJobSpec,
// validatePodFailurePolicy*, validateSuccessPolicy*, ValidateCronJobCreate, validateScheduleFormat, validateTimeZone,
// ValidateJobTemplateSpec) and pkg/registry/batch/job/strategy.go (the selector a Job gets generated on create).
import { cronScheduleError } from "./cron.ts";
import { selectorMatches, validateLabelSelector } from "./labelselector.ts";
import { isDns1123Label, isLabelValue, isQualifiedName } from "./names.ts";
import { FieldPath } from "./path.ts";
import { validatePodTemplateSpec } from "./podspec.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { loadLocationError } from "./timezone.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr, objItems } from "./values.ts";

const MAX_PARALLELISM_INDEXED = 100_000;
const MAX_FAILED_INDEXES_INDEXED = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_POD_CONDITION_PATTERNS = 20;
const MAX_SUCCESS_RULES = 20;
const MAX_MANAGED_BY = 63;
const POD_FAILURE_ACTIONS = ["Count", "FailIndex", "FailJob", "Ignore"];
const CONDITION_STATUSES = ["False", "True", "Unknown"];
const TZ_COMPONENT = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** field.Invalid with field.OmitValueType{}: the value is not printed. */
const invalidOmitValue = (r: Reporter, path: FieldPath, detail: string, check: string) =>
  r.findings.push({ severity: "error", path: path.pointer(), message: `${path.toString()}: Invalid value: ${detail}`, rule: `native:${check}` });

const nonNegative = (r: Reporter, path: FieldPath, v: unknown, check: string) => {
  const n = asNum(v);
  if (n !== undefined && n < 0) r.invalid(path, n, "must be greater than or equal to 0", check);
};

/**
 * validateJobSpec: the checks a Job and a CronJob's jobTemplate share. `jobDefaults`: a Job's own spec is defaulted
 * first (SetDefaults_Job: completions and parallelism 1 when both are unset); a CronJob's template is not.
 */
function validateJobSpec(spec: Obj, path: FieldPath, r: Reporter, options: { readonly jobDefaults?: boolean } = {}): void {
  for (const f of ["parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes"]) {
    nonNegative(r, path.child(f), spec[f], "batch/job-counts");
  }
  const bothUnset = spec.completions === undefined && spec.parallelism === undefined;
  const parallelism = asNum(spec.parallelism) ?? (options.jobDefaults ? 1 : undefined);
  const completions = asNum(spec.completions) ?? (options.jobDefaults && bothUnset ? 1 : undefined);
  const backoffLimitPerIndex = asNum(spec.backoffLimitPerIndex);
  const maxFailedIndexes = asNum(spec.maxFailedIndexes);
  if (maxFailedIndexes !== undefined && backoffLimitPerIndex === undefined) {
    r.required(path.child("backoffLimitPerIndex"), "when maxFailedIndexes is specified", "batch/job-indexed");
  }
  const managedBy = asStr(spec.managedBy);
  if (managedBy !== undefined) {
    for (const m of domainPrefixedPathErrors(managedBy)) r.invalid(path.child("managedBy"), managedBy, m, "batch/job-managed-by");
    if (managedBy.length > MAX_MANAGED_BY) r.tooLong(path.child("managedBy"), MAX_MANAGED_BY, "batch/job-managed-by");
  }
  const mode = asStr(spec.completionMode);
  if (mode === "Indexed") {
    if (completions === undefined) r.required(path.child("completions"), "when completion mode is Indexed", "batch/job-indexed");
    if (parallelism !== undefined && parallelism > MAX_PARALLELISM_INDEXED) {
      r.invalid(path.child("parallelism"), parallelism, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`, "batch/job-indexed");
    }
    if (completions !== undefined && maxFailedIndexes !== undefined && maxFailedIndexes > completions) {
      r.invalid(path.child("maxFailedIndexes"), maxFailedIndexes, "must be less than or equal to completions", "batch/job-indexed");
    }
    if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_INDEXED) {
      r.invalid(path.child("maxFailedIndexes"), maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_INDEXED}`, "batch/job-indexed");
    }
    if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && backoffLimitPerIndex !== undefined) {
      const suffix = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
      if (maxFailedIndexes === undefined) r.required(path.child("maxFailedIndexes"), `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`, "batch/job-indexed");
      if (parallelism !== undefined && parallelism > PARALLELISM_HIGH_COMPLETIONS) {
        r.invalid(path.child("parallelism"), parallelism, `must be less than or equal to ${PARALLELISM_HIGH_COMPLETIONS} ${suffix}`, "batch/job-indexed");
      }
      if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) {
        r.invalid(path.child("maxFailedIndexes"), maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} ${suffix}`, "batch/job-indexed");
      }
    }
  } else if (mode === undefined || mode === "NonIndexed") {
    if (backoffLimitPerIndex !== undefined) r.invalid(path.child("backoffLimitPerIndex"), backoffLimitPerIndex, "requires indexed completion mode", "batch/job-indexed");
    if (maxFailedIndexes !== undefined) r.invalid(path.child("maxFailedIndexes"), maxFailedIndexes, "requires indexed completion mode", "batch/job-indexed");
  }
  // (other completionMode values: the schema stage reports the enum)

  const template = asObj(spec.template);
  const podSpec = asObj(template?.spec) ?? {};
  const podFailurePolicy = asObj(spec.podFailurePolicy);
  if (podFailurePolicy) validatePodFailurePolicy(podFailurePolicy, spec, podSpec, path.child("podFailurePolicy"), r);
  const successPolicy = asObj(spec.successPolicy);
  if (successPolicy) {
    // the value is Go's internal JobSuccessPolicy (no json tags): field names as in Go, unset pointers as null
    const goPolicy = { Rules: objItems(successPolicy.rules).map(([, rule]) => ({ SucceededIndexes: rule.succeededIndexes ?? null, SucceededCount: rule.succeededCount ?? null })) };
    if (mode !== "Indexed") r.invalid(path.child("successPolicy"), new JsonValue(goPolicy), "requires indexed completion mode", "batch/job-success-policy");
    else validateSuccessPolicy(successPolicy, completions ?? 0, path.child("successPolicy"), r);
  }
  const replacement = asStr(spec.podReplacementPolicy);
  if (replacement !== undefined && podFailurePolicy && replacement !== "Failed") {
    r.notSupported(path.child("podReplacementPolicy"), replacement, ["Failed"], "batch/job-pod-replacement-policy");
  }

  validatePodTemplateSpec(spec.template, path.child("template"), r);

  // PodSpec defaulting turns an unset restartPolicy into Always, which a Job may not use
  const restart = asStr(podSpec.restartPolicy) ?? "";
  const restartPath = path.child("template", "spec", "restartPolicy");
  if (restart === "Always" || restart === "") r.required(restartPath, 'valid values: "OnFailure", "Never"', "batch/job-restart-policy");
  else if (restart !== "OnFailure" && restart !== "Never") r.notSupported(restartPath, restart, ["OnFailure", "Never"], "batch/job-restart-policy");
  else if (podFailurePolicy && restart !== "Never") r.invalid(restartPath, restart, 'only "Never" is supported when podFailurePolicy is specified', "batch/job-restart-policy");
}

function validatePodFailurePolicy(policy: Obj, spec: Obj, podSpec: Obj, path: FieldPath, r: Reporter): void {
  const check = "batch/job-pod-failure-policy";
  const rules = asArr(policy.rules) ?? [];
  const rulesPath = path.child("rules");
  if (rules.length > MAX_POD_FAILURE_RULES) r.tooMany(rulesPath, rules.length, MAX_POD_FAILURE_RULES, check);
  const names = new Set([...objItems(podSpec.containers), ...objItems(podSpec.initContainers)].map(([, c]) => asStr(c.name) ?? ""));
  for (const [i, rule] of objItems(rules)) {
    const rulePath = rulesPath.index(i);
    const action = asStr(rule.action) ?? "";
    if (action === "") r.required(rulePath.child("action"), `valid values: ["${POD_FAILURE_ACTIONS.join('" "')}"]`, check);
    else if (action === "FailIndex") {
      if (spec.backoffLimitPerIndex === undefined) r.invalid(rulePath.child("action"), action, "requires the backoffLimitPerIndex to be set", check);
    } else if (!POD_FAILURE_ACTIONS.includes(action)) r.notSupported(rulePath.child("action"), action, POD_FAILURE_ACTIONS, check);
    const onExitCodes = asObj(rule.onExitCodes);
    const onPodConditions = asArr(rule.onPodConditions) ?? [];
    if (onExitCodes) validateOnExitCodes(onExitCodes, names, rulePath.child("onExitCodes"), r);
    if (onPodConditions.length > 0) {
      const condPath = rulePath.child("onPodConditions");
      if (onPodConditions.length > MAX_POD_CONDITION_PATTERNS) r.tooMany(condPath, onPodConditions.length, MAX_POD_CONDITION_PATTERNS, check);
      for (const [j, pattern] of objItems(onPodConditions)) {
        const type = asStr(pattern.type) ?? "";
        for (const m of isQualifiedName(type)) r.invalid(condPath.index(j).child("type"), type, m, check);
        // an empty status is defaulted to True before validation (SetDefaults_PodFailurePolicyOnPodConditionsPattern)
        const status = asStr(pattern.status) || "True";
        if (!CONDITION_STATUSES.includes(status)) r.notSupported(condPath.index(j).child("status"), status, CONDITION_STATUSES, check);
      }
    }
    if (onExitCodes && onPodConditions.length > 0) invalidOmitValue(r, rulePath, "specifying both OnExitCodes and OnPodConditions is not supported", check);
    if (!onExitCodes && onPodConditions.length === 0) invalidOmitValue(r, rulePath, "specifying one of OnExitCodes and OnPodConditions is required", check);
  }
}

function validateOnExitCodes(req: Obj, containers: ReadonlySet<string>, path: FieldPath, r: Reporter): void {
  const check = "batch/job-pod-failure-policy";
  const op = asStr(req.operator) ?? "";
  if (op === "") r.required(path.child("operator"), 'valid values: ["In" "NotIn"]', check);
  else if (op !== "In" && op !== "NotIn") r.notSupported(path.child("operator"), op, ["In", "NotIn"], check);
  const container = asStr(req.containerName);
  if (container !== undefined && !containers.has(container)) {
    r.invalid(path.child("containerName"), container, "must be one of the container or initContainer names in the pod template", check);
  }
  const values = (asArr(req.values) ?? []).filter((v): v is number => typeof v === "number");
  const valuesPath = path.child("values");
  if (values.length === 0) r.invalid(valuesPath, new JsonValue(Array.isArray(req.values) ? [] : null), "at least one value is required", check);
  else if (values.length > MAX_EXIT_CODE_VALUES) r.tooMany(valuesPath, values.length, MAX_EXIT_CODE_VALUES, check);
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (op === "In" && v === 0) r.invalid(valuesPath.index(j), v, "must not be 0 for the In operator", check);
    if (seen.has(v)) r.duplicate(valuesPath.index(j), v, check);
    else seen.add(v);
    if (j > 0 && (values[j - 1] as number) > v) ordered = false;
  });
  if (!ordered) r.invalid(valuesPath, new JsonValue(values), "must be ordered", check);
}

function validateSuccessPolicy(policy: Obj, completions: number, path: FieldPath, r: Reporter): void {
  const check = "batch/job-success-policy";
  const rules = asArr(policy.rules) ?? [];
  const rulesPath = path.child("rules");
  if (rules.length === 0) r.required(rulesPath, "at least one rules must be specified when the successPolicy is specified", check);
  if (rules.length > MAX_SUCCESS_RULES) r.tooMany(rulesPath, rules.length, MAX_SUCCESS_RULES, check);
  for (const [i, rule] of objItems(rules)) {
    const rulePath = rulesPath.index(i);
    const count = asNum(rule.succeededCount);
    const indexes = asStr(rule.succeededIndexes);
    if (count === undefined && indexes === undefined) r.required(rulePath, "at least one of succeededCount or succeededIndexes must be specified", check);
    let total = 0;
    if (indexes !== undefined) {
      const parsed = parseIndexes(indexes, completions);
      if (typeof parsed === "string") r.invalid(rulePath.child("succeededIndexes"), indexes, `error parsing succeededIndexes: ${parsed}`, check);
      else total = parsed;
    }
    if (count !== undefined) {
      const countPath = rulePath.child("succeededCount");
      if (count < 0) r.invalid(countPath, count, "must be greater than or equal to 0", check);
      if (count > completions) r.invalid(countPath, count, `must be less than or equal to ${completions} (the number of specified completions)`, check);
      if (indexes !== undefined && count > total) r.invalid(countPath, count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`, check);
    }
  }
}

/** validateIndexesFormat: "1,3-5,7" (ordered, non-overlapping, below completions); the number of indexes, or the error. */
function parseIndexes(s: string, completions: number): number | string {
  if (s.length === 0) return 0;
  let total = 0;
  let last = -1;
  for (const interval of s.split(",")) {
    const limits = interval.split("-");
    if (limits.length > 2) return `the fragment "${interval}" violates the requirement that an index interval can have at most two parts separated by '-'`;
    const bound = (x: string): number | string => {
      if (!/^[+-]?\d+$/.test(x)) return `cannot convert string to integer for index: "${x}"`;
      const n = Number(x);
      if (n >= completions) return `too large index: "${x}"`;
      if (n < 0) return `cannot convert string to integer for index: "${x}"`;
      return n;
    };
    const x = bound(limits[0] as string);
    if (typeof x === "string") return x;
    let y = x;
    if (limits.length === 2) {
      const b = bound(limits[1] as string);
      if (typeof b === "string") return b;
      y = b;
      if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
    }
    if (last >= x) return `overlapping indexes interval, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

/** IsDomainPrefixedPath: `example.com/path`. */
function domainPrefixedPathErrors(v: string): string[] {
  const slash = v.indexOf("/");
  if (slash < 0) return ["must be a domain-prefixed path (such as \"acme.io/foo\")"];
  const out: string[] = [];
  const host = v.slice(0, slash);
  const path = v.slice(slash);
  for (const m of subdomainErrors(host)) out.push(m);
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(path)) out.push("Invalid path: must contain only valid path characters");
  return out;
}

const subdomainErrors = (host: string): string[] =>
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(host) && host.length <= 253 ? [] : ["must be a valid domain name"];

function validateTimeZone(tz: string, path: FieldPath, r: Reporter): void {
  const check = "batch/cronjob-time-zone";
  if (tz.length === 0) {
    r.invalid(path, tz, "timeZone must be nil or non-empty string", check);
    return;
  }
  for (const part of tz.split("/")) {
    if (part === "." || part === ".." || part.startsWith("-") || !TZ_COMPONENT.test(part)) {
      r.invalid(path, tz, `unknown time zone ${tz}`, check);
      return;
    }
  }
  if (tz.toLowerCase() === "local") r.invalid(path, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones", check);
  const err = loadLocationError(tz);
  if (err) r.invalid(path, tz, err, check);
}

/** Go's json.Marshal of a map: keys sorted. */
const sortedMap = (m: Obj): Record<string, unknown> => Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));

/** A LabelSelector as Go prints it (matchLabels keys sorted). */
function selectorJson(sel: Obj): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (asObj(sel.matchLabels)) out.matchLabels = sortedMap(asObj(sel.matchLabels) as Obj);
  if (sel.matchExpressions !== undefined) out.matchExpressions = sel.matchExpressions;
  return out;
}

/** The server's generated UID is unknown offline: findings print this in its place. */
const UID = "UID";

function validateJob(job: Obj, r: Reporter): void {
  const spec = asObj(job.spec) ?? {};
  const path = FieldPath.of("spec");
  const labelsPath = path.child("template", "metadata", "labels");
  const template = asObj(spec.template);
  const userLabels = asObj(asObj(template?.metadata)?.labels);
  const name = asStr(asObj(job.metadata)?.name) ?? "";
  const manual = asBool(spec.manualSelector) === true;
  let selector = asObj(spec.selector);
  let labels: Obj | undefined = userLabels;
  if (!manual) {
    // strategy.go generateSelector: the job-name and controller-uid labels are added to the template (where absent)
    // and controller-uid to the selector; validateGeneratedSelector then wants a selector those labels satisfy
    labels = { "batch.kubernetes.io/controller-uid": UID, "batch.kubernetes.io/job-name": name, "controller-uid": UID, "job-name": name, ...userLabels };
    selector = { ...selector, matchLabels: { ...asObj(selector?.matchLabels), "batch.kubernetes.io/controller-uid": asStr(asObj(selector?.matchLabels)?.["batch.kubernetes.io/controller-uid"]) ?? UID } };
    const expected = { "batch.kubernetes.io/controller-uid": UID, "batch.kubernetes.io/job-name": name, "controller-uid": UID, "job-name": name };
    for (const key of ["batch.kubernetes.io/job-name", "job-name"]) {
      const v = asStr(userLabels?.[key]);
      if (v !== undefined && v !== name) r.invalid(labelsPath.key(key), v, `must be '${name}'`, "batch/job-selector");
    }
    if (!selectorMatches(selector, expected)) r.invalid(path.child("selector"), new JsonValue(selectorJson(selector)), "`selector` not auto-generated", "batch/job-selector");
  }
  validateJobSpec(spec, path, r, { jobDefaults: true });
  if (!manual) {
    // the generated job-name labels carry the name: a name that is no label value (over 63 characters) breaks them,
    // reported by the pod template's label check as `spec.template.labels` (the finding points at the name)
    for (const key of ["batch.kubernetes.io/job-name", "job-name"]) {
      if (userLabels?.[key] === undefined) for (const m of isLabelValue(name)) r.invalid(path.child("template", "labels"), name, m, "batch/job-name", "/metadata/name");
    }
  }
  // ValidateJobSpec: the selector is required and must select the template's labels
  if (!selector) r.required(path.child("selector"), "", "batch/job-selector");
  else validateLabelSelector(selector, path.child("selector"), r);
  if (!selector || !selectorMatches(selector, labels ?? {})) {
    r.invalid(labelsPath, new JsonValue(labels ? sortedMap(labels) : null), "`selector` does not match template `labels`", "batch/job-selector");
  }
  const completions = asNum(spec.completions);
  if (asStr(spec.completionMode) === "Indexed" && completions !== undefined && completions > 0) {
    const hostname = `${name}-${completions - 1}`;
    if (isDns1123Label(hostname).length > 0) {
      r.invalid(FieldPath.of("metadata", "name"), name, `will not able to create pod with invalid DNS label: ${hostname}`, "batch/job-name");
    }
  }
}

function validateCronJob(cronJob: Obj, r: Reporter): void {
  const spec = asObj(cronJob.spec) ?? {};
  const path = FieldPath.of("spec");
  const schedule = asStr(spec.schedule) ?? "";
  const timeZone = asStr(spec.timeZone);
  if (schedule.length === 0) r.required(path.child("schedule"), "", "batch/cronjob-schedule");
  else {
    const err = cronScheduleError(schedule, loadLocationError);
    if (err) r.invalid(path.child("schedule"), schedule, err, "batch/cronjob-schedule");
    if (schedule.includes("TZ")) r.invalid(path.child("schedule"), schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead", "batch/cronjob-schedule");
  }
  nonNegative(r, path.child("startingDeadlineSeconds"), spec.startingDeadlineSeconds, "batch/cronjob-counts");
  if (timeZone !== undefined) validateTimeZone(timeZone, path.child("timeZone"), r);
  // concurrencyPolicy defaults to Allow; other values: the schema stage reports the enum
  const jobTemplate = asObj(spec.jobTemplate) ?? {};
  const jobSpec = asObj(jobTemplate.spec) ?? {};
  const jobPath = path.child("jobTemplate", "spec");
  validateJobSpec(jobSpec, jobPath, r);
  if (jobSpec.selector !== undefined) r.invalid(jobPath.child("selector"), new JsonValue(jobSpec.selector), "`selector` will be auto-generated", "batch/cronjob-selector");
  if (asBool(jobSpec.manualSelector) === true) r.notSupported(jobPath.child("manualSelector"), true, ["nil", "false"], "batch/cronjob-selector");
  nonNegative(r, path.child("successfulJobsHistoryLimit"), spec.successfulJobsHistoryLimit, "batch/cronjob-counts");
  nonNegative(r, path.child("failedJobsHistoryLimit"), spec.failedJobsHistoryLimit, "batch/cronjob-counts");
  const name = asStr(asObj(cronJob.metadata)?.name) ?? "";
  if (name.length > 52) r.invalid(FieldPath.of("metadata", "name"), name, "must be no more than 52 characters", "batch/cronjob-name");
}

export const BATCH: NativeGroup = { group: "batch", kinds: { Job: validateJob, CronJob: validateCronJob } };

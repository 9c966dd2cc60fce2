// ValidatingWebhookConfiguration and MutatingWebhookConfiguration (admissionregistration.k8s.io/v1) as the API server
// validates them on create. After k8s.io/kubernetes@v1.36.5/pkg/apis/admissionregistration/validation/validation.go
// (ValidateValidatingWebhookConfiguration, ValidateMutatingWebhookConfiguration, validateValidatingWebhook,
// validateMutatingWebhook, validateRuleWithOperations, validateRule, validateResources, validateAdmissionReviewVersions,
// validateMatchConditions), k8s.io/apiserver@v0.36.5/pkg/util/webhook/validation.go (ValidateWebhookURL,
// ValidateWebhookService), k8s.io/apimachinery@v0.36.5/pkg/util/validation/validation.go (IsFullyQualifiedName) and the
// defaults of pkg/apis/admissionregistration/v1/defaults.go (service port 443). matchConditions are checked for shape
// (names, count, an expression present); their CEL is not compiled yet (see the coverage table).
import { validateLabelSelector } from "./labelselector.ts";
import { isDns1035Label, isDns1123Subdomain, isQualifiedName, isValidPortNum } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { type Obj, asArr, asNum, asObj, asStr, objItems } from "./values.ts";

const CHECK = "admissionregistration/webhook";
const ACCEPTED_REVIEW_VERSIONS = ["v1", "v1beta1"];
const FAILURE_POLICIES = ["Fail", "Ignore"];
const MATCH_POLICIES = ["Equivalent", "Exact"];
/** On create only these (requireNoSideEffects); Unknown and Some were accepted by v1beta1 only. */
const NO_SIDE_EFFECTS = ["None", "NoneOnDryRun"];
const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const REINVOCATION_POLICIES = ["IfNeeded", "Never"];
const SCOPES = ["*", "Cluster", "Namespaced"];
const MAX_MATCH_CONDITIONS = 64;
const URL_FORM = "; desired format: https://host[/path]";

const strings = (v: unknown): string[] => (asArr(v) ?? []).map((x) => (typeof x === "string" ? x : ""));
const hasWildcard = (list: readonly string[]) => list.includes("*");

/** IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function validateFullyQualifiedName(name: string, path: FieldPath, r: Reporter): void {
  if (name.length === 0) {
    r.required(path, "", CHECK);
    return;
  }
  const errs = isDns1123Subdomain(name);
  if (errs.length > 0) {
    r.invalid(path, name, errs.join(","), CHECK);
    return;
  }
  if (name.split(".").length < 3) r.invalid(path, name, "should be a domain with at least three segments separated by dots", CHECK);
}

/** validateResources (subresources allowed): `*`, `*\/*`, `x/*` and `*\/x` exclusions. */
function validateResources(resources: readonly string[], path: FieldPath, r: Reporter): void {
  if (resources.length === 0) r.required(path, "", CHECK);
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === "") {
    r.required(path.index(i), "", CHECK);
    return;
  }
    if (resSub === "*/*") doubleWildcard = true;
    if (resSub === "*") singleWildcard = true;
    const slash = resSub.indexOf("/");
    if (slash < 0) {
      withoutSub = resSub !== "*";
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) r.invalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`, CHECK);
    if (subWithWildcardRes.has(sub)) r.invalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`, CHECK);
    if (sub === "*") withWildcardSub.add(res);
    if (res === "*") subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) r.invalid(path, new JsonValue(resources), "if '*/*' is present, must not specify other resources", CHECK);
  if (singleWildcard && withoutSub) r.invalid(path, new JsonValue(resources), "if '*' is present, must not specify other resources without subresources", CHECK);
}

/** validateRuleWithOperations and validateRule (the scope defaults to `*`). */
function validateRuleWithOperations(rule: Obj, path: FieldPath, r: Reporter): void {
  const operations = strings(rule.operations);
  if (operations.length === 0) r.required(path.child("operations"), "", CHECK);
  if (operations.length > 1 && hasWildcard(operations)) r.invalid(path.child("operations"), new JsonValue(operations), "if '*' is present, must not specify other operations", CHECK);
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) r.notSupported(path.child("operations").index(i), op, OPERATIONS, CHECK);
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) r.required(path.child("apiGroups"), "", CHECK);
  if (groups.length > 1 && hasWildcard(groups)) r.invalid(path.child("apiGroups"), new JsonValue(groups), "if '*' is present, must not specify other API groups", CHECK);
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) r.required(path.child("apiVersions"), "", CHECK);
  if (versions.length > 1 && hasWildcard(versions)) r.invalid(path.child("apiVersions"), new JsonValue(versions), "if '*' is present, must not specify other API versions", CHECK);
  versions.forEach((v, i) => {
    if (v === "") r.required(path.child("apiVersions").index(i), "", CHECK);
  });
  validateResources(strings(rule.resources), path.child("resources"), r);
  const scope = asStr(rule.scope);
  if (scope !== undefined && !SCOPES.includes(scope)) r.notSupported(path.child("scope"), scope, SCOPES, CHECK);
}

/** The parts of a URL as Go's net/url.Parse splits them (RFC 3986, appendix B). */
const URL_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

/** ValidateWebhookURL with forceHttps. */
function validateWebhookUrl(url: string, path: FieldPath, r: Reporter): void {
  const m = URL_PARTS.exec(url) as RegExpExecArray;
  const scheme = (m[1] ?? "").toLowerCase();
  const authority = m[2] ?? "";
  const at = authority.lastIndexOf("@");
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  if (scheme !== "https") r.invalid(path, scheme, `'https' is the only allowed URL scheme${URL_FORM}`, CHECK);
  if (host.length === 0) r.invalid(path, host, `host must be specified${URL_FORM}`, CHECK);
  if (at >= 0) r.invalid(path, authority.slice(0, at), "user information is not permitted in the URL", CHECK);
  if (m[5]) r.invalid(path, m[5], "fragments are not permitted in the URL", CHECK);
  if (m[4]) r.invalid(path, m[4], "query parameters are not permitted in the URL", CHECK);
}

/** ValidateWebhookService (the port defaults to 443). */
function validateWebhookService(service: Obj, path: FieldPath, r: Reporter): void {
  if ((asStr(service.name) ?? "") === "") r.required(path.child("name"), "", CHECK);
  if ((asStr(service.namespace) ?? "") === "") r.required(path.child("namespace"), "", CHECK);
  const port = asNum(service.port) ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) r.invalid(path.child("port"), port, `port is not valid: ${portErrs.join(", ")}`, CHECK);
  const urlPath = asStr(service.path);
  if (urlPath === undefined || urlPath === "/" || urlPath === "") return;
  if (urlPath === "//") {
    r.invalid(path.child("path"), urlPath, "segment[0] may not be empty", CHECK);
    return;
  }
  if (!urlPath.startsWith("/")) r.invalid(path.child("path"), urlPath, "must start with a '/'", CHECK);
  let rest = urlPath.slice(1);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  rest.split("/").forEach((step, i) => {
    if (step.length === 0) {
    r.invalid(path.child("path"), urlPath, `segment[${i}] may not be empty`, CHECK);
    return;
  }
    for (const e of isDns1123Subdomain(step)) r.invalid(path.child("path"), urlPath, `segment[${i}]: ${e}`, CHECK);
  });
}

/** validateMatchConditions: at most 64, unique qualified names, an expression that is not blank. */
export function validateMatchConditions(conditions: unknown, path: FieldPath, r: Reporter, check = CHECK): void {
  const list = asArr(conditions) ?? [];
  if (list.length > MAX_MATCH_CONDITIONS) r.tooMany(path, list.length, MAX_MATCH_CONDITIONS, check);
  const names = new Set<string>();
  for (const [i, c] of objItems(conditions)) {
    const expression = (asStr(c.expression) ?? "").trim();
    if (expression.length === 0) r.required(path.index(i).child("expression"), "", check);
    const name = asStr(c.name) ?? "";
    if (name.length === 0) r.required(path.index(i).child("name"), "", check);
    else for (const m of isQualifiedName(name)) r.invalid(path.index(i).child("name"), name, m, check);
    if (name.length > 0) {
      if (names.has(name)) r.duplicate(path.index(i).child("name"), name, check);
      else names.add(name);
    }
  }
}

/** validateAdmissionReviewVersions with requireRecognizedAdmissionReviewVersion. */
function validateAdmissionReviewVersions(versions: readonly string[], path: FieldPath, r: Reporter): void {
  if (versions.length === 0) {
    r.required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(", ")}`, CHECK);
    return;
  }
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
    r.invalid(path.index(i), v, "duplicate version", CHECK);
    return;
  }
    seen.add(v);
    for (const m of isDns1035Label(v)) r.invalid(path.index(i), v, m, CHECK);
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (!accepted) r.invalid(path, new JsonValue(versions), `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(", ")}`, CHECK);
}

/** validateValidatingWebhook / validateMutatingWebhook (the mutating one also checks reinvocationPolicy). */
function validateWebhook(hook: Obj, mutating: boolean, path: FieldPath, r: Reporter): void {
  validateFullyQualifiedName(asStr(hook.name) ?? "", path.child("name"), r);
  for (const [i, rule] of objItems(hook.rules)) validateRuleWithOperations(rule, path.child("rules").index(i), r);
  const failurePolicy = asStr(hook.failurePolicy);
  if (failurePolicy !== undefined && !FAILURE_POLICIES.includes(failurePolicy)) r.notSupported(path.child("failurePolicy"), failurePolicy, FAILURE_POLICIES, CHECK);
  const matchPolicy = asStr(hook.matchPolicy);
  if (matchPolicy !== undefined && !MATCH_POLICIES.includes(matchPolicy)) r.notSupported(path.child("matchPolicy"), matchPolicy, MATCH_POLICIES, CHECK);
  const sideEffects = asStr(hook.sideEffects);
  if (sideEffects === undefined) r.required(path.child("sideEffects"), `must specify one of ${NO_SIDE_EFFECTS.join(", ")}`, CHECK);
  else if (!NO_SIDE_EFFECTS.includes(sideEffects)) r.notSupported(path.child("sideEffects"), sideEffects, NO_SIDE_EFFECTS, CHECK);
  const timeout = asNum(hook.timeoutSeconds);
  if (timeout !== undefined && (timeout > 30 || timeout < 1)) r.invalid(path.child("timeoutSeconds"), timeout, "the timeout value must be between 1 and 30 seconds", CHECK);
  validateLabelSelector(hook.namespaceSelector, path.child("namespaceSelector"), r);
  validateLabelSelector(hook.objectSelector, path.child("objectSelector"), r);
  if (mutating) {
    const reinvocation = asStr(hook.reinvocationPolicy);
    if (reinvocation !== undefined && !REINVOCATION_POLICIES.includes(reinvocation)) r.notSupported(path.child("reinvocationPolicy"), reinvocation, REINVOCATION_POLICIES, CHECK);
  }
  const cc = asObj(hook.clientConfig) ?? {};
  const url = asStr(cc.url);
  const service = asObj(cc.service);
  if ((url === undefined) === (service === undefined)) r.required(path.child("clientConfig"), "exactly one of url or service is required", CHECK);
  else if (url !== undefined) validateWebhookUrl(url, path.child("clientConfig", "url"), r);
  else if (service) validateWebhookService(service, path.child("clientConfig", "service"), r);
  validateMatchConditions(hook.matchConditions, path.child("matchConditions"), r);
}

/** ValidateValidatingWebhookConfiguration / ValidateMutatingWebhookConfiguration: every webhook, review versions, unique names. */
function validateWebhookConfiguration(config: Obj, mutating: boolean, r: Reporter): void {
  const names = new Set<string>();
  for (const [i, hook] of objItems(config.webhooks)) {
    const path = FieldPath.of("webhooks").index(i);
    validateWebhook(hook, mutating, path, r);
    validateAdmissionReviewVersions(strings(hook.admissionReviewVersions), path.child("admissionReviewVersions"), r);
    const name = asStr(hook.name) ?? "";
    if (name.length > 0) {
      if (names.has(name)) r.duplicate(path.child("name"), name, CHECK);
      else names.add(name);
    }
  }
}

export const ADMISSION_REGISTRATION: NativeGroup = {
  group: "admissionregistration.k8s.io",
  kinds: {
    ValidatingWebhookConfiguration: (c, r) => validateWebhookConfiguration(c, false, r),
    MutatingWebhookConfiguration: (c, r) => validateWebhookConfiguration(c, true, r),
  },
};

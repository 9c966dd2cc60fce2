// The admissionregistration.k8s.io/v1 kinds as the API server validates them on create: webhook configurations,
// ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings. After
// k8s.io/kubernetes@v1.36.5/pkg/apis/admissionregistration/validation/validation.go (ValidateValidatingWebhookConfiguration,
// ValidateMutatingWebhookConfiguration, validateValidatingWebhook, validateMutatingWebhook, validateRuleWithOperations,
// validateRule, validateResources, validateAdmissionReviewVersions, validateMatchConditions, ValidateValidatingAdmissionPolicy,
// ValidateValidatingAdmissionPolicyBinding, ValidateMutatingAdmissionPolicy, ValidateMutatingAdmissionPolicyBinding and
// their helpers), k8s.io/apiserver@v0.36.5/pkg/util/webhook/validation.go (ValidateWebhookURL, ValidateWebhookService),
// k8s.io/apimachinery@v0.36.5/pkg/util/validation/validation.go (IsFullyQualifiedName) and the defaults of
// pkg/apis/admissionregistration/v1/defaults.go (service port 443, failurePolicy Fail, matchPolicy Equivalent, empty
// selectors), applied here by reading an absent field as its default. CEL expressions are compiled by
// ../cel/admission-compile.ts, except MutatingAdmissionPolicy mutations (see the coverage table).
import { compileAdmissionExpression, variableFieldType } from "../cel/admission-compile.ts";
import type { AdmissionDeclarations } from "../cel/admission-env.ts";
import { validateLabelSelector } from "./labelselector.ts";
import { byteLength, isDns1035Label, isDns1123Subdomain, isQualifiedName, isValidPathSegmentName, isValidPortNum } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { asArr, asNum, asObj, asStr, type Obj, objItems } from "./values.ts";

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

/**
 * validateMatchConditions and validateMatchCondition: at most 64, unique qualified names, an expression that compiles
 * to bool with the stateless compiler (no `variables`; `params` only for a policy with a paramKind).
 */
export function validateMatchConditions(conditions: unknown, path: FieldPath, r: Reporter, params = false, check = CHECK): void {
  const list = asArr(conditions) ?? [];
  if (list.length > MAX_MATCH_CONDITIONS) r.tooMany(path, list.length, MAX_MATCH_CONDITIONS, check);
  const names = new Set<string>();
  for (const [i, c] of objItems(conditions)) {
    const expression = (asStr(c.expression) ?? "").trim();
    if (expression.length === 0) r.required(path.index(i).child("expression"), "", check);
    else {
      const { error } = compileAdmissionExpression(expression, { params, authorizer: true }, ["bool"]);
      if (error) r.invalid(path.index(i).child("expression"), expression, error, check);
    }
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

const POLICY = "admissionregistration/policy";
const BINDING = "admissionregistration/binding";
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_VALUE_EXPRESSION_BYTES = 5 * 1024;
const VALIDATION_REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
const VALIDATION_ACTIONS = ["Audit", "Deny", "Warn"];
/** MutatingAdmissionPolicy cannot match DELETE (supportedMutatingOperations, sorted as sets.List sorts). */
const MUTATING_OPERATIONS = ["*", "CONNECT", "CREATE", "UPDATE"];
const PATCH_TYPES = ["ApplyConfiguration", "JSONPatch"];
const CEL_RESERVED = new Set(["true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while"]);
const isCelIdentifier = (name: string) => /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !CEL_RESERVED.has(name);
const hasNewlines = (s: string) => /[\n\r]/.test(s);
const isBlank = (s: string) => s.trim().length === 0;

/** failurePolicy: defaulted to Fail when absent (SetDefaults_*AdmissionPolicySpec). */
function validateFailurePolicy(spec: Obj, path: FieldPath, r: Reporter): void {
  const policy = asStr(spec.failurePolicy);
  if (policy !== undefined && !FAILURE_POLICIES.includes(policy)) r.notSupported(path.child("failurePolicy"), policy, FAILURE_POLICIES, POLICY);
}

/** parseGroupVersion: "group/version", "version", or an error for more than one slash. */
function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === "" || gv === "/") return { group: "", version: "" };
  const parts = gv.split("/");
  if (parts.length === 1) return { group: "", version: gv };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  return `unexpected GroupVersion string: ${gv}`;
}

/** validateParamKind: an apiVersion of a DNS subdomain group and a DNS-1035 version, a kind that is a label in lower case. */
function validateParamKind(pk: Obj, path: FieldPath, r: Reporter): void {
  const apiVersion = asStr(pk.apiVersion) ?? "";
  const av = path.child("apiVersion");
  if (apiVersion.length === 0) r.required(av, "", POLICY);
  else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === "string") r.invalid(av, apiVersion, gv, POLICY);
    else {
      const groupErrs = gv.group.length > 0 ? isDns1123Subdomain(gv.group) : [];
      if (groupErrs.length > 0) r.invalid(av, gv.group, groupErrs.join(","), POLICY);
      if (gv.version.length === 0) r.invalid(av, apiVersion, "version must be specified", POLICY);
      else {
        const versionErrs = isDns1035Label(gv.version);
        if (versionErrs.length > 0) r.invalid(av, gv.version, versionErrs.join(","), POLICY);
      }
    }
  }
  const kind = asStr(pk.kind) ?? "";
  if (kind.length === 0) r.required(path.child("kind"), "", POLICY);
  else {
    const errs = isDns1035Label(kind.toLowerCase());
    if (errs.length > 0) r.invalid(path.child("kind"), kind, `may have mixed case, but should otherwise match: ${errs.join(",")}`, POLICY);
  }
}

/** validateNamedRuleWithOperations: resourceNames are path segments, unique; then the rule itself. */
function validateNamedRuleWithOperations(rule: Obj, path: FieldPath, r: Reporter): void {
  const seen = new Set<string>();
  strings(rule.resourceNames).forEach((name, i) => {
    for (const m of isValidPathSegmentName(name)) r.invalid(path.child("resourceNames").index(i), name, m, POLICY);
    if (seen.has(name)) r.duplicate(path.child("resourceNames").index(i), name, POLICY);
    else seen.add(name);
  });
  validateRuleWithOperations(rule, path, r);
}

/** validateMatchResources (matchPolicy and both selectors are defaulted when absent; selectors are checked strictly). */
function validateMatchResources(mc: Obj, path: FieldPath, r: Reporter): void {
  const matchPolicy = asStr(mc.matchPolicy);
  if (matchPolicy !== undefined && !MATCH_POLICIES.includes(matchPolicy)) r.notSupported(path.child("matchPolicy"), matchPolicy, MATCH_POLICIES, POLICY);
  validateLabelSelector(mc.namespaceSelector, path.child("namespaceSelector"), r);
  validateLabelSelector(mc.objectSelector, path.child("objectSelector"), r);
  for (const [i, rule] of objItems(mc.resourceRules)) validateNamedRuleWithOperations(rule, path.child("resourceRules").index(i), r);
  for (const [i, rule] of objItems(mc.excludeResourceRules)) validateNamedRuleWithOperations(rule, path.child("excludeResourceRules").index(i), r);
}

/** A policy's matchConstraints: required, with at least one resourceRule (the rule that gives type information). */
function validateMatchConstraints(spec: Obj, path: FieldPath, r: Reporter, mutating: boolean): void {
  const mc = asObj(spec.matchConstraints);
  if (!mc) {
    r.required(path.child("matchConstraints"), "", POLICY);
    return;
  }
  validateMatchResources(mc, path.child("matchConstraints"), r);
  if ((asArr(mc.resourceRules) ?? []).length === 0) r.required(path.child("matchConstraints", "resourceRules"), "", POLICY);
  if (mutating) validateMutatingOperations(mc, path.child("matchConstraints"), r);
}

/** Only create, update and connect requests can be mutated (the error names `resourceRules.operations`, no index). */
function validateMutatingOperations(mc: Obj, path: FieldPath, r: Reporter): void {
  for (const [, rule] of objItems(mc.resourceRules)) {
    for (const op of strings(rule.operations)) {
      if (!MUTATING_OPERATIONS.includes(op)) r.notSupported(path.child("resourceRules", "operations"), op, MUTATING_OPERATIONS, POLICY);
    }
  }
}

/**
 * validateVariable for each variable, in order: a CEL identifier and an expression compiled with the variables declared
 * before it; each compiled variable becomes a field of `variables` (dyn when its expression does not compile).
 */
function validateVariables(spec: Obj, decls: AdmissionDeclarations, path: FieldPath, r: Reporter): Map<string, string> {
  const declared = new Map<string, string>();
  for (const [i, v] of objItems(spec.variables)) {
    const p = path.child("variables").index(i);
    const name = asStr(v.name) ?? "";
    if (isBlank(name)) r.required(p.child("name"), "name is not specified", POLICY);
    else if (!isCelIdentifier(name)) r.invalid(p.child("name"), name, "must be a valid CEL identifier", POLICY);
    const expression = asStr(v.expression) ?? "";
    if (isBlank(expression)) {
      r.required(p.child("expression"), "expression is not specified", POLICY);
      continue;
    }
    const { error, type } = compileAdmissionExpression(expression, decls, ["any"], declared);
    if (error) r.invalid(p.child("expression"), expression, error, POLICY);
    declared.set(name, variableFieldType(type));
  }
  return declared;
}

/** validateValidation: expression (bool), messageExpression (string, no authorizer), message, reason. */
function validateValidation(v: Obj, params: boolean, variables: ReadonlyMap<string, string> | undefined, path: FieldPath, r: Reporter): void {
  const expression = asStr(v.expression) ?? "";
  if (isBlank(expression)) r.required(path.child("expression"), "expression is not specified", POLICY);
  else {
    const { error } = compileAdmissionExpression(expression, { params, authorizer: true }, ["bool"], variables);
    if (error) r.invalid(path.child("expression"), expression, error, POLICY);
  }
  const messageExpression = asStr(v.messageExpression) ?? "";
  if (messageExpression.length > 0 && isBlank(messageExpression)) r.invalid(path.child("messageExpression"), messageExpression, "must be non-empty if specified", POLICY);
  else if (messageExpression.length > 0) {
    const { error } = compileAdmissionExpression(messageExpression, { params, authorizer: false }, ["string"], variables);
    if (error) r.invalid(path.child("messageExpression"), messageExpression, error, POLICY);
  }
  const message = asStr(v.message) ?? "";
  if (message.length > 0 && isBlank(message)) r.invalid(path.child("message"), message, "must be non-empty if specified", POLICY);
  else if (hasNewlines(message.trim())) r.invalid(path.child("message"), message, "must not contain line breaks", POLICY);
  const reason = asStr(v.reason);
  if (reason !== undefined && !VALIDATION_REASONS.includes(reason)) r.notSupported(path.child("reason"), reason, VALIDATION_REASONS, POLICY);
}

/**
 * The name the server validates audit annotation keys against: metadata.name, or for generateName the generated name
 * (the prefix plus five characters: only its length matters to the key rules).
 */
function policyName(meta: Obj): string {
  const name = asStr(meta.name) ?? "";
  if (name.length > 0) return name;
  const prefix = asStr(meta.generateName) ?? "";
  return prefix.length > 0 ? `${prefix}xxxxx` : "";
}

/** validateAuditAnnotation: `<policy name>/<key>` is a qualified name; valueExpression compiles to string or null. */
function validateAuditAnnotation(a: Obj, name: string, params: boolean, variables: ReadonlyMap<string, string> | undefined, path: FieldPath, r: Reporter): void {
  const key = asStr(a.key) ?? "";
  if (name.length > 0) for (const m of isQualifiedName(`${name}/${key}`)) r.invalid(path.child("key"), `${name}/${key}`, m, POLICY);
  else r.invalid(path.child("key"), key, "requires metadata.name be non-empty", POLICY);
  const valueExpression = asStr(a.valueExpression) ?? "";
  const trimmed = valueExpression.trim();
  if (trimmed.length === 0) r.required(path.child("valueExpression"), "valueExpression is not specified", POLICY);
  else if (byteLength(trimmed) > MAX_AUDIT_VALUE_EXPRESSION_BYTES) r.required(path.child("valueExpression"), `must not exceed ${MAX_AUDIT_VALUE_EXPRESSION_BYTES} bytes in length`, POLICY);
  else {
    const { error } = compileAdmissionExpression(trimmed, { params, authorizer: true }, ["string", "null_type"], variables);
    if (error) r.invalid(path.child("valueExpression"), valueExpression, error, POLICY);
  }
}

/** validations and auditAnnotations: at least one of the two; at most 20 annotations with unique keys. */
function validateValidationsAndAudit(policy: Obj, spec: Obj, params: boolean, variables: ReadonlyMap<string, string> | undefined, path: FieldPath, r: Reporter): void {
  const validations = objItems(spec.validations);
  const annotations = asArr(spec.auditAnnotations);
  if (validations.length === 0 && (annotations ?? []).length === 0) {
    r.required(path.child("validations"), "validations or auditAnnotations must contain at least one item", POLICY);
    r.required(path.child("auditAnnotations"), "validations or auditAnnotations must contain at least one item", POLICY);
    return;
  }
  for (const [i, v] of validations) validateValidation(v, params, variables, path.child("validations").index(i), r);
  if (!annotations) return;
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) r.invalid(path.child("auditAnnotations"), new JsonValue(annotations), `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`, POLICY);
  const name = policyName(asObj(policy.metadata) ?? {});
  const keys = new Set<string>();
  for (const [i, a] of objItems(annotations)) {
    const p = path.child("auditAnnotations").index(i);
    validateAuditAnnotation(a, name, params, variables, p, r);
    const key = asStr(a.key) ?? "";
    if (keys.has(key)) r.duplicate(p.child("key"), key, POLICY);
    keys.add(key);
  }
}

/** validateValidatingAdmissionPolicySpec (create: every match condition is compiled). */
function validateValidatingAdmissionPolicy(policy: Obj, r: Reporter): void {
  const spec = asObj(policy.spec) ?? {};
  const path = FieldPath.of("spec");
  validateFailurePolicy(spec, path, r);
  const paramKind = asObj(spec.paramKind);
  if (paramKind) validateParamKind(paramKind, path.child("paramKind"), r);
  const params = paramKind !== undefined;
  validateMatchConstraints(spec, path, r, false);
  validateMatchConditions(spec.matchConditions, path.child("matchConditions"), r, params, POLICY);
  // the compiler composes variables only when the policy declares some; without, `variables` is undeclared
  const composed = (asArr(spec.variables) ?? []).length > 0;
  const variables = composed ? validateVariables(spec, { params, authorizer: true }, path, r) : undefined;
  validateValidationsAndAudit(policy, spec, params, variables, path, r);
}

/** validateMutation: a patchType with its own field only; the expression must be present (it is not compiled here). */
function validateMutation(m: Obj, path: FieldPath, r: Reporter): void {
  const patchType = asStr(m.patchType) ?? "";
  const own = patchType === "JSONPatch" ? "jsonPatch" : "applyConfiguration";
  const other = patchType === "JSONPatch" ? "applyConfiguration" : "jsonPatch";
  if (patchType.length === 0) {
    r.required(path.child("patchType"), "", POLICY);
    return;
  }
  if (!PATCH_TYPES.includes(patchType)) {
    r.notSupported(path.child("patchType"), patchType, PATCH_TYPES, POLICY);
    return;
  }
  const body = asObj(m[own]);
  if (!body) r.required(path.child(own), `must be specified when patchType is ${patchType}`, POLICY);
  // cel-js cannot parse the object construction (`Object{...}`, `JSONPatch{...}`) these expressions build: presence only
  else if (isBlank(asStr(body.expression) ?? "")) r.required(path.child(own, "expression"), "", POLICY);
  if (m[other] !== undefined && m[other] !== null) r.invalid(path.child(other), `{${other}}`, `must not be specified when patchType is ${patchType}`, POLICY);
}

/** validateMutatingAdmissionPolicySpec: the composing compiler always (variables may be referenced even when none are declared). */
function validateMutatingAdmissionPolicy(policy: Obj, r: Reporter): void {
  const spec = asObj(policy.spec) ?? {};
  const path = FieldPath.of("spec");
  validateFailurePolicy(spec, path, r);
  const paramKind = asObj(spec.paramKind);
  if (paramKind) validateParamKind(paramKind, path.child("paramKind"), r);
  const params = paramKind !== undefined;
  validateMatchConstraints(spec, path, r, true);
  validateMatchConditions(spec.matchConditions, path.child("matchConditions"), r, params, POLICY);
  validateVariables(spec, { params, authorizer: true }, path, r);
  const mutations = objItems(spec.mutations);
  if (mutations.length === 0) r.required(path.child("mutations"), "mutations must contain at least one item", POLICY);
  for (const [i, m] of mutations) validateMutation(m, path.child("mutations").index(i), r);
  const reinvocation = asStr(spec.reinvocationPolicy) ?? "";
  if (reinvocation.length === 0) r.required(path.child("reinvocationPolicy"), "", POLICY);
  else if (!REINVOCATION_POLICIES.includes(reinvocation)) r.notSupported(path.child("reinvocationPolicy"), reinvocation, REINVOCATION_POLICIES, POLICY);
}

/** validateParamRef: name or selector (not both), and a parameterNotFoundAction of Deny or Allow. */
function validateParamRef(pr: Obj, path: FieldPath, r: Reporter): void {
  const name = asStr(pr.name) ?? "";
  const selector = asObj(pr.selector);
  const exclusive = "name and selector are mutually exclusive";
  if (name.length > 0) {
    for (const m of isValidPathSegmentName(name)) r.invalid(path.child("name"), name, m, BINDING);
    if (selector) r.forbidden(path.child("name"), exclusive, BINDING);
  }
  if (selector) {
    validateLabelSelector(selector, path.child("selector"), r);
    if (name.length > 0) r.forbidden(path.child("selector"), exclusive, BINDING);
  }
  if (name.length === 0 && !selector) r.required(path, "one of name or selector must be specified", BINDING);
  const action = asStr(pr.parameterNotFoundAction) ?? "";
  if (action.length === 0) r.required(path.child("parameterNotFoundAction"), "", BINDING);
  else if (action !== "Deny" && action !== "Allow") r.notSupported(path.child("parameterNotFoundAction"), action, ["Deny", "Allow"], BINDING);
}

/** validateValidationActions: known, unique, not Deny with Warn, at least one. */
function validateValidationActions(actions: unknown, path: FieldPath, r: Reporter): void {
  const list = strings(actions);
  const seen = new Set<string>();
  list.forEach((a, i) => {
    if (!VALIDATION_ACTIONS.includes(a)) r.notSupported(path.index(i), a, VALIDATION_ACTIONS, BINDING);
    if (seen.has(a)) r.duplicate(path.index(i), a, BINDING);
    seen.add(a);
  });
  if (seen.has("Deny") && seen.has("Warn")) {
    r.invalid(path, new JsonValue(list), "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)", BINDING);
  }
  if (seen.size === 0) r.required(path, "at least one validation action is required", BINDING);
}

/** validate{Validating,Mutating}AdmissionPolicyBindingSpec. */
function validateBinding(binding: Obj, mutating: boolean, r: Reporter): void {
  const spec = asObj(binding.spec) ?? {};
  const path = FieldPath.of("spec");
  const policy = asStr(spec.policyName) ?? "";
  if (policy.length === 0) r.required(path.child("policyName"), "", BINDING);
  else for (const m of isDns1123Subdomain(policy)) r.invalid(path.child("policyName"), policy, m, BINDING);
  const paramRef = asObj(spec.paramRef);
  if (paramRef) validateParamRef(paramRef, path.child("paramRef"), r);
  const mr = asObj(spec.matchResources);
  if (mr) validateMatchResources(mr, path.child("matchResources"), r);
  if (mutating && mr) validateMutatingOperations(mr, path.child("matchResources"), r);
  if (!mutating) validateValidationActions(spec.validationActions, path.child("validationActions"), r);
}

export const ADMISSION_REGISTRATION: NativeGroup = {
  group: "admissionregistration.k8s.io",
  kinds: {
    ValidatingWebhookConfiguration: (c, r) => validateWebhookConfiguration(c, false, r),
    MutatingWebhookConfiguration: (c, r) => validateWebhookConfiguration(c, true, r),
    ValidatingAdmissionPolicy: validateValidatingAdmissionPolicy,
    ValidatingAdmissionPolicyBinding: (b, r) => validateBinding(b, false, r),
    MutatingAdmissionPolicy: validateMutatingAdmissionPolicy,
    MutatingAdmissionPolicyBinding: (b, r) => validateBinding(b, true, r),
  },
};

// FlowSchema and PriorityLevelConfiguration (flowcontrol.apiserver.k8s.io/v1) as the API server validates them on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/flowcontrol/validation/validation.go (ValidateFlowSchema and its Spec,
// PolicyRulesWithSubjects, Subject, ServiceAccountSubject, UserSubject, GroupSubject, ResourcePolicyRule,
// NonResourcePolicyRule, NonResourceURLPath; ValidatePriorityLevelConfiguration and its Spec, Limited, Exempt,
// LimitResponse, QueuingConfiguration, IfMandatory), pkg/apis/flowcontrol/v1/defaults.go,
// pkg/registry/flowcontrol/*/strategy.go (status is reset on create) and the mandatory objects of
// k8s.io/apiserver@v0.36.5/pkg/apis/flowcontrol/bootstrap/default.go.
import { isDns1123Label, isDns1123Subdomain } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { type Obj, asArr, asBool, asNum, asObj, asStr, objItems } from "./values.ts";

const C = "flowcontrol";
const SPEC = FieldPath.of("spec");
const MAX_MATCHING_PRECEDENCE = 10000;
const MAX_QUEUES = 10_000_000;
const MAX_HASH_BITS = 60;
const VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"];
const DISTINGUISHERS = ["ByNamespace", "ByUser"];
const SUBJECT_KINDS = ["Group", "ServiceAccount", "User"];
const ZERO_SHARES_ANNOTATION = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const strings = (v: unknown): string[] | null => {
  const a = asArr(v);
  return a ? a.map((x) => asStr(x) ?? "") : null;
};
const hasWildcard = (list: readonly string[] | null): boolean => (list ?? []).includes("*");

// The internal Go structs (no JSON tags, so Go's field names), after the v1 defaults: what the server compares with
// its mandatory objects and prints in the "must equal the fixed value" error.

function internalFlowSchemaSpec(spec: Obj): Record<string, unknown> {
  const dm = asObj(spec.distinguisherMethod);
  const rules = asArr(spec.rules);
  return {
    PriorityLevelConfiguration: { Name: asStr(asObj(spec.priorityLevelConfiguration)?.name) ?? "" },
    MatchingPrecedence: asNum(spec.matchingPrecedence) || 1000,
    DistinguisherMethod: dm ? { Type: asStr(dm.type) ?? "" } : null,
    Rules: rules
      ? rules.map((r) => {
          const rule = asObj(r) ?? {};
          const subjects = asArr(rule.subjects);
          const resourceRules = asArr(rule.resourceRules);
          const nonResourceRules = asArr(rule.nonResourceRules);
          return {
            Subjects: subjects ? subjects.map((s) => internalSubject(asObj(s) ?? {})) : null,
            ResourceRules: resourceRules
              ? resourceRules.map((x) => {
                  const o = asObj(x) ?? {};
                  return { Verbs: strings(o.verbs), APIGroups: strings(o.apiGroups), Resources: strings(o.resources), ClusterScope: asBool(o.clusterScope) ?? false, Namespaces: strings(o.namespaces) };
                })
              : null,
            NonResourceRules: nonResourceRules
              ? nonResourceRules.map((x) => {
                  const o = asObj(x) ?? {};
                  return { Verbs: strings(o.verbs), NonResourceURLs: strings(o.nonResourceURLs) };
                })
              : null,
          };
        })
      : null,
  };
}

function internalSubject(s: Obj): Record<string, unknown> {
  const user = asObj(s.user);
  const group = asObj(s.group);
  const sa = asObj(s.serviceAccount);
  return {
    Kind: asStr(s.kind) ?? "",
    User: user ? { Name: asStr(user.name) ?? "" } : null,
    Group: group ? { Name: asStr(group.name) ?? "" } : null,
    ServiceAccount: sa ? { Namespace: asStr(sa.namespace) ?? "", Name: asStr(sa.name) ?? "" } : null,
  };
}

function internalPriorityLevelSpec(spec: Obj): Record<string, unknown> {
  const limited = asObj(spec.limited);
  const exempt = asObj(spec.exempt);
  let internalLimited: Record<string, unknown> | null = null;
  if (limited) {
    const lr = asObj(limited.limitResponse) ?? {};
    const q = asObj(lr.queuing);
    internalLimited = {
      NominalConcurrencyShares: asNum(limited.nominalConcurrencyShares) ?? 30,
      LimitResponse: {
        Type: asStr(lr.type) ?? "",
        Queuing: q ? { Queues: asNum(q.queues) || 64, HandSize: asNum(q.handSize) || 8, QueueLengthLimit: asNum(q.queueLengthLimit) || 50 } : null,
      },
      LendablePercent: asNum(limited.lendablePercent) ?? 0,
      BorrowingLimitPercent: asNum(limited.borrowingLimitPercent) ?? null,
    };
  }
  return {
    Type: asStr(spec.type) ?? "",
    Limited: internalLimited,
    Exempt: exempt ? { NominalConcurrencyShares: asNum(exempt.nominalConcurrencyShares) ?? 0, LendablePercent: asNum(exempt.lendablePercent) ?? 0 } : null,
  };
}

const everything = (subjects: string[]) => ({
  Subjects: subjects.map((name) => ({ Kind: "Group", User: null, Group: { Name: name }, ServiceAccount: null })),
  ResourceRules: [{ Verbs: ["*"], APIGroups: ["*"], Resources: ["*"], ClusterScope: true, Namespaces: ["*"] }],
  NonResourceRules: [{ Verbs: ["*"], NonResourceURLs: ["*"] }],
});

/** internalbootstrap.MandatoryFlowSchemas: their specs as the internal structs hold them. */
const MANDATORY_FLOW_SCHEMAS: Readonly<Record<string, unknown>> = {
  exempt: { PriorityLevelConfiguration: { Name: "exempt" }, MatchingPrecedence: 1, DistinguisherMethod: null, Rules: [everything(["system:masters"])] },
  "catch-all": {
    PriorityLevelConfiguration: { Name: "catch-all" },
    MatchingPrecedence: 10000,
    DistinguisherMethod: { Type: "ByUser" },
    Rules: [everything(["system:unauthenticated", "system:authenticated"])],
  },
};

/** internalbootstrap.MandatoryPriorityLevelConfigurations. */
const MANDATORY_PRIORITY_LEVELS: Readonly<Record<string, Record<string, unknown>>> = {
  exempt: { Type: "Exempt", Limited: null, Exempt: { NominalConcurrencyShares: 0, LendablePercent: 0 } },
  "catch-all": {
    Type: "Limited",
    Limited: { NominalConcurrencyShares: 5, LimitResponse: { Type: "Reject", Queuing: null }, LendablePercent: 0, BorrowingLimitPercent: null },
    Exempt: null,
  },
};

/** apiequality.Semantic.DeepEqual on these plain values: nil and empty lists are equal. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const emptyList = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (emptyList(a) && emptyList(b)) return true;
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => semanticEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

function validateSubject(s: Obj, path: FieldPath, r: Reporter): void {
  const kind = asStr(s.kind) ?? "";
  const forbidUser = () => s.user !== undefined && r.forbidden(path.child("user"), "user is forbidden when subject kind is not 'User'", C);
  const forbidGroup = () => s.group !== undefined && r.forbidden(path.child("group"), "group is forbidden when subject kind is not 'Group'", C);
  const forbidSa = () => s.serviceAccount !== undefined && r.forbidden(path.child("serviceAccount"), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'", C);
  if (kind === "ServiceAccount") {
    const sa = asObj(s.serviceAccount);
    const sp = path.child("serviceAccount");
    if (!sa) r.required(sp, "serviceAccount is required when subject kind is 'ServiceAccount'", C);
    else {
      const name = asStr(sa.name) ?? "";
      if (name === "") r.required(sp.child("name"), "", C);
      else if (name !== "*") r.invalidEach(sp.child("name"), name, isDns1123Subdomain(name), C);
      const ns = asStr(sa.namespace) ?? "";
      if (ns !== "") r.invalidEach(sp.child("namespace"), ns, isDns1123Label(ns), C);
      else r.required(sp.child("namespace"), "must specify namespace for service account", C);
    }
    forbidUser();
    forbidGroup();
  } else if (kind === "User" || kind === "Group") {
    const field = kind === "User" ? "user" : "group";
    const subject = asObj(s[field]);
    if (!subject) r.required(path.child(field), `${field} is required when subject kind is '${kind}'`, C);
    else if ((asStr(subject.name) ?? "") === "") r.required(path.child(field, "name"), "", C);
    forbidSa();
    if (kind === "User") forbidGroup();
    else forbidUser();
  } else r.notSupported(path.child("kind"), kind, SUBJECT_KINDS, C);
}

function validateVerbs(verbs: string[], path: FieldPath, r: Reporter): void {
  if (verbs.length === 0) r.required(path, "verbs must contain at least one value", C);
  else if (hasWildcard(verbs)) {
    if (verbs.length > 1) r.invalid(path, verbs, "if '*' is present, must not specify other verbs", C);
  } else if (!verbs.every((v) => VERBS.includes(v))) r.notSupported(path, verbs, VERBS, C);
}

/** ValidateNonResourceURLPath: the first problem only. */
function nonResourceUrlProblem(path: string): string | undefined {
  if (path.length === 0) return "must not be empty";
  if (path === "/") return undefined;
  if (!path.startsWith("/")) return "must start with slash";
  if (path.includes(" ")) return "must not contain white-space";
  if (path.includes("//")) return "must not contain double slash";
  const wildcards = path.split("*").length - 1;
  if (wildcards > 1 || (wildcards === 1 && path.slice(-2) !== "/*")) return "wildcard can only do suffix matching";
  return undefined;
}

function validateResourceRule(rule: Obj, path: FieldPath, r: Reporter): void {
  validateVerbs(strings(rule.verbs) ?? [], path.child("verbs"), r);
  const groups = strings(rule.apiGroups) ?? [];
  if (groups.length === 0) r.required(path.child("apiGroups"), "resource rules must supply at least one api group", C);
  else if (groups.length > 1 && hasWildcard(groups)) r.invalid(path.child("apiGroups"), groups, "if '*' is present, must not specify other api groups", C);
  const resources = strings(rule.resources) ?? [];
  if (resources.length === 0) r.required(path.child("resources"), "resource rules must supply at least one resource", C);
  else if (resources.length > 1 && hasWildcard(resources)) r.invalid(path.child("resources"), resources, "if '*' is present, must not specify other resources", C);
  const namespaces = strings(rule.namespaces) ?? [];
  if (namespaces.length === 0 && asBool(rule.clusterScope) !== true) {
    r.required(path.child("namespaces"), "resource rules that are not cluster scoped must supply at least one namespace", C);
  } else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) r.invalid(path.child("namespaces"), namespaces, "if '*' is present, must not specify other namespaces", C);
  } else {
    namespaces.forEach((ns, i) => {
      for (const m of isDns1123Label(ns)) r.invalid(path.child("namespaces").index(i), ns, NS_INTRO + m, C);
    });
  }
}

function validateNonResourceRule(rule: Obj, path: FieldPath, r: Reporter): void {
  validateVerbs(strings(rule.verbs) ?? [], path.child("verbs"), r);
  const urls = strings(rule.nonResourceURLs) ?? [];
  const up = path.child("nonResourceURLs");
  if (urls.length === 0) r.required(up, "nonResourceURLs must contain at least one value", C);
  else if (hasWildcard(urls)) {
    if (urls.length > 1) r.invalid(up, urls, "if '*' is present, must not specify other non-resource URLs", C);
  } else {
    urls.forEach((u, i) => {
      const problem = nonResourceUrlProblem(u);
      if (problem) r.invalid(up.index(i), u, problem, C);
    });
  }
}

function validatePolicyRulesWithSubjects(rule: Obj, path: FieldPath, r: Reporter): void {
  const subjects = objItems(rule.subjects);
  if ((asArr(rule.subjects)?.length ?? 0) > 0) for (const [i, s] of subjects) validateSubject(s, path.child("subjects").index(i), r);
  else r.required(path.child("subjects"), "subjects must contain at least one value", C);
  const resourceRules = objItems(rule.resourceRules);
  const nonResourceRules = objItems(rule.nonResourceRules);
  if ((asArr(rule.resourceRules)?.length ?? 0) === 0 && (asArr(rule.nonResourceRules)?.length ?? 0) === 0) {
    r.required(path, "at least one of resourceRules and nonResourceRules has to be non-empty", C);
  }
  for (const [i, rr] of resourceRules) validateResourceRule(rr, path.child("resourceRules").index(i), r);
  for (const [i, nr] of nonResourceRules) validateNonResourceRule(nr, path.child("nonResourceRules").index(i), r);
}

/** ValidateFlowSchema (status is reset on create, so ValidateFlowSchemaStatus sees nothing). */
function validateFlowSchema(fs: Obj, r: Reporter): void {
  const name = asStr(asObj(fs.metadata)?.name) ?? "";
  const spec = asObj(fs.spec) ?? {};
  // v1 default: matchingPrecedence 1000
  const precedence = asNum(spec.matchingPrecedence) || 1000;
  const pp = SPEC.child("matchingPrecedence");
  if (precedence <= 0) r.invalid(pp, precedence, "must be a positive value", C);
  if (precedence > MAX_MATCHING_PRECEDENCE) r.invalid(pp, precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`, C);
  if (precedence === 1 && name !== "exempt") r.invalid(pp, precedence, "only the schema named 'exempt' may have matchingPrecedence 1", C);
  const dm = asObj(spec.distinguisherMethod);
  if (dm && !DISTINGUISHERS.includes(asStr(dm.type) ?? "")) {
    r.notSupported(SPEC.child("distinguisherMethod", "type"), new JsonValue({ Type: asStr(dm.type) ?? "" }), DISTINGUISHERS, C);
  }
  const plName = asStr(asObj(spec.priorityLevelConfiguration)?.name) ?? "";
  const plPath = SPEC.child("priorityLevelConfiguration", "name");
  if (plName.length > 0) r.invalidEach(plPath, plName, isDns1123Subdomain(plName), C);
  else r.required(plPath, "must reference a priority level", C);
  for (const [i, rule] of objItems(spec.rules)) validatePolicyRulesWithSubjects(rule, SPEC.child("rules").index(i), r);
  const mandatory = MANDATORY_FLOW_SCHEMAS[name];
  if (mandatory !== undefined) {
    const have = internalFlowSchemaSpec(spec);
    if (!semanticEqual(have, mandatory)) r.invalid(SPEC, new JsonValue(have), `spec of '${name}' must equal the fixed value`, C);
  }
}

function validateQueuing(q: Obj, path: FieldPath, r: Reporter): void {
  // v1 defaults: queues 64, handSize 8, queueLengthLimit 50 (a zero is replaced too)
  const queueLengthLimit = asNum(q.queueLengthLimit) || 50;
  const queues = asNum(q.queues) || 64;
  const handSize = asNum(q.handSize) || 8;
  if (queueLengthLimit <= 0) r.invalid(path.child("queueLengthLimit"), queueLengthLimit, "must be positive", C);
  if (queues <= 0) r.invalid(path.child("queues"), queues, "must be positive", C);
  else if (queues > MAX_QUEUES) r.invalid(path.child("queues"), queues, `must not be greater than ${MAX_QUEUES}`, C);
  if (handSize <= 0) r.invalid(path.child("handSize"), handSize, "must be positive", C);
  else if (handSize > queues) r.invalid(path.child("handSize"), handSize, `should not be greater than queues (${queues})`, C);
  else if (Math.ceil(Math.log2(queues) * handSize) > MAX_HASH_BITS) {
    r.invalid(path.child("handSize"), handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`, C);
  }
}

function validateLimitResponse(lr: Obj, path: FieldPath, r: Reporter): void {
  const type = asStr(lr.type) ?? "";
  const queuing = asObj(lr.queuing);
  if (type === "Reject") {
    if (lr.queuing !== undefined) r.forbidden(path.child("queuing"), "must be nil if limited.limitResponse.type is not Limited", C);
  } else if (type === "Queue") {
    if (!queuing) r.required(path.child("queuing"), "must not be empty if limited.limitResponse.type is Limited", C);
    else validateQueuing(queuing, path.child("queuing"), r);
  } else if (type === "") r.required(path.child("type"), "", C);
  else r.notSupported(path.child("type"), type, ["Queue", "Reject"], C);
}

function validatePercent(v: number | undefined, path: FieldPath, r: Reporter): void {
  if (v !== undefined && !(v >= 0 && v <= 100)) r.invalid(path, v, "must be between 0 and 100, inclusive", C);
}

/** ValidatePriorityLevelConfiguration for requests through v1 (nominalConcurrencyShares); status is reset on create. */
function validatePriorityLevelConfiguration(pl: Obj, r: Reporter): void {
  const meta = asObj(pl.metadata) ?? {};
  const name = asStr(meta.name) ?? "";
  if (asObj(meta.annotations)?.[ZERO_SHARES_ANNOTATION] !== undefined) {
    r.forbidden(FieldPath.of("metadata", "annotations"), `annotation '${ZERO_SHARES_ANNOTATION}' is forbidden`, C);
  }
  const spec = asObj(pl.spec) ?? {};
  const type = asStr(spec.type) ?? "";
  if ((name === "exempt") !== (type === "Exempt")) r.invalid(SPEC.child("type"), type, "must be 'Exempt' if and only if `name` is 'exempt'", C);
  const limited = asObj(spec.limited);
  const exempt = asObj(spec.exempt);
  if (type === "Exempt") {
    if (spec.limited !== undefined) r.forbidden(SPEC.child("limited"), "must be nil if the type is not Limited", C);
    if (exempt) {
      const shares = asNum(exempt.nominalConcurrencyShares);
      if (shares !== undefined && shares < 0) r.invalid(SPEC.child("exempt", "nominalConcurrencyShares"), shares, "must be a non-negative integer", C);
      validatePercent(asNum(exempt.lendablePercent), SPEC.child("exempt", "lendablePercent"), r);
    }
  } else if (type === "Limited") {
    if (spec.exempt !== undefined) r.forbidden(SPEC.child("exempt"), "must be nil if the type is Limited", C);
    if (!limited) r.required(SPEC.child("limited"), "must not be empty when type is Limited", C);
    else {
      const lp = SPEC.child("limited");
      const shares = asNum(limited.nominalConcurrencyShares) ?? 30;
      if (shares < 0) r.invalid(lp.child("nominalConcurrencyShares"), shares, "must be a non-negative integer", C);
      validateLimitResponse(asObj(limited.limitResponse) ?? {}, lp.child("limitResponse"), r);
      validatePercent(asNum(limited.lendablePercent), lp.child("lendablePercent"), r);
      const borrowing = asNum(limited.borrowingLimitPercent);
      if (borrowing !== undefined && borrowing < 0) r.invalid(lp.child("borrowingLimitPercent"), borrowing, "if specified, must be a non-negative integer", C);
    }
  } else if (type === "") r.required(SPEC.child("type"), "", C);
  else r.notSupported(SPEC.child("type"), type, ["Exempt", "Limited"], C);
  validateIfMandatoryPriorityLevelConfigurationObject(name, spec, r);
}

/** The mandatory `exempt` level may change only spec.exempt; `catch-all` nothing. */
function validateIfMandatoryPriorityLevelConfigurationObject(name: string, spec: Obj, r: Reporter): void {
  const mandatory = MANDATORY_PRIORITY_LEVELS[name];
  if (!mandatory) return;
  const have = internalPriorityLevelSpec(spec);
  if (name === "exempt") {
    if (!semanticEqual(mandatory, { ...have, Exempt: mandatory.Exempt })) {
      r.invalid(SPEC, new JsonValue(have), `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`, C);
    }
    return;
  }
  if (!semanticEqual(have, mandatory)) r.invalid(SPEC, new JsonValue(have), `spec of '${name}' must equal the fixed value`, C);
}

export const FLOWCONTROL: NativeGroup = {
  group: "flowcontrol.apiserver.k8s.io",
  kinds: { FlowSchema: validateFlowSchema, PriorityLevelConfiguration: validatePriorityLevelConfiguration },
};

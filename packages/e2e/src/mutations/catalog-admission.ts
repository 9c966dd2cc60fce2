// Per-kind knowledge for the admission policy kinds of issue 23 (bases in bases-admission.ts): enum fields, edits the
// API server rejects (structure, and CEL that does not compile in the server's environment) and edits it accepts
// (valid CEL using the Kubernetes libraries, defaults, unusual but legal combinations). Restated from the API's behaviour.
import type { EnumField, NumericField, RuleEdit } from "./catalog.ts";
import { deleteAt, getAt, type Json, type Path, setAt } from "./paths.ts";

export const ADMISSION_KINDS = ["ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding"] as const;
export type AdmissionKind = (typeof ADMISSION_KINDS)[number];

const edit = (name: string, apply: (o: Json) => void): RuleEdit => ({ name, apply });
const set = (name: string, path: Path, value: Json): RuleEdit => edit(name, (o) => setAt(o, path, structuredClone(value)));
const push = (o: Json, path: Path, item: Json) => {
  const list = getAt(o, path);
  if (Array.isArray(list)) list.push(structuredClone(item));
  else setAt(o, path, [structuredClone(item)]);
};
const add = (name: string, path: Path, item: Json): RuleEdit => edit(name, (o) => push(o, path, item));

const MC = ["spec", "matchConstraints"] as const;
const MR = ["spec", "matchResources"] as const;
const V0 = ["spec", "validations", 0] as const;
const VALIDATIONS = ["spec", "validations"] as const;
const VARS = ["spec", "variables"] as const;
const AUDIT = ["spec", "auditAnnotations"] as const;
const CONDITIONS = ["spec", "matchConditions"] as const;
const M0 = ["spec", "mutations", 0] as const;
const validation = (expression: string, extra: Record<string, Json> = {}) => ({ expression, ...extra });

export const ADMISSION_ENUM_FIELDS: Record<AdmissionKind, readonly EnumField[]> = {
  ValidatingAdmissionPolicy: [
    { path: ["spec", "failurePolicy"], values: ["Fail", "Ignore"] },
    { path: [...MC, "matchPolicy"], values: ["Equivalent", "Exact"] },
    { path: [...V0, "reason"], values: ["Forbidden", "Invalid", "RequestEntityTooLarge"] },
    { path: [...MC, "resourceRules", 0, "operations", 0], values: ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"] },
    { path: [...MC, "resourceRules", 0, "scope"], values: ["*", "Cluster", "Namespaced"] },
  ],
  ValidatingAdmissionPolicyBinding: [
    { path: ["spec", "validationActions", 0], values: ["Audit", "Deny", "Warn"] },
    { path: ["spec", "paramRef", "parameterNotFoundAction"], values: ["Allow", "Deny"] },
    { path: [...MR, "matchPolicy"], values: ["Equivalent", "Exact"] },
  ],
  MutatingAdmissionPolicy: [
    { path: ["spec", "failurePolicy"], values: ["Fail", "Ignore"] },
    { path: ["spec", "reinvocationPolicy"], values: ["IfNeeded", "Never"] },
    { path: [...M0, "patchType"], values: ["ApplyConfiguration", "JSONPatch"] },
    { path: [...MC, "resourceRules", 0, "operations", 0], values: ["*", "CONNECT", "CREATE", "UPDATE"] },
  ],
  MutatingAdmissionPolicyBinding: [{ path: [...MR, "matchPolicy"], values: ["Equivalent", "Exact"] }],
};

export const ADMISSION_NUMERIC_FIELDS: Record<AdmissionKind, readonly NumericField[]> = {
  ValidatingAdmissionPolicy: [],
  ValidatingAdmissionPolicyBinding: [],
  MutatingAdmissionPolicy: [],
  MutatingAdmissionPolicyBinding: [],
};

/** Policy edits shared by both policy kinds: match constraints, match conditions, variables. */
const policyRejected: RuleEdit[] = [
  edit("no matchConstraints", (o) => deleteAt(o, [...MC])),
  set("no resourceRules", [...MC, "resourceRules"], []),
  set("resourceName with a slash", [...MC, "resourceRules", 0, "resourceNames"], ["web/1"]),
  set("duplicate resourceNames", [...MC, "resourceRules", 0, "resourceNames"], ["web", "web"]),
  add("exclude rule with x/* and x/y", [...MC, "excludeResourceRules"], { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/*", "pods/log"] }),
  set("namespaceSelector with a bad label value", [...MC, "namespaceSelector"], { matchLabels: { env: "not valid!" } }),
  set("paramKind without a kind", ["spec", "paramKind"], { apiVersion: "v1" }),
  set("paramKind with a bad apiVersion", ["spec", "paramKind"], { apiVersion: "a/b/c", kind: "ConfigMap" }),
  add("matchCondition that is not bool", [...CONDITIONS], { name: "replicas", expression: "object.spec.replicas" }),
  edit("duplicate matchCondition name", (o) => push(o, [...CONDITIONS], { name: getAt(o, [...CONDITIONS, 0, "name"]) ?? "first", expression: "true" })),
  add("matchCondition naming variables", [...CONDITIONS], { name: "uses-variables", expression: "variables.team == ''" }),
  add("matchCondition name not qualified", [...CONDITIONS], { name: "not qualified", expression: "true" }),
  add("variable referring to a later one", [...VARS], { name: "early", expression: "variables.zzz > 1" }),
  add("variable name not a CEL identifier", [...VARS], { name: "max-replicas", expression: "1" }),
  add("variable name reserved", [...VARS], { name: "namespace", expression: "1" }),
  add("variable without expression", [...VARS], { name: "empty", expression: " " }),
  add("variable with an undeclared reference", [...VARS], { name: "bad", expression: "replicas + 1" }),
];

const vapRejected: RuleEdit[] = [
  ...policyRejected,
  set("validation expression not bool", [...V0, "expression"], "object.spec.replicas"),
  set("validation with an undeclared reference", [...V0, "expression"], "replicas <= 10"),
  set("validation with an undefined request field", [...V0, "expression"], "request.user == 'x'"),
  set("validation adding string and int", [...V0, "expression"], "'a' + 1 == 'a1'"),
  set("validation with a mixed list", [...V0, "expression"], "object.kind in ['Deployment', 1]"),
  set("validation with an invalid regex literal", [...V0, "expression"], "object.metadata.name.matches('[a-z')"),
  set("validation with an invalid duration literal", [...V0, "expression"], "duration('ten minutes') > duration('1s')"),
  set("validation with cel.bind", [...V0, "expression"], "cel.bind(r, object.spec.replicas, r < 10)"),
  set("validation with a syntax error", [...V0, "expression"], "object.spec.replicas <"),
  set("validation comparing int and double", [...V0, "expression"], "object.spec.replicas == 1 && 1 == 1.0"),
  set("validation with two-variable predicate not bool", [...V0, "expression"], "[1, 2].all(i, v, v + i)"),
  set("validation with a blank expression", [...V0, "expression"], "  "),
  set("message with a line break", [...V0, "message"], "too many\nreplicas"),
  set("blank message", [...V0, "message"], "   "),
  set("messageExpression not string", [...V0, "messageExpression"], "variables.limit"),
  set("messageExpression with authorizer", [...V0, "messageExpression"], "authorizer.path('/').check('get').reason()"),
  set("blank messageExpression", [...V0, "messageExpression"], " "),
  edit("params without paramKind", (o) => deleteAt(o, ["spec", "paramKind"])),
  edit("no validations nor auditAnnotations", (o) => {
    deleteAt(o, [...VALIDATIONS]);
    deleteAt(o, [...AUDIT]);
  }),
  add("duplicate audit key", [...AUDIT], { key: "replicas", valueExpression: "'x'" }),
  add("audit value not string", [...AUDIT], { key: "count", valueExpression: "variables.replicas" }),
  add("audit key not qualified", [...AUDIT], { key: "bad key!", valueExpression: "'x'" }),
  add("audit without value", [...AUDIT], { key: "empty", valueExpression: "" }),
  add("audit value with a null ternary", [...AUDIT], { key: "maybe", valueExpression: "variables.replicas > 1 ? 'many' : null" }),
];

const mapRejected: RuleEdit[] = [
  ...policyRejected,
  set("DELETE operation", [...MC, "resourceRules", 0, "operations"], ["CREATE", "DELETE"]),
  set("no mutations", ["spec", "mutations"], []),
  edit("no reinvocationPolicy", (o) => deleteAt(o, ["spec", "reinvocationPolicy"])),
  set("JSONPatch without jsonPatch", [...M0, "patchType"], "JSONPatch"),
  set("blank applyConfiguration expression", [...M0, "applyConfiguration", "expression"], " "),
  set("jsonPatch with ApplyConfiguration", [...M0, "jsonPatch"], { expression: "[]" }),
  edit("no patchType", (o) => deleteAt(o, [...M0, "patchType"])),
  add("matchCondition with params and no paramKind", [...CONDITIONS], { name: "params", expression: "params.x == 1" }),
];

const bindingRejected: RuleEdit[] = [
  set("empty policyName", ["spec", "policyName"], ""),
  set("policyName not a DNS subdomain", ["spec", "policyName"], "Replica_Limit"),
  set("paramRef with name and selector", ["spec", "paramRef"], { name: "limit", selector: { matchLabels: { a: "b" } }, parameterNotFoundAction: "Deny" }),
  set("paramRef with neither name nor selector", ["spec", "paramRef"], { namespace: "mutations", parameterNotFoundAction: "Deny" }),
  set("paramRef without parameterNotFoundAction", ["spec", "paramRef"], { name: "limit" }),
  set("paramRef name with a slash", ["spec", "paramRef"], { name: "a/b", parameterNotFoundAction: "Allow" }),
  set("paramRef selector with a bad operator", ["spec", "paramRef"], { selector: { matchExpressions: [{ key: "a", operator: "Has" }] }, parameterNotFoundAction: "Allow" }),
  set("matchResources rule with */* and more", [...MR, "resourceRules"], [{ operations: ["CREATE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*", "pods"] }]),
  set("matchResources objectSelector bad key", [...MR, "objectSelector"], { matchLabels: { "bad key": "x" } }),
];

export const ADMISSION_RULE_EDITS: Record<AdmissionKind, readonly RuleEdit[]> = {
  ValidatingAdmissionPolicy: vapRejected,
  ValidatingAdmissionPolicyBinding: [
    ...bindingRejected,
    set("Deny with Warn", ["spec", "validationActions"], ["Deny", "Warn"]),
    set("duplicate action", ["spec", "validationActions"], ["Audit", "Audit"]),
    set("no validation action", ["spec", "validationActions"], []),
  ],
  MutatingAdmissionPolicy: mapRejected,
  MutatingAdmissionPolicyBinding: [...bindingRejected, set("DELETE operation", [...MR, "resourceRules"], [{ operations: ["DELETE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }])],
};

/** Valid CEL of the server's environment that cel-js alone would not type-check, and defaulted or unusual fields. */
const policyAccepted: RuleEdit[] = [
  edit("failurePolicy defaulted", (o) => deleteAt(o, ["spec", "failurePolicy"])),
  edit("matchPolicy and selectors defaulted", (o) => {
    deleteAt(o, [...MC, "matchPolicy"]);
    deleteAt(o, [...MC, "namespaceSelector"]);
  }),
  set("matchPolicy Exact", [...MC, "matchPolicy"], "Exact"),
  set("failurePolicy Ignore", ["spec", "failurePolicy"], "Ignore"),
  add("exclude rule with resourceNames", [...MC, "excludeResourceRules"], { resourceNames: ["kube-dns"], operations: ["*"], apiGroups: ["apps"], apiVersions: ["*"], resources: ["deployments/*"] }),
  add("matchCondition with authorizer", [...CONDITIONS], { name: "not-admin", expression: "!authorizer.group('').resource('nodes').check('delete').allowed()" }),
  add("matchCondition with namespaceObject", [...CONDITIONS], { name: "prod", expression: "namespaceObject.metadata.?labels['env'].orValue('') != 'dev'" }),
  add("variable with a two-variable comprehension", [...VARS], { name: "named", expression: "object.spec.template.spec.containers.all(i, c, c.name != '' && i < 100)" }),
  add("variable with quantity", [...VARS], { name: "bigMemory", expression: "object.spec.template.spec.containers.exists(c, quantity(c.resources.?limits['memory'].orValue('0')).isGreaterThan(quantity('8Gi')))" }),
  add("variable with format and a mixed list", [...VARS], { name: "summary", expression: "'%s has %d containers'.format([object.metadata.name, size(object.spec.template.spec.containers)])" }),
  add("variable with ip and cidr", [...VARS], { name: "inCluster", expression: "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3')) && isCIDR('192.168.0.0/16')" }),
  add("variable with sets and lists", [...VARS], { name: "distinctNames", expression: "sets.equivalent(object.spec.template.spec.containers.map(c, c.name).distinct(), object.spec.template.spec.containers.map(c, c.name))" }),
  add("variable with strings ext", [...VARS], { name: "lowered", expression: "object.metadata.name.lowerAscii().replace('-', '_').split('_').size() > 0" }),
  add("variable with url and semver", [...VARS], { name: "versioned", expression: "isURL('https://example.com') && semver('1.30.0').isLessThan(semver('1.36.0'))" }),
  add("variable with transformMap", [...VARS], { name: "labelSizes", expression: "object.metadata.?labels.orValue({}).transformMap(k, v, size(v))" }),
  add("variable with optMap", [...VARS], { name: "replicasOrOne", expression: "object.spec.?replicas.optMap(r, r + 1).orValue(1)" }),
  add("variable with format library", [...VARS], { name: "nameOk", expression: "!format.dns1123Label().validate(object.metadata.name).hasValue()" }),
];

export const ADMISSION_ACCEPTED_EDITS: Record<AdmissionKind, readonly RuleEdit[]> = {
  ValidatingAdmissionPolicy: [
    ...policyAccepted,
    set("reason RequestEntityTooLarge", [...V0, "reason"], "RequestEntityTooLarge"),
    set("reason Forbidden", [...V0, "reason"], "Forbidden"),
    set("message with surrounding spaces", [...V0, "message"], "  too many replicas  "),
    add("validation with authorizer.requestResource", [...VALIDATIONS], validation("authorizer.requestResource.check('scale').allowed() || variables.replicas < 3")),
    add("validation with sortBy and lists.range", [...VALIDATIONS], validation("lists.range(3).sortBy(i, -i)[0] == 2")),
    add("validation with find and charAt", [...VALIDATIONS], validation("object.metadata.name.find('[a-z]+') != '' || object.metadata.name.charAt(0) == 'x'")),
    add("validation with a timestamp literal", [...VALIDATIONS], validation("timestamp('2026-01-01T00:00:00Z') > timestamp('2025-06-01T12:00:00+02:00')")),
    add("validation returning bool from a ternary", [...VALIDATIONS], validation("has(object.spec.replicas) ? object.spec.replicas > 0 : true")),
    add("audit value null", [...AUDIT], { key: "nothing", valueExpression: "null" }),
    add("audit value from request", [...AUDIT], { key: "user", valueExpression: "request.userInfo.username" }),
    edit("no validations, audit only", (o) => deleteAt(o, [...VALIDATIONS])),
  ],
  ValidatingAdmissionPolicyBinding: [
    set("Warn and Audit", ["spec", "validationActions"], ["Warn", "Audit"]),
    set("paramRef by empty selector", ["spec", "paramRef"], { selector: {}, parameterNotFoundAction: "Allow" }),
    set("paramRef by selector", ["spec", "paramRef"], { selector: { matchLabels: { policy: "replicas" } }, parameterNotFoundAction: "Deny" }),
    edit("no paramRef", (o) => deleteAt(o, ["spec", "paramRef"])),
    edit("no matchResources", (o) => deleteAt(o, [...MR])),
    set("matchResources with rules", [...MR, "resourceRules"], [{ operations: ["*"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments", "statefulsets"] }]),
  ],
  MutatingAdmissionPolicy: [
    ...policyAccepted,
    set("reinvocationPolicy IfNeeded", ["spec", "reinvocationPolicy"], "IfNeeded"),
    set("operations *", [...MC, "resourceRules", 0, "operations"], ["*"]),
    set("JSONPatch mutation", ["spec", "mutations"], [{ patchType: "JSONPatch", jsonPatch: { expression: "[JSONPatch{op: 'add', path: '/metadata/annotations', value: {'team': variables.team}}]" } }]),
  ],
  MutatingAdmissionPolicyBinding: [
    set("paramRef by selector", ["spec", "paramRef"], { selector: { matchLabels: { a: "b" } }, parameterNotFoundAction: "Allow" }),
    set("matchResources CONNECT", [...MR, "resourceRules"], [{ operations: ["CONNECT"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/exec"] }]),
    edit("no matchResources", (o) => deleteAt(o, [...MR])),
  ],
};

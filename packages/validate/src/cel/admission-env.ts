// The CEL environment the API server compiles admission expressions in (ValidatingAdmissionPolicy, MutatingAdmissionPolicy,
// webhook matchConditions): cel-js declared as k8s.io/apiserver@v0.36.5 pkg/cel/environment/base.go (the NewExpressions
// set of compatibility version 1.35) and pkg/admission/plugin/cel/compile.go (createEnvForOpts) declare it.
//
// This environment only type-checks: the validator never evaluates an admission expression (the server does, at admission
// time, against live requests). Functions cel-js lacks are declared by signature so that a valid expression is never
// rejected; their handlers refuse to run (see declaredOnly).
import { Environment } from "@marcbachmann/cel-js";
import { registerRegexLibrary } from "./env.ts";

/** Which optional variables are declared (plugincel.OptionalVariableDeclarations). */
export interface AdmissionDeclarations {
  /** `params`, declared when the policy has a paramKind. */
  readonly params: boolean;
  /** `authorizer` and `authorizer.requestResource` (not in messageExpression). */
  readonly authorizer: boolean;
}

const declaredOnly = (name: string) => () => {
  throw new Error(`${name} is declared for type-checking only: admission expressions are evaluated by the API server`);
};

/** A namespace such as `sets` or `ip` is a constant of its own type (cel-js keys types by class: one class each). */
function registerNamespace(env: Environment, name: string): void {
  const type = `kubernetes.${name}Namespace`;
  const ctor = class {};
  env.registerType(type, ctor).registerConstant(name, type, new ctor());
}

/** Object types of compile.go (BuildRequestType, BuildNamespaceType) as cel-js field declarations. */
function registerRequestTypes(env: Environment): Environment {
  return env
    .registerType("kubernetes.GroupVersionKind", { fields: { group: "string", version: "string", kind: "string" } })
    .registerType("kubernetes.GroupVersionResource", { fields: { group: "string", version: "string", resource: "string" } })
    .registerType("kubernetes.UserInfo", { fields: { username: "string", uid: "string", groups: "list<string>", extra: "map<string, list<string>>" } })
    .registerType("kubernetes.AdmissionRequest", {
      fields: {
        kind: "kubernetes.GroupVersionKind",
        resource: "kubernetes.GroupVersionResource",
        subResource: "string",
        requestKind: "kubernetes.GroupVersionKind",
        requestResource: "kubernetes.GroupVersionResource",
        requestSubResource: "string",
        name: "string",
        namespace: "string",
        operation: "string",
        userInfo: "kubernetes.UserInfo",
        dryRun: "bool",
        options: "dyn",
      },
    })
    .registerType("kubernetes.NamespaceSpec", { fields: { finalizers: "list<string>" } })
    .registerType("kubernetes.NamespaceCondition", {
      fields: { status: "string", type: "string", lastTransitionTime: "google.protobuf.Timestamp", message: "string", reason: "string" },
    })
    .registerType("kubernetes.NamespaceStatus", { fields: { conditions: "list<kubernetes.NamespaceCondition>", phase: "string" } })
    .registerType("kubernetes.NamespaceMetadata", {
      fields: {
        name: "string",
        generateName: "string",
        namespace: "string",
        labels: "map<string, string>",
        annotations: "map<string, string>",
        UID: "string",
        creationTimestamp: "google.protobuf.Timestamp",
        deletionGracePeriodSeconds: "int",
        deletionTimestamp: "google.protobuf.Timestamp",
        generation: "int",
        resourceVersion: "string",
        finalizers: "list<string>",
      },
    })
    .registerType("kubernetes.Namespace", { fields: { metadata: "kubernetes.NamespaceMetadata", spec: "kubernetes.NamespaceSpec", status: "kubernetes.NamespaceStatus" } });
}

/** k8s.io/apiserver pkg/cel/library: authz.go (with AuthzSelectors, on by default since 1.34). */
function registerAuthzLibrary(env: Environment): Environment {
  const A = "kubernetes.authorization.Authorizer";
  const P = "kubernetes.authorization.PathCheck";
  const G = "kubernetes.authorization.GroupCheck";
  const R = "kubernetes.authorization.ResourceCheck";
  const D = "kubernetes.authorization.Decision";
  // `authorizer.requestResource` is one variable whose name has a dot; as a field of the authorizer it reads the same
  for (const t of [P, G, R, D]) env.registerType(t, { fields: {} });
  env.registerType(A, { fields: { requestResource: R } });
  const fns = [
    `${A}.path(string): ${P}`,
    `${A}.group(string): ${G}`,
    `${A}.serviceAccount(string, string): ${A}`,
    `${G}.resource(string): ${R}`,
    `${R}.subresource(string): ${R}`,
    `${R}.namespace(string): ${R}`,
    `${R}.name(string): ${R}`,
    `${R}.fieldSelector(string): ${R}`,
    `${R}.labelSelector(string): ${R}`,
    `${P}.check(string): ${D}`,
    `${R}.check(string): ${D}`,
    `${D}.errored(): bool`,
    `${D}.error(): string`,
    `${D}.allowed(): bool`,
    `${D}.reason(): string`,
  ];
  for (const f of fns) env.registerFunction(f, declaredOnly(f));
  return env;
}

/** urls.go, quantity.go, ip.go, cidr.go, semverlib.go (version 1) and format.go. */
function registerValueLibraries(env: Environment): Environment {
  const types = ["kubernetes.URL", "kubernetes.Quantity", "net.IP", "net.CIDR", "kubernetes.Semver", "kubernetes.NamedFormat"];
  for (const t of types) env.registerType(t, { fields: {} });
  registerNamespace(env, "ip");
  registerNamespace(env, "format");
  const Q = "kubernetes.Quantity";
  const fns = [
    "url(string): kubernetes.URL",
    "isURL(string): bool",
    ...["getScheme", "getHost", "getHostname", "getPort", "getEscapedPath"].map((m) => `kubernetes.URL.${m}(): string`),
    "kubernetes.URL.getQuery(): map<string, list<string>>",
    `quantity(string): ${Q}`,
    "isQuantity(string): bool",
    `sign(${Q}): int`,
    `${Q}.isGreaterThan(${Q}): bool`,
    `${Q}.isLessThan(${Q}): bool`,
    `${Q}.compareTo(${Q}): int`,
    `${Q}.asApproximateFloat(): double`,
    `${Q}.asInteger(): int`,
    `${Q}.isInteger(): bool`,
    `${Q}.add(${Q}): ${Q}`,
    `${Q}.add(int): ${Q}`,
    `${Q}.sub(${Q}): ${Q}`,
    `${Q}.sub(int): ${Q}`,
    "ip(string): net.IP",
    "isIP(string): bool",
    "kubernetes.ipNamespace.isCanonical(string): bool",
    "net.IP.family(): int",
    ...["isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast"].map((m) => `net.IP.${m}(): bool`),
    "string(net.IP): string",
    "cidr(string): net.CIDR",
    "isCIDR(string): bool",
    "net.CIDR.containsIP(string): bool",
    "net.CIDR.containsIP(net.IP): bool",
    "net.CIDR.containsCIDR(string): bool",
    "net.CIDR.containsCIDR(net.CIDR): bool",
    "net.CIDR.ip(): net.IP",
    "net.CIDR.masked(): net.CIDR",
    "net.CIDR.prefixLength(): int",
    "string(net.CIDR): string",
    "semver(string): kubernetes.Semver",
    "semver(string, bool): kubernetes.Semver",
    "isSemver(string): bool",
    "isSemver(string, bool): bool",
    "kubernetes.Semver.isGreaterThan(kubernetes.Semver): bool",
    "kubernetes.Semver.isLessThan(kubernetes.Semver): bool",
    "kubernetes.Semver.compareTo(kubernetes.Semver): int",
    ...["major", "minor", "patch"].map((m) => `kubernetes.Semver.${m}(): int`),
    ...FORMAT_NAMES.map((n) => `kubernetes.formatNamespace.${n}(): kubernetes.NamedFormat`),
    "kubernetes.formatNamespace.named(string): optional<kubernetes.NamedFormat>",
    "kubernetes.NamedFormat.validate(string): optional<list<string>>",
  ];
  for (const f of fns) env.registerFunction(f, declaredOnly(f));
  return env;
}

/** The named formats of format.go (`format.dns1123Label()`...). */
const FORMAT_NAMES = [
  "dns1123Label",
  "dns1123Subdomain",
  "dns1035Label",
  "qualifiedName",
  "dns1123LabelPrefix",
  "dns1123SubdomainPrefix",
  "dns1035LabelPrefix",
  "labelValue",
  "uri",
  "uuid",
  "byte",
  "date",
  "datetime",
];

/**
 * cel-go ext libraries the base set enables that cel-js lacks: strings version 2 (charAt, replace, format, quote),
 * lists version 3 (slice, flatten, sort, sortBy, distinct, reverse, lists.range), sets, the library.Lists additions
 * (indexOf, lastIndexOf) and the optional helpers of cel.OptionalTypes (ofNonZeroValue, unwrap).
 */
function registerExtLibraries(env: Environment): Environment {
  registerNamespace(env, "strings");
  registerNamespace(env, "sets");
  registerNamespace(env, "lists");
  const fns = [
    "string.charAt(int): string",
    "string.replace(string, string): string",
    "string.replace(string, string, int): string",
    "string.format(list<dyn>): string",
    "kubernetes.stringsNamespace.quote(string): string",
    "list<A>.slice(int, int): list<A>",
    "list<dyn>.flatten(): list<dyn>",
    "list<dyn>.flatten(int): list<dyn>",
    "list<A>.sort(): list<A>",
    "list<A>.distinct(): list<A>",
    "list<A>.reverse(): list<A>",
    "list<A>.indexOf(A): int",
    "list<A>.lastIndexOf(A): int",
    "list<A>.isSorted(): bool",
    "list<A>.sum(): A",
    "list<A>.min(): A",
    "list<A>.max(): A",
    "list<optional<A>>.unwrapOpt(): list<A>",
    "kubernetes.listsNamespace.range(int): list<int>",
    "kubernetes.setsNamespace.contains(list<dyn>, list<dyn>): bool",
    "kubernetes.setsNamespace.equivalent(list<dyn>, list<dyn>): bool",
    "kubernetes.setsNamespace.intersects(list<dyn>, list<dyn>): bool",
    "OptionalNamespace.ofNonZeroValue(A): optional<A>",
    "OptionalNamespace.unwrap(list<optional<A>>): list<A>",
    "matches(string, string): bool",
  ];
  for (const f of fns) env.registerFunction(f, declaredOnly(f));
  return env;
}

/** The admission environment for one set of optional declarations (a fresh one: callers add `variables`). */
export function createAdmissionEnvironment(decls: AdmissionDeclarations): Environment {
  // homogeneous literals are checked after type-checking (admission-compile.ts), as cel-go's validator does: it exempts
  // the lists `format` takes, which cel-js's option would reject
  const env = new Environment({ unlistedVariablesAreDyn: false, enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  registerRequestTypes(env);
  registerAuthzLibrary(env);
  registerValueLibraries(env);
  registerExtLibraries(env);
  registerRegexLibrary(env);
  registerComprehensionMacros(env);
  env.registerVariable("object", "dyn").registerVariable("oldObject", "dyn");
  env.registerVariable("namespaceObject", "kubernetes.Namespace").registerVariable("request", "kubernetes.AdmissionRequest");
  if (decls.params) env.registerVariable("params", "dyn");
  if (decls.authorizer) env.registerVariable("authorizer", "kubernetes.authorization.Authorizer");
  return env;
}

/** What a macro's typeCheck hook receives from cel-js (its checker and contexts are not in the typings). */
interface Checker {
  check(node: unknown, ctx: Ctx): CelType;
  getType(name: string): CelType;
  dynType: CelType;
  registry: { getListType(t: CelType): CelType; getMapType(k: CelType, v: CelType): CelType; getOptionalType(t: CelType): CelType };
  createError(code: string, message: string, node: unknown): Error;
}
interface Ctx {
  forkWithVariable(name: string, type: CelType): Ctx;
}
interface CelType {
  kind: string;
  keyType?: CelType;
  valueType?: CelType;
  isDynOrBool(): boolean;
}
interface MacroCall {
  args: { op: string; args: unknown }[];
  receiver: unknown;
}

function identifier(node: { op: string; args: unknown }, chk: Checker, what: string): string {
  if (node.op !== "id") throw chk.createError("invalid_macro_argument", `${what}: argument must be a simple name`, node);
  return node.args as string;
}

/** The two iteration variables' types: (index, element) of a list, (key, value) of a map. */
function iterationTypes(chk: Checker, ctx: Ctx, receiver: unknown, name: string): [CelType, CelType] {
  const t = chk.check(receiver, ctx);
  if (t.kind === "list") return [chk.getType("int"), t.valueType as CelType];
  if (t.kind === "map") return [t.keyType as CelType, t.valueType as CelType];
  if (t.kind === "dyn") return [chk.dynType, chk.dynType];
  throw chk.createError("invalid_comprehension_range", `${name}: expression cannot be range of a comprehension (must be list, map, or dynamic)`, receiver);
}

function expectBool(chk: Checker, ctx: Ctx, node: unknown, name: string): void {
  if (!chk.check(node, ctx).isDynOrBool()) throw chk.createError("invalid_macro_argument", `${name}: predicate must return bool`, node);
}

/**
 * ext.TwoVarComprehensions (cel-go ext/comprehensions.go), `sortBy` (ext lists version 2) and `optMap`/`optFlatMap`
 * (cel.OptionalTypes version 1) as cel-js macros: each declares its variables and result type for the checker.
 */
function registerComprehensionMacros(env: Environment): Environment {
  const macro = (signature: string, typeCheck: (chk: Checker, call: MacroCall, ctx: Ctx) => CelType) => {
    const name = signature.slice(signature.indexOf(".") + 1, signature.indexOf("("));
    env.registerFunction(signature, (call: MacroCall) => ({ ...call, typeCheck: (chk: Checker, m: MacroCall, ctx: Ctx) => typeCheck(chk, m, ctx), evaluate: declaredOnly(name) }));
  };
  const twoVars = (chk: Checker, m: MacroCall, ctx: Ctx, name: string): Ctx => {
    const [a, b] = iterationTypes(chk, ctx, m.receiver, name);
    const first = identifier(m.args[0] as never, chk, name);
    const second = identifier(m.args[1] as never, chk, name);
    return ctx.forkWithVariable(first, a).forkWithVariable(second, b);
  };
  for (const name of ["all", "exists", "existsOne", "exists_one"]) {
    macro(`list.${name}(ast, ast, ast): bool`, (chk, m, ctx) => {
      expectBool(chk, twoVars(chk, m, ctx, name), m.args[2], name);
      return chk.getType("bool");
    });
  }
  for (const arity of [3, 4]) {
    const params = Array(arity).fill("ast").join(", ");
    const withFilter = arity === 4;
    const body = (chk: Checker, m: MacroCall, ctx: Ctx, name: string): [Ctx, CelType] => {
      const inner = twoVars(chk, m, ctx, name);
      if (withFilter) expectBool(chk, inner, m.args[2], name);
      return [inner, chk.check(m.args[arity - 1], inner)];
    };
    macro(`list.transformList(${params}): list<dyn>`, (chk, m, ctx) => chk.registry.getListType(body(chk, m, ctx, "transformList")[1]));
    macro(`list.transformMap(${params}): map<dyn, dyn>`, (chk, m, ctx) => {
      const [key] = iterationTypes(chk, ctx, m.receiver, "transformMap");
      return chk.registry.getMapType(key, body(chk, m, ctx, "transformMap")[1]);
    });
    macro(`list.transformMapEntry(${params}): map<dyn, dyn>`, (chk, m, ctx) => {
      const entry = body(chk, m, ctx, "transformMapEntry")[1];
      if (entry.kind !== "map" && entry.kind !== "dyn") throw chk.createError("invalid_macro_argument", "transformMapEntry: expression must return a map", m.args[arity - 1]);
      return entry;
    });
  }
  macro("list.sortBy(ast, ast): list<dyn>", (chk, m, ctx) => {
    const t = chk.check(m.receiver, ctx);
    const element = t.kind === "list" ? (t.valueType as CelType) : chk.dynType;
    chk.check(m.args[1], ctx.forkWithVariable(identifier(m.args[0] as never, chk, "sortBy"), element));
    return t.kind === "list" ? t : chk.registry.getListType(chk.dynType);
  });
  const optional = (name: string, flat: boolean) =>
    macro(`optional.${name}(ast, ast): dyn`, (chk, m, ctx) => {
      const t = chk.check(m.receiver, ctx);
      const inner = t.kind === "optional" ? (t.valueType as CelType) : chk.dynType;
      const result = chk.check(m.args[1], ctx.forkWithVariable(identifier(m.args[0] as never, chk, name), inner));
      return flat ? result : chk.registry.getOptionalType(result);
    });
  optional("optMap", false);
  optional("optFlatMap", true);
  return env;
}

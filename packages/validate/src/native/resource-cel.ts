// Compiling a DRA device selector (`selectors[].cel.expression`) as the API server does on create, so an expression
// that cannot compile is refused offline. After k8s.io/dynamic-resource-allocation@v0.36.5/cel/compile.go
// (newCompiler, CompileCELExpression) and k8s.io/kubernetes@v1.36.5/pkg/apis/resource/validation/validation.go
// (validateCELSelector).
//
// The server declares one variable, `device` (driver, allowMultipleAllocations, attributes and capacity maps keyed by
// domain then name), adds the Kubernetes CEL libraries (quantity, semver, ip, cidr, lists, strings, regex...) and
// wants a bool (or an attribute's unknown type). cel-js type-checks against the same `device` type, but it lacks the
// Kubernetes libraries: an expression calling one of them fails to check in cel-js while the server accepts it. So
// only answers cel-js and cel-go are sure to share are reported: a syntax error, a name that is not declared, a field
// `device` does not have, and a result whose type is known and not bool. Anything else is accepted (a miss at worst,
// never a false rejection).
import { Environment } from "@marcbachmann/cel-js";

/** resource.CELSelectorExpressionMaxLength */
export const CEL_SELECTOR_MAX_LENGTH = 10 * 1024;

export type SelectorProblem = { readonly kind: "invalid"; readonly detail: string };

let environment: Environment | undefined;
function deviceEnvironment(): Environment {
  environment ??= new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false })
    // DRAConsumableCapacity is beta and on in 1.36: the device type has allowMultipleAllocations
    .registerType("kubernetes.DRADevice", {
      fields: { driver: "string", allowMultipleAllocations: "bool", attributes: "map<string, map<string, dyn>>", capacity: "map<string, map<string, dyn>>" },
    })
    .registerVariable("device", "kubernetes.DRADevice");
  return environment;
}

/** cel-go's spelling of a type cel-js names (`list<int>` is `list(int)`). */
const goTypeName = (t: string): string => t.replace(/</g, "(").replace(/>/g, ")");

/** Types cel-go reports the same way and never accepts as a selector's result. */
const NOT_BOOL = /^(int|uint|double|string|bytes|null|null_type|type|list<.*>|map<.*>|google\.protobuf\.(Timestamp|Duration))$/;

/**
 * What the server says about one selector expression, or undefined when it compiles (or when cel-js cannot be sure
 * that cel-go refuses it). The detail is worded like the server's (`compilation failed: ...`, `must evaluate to
 * bool or the unknown type, not string`); cel-go's parser messages are not reproduced word for word.
 */
export function selectorProblem(expression: string): SelectorProblem | undefined {
  const env = deviceEnvironment();
  try {
    env.parse(expression);
  } catch (err) {
    return { kind: "invalid", detail: `compilation failed: ERROR: <input>: Syntax error: ${firstLine(err)}` };
  }
  let checked: ReturnType<Environment["check"]>;
  try {
    checked = env.check(expression);
  } catch {
    return undefined;
  }
  if (checked.valid) {
    const type = String(checked.type ?? "");
    if (NOT_BOOL.test(type)) return { kind: "invalid", detail: `must evaluate to bool or the unknown type, not ${goTypeName(type)}` };
    return undefined;
  }
  const message = firstLine(checked.error);
  const unknown = /^Unknown variable: (\S+)$/.exec(message);
  if (unknown?.[1]) {
    const at = new RegExp(`(?<![.\\w])${escapeRegExp(unknown[1])}\\b`).exec(expression)?.index;
    return { kind: "invalid", detail: celError(expression, at, `undeclared reference to '${unknown[1]}' (in container '')`) };
  }
  const field = /^No such key: (\S+)$/.exec(message);
  const access = field?.[1] ? new RegExp(`\\bdevice\\s*(\\.)\\s*${escapeRegExp(field[1])}\\b`).exec(expression) : null;
  if (access) return { kind: "invalid", detail: celError(expression, access.index + access[0].indexOf("."), `undefined field '${field?.[1]}'`) };
  return undefined;
}

/**
 * cel-go's issue text: `compilation failed: ERROR: <input>:line:column: message`, then the source line and a caret
 * under the offending character (column counted from 1, the caret line with a dot per earlier character).
 */
function celError(expression: string, offset: number | undefined, message: string): string {
  if (offset === undefined) return `compilation failed: ERROR: <input>: ${message}`;
  const before = expression.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1);
  const source = expression.split("\n")[line - 1] ?? "";
  return `compilation failed: ERROR: <input>:${line}:${column + 1}: ${message}\n | ${source}\n | ${".".repeat(column)}^`;
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "";
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

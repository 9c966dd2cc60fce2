// Compiles an admission CEL expression as the API server does on create, and words its error as the server does. After
// k8s.io/apiserver@v0.36.5 pkg/admission/plugin/cel/compile.go (compiler.CompileCELExpression: compile, then the result
// type must be exactly one of the expression's return types), composition.go (CompositedCompiler: each variable is a
// field of `variables` once compiled, typed by convertCelTypeToDeclType) and github.com/google/cel-go@v0.26.0
// cel/validator.go (the literal validators base.go enables: regex, duration, timestamp).
//
// Wording: result-type errors, undeclared references, undefined fields and invalid literals read as cel-go prints them
// (`ERROR: <input>:1:5: ...` and the caret snippet). Other compile errors carry cel-js's own message inside the same frame:
// cel-go's texts come from its ANTLR parser and overload resolver, which cel-js does not reproduce.
import type { Environment } from "@marcbachmann/cel-js";
import { RE2JS } from "re2js";
import { type AdmissionDeclarations, createAdmissionEnvironment } from "./admission-env.ts";

/** How a compiler declares `variables`: not at all (stateless), or as an object of the variables compiled so far. */
export type VariableTypes = ReadonlyMap<string, string> | undefined;

const baseEnvironments = new Map<string, Environment>();

function baseEnvironment(decls: AdmissionDeclarations): Environment {
  const key = `${decls.params}/${decls.authorizer}`;
  let env = baseEnvironments.get(key);
  if (!env) {
    env = createAdmissionEnvironment(decls);
    baseEnvironments.set(key, env);
  }
  return env;
}

/** The environment of one compilation: the base set, plus `variables` when the compiler composes them. */
function environmentFor(decls: AdmissionDeclarations, variables: VariableTypes): Environment {
  const base = baseEnvironment(decls);
  if (variables === undefined) return base;
  return base
    .clone()
    .registerType("kubernetes.variables", { fields: Object.fromEntries(variables) })
    .registerVariable("variables", "kubernetes.variables");
}

/** cel-go's name of a type (Type.String()) from cel-js's: `list(int)`, `map(string, int)`, `optional_type(int)`. */
export function goTypeName(t: string): string {
  const generic = /^(list|map|optional)<(.*)>$/.exec(t);
  if (!generic) return t === "null" ? "null_type" : t;
  const [, kind, inner] = generic as unknown as [string, string, string];
  const params = splitTypeParams(inner).map(goTypeName);
  return `${kind === "optional" ? "optional_type" : kind}(${params.join(", ")})`;
}

/** A type as cel-go's overload errors print it (null is `null` there, `null_type` in Type.String()). */
const overloadTypeName = (t: string) => goTypeName(t).replace(/null_type/g, "null");

function splitTypeParams(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "<") depth++;
    else if (s[i] === ">") depth--;
    else if (s[i] === "," && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

/** convertCelTypeToDeclType: what a compiled variable's field type becomes (primitives, lists and maps; else dyn). */
export function variableFieldType(t: string | undefined): string {
  if (t === undefined) return "dyn";
  const generic = /^(list|map)<(.*)>$/.exec(t);
  if (generic) {
    const [, kind, inner] = generic as unknown as [string, string, string];
    return `${kind}<${splitTypeParams(inner).map(variableFieldType).join(", ")}>`;
  }
  const kept = ["bool", "bytes", "double", "google.protobuf.Duration", "int", "null", "string", "google.protobuf.Timestamp", "uint"];
  return kept.includes(t) ? t : "dyn";
}

/** cel-go's error frame: `ERROR: <input>:line:col: message` then the source line and a caret under the column. */
function frame(expression: string, offset: number, message: string): string {
  const before = [...expression.slice(0, Math.max(0, offset))];
  const lineStart = before.lastIndexOf("\n") + 1;
  const line = before.filter((c) => c === "\n").length + 1;
  const column = before.length - lineStart;
  const text = expression.split("\n")[line - 1] ?? "";
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${text}\n | ${".".repeat(column)}^`;
}

interface CelError {
  readonly code?: string;
  readonly message: string;
  readonly range?: { readonly start: number };
  readonly node?: { readonly pos?: number; readonly op?: string; readonly args?: unknown };
}

/** cel-go's internal names of the binary operators, as its overload errors print them. */
const GO_OPERATORS: Readonly<Record<string, string>> = {
  "+": "_+_",
  "-": "_-_",
  "*": "_*_",
  "/": "_/_",
  "%": "_%_",
  "==": "_==_",
  "!=": "_!=_",
  "<": "_<_",
  "<=": "_<=_",
  ">": "_>_",
  ">=": "_>=_",
  in: "@in",
};

/** cel-go's wording and position where the two engines mean the same thing; cel-js's own message otherwise. */
function goError(expression: string, e: CelError): { offset: number; message: string } {
  const offset = e.range?.start ?? e.node?.pos ?? 0;
  const first = e.message.split("\n")[0] ?? "";
  const unknown = /^Unknown variable: (.*)$/.exec(first);
  if (e.code === "unknown_variable" && unknown) return { offset, message: `undeclared reference to '${unknown[1]}' (in container '')` };
  const key = /^No such key: (.*)$/.exec(first);
  // cel-go places a select at its dot
  if (e.code === "no_such_key" && key) return { offset: Math.max(0, expression.lastIndexOf(".", offset)), message: `undefined field '${key[1]}'` };
  const binary = /^no such overload: (.+) (\S+) (.+)$/.exec(first);
  const op = binary ? GO_OPERATORS[binary[2] as string] : undefined;
  if (binary && op) {
    // cel-go places a binary operator at the operator, between the two operands
    const [left] = (e.node?.args ?? []) as { range?: { end: number } }[];
    const at = expression.indexOf(binary[2] as string, left?.range?.end ?? offset);
    return { offset: at >= 0 ? at : offset, message: `found no matching overload for '${op}' applied to '(${overloadTypeName(binary[1] as string)}, ${overloadTypeName(binary[3] as string)})'` };
  }
  const branches = /^Ternary branches must have the same type, got '(.+)' and '(.+)'$/.exec(first);
  if (e.code === "incompatible_ternary_branches" && branches) {
    // cel-go resolves `_?_:_` as an overload, placed at the `?`
    const [cond] = (e.node?.args ?? []) as { range?: { end: number }; checkedType?: { name: string } }[];
    const at = expression.indexOf("?", cond?.range?.end ?? offset);
    const types = [cond?.checkedType?.name ?? "bool", branches[1] as string, branches[2] as string].map(overloadTypeName).join(", ");
    return { offset: at >= 0 ? at : offset, message: `found no matching overload for '_?_:_' applied to '(${types})'` };
  }
  const mixed = /^(?:List elements|Map keys|Map values) must have the same type, (expected type .*)$/.exec(first);
  if (mixed) return { offset, message: mixed[1] as string };
  return { offset, message: first };
}

interface Node {
  readonly op: string;
  readonly args: unknown;
  readonly pos?: number;
}

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && typeof (v as Node).op === "string" && "args" in (v as object);
}

function* nodes(n: unknown): Generator<Node> {
  if (Array.isArray(n)) {
    for (const x of n) yield* nodes(x);
    return;
  }
  if (!isNode(n)) return;
  yield n;
  yield* nodes(n.args);
}

interface TypedNode extends Node {
  readonly checkedType?: { readonly name: string };
  readonly range?: { readonly start: number };
}

/** Nodes outside any `format(...)` call (cel-go's homogeneous-literal validator exempts what format takes). */
function* unexemptNodes(n: unknown): Generator<TypedNode> {
  if (Array.isArray(n)) {
    for (const x of n) yield* unexemptNodes(x);
    return;
  }
  if (!isNode(n)) return;
  if ((n.op === "rcall" || n.op === "call") && (n.args as [string])[0] === "format") return;
  yield n;
  yield* unexemptNodes(n.args);
}

/**
 * cel.ValidateHomogeneousAggregateLiterals: every element of a list literal, every key and every value of a map literal
 * of one type (the first element's), reported at the first that differs.
 */
function mixedLiteral(ast: unknown): { node: TypedNode; message: string } | undefined {
  const mismatch = (first: TypedNode | undefined, other: TypedNode | undefined) => {
    const a = first?.checkedType?.name;
    const b = other?.checkedType?.name;
    return a !== undefined && b !== undefined && a !== b ? { node: other as TypedNode, message: `expected type '${overloadTypeName(a)}' but found '${overloadTypeName(b)}'` } : undefined;
  };
  for (const n of unexemptNodes(ast)) {
    if (n.op === "list") {
      const [first, ...rest] = n.args as TypedNode[];
      for (const e of rest) {
        const m = mismatch(first, e);
        if (m) return m;
      }
    } else if (n.op === "map") {
      const [first, ...rest] = n.args as [TypedNode, TypedNode][];
      for (const [k, v] of rest) {
        const m = mismatch(first?.[0], k) ?? mismatch(first?.[1], v);
        if (m) return m;
      }
    }
  }
  return undefined;
}

/** The `cel` of a `cel.bind(...)` call, which the server does not declare. */
function celBind(ast: unknown): Node | undefined {
  for (const n of nodes(ast)) {
    if (n.op !== "rcall") continue;
    const [name, receiver] = n.args as [string, unknown];
    if (name === "bind" && isNode(receiver) && receiver.op === "id" && receiver.args === "cel") return receiver;
  }
  return undefined;
}

/** A literal argument the server's validators reject (cel.ValidateRegexLiterals, ValidateDurationLiterals, ValidateTimestampLiterals). */
function invalidLiteral(ast: unknown): { node: Node; fn: string } | undefined {
  for (const n of nodes(ast)) {
    let fn: string | undefined;
    let lit: unknown;
    if (n.op === "call") {
      const [name, args] = n.args as [string, unknown[]];
      fn = name;
      lit = args[0];
    } else if (n.op === "rcall") {
      const [name, , args] = n.args as [string, unknown, unknown[]];
      fn = name;
      lit = args[0];
    }
    if (!fn || !isNode(lit) || lit.op !== "value" || typeof lit.args !== "string") continue;
    if (fn === "matches" && !compilesAsRe2(lit.args)) return { node: lit, fn };
    if (n.op === "call" && fn === "duration" && !isGoDuration(lit.args)) return { node: lit, fn };
    if (n.op === "call" && fn === "timestamp" && !RFC3339.test(lit.args)) return { node: lit, fn };
  }
  return undefined;
}

function compilesAsRe2(pattern: string): boolean {
  try {
    RE2JS.compile(pattern);
    return true;
  } catch {
    return false;
  }
}

/** time.ParseDuration's grammar (CEL durations): `-1.5h30m`, units ns us µs ms s m h. */
const GO_DURATION = /^[-+]?(0|(\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
/** time.RFC3339 as time.Parse reads it (field ranges are left to the server: a miss, never a false rejection). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const isGoDuration = (s: string) => s === "0" || GO_DURATION.test(s);

export interface CompileResult {
  /** The server's detail for the field error (`compilation failed: ...`, `must evaluate to bool but got dyn`). */
  readonly error?: string;
  /** cel-js's output type, when the expression compiled. */
  readonly type?: string;
}

/**
 * CompileCELExpression: `returns` are cel-go type names (`bool`, `string`, `null_type`), or `any` for a variable.
 * The expression is compiled as given (the caller trims it where the server does).
 */
export function compileAdmissionExpression(expression: string, decls: AdmissionDeclarations, returns: readonly string[], variables?: VariableTypes): CompileResult {
  const env = environmentFor(decls, variables);
  let parsed: ReturnType<Environment["parse"]>;
  let checked: ReturnType<Environment["check"]>;
  try {
    parsed = env.parse(expression);
    checked = parsed.check();
  } catch (e) {
    const { offset, message } = goError(expression, e as CelError);
    return { error: `compilation failed: ${frame(expression, offset, message)}` };
  }
  if (!checked.valid) {
    const { offset, message } = goError(expression, checked.error as unknown as CelError);
    return { error: `compilation failed: ${frame(expression, offset, message)}` };
  }
  const bind = celBind(parsed.ast);
  // cel-js has the cel.bind macro built in; the server's base set does not enable ext.Bindings
  if (bind) return { error: `compilation failed: ${frame(expression, bind.pos ?? 0, "undeclared reference to 'cel' (in container '')")}` };
  const mixed = mixedLiteral(parsed.ast);
  if (mixed) return { error: `compilation failed: ${frame(expression, mixed.node.range?.start ?? mixed.node.pos ?? 0, mixed.message)}` };
  const literal = invalidLiteral(parsed.ast);
  if (literal) return { error: `compilation failed: ${frame(expression, literal.node.pos ?? 0, `invalid ${literal.fn} argument`)}` };
  const type = goTypeName(checked.type ?? "dyn");
  if (!returns.includes("any") && !returns.includes(type)) {
    const want = returns.length === 1 ? `must evaluate to ${returns[0]}` : `must evaluate to one of [${returns.join(" ")}]`;
    return { error: `${want} but got ${type}`, type: checked.type };
  }
  return { type: checked.type };
}

// The API server's CEL cost limits, estimated before a rule runs instead of measured while it runs (cel-js has no
// cost tracking, and a nested comprehension over a large list can run for minutes or exhaust memory).
//
// Limits, from k8s.io/apiserver@v0.36.5 pkg/apis/cel/config.go and k8s.io/apiextensions-apiserver@v0.36.5
// pkg/apis/apiextensions/validation/validation.go:
// - a CRD is refused when one rule's estimated cost (times the number of places its node can occur) exceeds
//   StaticEstimatedCostLimit, or all rules together exceed StaticEstimatedCRDCostLimit;
// - at run time one rule may cost PerCallLimit and all rules of one object RuntimeCELCostBudget.
// The estimate follows cel-go's checker/cost.go cost model (constants from common/cost.go: selects and identifiers
// cost 1, a new list 10, a new map 30, string traversal 0.1 per character, regexes 0.25 per pattern character,
// a comprehension costs its range times its step) with sizes from the schema (maxItems, maxLength, maxProperties,
// else what fits in a 3 MiB request, as k8s.io/apiserver pkg/cel/common/schemas.go estimates them). It is our own,
// simpler model: it is exact in shape (nesting multiplies) and close in scale, not identical to cel-go's figures.
import type { ASTNode } from "@marcbachmann/cel-js";
import type { SchemaNode } from "../schema/model.ts";

export const PER_CALL_LIMIT = 1_000_000;
export const RUNTIME_COST_BUDGET = 10_000_000;
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** What the estimator knows of a value: its size (string length, list items, map entries) and its parts. */
export interface Shape {
  readonly size: number;
  /** List items, map values (merged over all of them). */
  readonly elem?: Shape;
  /** Object fields by name. */
  readonly fields?: ReadonlyMap<string, Shape>;
  /** A map, whose iteration yields its keys. */
  readonly map?: boolean;
}

const UNBOUNDED: Shape = { size: MAX_REQUEST_SIZE_BYTES - 2 };
const SCALAR: Shape = { size: 1 };

/** The smallest JSON a value of this schema can be (for how many fit in a request). */
function minSerializedSize(node: SchemaNode): number {
  switch (node.type) {
    case "string":
      return 2 + (typeof node.minLength === "number" ? node.minLength : 0);
    case "boolean":
      return 4;
    case "integer":
    case "number":
      return 1;
    default:
      return 2;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The largest value a schema allows, as the API server estimates it. */
export function shapeOfSchema(node: SchemaNode, depth = 0): Shape {
  if (depth > 64) return UNBOUNDED;
  if (node["x-kubernetes-int-or-string"] === true || node["x-kubernetes-preserve-unknown-fields"] === true) return UNBOUNDED;
  if (node.type === "string") {
    if (typeof node.maxLength === "number") return { size: node.maxLength * 4 };
    if (Array.isArray(node.enum)) return { size: Math.max(0, ...node.enum.map((v) => (typeof v === "string" ? v.length : 0))) };
    return UNBOUNDED;
  }
  if (node.type === "array") {
    const items = isObject(node.items) ? (node.items as SchemaNode) : {};
    const size = typeof node.maxItems === "number" ? node.maxItems : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(items) + 1));
    return { size, elem: shapeOfSchema(items, depth + 1) };
  }
  if (node.type === "object" || isObject(node.properties) || isObject(node.additionalProperties)) {
    if (isObject(node.additionalProperties)) {
      const values = node.additionalProperties as SchemaNode;
      const size = typeof node.maxProperties === "number" ? node.maxProperties : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(values) + 6));
      return { size, elem: shapeOfSchema(values, depth + 1), map: true };
    }
    const fields = new Map<string, Shape>();
    if (isObject(node.properties)) for (const [k, v] of Object.entries(node.properties)) if (isObject(v)) fields.set(k, shapeOfSchema(v as SchemaNode, depth + 1));
    return { size: fields.size, fields };
  }
  return SCALAR;
}

function merge(a: Shape | undefined, b: Shape): Shape {
  if (!a) return b;
  const fields = a.fields || b.fields ? new Map([...(a.fields ?? []), ...(b.fields ?? [])].map(([k]) => [k, merge(a.fields?.get(k), b.fields?.get(k) ?? SCALAR)])) : undefined;
  const elem = a.elem && b.elem ? merge(a.elem, b.elem) : (a.elem ?? b.elem);
  return { size: Math.max(a.size, b.size), ...(elem ? { elem } : {}), ...(fields ? { fields } : {}), ...(a.map || b.map ? { map: true } : {}) };
}

/** The shape of an actual value (for the run-time check). Stops descending past `budget` nodes: the rest counts as unbounded. */
export function shapeOfValue(value: unknown, budget = { left: 200_000 }): Shape {
  if (--budget.left < 0) return UNBOUNDED;
  if (typeof value === "string") return { size: value.length };
  if (Array.isArray(value)) {
    let elem: Shape | undefined;
    for (const x of value) elem = merge(elem, shapeOfValue(x, budget));
    return { size: value.length, ...(elem ? { elem } : {}) };
  }
  if (isObject(value)) {
    const fields = new Map<string, Shape>();
    let elem: Shape | undefined;
    for (const [k, v] of Object.entries(value)) {
      const s = shapeOfValue(v, budget);
      fields.set(k, s);
      elem = merge(elem, s);
    }
    return { size: fields.size, fields, ...(elem ? { elem } : {}) };
  }
  return SCALAR;
}

interface Estimate {
  readonly cost: number;
  readonly shape: Shape;
}

const MACROS = new Set(["all", "exists", "exists_one", "map", "filter"]);
const STRING_TRAVERSAL = new Set(["contains", "startsWith", "endsWith", "lowerAscii", "upperAscii", "trim", "split", "replace", "substring", "indexOf", "lastIndexOf", "charAt", "reverse", "join", "url", "isURL", "ip", "isIP", "cidr", "isCIDR"]);
const REGEX = new Set(["matches", "re2matches", "find", "findAll"]);
const LIST_TRAVERSAL = new Set(["isSorted", "sum", "min", "max", "indexOf", "lastIndexOf"]);

const isNode = (v: unknown): v is ASTNode => typeof v === "object" && v !== null && "op" in v;
const ceil = Math.ceil;

/** Estimated cost of an expression with `self` of the given shape (cel-go's model, see the file comment). */
export function estimateCost(ast: ASTNode, self: Shape, extraVars: Readonly<Record<string, Shape>> = {}): number {
  const scopes: Map<string, Shape>[] = [new Map(Object.entries({ ...extraVars, self }))];
  const lookup = (name: string): Shape => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const s = scopes[i]?.get(name);
      if (s) return s;
    }
    return UNBOUNDED;
  };
  const est = (n: unknown): Estimate => {
    if (!isNode(n)) return { cost: 0, shape: SCALAR };
    const args = n.args as unknown;
    switch (n.op) {
      case "value":
        return { cost: 0, shape: typeof args === "string" ? { size: args.length } : SCALAR };
      case "id":
        return { cost: 1, shape: lookup(String(args)) };
      case ".":
      case ".?": {
        const [obj, field] = args as [ASTNode, string];
        const o = est(obj);
        return { cost: o.cost + 1, shape: o.shape.fields?.get(field) ?? o.shape.elem ?? UNBOUNDED };
      }
      case "[]":
      case "[?]": {
        const [obj, key] = args as [ASTNode, ASTNode];
        const o = est(obj);
        const k = est(key);
        const literal = isNode(key) && key.op === "value" && typeof key.args === "string" ? o.shape.fields?.get(key.args) : undefined;
        return { cost: o.cost + k.cost + 1, shape: literal ?? o.shape.elem ?? UNBOUNDED };
      }
      case "list": {
        const items = (Array.isArray(args) ? args : []).map(est);
        let elem: Shape | undefined;
        for (const i of items) elem = merge(elem, i.shape);
        return { cost: 10 + items.reduce((a, i) => a + i.cost, 0), shape: { size: items.length, ...(elem ? { elem } : {}) } };
      }
      case "map": {
        const entries = (Array.isArray(args) ? args : []) as [ASTNode, ASTNode][];
        let cost = 30;
        for (const [k, v] of entries) cost += est(k).cost + est(v).cost;
        return { cost, shape: { size: entries.length, map: true } };
      }
      case "?:": {
        const [c, t, f] = (args as ASTNode[]).map(est) as [Estimate, Estimate, Estimate];
        return { cost: c.cost + Math.max(t.cost, f.cost), shape: merge(t.shape, f.shape) };
      }
      case "&&":
      case "||": {
        const [l, r] = (args as ASTNode[]).map(est) as [Estimate, Estimate];
        return { cost: l.cost + r.cost, shape: SCALAR };
      }
      case "!_":
      case "-_":
        return { cost: est(args).cost + 1, shape: SCALAR };
      case "==":
      case "!=":
      case "<":
      case "<=":
      case ">":
      case ">=": {
        const [l, r] = (args as ASTNode[]).map(est) as [Estimate, Estimate];
        // cel-go: equality and ordering traverse the smaller side (scalars cost 1)
        return { cost: l.cost + r.cost + Math.max(1, ceil(0.1 * Math.min(l.shape.size, r.shape.size))), shape: SCALAR };
      }
      case "+": {
        const [l, r] = (args as ASTNode[]).map(est) as [Estimate, Estimate];
        const size = l.shape.size + r.shape.size;
        const elem = l.shape.elem || r.shape.elem ? merge(l.shape.elem, r.shape.elem ?? SCALAR) : undefined;
        // list concatenation costs 1, string concatenation a traversal of the result
        const isList = elem !== undefined || (isNode(n.args) ? false : (n.args as ASTNode[]).some((a) => isNode(a) && a.op === "list"));
        return { cost: l.cost + r.cost + (isList ? 1 : Math.max(1, ceil(0.1 * size))), shape: { size, ...(elem ? { elem } : {}) } };
      }
      case "in": {
        const [l, r] = (args as ASTNode[]).map(est) as [Estimate, Estimate];
        return { cost: l.cost + r.cost + (r.shape.map ? 1 : Math.max(1, r.shape.size)), shape: SCALAR };
      }
      case "call":
      case "rcall":
        return call(n);
      default: {
        let cost = 1;
        for (const a of Array.isArray(args) ? args : [args]) cost += est(a).cost;
        return { cost, shape: SCALAR };
      }
    }
  };
  const call = (n: ASTNode): Estimate => {
    const a = n.args as unknown[];
    const name = String(a[0]);
    const receiver = n.op === "rcall" ? (a[1] as ASTNode) : undefined;
    const params = ((n.op === "rcall" ? a[2] : a[1]) ?? []) as ASTNode[];
    if (receiver && MACROS.has(name) && params.length >= 2 && isNode(params[0]) && params[0].op === "id") {
      const range = est(receiver);
      // iterating a map yields its keys, whose size the API server's estimator takes as 0 (its key type has no bound
      // recorded: apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go sizeEstimator)
      const item = range.shape.map ? { size: 0 } : (range.shape.elem ?? UNBOUNDED);
      scopes.push(new Map([[String(params[0].args), item]]));
      const bodies = params.slice(1).map(est);
      scopes.pop();
      const body = bodies.reduce((s, b) => s + b.cost, 0);
      // the macro's loop step and condition: `__result__ && p` and `@not_strictly_false(__result__)` (all, exists),
      // `__result__ + [f(x)]` (map: a new list each step), `p ? __result__ + [x] : __result__` (filter)
      const perItem = body + (name === "map" ? 12 : name === "filter" ? 13 : 3);
      const last = bodies.at(-1)?.shape ?? SCALAR;
      const shape = name === "map" ? { size: range.shape.size, elem: last } : name === "filter" ? range.shape : SCALAR;
      return { cost: range.cost + range.shape.size * perItem, shape };
    }
    if (name === "has" && !receiver) return { cost: est(params[0]).cost, shape: SCALAR };
    const r = receiver ? est(receiver) : undefined;
    const ps = params.map(est);
    const argCost = (r?.cost ?? 0) + ps.reduce((s, p) => s + p.cost, 0);
    const subject = r?.shape ?? ps[0]?.shape ?? SCALAR;
    if (REGEX.has(name)) {
      const str = receiver ? subject : (ps[0]?.shape ?? SCALAR);
      const pattern = receiver ? ps[0]?.shape : ps[1]?.shape;
      const cost = ceil((1 + str.size) * 0.1) * ceil((pattern?.size ?? UNBOUNDED.size) * 0.25);
      return { cost: argCost + Math.max(1, cost), shape: name === "findAll" ? { size: str.size, elem: str } : str };
    }
    if (name === "size") return { cost: argCost + 1, shape: SCALAR };
    if (name === "startsWith" || name === "endsWith") return { cost: argCost + Math.max(1, ceil(0.1 * (ps[0]?.shape.size ?? UNBOUNDED.size))), shape: SCALAR };
    if (name === "contains" && receiver) return { cost: argCost + Math.max(1, ceil(0.1 * subject.size) * ceil(0.1 * (ps[0]?.shape.size ?? UNBOUNDED.size))), shape: SCALAR };
    if (receiver && LIST_TRAVERSAL.has(name) && subject.elem) {
      // one comparison per item, plus a traversal of string items (k8s.io/apiserver pkg/cel/library/cost.go)
      const perItem = 1 + (subject.elem.elem || subject.elem.fields ? 0 : ceil(0.1 * subject.elem.size));
      return { cost: argCost + subject.size * perItem, shape: subject.elem };
    }
    if (STRING_TRAVERSAL.has(name)) {
      const factor = name === "replace" || name === "split" || name === "join" ? 0.2 : 0.1;
      const result = name === "split" ? { size: subject.size, elem: subject } : subject;
      return { cost: argCost + Math.max(1, ceil(factor * subject.size)), shape: result };
    }
    return { cost: argCost + 1, shape: UNBOUNDED };
  };
  return est(ast).cost;
}

/** How many places a node can occur in one object: the product of the sizes of the lists and maps above it. */
export type Cardinality = number;

/** `estimated rule cost exceeds budget by factor of 2.5x (...)`, worded as the API server's getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const shown = factor > 100 ? "more than 100x" : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${shown} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

// One pass over an object with its schema, as the API server's decoder does for custom resources: nulls pruned,
// defaults applied, list-type invariants checked; also builds the CEL view (ints as bigint) and collects rules.
import { pointerSegment } from "../pointer.ts";
import type { Finding } from "../types.ts";
import type { SchemaNode } from "./model.ts";

export interface ValidationRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly fieldPath?: string;
  readonly reason?: string;
  readonly optionalOldSelf?: boolean;
}

/** The rules of one schema node, bound to the value found there. */
export interface CelTask {
  readonly path: string;
  readonly rules: readonly ValidationRule[];
  readonly self: unknown;
  /** The correlated value of the previous object (CEL view), when there is one. */
  readonly oldSelf?: unknown;
  readonly hasOld: boolean;
  /** The schema type at this node, for `Invalid value: "<type>"`. */
  readonly type: string;
}

export interface WalkOptions {
  /** Apply `default`s (structural schemas of custom resources). */
  readonly defaults: boolean;
  /** Collect x-kubernetes-validations. */
  readonly cel: boolean;
  readonly deref: (node: SchemaNode) => SchemaNode;
}

export interface WalkResult {
  readonly findings: Finding[];
  readonly tasks: CelTask[];
}

const EMPTY: SchemaNode = {};
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => (v === undefined ? v : (structuredClone(v) as T));

/** The CEL view of a value nobody described: JSON integers are CEL ints, as in unstructured Go objects. */
function dynToCel(v: unknown): unknown {
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(dynToCel);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = dynToCel(x);
    return out;
  }
  return v;
}

function listKey(item: unknown, keys: readonly string[]): string | undefined {
  if (!isPlainObject(item)) return undefined;
  return JSON.stringify(keys.map((k) => item[k] ?? null));
}

/** What the walker needs to know about a schema node, computed once per node (schemas are reused across objects). */
interface Plan {
  readonly node: SchemaNode;
  readonly props: Readonly<Record<string, SchemaNode>> | undefined;
  readonly defaults: readonly (readonly [string, unknown])[];
  readonly additional: SchemaNode | undefined;
  readonly items: SchemaNode | undefined;
  readonly listType: unknown;
  readonly mapKeys: readonly string[];
  readonly rules: readonly ValidationRule[] | undefined;
  readonly preserve: boolean;
  readonly intish: boolean;
  /** No integer anywhere below (and nothing untyped): the CEL view is the value itself, no copy needed. */
  readonly celIdentity: boolean;
}

// Stored on the schema node under a symbol: faster than a WeakMap on this hot path, invisible to JSON and ajv.
const PLAN = Symbol("walkPlan");
type Planned = SchemaNode & { [PLAN]?: Plan };
const frozenPlans = new WeakMap<SchemaNode, Plan>();

function planOf(raw: SchemaNode, deref: (n: SchemaNode) => SchemaNode): Plan {
  let plan = (raw as Planned)[PLAN] ?? frozenPlans.get(raw);
  if (plan) return plan;
  const node = deref(raw);
  const props = isPlainObject(node.properties) ? (node.properties as Record<string, SchemaNode>) : undefined;
  const additional = isPlainObject(node.additionalProperties) ? (node.additionalProperties as SchemaNode) : undefined;
  const items = isPlainObject(node.items) ? (node.items as SchemaNode) : undefined;
  const preserve = node["x-kubernetes-preserve-unknown-fields"] === true;
  const intish = node.type === "integer" || node["x-kubernetes-int-or-string"] === true;
  const children = [...Object.values(props ?? {}), ...(additional ? [additional] : []), ...(items ? [items] : [])];
  const celIdentity =
    !intish && !preserve && node.type !== undefined && node.type !== "number" && children.every((c) => planOf(c, deref).celIdentity);
  plan = {
    node,
    props,
    defaults: props ? Object.entries(props).filter(([, c]) => c.default !== undefined).map(([k, c]) => [k, c.default] as const) : [],
    additional,
    items,
    listType: node["x-kubernetes-list-type"],
    mapKeys: Array.isArray(node["x-kubernetes-list-map-keys"]) ? (node["x-kubernetes-list-map-keys"] as string[]) : [],
    rules: Array.isArray(node["x-kubernetes-validations"]) && node["x-kubernetes-validations"].length > 0 ? (node["x-kubernetes-validations"] as ValidationRule[]) : undefined,
    preserve,
    intish,
    celIdentity,
  };
  if (Object.isExtensible(raw)) Object.defineProperty(raw, PLAN, { value: plan, enumerable: false });
  else frozenPlans.set(raw, plan);
  return plan;
}

/**
 * Walks `value` (mutated in place: defaults set, non-nullable nulls removed) and returns its CEL view.
 * `old` is the correlated value of the previous object, for transition rules.
 */
export function walk(value: unknown, rawNode: SchemaNode, path: string, old: unknown, opts: WalkOptions, out: WalkResult): unknown {
  const plan = planOf(rawNode, opts.deref);
  const node = plan.node;
  let cel: unknown;
  if (Array.isArray(value)) {
    const { items, listType, mapKeys } = plan;
    let oldByKey: Map<string, unknown> | undefined;
    if (listType === "map" && Array.isArray(old)) {
      oldByKey = new Map();
      for (const o of old) oldByKey.set(listKey(o, mapKeys) ?? "", o);
    }
    const seen = listType === "set" || listType === "map" ? new Set<string>() : undefined;
    const celList: unknown[] = plan.celIdentity ? value : new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const p = `${path}/${i}`;
      if (seen) {
        const key = listType === "set" ? JSON.stringify(item) : listKey(item, mapKeys);
        if (key !== undefined) {
          if (seen.has(key)) out.findings.push({ severity: "error", path: p, message: `Duplicate value: ${listType === "set" ? JSON.stringify(item) : key}`, rule: `schema:x-kubernetes-list-type=${listType}` });
          seen.add(key);
        }
      }
      const o = oldByKey ? oldByKey.get(listKey(item, mapKeys) ?? "\u0000") : undefined;
      const c = items ? walk(item, items, p, o, opts, out) : dynToCel(item);
      if (!plan.celIdentity) celList[i] = c;
    }
    cel = celList;
  } else if (isPlainObject(value)) {
    const { props, additional } = plan;
    if (opts.defaults) {
      for (const [k, d] of plan.defaults) if (value[k] === undefined) value[k] = clone(d);
    }
    const celObj: Record<string, unknown> | undefined = plan.celIdentity ? undefined : {};
    const oldObj = isPlainObject(old) ? old : undefined;
    for (const k in value) {
      const childRaw = props?.[k] ?? additional;
      if (value[k] === null) {
        const child = childRaw ? planOf(childRaw, opts.deref).node : undefined;
        if (child && child.nullable !== true) {
          // a null for a non-nullable field is dropped (and its default applied) before validation
          if (opts.defaults && child.default !== undefined) value[k] = clone(child.default);
          else {
            delete value[k];
            continue;
          }
        } else if (!child) {
          if (celObj) celObj[k] = null;
          continue;
        }
      }
      if (!childRaw) {
        if (celObj) celObj[k] = dynToCel(value[k]);
        continue;
      }
      const c = walk(value[k], childRaw, `${path}/${pointerSegment(k)}`, oldObj?.[k], opts, out);
      if (celObj) celObj[k] = c;
    }
    cel = celObj ?? value;
  } else if (typeof value === "number") {
    const intish = plan.intish || (node.type === undefined && Number.isInteger(value));
    cel = intish && Number.isInteger(value) ? BigInt(value) : value;
  } else {
    cel = value;
  }
  if (opts.cel && plan.rules && value !== undefined) {
    const oldCel = old === undefined ? undefined : toCel(old, rawNode, opts.deref);
    out.tasks.push({ path, rules: plan.rules, self: cel, oldSelf: oldCel, hasOld: old !== undefined, type: typeName(node, value) });
  }
  return cel;
}

function typeName(node: SchemaNode, value: unknown): string {
  if (typeof node.type === "string") return node.type;
  return Array.isArray(value) ? "array" : value === null ? "null" : typeof value === "object" ? "object" : typeof value;
}

/** The CEL view of a value without touching it (for previous objects). */
export function toCel(value: unknown, node: SchemaNode, deref: (n: SchemaNode) => SchemaNode): unknown {
  const result: WalkResult = { findings: [], tasks: [] };
  return walk(structuredClone(value), node, "", undefined, { defaults: false, cel: false, deref }, result);
}

export const EMPTY_SCHEMA = EMPTY;

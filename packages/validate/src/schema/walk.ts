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
  /** The same value as plain data (what `self` is the CEL view of). */
  readonly value: unknown;
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
  /** Set when the value holds a -0 (JSON, and so the CEL memo's keys, cannot tell it from 0). */
  negativeZero?: boolean;
}

const EMPTY: SchemaNode = {};
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** Deep copy of parsed YAML/JSON data (plain objects, arrays, scalars); several times faster than structuredClone. */
export function clone<T>(v: T): T {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  const out: Record<string, unknown> = {};
  for (const k in v) out[k] = clone((v as Record<string, unknown>)[k]);
  return out as T;
}

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

// The CEL view of the last walked value: walk() returns the validated copy and leaves the CEL view here,
// which spares a tuple allocation per node on the hot path.
let celResult: unknown;

/**
 * Copies `value` as the API server's decoder sees it (defaults set, non-nullable nulls removed) and
 * returns the copy; `lastCelView()` then gives its CEL view. The input is never changed.
 * `old` is the correlated value of the previous object, for transition rules.
 */
export function walk(value: unknown, rawNode: SchemaNode, path: string, old: unknown, opts: WalkOptions, out: WalkResult): unknown {
  const plan = planOf(rawNode, opts.deref);
  const node = plan.node;
  let copy: unknown;
  let cel: unknown;
  if (Array.isArray(value)) {
    const { items, listType, mapKeys } = plan;
    let oldByKey: Map<string, unknown> | undefined;
    if (listType === "map" && Array.isArray(old)) {
      oldByKey = new Map();
      for (const o of old) oldByKey.set(listKey(o, mapKeys) ?? "", o);
    }
    const seen = listType === "set" || listType === "map" ? new Set<string>() : undefined;
    const list: unknown[] = new Array(value.length);
    const celList: unknown[] = plan.celIdentity ? list : new Array(value.length);
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
      if (items) {
        const o = oldByKey ? oldByKey.get(listKey(item, mapKeys) ?? "\u0000") : undefined;
        list[i] = walk(item, items, p, o, opts, out);
        if (!plan.celIdentity) celList[i] = celResult;
      } else {
        list[i] = clone(item);
        if (!plan.celIdentity) celList[i] = dynToCel(item);
      }
    }
    copy = list;
    cel = celList;
  } else if (isPlainObject(value)) {
    const { props, additional } = plan;
    const obj: Record<string, unknown> = {};
    const celObj: Record<string, unknown> = plan.celIdentity ? obj : {};
    const oldObj = isPlainObject(old) ? old : undefined;
    for (const k in value) {
      const childRaw = props?.[k] ?? additional;
      let v = value[k];
      if (v === null) {
        const child = childRaw ? planOf(childRaw, opts.deref).node : undefined;
        if (child && child.nullable !== true) {
          // a null for a non-nullable field is dropped (and its default applied) before validation
          if (opts.defaults && child.default !== undefined) v = child.default;
          else continue;
        } else if (!child) {
          obj[k] = null;
          celObj[k] = null;
          continue;
        }
      }
      if (!childRaw) {
        obj[k] = clone(v);
        if (!plan.celIdentity) celObj[k] = dynToCel(v);
        continue;
      }
      obj[k] = walk(v, childRaw, `${path}/${pointerSegment(k)}`, oldObj?.[k], opts, out);
      if (!plan.celIdentity) celObj[k] = celResult;
    }
    if (opts.defaults) {
      for (const [k, d] of plan.defaults) {
        if (obj[k] !== undefined || (k in value && value[k] !== null)) continue;
        // defaults are walked too: their own nested defaults apply, as in the API server
        obj[k] = walk(d, props?.[k] as SchemaNode, `${path}/${pointerSegment(k)}`, oldObj?.[k], opts, out);
        if (!plan.celIdentity) celObj[k] = celResult;
      }
    }
    copy = obj;
    cel = celObj;
  } else if (typeof value === "number") {
    if (value === 0 && Object.is(value, -0)) out.negativeZero = true;
    copy = value;
    const intish = plan.intish || (node.type === undefined && Number.isInteger(value));
    cel = intish && Number.isInteger(value) ? BigInt(value) : value;
  } else {
    copy = value;
    cel = value;
  }
  if (opts.cel && plan.rules && value !== undefined) {
    const oldCel = old === undefined ? undefined : toCel(old, rawNode, opts.deref);
    out.tasks.push({ path, rules: plan.rules, self: cel, value: copy, oldSelf: oldCel, hasOld: old !== undefined, type: typeName(node, value) });
  }
  celResult = cel;
  return copy;
}

/** The CEL view of the value the last `walk()` call returned. */
export function lastCelView(): unknown {
  return celResult;
}

function typeName(node: SchemaNode, value: unknown): string {
  if (typeof node.type === "string") return node.type;
  return Array.isArray(value) ? "array" : value === null ? "null" : typeof value === "object" ? "object" : typeof value;
}

/** The CEL view of a value without touching it (for previous objects). */
export function toCel(value: unknown, node: SchemaNode, deref: (n: SchemaNode) => SchemaNode): unknown {
  const result: WalkResult = { findings: [], tasks: [] };
  walk(value, node, "", undefined, { defaults: false, cel: false, deref }, result);
  return celResult;
}

export const EMPTY_SCHEMA = EMPTY;

// One pass over an object with its schema, as the API server's decoder does for custom resources: nulls pruned,
// defaults applied, list-type invariants checked; also builds the CEL view (ints as bigint) and collects rules.
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
const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
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

/**
 * Walks `value` (mutated in place: defaults set, non-nullable nulls removed) and returns its CEL view.
 * `old` is the correlated value of the previous object, for transition rules.
 */
export function walk(value: unknown, rawNode: SchemaNode, path: string, old: unknown, opts: WalkOptions, out: WalkResult): unknown {
  const node = opts.deref(rawNode);
  const preserve = node["x-kubernetes-preserve-unknown-fields"] === true;
  let cel: unknown;
  if (Array.isArray(value)) {
    const items = isPlainObject(node.items) ? (node.items as SchemaNode) : undefined;
    const listType = node["x-kubernetes-list-type"];
    const mapKeys = Array.isArray(node["x-kubernetes-list-map-keys"]) ? (node["x-kubernetes-list-map-keys"] as string[]) : [];
    const oldByKey = new Map<string, unknown>();
    if (listType === "map" && Array.isArray(old)) for (const o of old) oldByKey.set(listKey(o, mapKeys) ?? "", o);
    const seen = new Set<string>();
    cel = value.map((item, i) => {
      const p = `${path}/${i}`;
      if (listType === "set" || listType === "map") {
        const key = listType === "set" ? JSON.stringify(item) : listKey(item, mapKeys);
        if (key !== undefined) {
          if (seen.has(key)) out.findings.push({ severity: "error", path: p, message: `Duplicate value: ${listType === "set" ? JSON.stringify(item) : key}`, rule: `schema:x-kubernetes-list-type=${listType}` });
          seen.add(key);
        }
      }
      const o = listType === "map" ? oldByKey.get(listKey(item, mapKeys) ?? "\u0000") : undefined;
      return items ? walk(item, items, p, o, opts, out) : dynToCel(item);
    });
  } else if (isPlainObject(value)) {
    const props = (isPlainObject(node.properties) ? node.properties : {}) as Record<string, SchemaNode>;
    const additional = isPlainObject(node.additionalProperties) ? (node.additionalProperties as SchemaNode) : undefined;
    if (opts.defaults) {
      for (const [k, child] of Object.entries(props)) {
        if (value[k] === undefined && child.default !== undefined) value[k] = clone(child.default);
      }
    }
    const celObj: Record<string, unknown> = {};
    const oldObj = isPlainObject(old) ? old : undefined;
    for (const k of Object.keys(value)) {
      const childRaw = props[k] ?? additional;
      if (value[k] === null) {
        const child = childRaw ? opts.deref(childRaw) : undefined;
        if (child && child.nullable !== true) {
          // a null for a non-nullable field is dropped (and its default applied) before validation
          if (opts.defaults && child.default !== undefined) value[k] = clone(child.default);
          else {
            delete value[k];
            continue;
          }
        } else if (!child) {
          celObj[k] = null;
          continue;
        }
      }
      if (!childRaw) {
        celObj[k] = preserve || node.type === undefined ? dynToCel(value[k]) : value[k];
        continue;
      }
      celObj[k] = walk(value[k], childRaw, `${path}/${escape(k)}`, oldObj?.[k], opts, out);
    }
    cel = celObj;
  } else if (typeof value === "number") {
    const intish = node.type === "integer" || node["x-kubernetes-int-or-string"] === true || (node.type === undefined && Number.isInteger(value));
    cel = intish && Number.isInteger(value) ? BigInt(value) : value;
  } else {
    cel = value;
  }
  if (opts.cel) {
    const rules = node["x-kubernetes-validations"];
    if (Array.isArray(rules) && rules.length > 0 && value !== undefined) {
      const oldCel = old === undefined ? undefined : toCel(old, rawNode, opts.deref);
      out.tasks.push({ path, rules: rules as ValidationRule[], self: cel, oldSelf: oldCel, hasOld: old !== undefined, type: typeName(node, value) });
    }
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

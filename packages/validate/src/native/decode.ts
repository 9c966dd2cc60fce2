// Decode-time checks of built-in kinds: the API server decodes JSON into Go types before any validation, and a
// resource.Quantity that does not parse or an IntOrString number that is not an int32 fails there (HTTP 400,
// "<Kind> in version ... cannot be handled as a <Kind>: ..."). The places are found from the kind's OpenAPI schema
// (references to the Quantity and IntOrString components, `format: byte` strings), once per schema.
// After k8s.io/apimachinery@v0.36.5/pkg/api/resource/quantity.go (UnmarshalJSON) and
// pkg/util/intstr/intstr.go (UnmarshalJSON).
import { pointerSegment } from "../pointer.ts";
import type { SchemaNode, TypeSchema } from "../schema/model.ts";
import type { Finding } from "../types.ts";
import { base64ErrorOffset } from "./base64.ts";
import { decodeQuantity, QuantityError } from "./quantity.ts";

const QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
const REF_PREFIX = "#/components/schemas/";

/** The parts of a schema that lead to a quantity or int-or-string field (everything else pruned). */
type Leaf = "quantity" | "int-or-string" | "bytes";

interface Plan {
  leaf?: Leaf;
  /** The Go struct type of a node built from a component (`ServicePort`), for decode messages. */
  typeName?: string;
  props?: Map<string, Plan>;
  items?: Plan;
  values?: Plan;
}

const plans = new WeakMap<SchemaNode, Plan | null>();

/**
 * The plans of one OpenAPI document's components, shared by every kind of that document: a Deployment, a
 * StatefulSet, a DaemonSet, a Job and a CronJob all lead through PodTemplateSpec, which is planned and pruned
 * once, not once per kind (the plans of the first kinds met were ~40 ms of each thread's start, json 5,000).
 */
interface DocumentPlans {
  readonly byName: Map<string, Plan>;
  /** Whether a plan (already pruned) leads to a leaf. */
  readonly useful: Map<Plan, boolean>;
}
const documentPlans = new WeakMap<object, DocumentPlans>();

function buildPlan(type: TypeSchema, shared = true): Plan | null {
  const components = type.components ?? {};
  let doc = shared && type.components ? documentPlans.get(type.components) : undefined;
  if (!doc) {
    doc = { byName: new Map(), useful: new Map() };
    if (shared && type.components) documentPlans.set(type.components, doc);
  }
  const { byName, useful } = doc;

  const refName = (node: SchemaNode): string | undefined => {
    if (typeof node.$ref === "string" && node.$ref.startsWith(REF_PREFIX)) return node.$ref.slice(REF_PREFIX.length);
    if (Array.isArray(node.allOf) && node.allOf.length === 1) return refName(node.allOf[0] as SchemaNode);
    return undefined;
  };

  const plan = (node: SchemaNode): Plan => {
    const name = refName(node);
    if (name !== undefined) {
      const hit = byName.get(name);
      if (hit) return hit;
      const p: Plan = {};
      byName.set(name, p);
      if (name === QUANTITY) p.leaf = "quantity";
      else if (name === INT_OR_STRING) p.leaf = "int-or-string";
      else {
        const target = components[name];
        if (target) Object.assign(p, plan(target));
        p.typeName = name.slice(name.lastIndexOf(".") + 1);
      }
      return p;
    }
    if (node["x-kubernetes-int-or-string"] === true || node.format === "int-or-string") return { leaf: "int-or-string" };
    if (node.type === "string" && node.format === "byte") return { leaf: "bytes" };
    const p: Plan = {};
    const props = node.properties as Record<string, SchemaNode> | undefined;
    if (props && typeof props === "object") {
      for (const [k, v] of Object.entries(props)) {
        if (!p.props) p.props = new Map();
        p.props.set(k, plan(v));
      }
    }
    if (node.items && typeof node.items === "object") p.items = plan(node.items as SchemaNode);
    if (node.additionalProperties && typeof node.additionalProperties === "object") p.values = plan(node.additionalProperties as SchemaNode);
    return p;
  };

  const root = plan(type.root);
  // Prune branches that reach no leaf. Whether a plan reaches one does not depend on where the walk entered the
  // schema (cycles included: a least fixpoint over the plans not decided by an earlier kind), so plans pruned
  // for one kind serve every other kind of the document as they are.
  const open: Plan[] = [];
  const edges = new Map<Plan, Plan[]>();
  for (const stack = [root]; stack.length > 0; ) {
    const p = stack.pop() as Plan;
    if (edges.has(p) || useful.has(p)) continue;
    const next: Plan[] = [];
    if (p.props) for (const c of p.props.values()) next.push(c);
    if (p.items) next.push(p.items);
    if (p.values) next.push(p.values);
    edges.set(p, next);
    open.push(p);
    for (const c of next) stack.push(c);
  }
  // children mostly come after their parents in `open`: visited backwards, a pass or two settles it
  const reaching = new Set<Plan>();
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = open.length - 1; i >= 0; i--) {
      const p = open[i] as Plan;
      if (reaching.has(p)) continue;
      if (p.leaf || (edges.get(p) as Plan[]).some((c) => reaching.has(c) || useful.get(c) === true)) {
        reaching.add(p);
        changed = true;
      }
    }
  }
  for (const p of open) useful.set(p, reaching.has(p));
  for (const p of open) {
    if (p.props) {
      for (const [k, c] of [...p.props]) if (!useful.get(c)) p.props.delete(k);
      if (p.props.size === 0) delete p.props;
    }
    if (p.items && !useful.get(p.items)) delete p.items;
    if (p.values && !useful.get(p.values)) delete p.values;
  }
  return useful.get(root) ? root : null;
}

/** The decode plan of a type made afresh (no plan shared with other kinds): for tests that compare the two. */
export function unsharedDecodePlan(type: TypeSchema): unknown {
  return buildPlan(type, false);
}

/** The decode plan of a type (shared with the other kinds of its document): for tests. */
export function decodePlan(type: TypeSchema): unknown {
  return planFor(type);
}

function planFor(type: TypeSchema): Plan | null {
  let p = plans.get(type.root);
  if (p === undefined) {
    p = buildPlan(type);
    plans.set(type.root, p);
  }
  return p;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Go's name of the field being decoded: the innermost struct, then the JSON keys from the root (`ServicePort.spec.ports.targetPort`). */
const goField = (w: Walk, struct: string): string => `${struct}.${w.keys.filter((k) => typeof k === "string").join(".")}`;

/** What Go's decoder says about one value at a leaf, or undefined when it decodes (the field is named only in a message that needs it). */
function decodeProblem(leaf: Leaf, value: unknown, w: Walk, struct: string): { message: string; rule: string } | undefined {
  if (value === null || value === undefined) return undefined;
  if (leaf === "bytes") {
    if (typeof value !== "string") return undefined;
    const offset = base64ErrorOffset(value);
    return offset === undefined ? undefined : { message: `illegal base64 data at input byte ${offset}`, rule: "decode:base64" };
  }
  if (leaf === "quantity") {
    if (typeof value !== "string" && typeof value !== "number") return undefined; // a type error, reported by the schema stage
    try {
      decodeQuantity(value);
      return undefined;
    } catch (err) {
      if (err instanceof QuantityError) return { message: err.message, rule: "decode:quantity" };
      throw err;
    }
  }
  if (typeof value !== "number") return undefined;
  if (Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) return undefined;
  return { message: `json: cannot unmarshal number ${String(value)} into Go struct field ${goField(w, struct)} of type int32`, rule: "decode:int-or-string" };
}

/** One walk over an object: segments are pushed and popped, strings are built only for a finding. */
interface Walk {
  readonly out: Finding[];
  readonly prefix: string;
  /** JSON keys from the root (pointer segments are derived from them, plus list indexes) */
  readonly keys: (string | number)[];
}

function visit(w: Walk, p: Plan, value: unknown, struct: string): void {
  if (p.leaf) {
    if (value === null || value === undefined) return;
    // the common cases decode: skip building the Go field name for them
    if (p.leaf === "int-or-string" && (typeof value === "string" || (Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX))) return;
    const problem = decodeProblem(p.leaf, value, w, struct);
    if (problem) {
      const pointer = w.keys.map((k) => `/${typeof k === "number" ? k : pointerSegment(k)}`).join("");
      w.out.push({ severity: "error", path: pointer, message: w.prefix + problem.message, rule: problem.rule });
    }
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const inner = p.typeName ?? struct;
  if (Array.isArray(value)) {
    if (!p.items) return;
    for (let i = 0; i < value.length; i++) {
      w.keys.push(i);
      visit(w, p.items, value[i], struct);
      w.keys.pop();
    }
    return;
  }
  const o = value as Record<string, unknown>;
  // objects hold fewer keys than their schema has properties: look each key up in the plan
  for (const k in o) {
    const c = p.props?.get(k) ?? p.values;
    if (!c) continue;
    w.keys.push(k);
    visit(w, c, o[k], inner);
    w.keys.pop();
  }
}

/**
 * Decode errors of one built-in object, worded as the server's 400 answer
 * (`<Kind> in version "<v>" cannot be handled as a <Kind>: <error>`), each at the JSON Pointer of its value.
 * Go's error names the innermost struct holding the value and the JSON keys from the root
 * (`ServicePort.spec.ports.targetPort`).
 */
export function decodeFindings(object: Readonly<Record<string, unknown>>, type: TypeSchema): Finding[] {
  if (type.flavour !== "builtin") return [];
  const plan = planFor(type);
  if (!plan) return [];
  const { kind, version } = type.gvk;
  const w: Walk = { out: [], prefix: `${kind} in version "${version}" cannot be handled as a ${kind}: `, keys: [] };
  visit(w, plan, object, kind);
  return w.out;
}

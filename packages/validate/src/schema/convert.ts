// Converting Kubernetes OpenAPI v3 / structural schemas into JSON Schema (draft-07) that ajv compiles.
import { createHash } from "node:crypto";
import type { SchemaFlavour, SchemaNode } from "./model.ts";
import { applyEnumValues } from "./builtin-enums.ts";
import { VALUE_ENUM_FIELDS } from "./value-enum-fields.ts";
import { enforcedRequired } from "./unenforced-required.ts";

/** The ObjectMeta component, as `documentId#/$defs/...`, when a builtin document with it is loaded. */
export const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

export interface ConvertContext {
  readonly flavour: SchemaFlavour;
  /** `$ref` to ObjectMeta for CRD `metadata` and embedded resources; unset = metadata is a free-form object. */
  readonly objectMetaRef?: string;
  /** SHARED_KEYWORD's value for ObjectMeta (sharedValue): `metadata` then calls the shared validator instead of a `$ref`. */
  readonly objectMetaShared?: string;
  /** SHARED_KEYWORD's values of the document's definitions that are called as shared validators, by name. */
  readonly sharedDefs?: ReadonlyMap<string, string>;
}

/**
 * A keyword that calls a validator compiled once for all schemas of a run, where a `$ref` would have ajv's standalone
 * code copy the referenced schema's code into each validator. Its value is sharedValue's.
 */
export const SHARED_KEYWORD = "x-eks-gitops-shared";

const objectMeta = (ref: string, ctx: ConvertContext): Json => (ctx.objectMetaShared ? { [SHARED_KEYWORD]: ctx.objectMetaShared } : { $ref: ref });

/**
 * The names of the definitions `name` reaches through `$ref`s, itself included, sorted; undefined if one leads back to
 * it, or if one holds a `$ref` that is not to a definition of the document (what it means is not in the definitions).
 */
function definitionsReached(components: Readonly<Record<string, SchemaNode>>, name: string): string[] | undefined {
  const seen = new Set<string>();
  let unshareable = false;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) visit(x);
    else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k !== "$ref" || typeof x !== "string") visit(x);
        else if (x.startsWith(REF_PREFIX)) add(x.slice(REF_PREFIX.length));
        else unshareable = true;
      }
    }
  };
  const add = (n: string): void => {
    if (n === name && seen.size > 0) unshareable = true;
    if (seen.has(n) || !(n in components)) return;
    seen.add(n);
    visit(components[n]);
  };
  add(name);
  return unshareable ? undefined : [...seen].sort();
}

/** `schema` without SHARED_KEYWORD anywhere: a schema we did not convert says nothing with it (JSON Schema ignores unknown keywords). */
export function withoutSharedKeyword<T>(schema: T): T {
  if (typeof schema !== "object" || schema === null) return schema;
  if (Array.isArray(schema)) {
    const items = schema.map(withoutSharedKeyword);
    return (items.some((x, i) => x !== schema[i]) ? items : schema) as T;
  }
  // the same object back when the keyword is nowhere below
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === SHARED_KEYWORD) {
      changed = true;
      continue;
    }
    out[k] = withoutSharedKeyword(v);
    if (out[k] !== v) changed = true;
  }
  return (changed ? out : schema) as T;
}

/**
 * SHARED_KEYWORD's value for definition `name` of a document: the SHA-256 of the definitions it reaches, as the document
 * has them (the same in every document holding the same definitions: apps/v1's and batch/v1's PodSpec are one shared
 * validator), then the `$ref` it is compiled from when no validator of that content is cached. Conversion is a function
 * of these definitions, their names and CACHE_VERSION, so one content id is one compiled validator. Undefined (it stays a
 * `$ref`) for a definition that reaches itself, whose shared validator would call itself while it loads, and for one
 * that reaches a `$ref` outside the definitions, which the content id would not cover.
 */
export function sharedValue(components: Readonly<Record<string, SchemaNode>>, documentId: string, name: string, goEnums = true): string | undefined {
  const names = definitionsReached(components, name);
  if (!names) return undefined;
  const reached = names.map((n) => [n, components[n]]);
  const id = createHash("sha256").update(JSON.stringify({ goEnums, reached })).digest("hex");
  return `${id} ${documentId}#/$defs/${name}`;
}

type Json = Record<string, unknown>;

const REF_PREFIX = "#/components/schemas/";
// Formats the API server does not check on custom resources; int32/int64 ranges it does (seen against kube-apiserver 1.36 in packages/e2e).
const CRD_UNCHECKED_FORMATS = new Set(["float", "double"]);

/** `oneOf: [{type: integer}, {type: string}]` (IntOrString, Quantity) as a plain type list. */
function typeOnlyBranches(branches: unknown): string[] | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const types: string[] = [];
  for (const b of branches as SchemaNode[]) {
    const keys = Object.keys(b).filter((k) => k !== "description");
    if (keys.length !== 1 || typeof b.type !== "string") return undefined;
    types.push(b.type);
  }
  return types;
}

const embeddedProperties = (ctx: ConvertContext): Json => ({
  apiVersion: { type: "string" },
  kind: { type: "string" },
  metadata: ctx.objectMetaRef ? objectMeta(ctx.objectMetaRef, ctx) : { type: "object" },
});

/**
 * Converts one node. `open` marks nodes whose unknown fields must not be rejected: value-validation
 * branches (allOf/anyOf/oneOf/not, which in structural schemas carry no types of their own) and metadata.
 */
export function convertNode(node: SchemaNode, ctx: ConvertContext, open = false): Json {
  if (typeof node.$ref === "string") {
    if (!node.$ref.startsWith(REF_PREFIX)) return { $ref: node.$ref };
    const name = node.$ref.slice(REF_PREFIX.length);
    const shared = ctx.sharedDefs?.get(name);
    if (shared) return { [SHARED_KEYWORD]: shared };
    return { $ref: `#/$defs/${name}` };
  }
  const out: Json = {};
  const preserve = node["x-kubernetes-preserve-unknown-fields"] === true;
  const embedded = node["x-kubernetes-embedded-resource"] === true;
  let types: string[] | undefined;
  if (node["x-kubernetes-int-or-string"] === true) types = ["integer", "string"];
  else if (typeof node.type === "string") types = [node.type];
  let skipBranches: "anyOf" | "oneOf" | undefined;
  if (!types) {
    for (const key of ["oneOf", "anyOf"] as const) {
      const t = typeOnlyBranches(node[key]);
      if (t) {
        types = t;
        skipBranches = key;
      }
    }
  } else if (node["x-kubernetes-int-or-string"] === true) {
    // structural int-or-string schemas repeat the types as anyOf branches
    if (typeOnlyBranches(node.anyOf)) skipBranches = "anyOf";
  }
  if (types) {
    if (node.nullable === true && !types.includes("null")) types.push("null");
    out.type = types.length === 1 ? types[0] : types;
  }
  for (const k of ["enum", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "multipleOf", "pattern"] as const) {
    if (node[k] !== undefined) out[k] = node[k];
  }
  if (node.enum !== undefined && node.nullable === true && Array.isArray(node.enum) && !node.enum.includes(null)) out.enum = [...node.enum, null];
  // OpenAPI 3.0 boolean exclusive bounds are draft-07 numbers
  if (node.exclusiveMinimum === true && typeof node.minimum === "number") {
    delete out.minimum;
    out.exclusiveMinimum = node.minimum;
  }
  if (node.exclusiveMaximum === true && typeof node.maximum === "number") {
    delete out.maximum;
    out.exclusiveMaximum = node.maximum;
  }
  if (typeof node.format === "string" && !(ctx.flavour === "crd" && CRD_UNCHECKED_FORMATS.has(node.format))) out.format = node.format;
  if (node.items !== undefined && typeof node.items === "object" && node.items !== null) {
    out.items = convertNode(node.items as SchemaNode, ctx);
  }
  const props: Json = {};
  if (node.properties && typeof node.properties === "object") {
    for (const [name, child] of Object.entries(node.properties as Record<string, SchemaNode>)) {
      props[name] = convertNode(child, ctx, false);
    }
  }
  if (embedded) {
    for (const [k, v] of Object.entries(embeddedProperties(ctx))) {
      props[k] = props[k] && k === "metadata" ? { allOf: [v, convertNode(node.properties ? ((node.properties as Record<string, SchemaNode>).metadata ?? {}) : {}, ctx, true)] } : (props[k] ?? v);
    }
    out.required = [...new Set([...(Array.isArray(node.required) ? (node.required as string[]) : []), "apiVersion", "kind"])];
  } else if (Array.isArray(node.required)) out.required = node.required;
  if (Object.keys(props).length > 0) out.properties = props;
  if (node.additionalProperties !== undefined) {
    out.additionalProperties = typeof node.additionalProperties === "object" ? convertNode(node.additionalProperties as SchemaNode, ctx) : node.additionalProperties;
  } else if (!open && !preserve && ctx.flavour !== "jsonschema") {
    // strict field validation: a CRD object drops (we reject) fields it does not declare; built-in kinds declare properties
    const isObjectNode = types?.includes("object") ?? node.properties !== undefined;
    if (isObjectNode && (ctx.flavour === "crd" || node.properties !== undefined)) out.additionalProperties = false;
  }
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    if (key === skipBranches || !Array.isArray(node[key])) continue;
    out[key] = (node[key] as SchemaNode[]).map((b) => convertNode(b, ctx, true));
  }
  if (node.not && typeof node.not === "object") out.not = convertNode(node.not as SchemaNode, ctx, true);
  return out;
}

/** The JSON Schema of a CRD version: ObjectMeta checked under `metadata`, the rest as the structural schema says. */
export function convertCrdRoot(root: SchemaNode, ctx: ConvertContext): Json {
  const out = convertNode(root, ctx);
  const props = (out.properties ?? {}) as Json;
  const metaNode = (root.properties as Record<string, SchemaNode> | undefined)?.metadata;
  const own = metaNode ? convertNode(metaNode, ctx, true) : { type: "object" };
  props.metadata = ctx.objectMetaRef ? { allOf: [objectMeta(ctx.objectMetaRef, ctx), own] } : own;
  props.apiVersion ??= { type: "string" };
  props.kind ??= { type: "string" };
  out.properties = props;
  return out;
}

/**
 * "" in a built-in enum field is judged like an absent field where the Go field is a value, not a pointer:
 * kube-apiserver decodes into Go structs, and "" in a NON-POINTER enum string field is the zero value, the same
 * as unset, so it is defaulted or accepted (Service type/sessionAffinity, container imagePullPolicy, port
 * protocol); "" in a POINTER field (PersistentVolumeClaimSpec.volumeMode, ServiceSpec.internalTrafficPolicy,
 * ipFamilyPolicy) is a set value the server checks against the enum, and a field its parent lists as
 * `required` is rejected as missing. The OpenAPI does not say which fields are pointers: VALUE_ENUM_FIELDS does
 * (generated from the Go types; checked against kube-apiserver v1.36 in packages/e2e). Expressed in the schema
 * (`if ""` / `else enum`) so that other values still get the plain enum error; ajv's `if` error is dropped.
 */
function emptyMeansUnset(prop: Json): void {
  if (prop.enum === undefined) return;
  prop.if = { const: "" };
  prop.else = { enum: prop.enum };
  delete prop.enum;
}

/**
 * A whole /openapi/v3 document's components as one JSON Schema resource with `$defs` (compiled once, shared).
 * `goEnums: false` leaves out the enums of the Go types (to hand other tools the schemas as published).
 */
export function convertComponents(
  components: Readonly<Record<string, SchemaNode>>,
  documentId: string,
  options: { readonly goEnums?: boolean; readonly shared?: ReadonlySet<string> } = {},
): Json {
  const defs: Json = {};
  const sharedDefs = new Map<string, string>();
  for (const name of options.shared ?? []) {
    const value = name in components ? sharedValue(components, documentId, name, options.goEnums !== false) : undefined;
    if (value) sharedDefs.set(name, value);
  }
  const ctx: ConvertContext = { flavour: "builtin", sharedDefs };
  for (const [name, node] of Object.entries(components)) {
    const def = convertNode(node, ctx);
    if (Array.isArray(def.required)) def.required = enforcedRequired(name, def.required as string[]);
    const props = def.properties as Record<string, Json> | undefined;
    if (options.goEnums !== false) applyEnumValues(name, props);
    for (const field of VALUE_ENUM_FIELDS[name] ?? []) {
      const prop = props?.[field];
      if (prop && !(Array.isArray(node.required) && node.required.includes(field))) emptyMeansUnset(prop);
    }
    defs[name] = def;
  }
  return { $id: documentId, $defs: defs };
}

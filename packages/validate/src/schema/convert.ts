// Converting Kubernetes OpenAPI v3 / structural schemas into JSON Schema (draft-07) that ajv compiles.
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
  /**
   * Refer to ObjectMeta with SHARED_KEYWORD, which calls one validator shared by every schema of the run, instead of
   * a `$ref` whose code ajv's standalone output copies into each validator (see SchemaCompiler's shared validators).
   */
  readonly sharedObjectMeta?: boolean;
  /** Definitions of the document (`documentId`) referred to with SHARED_KEYWORD instead of `$ref`. */
  readonly sharedDefs?: ReadonlySet<string>;
  readonly documentId?: string;
}

/** A keyword whose value is a `$ref`: the referenced schema's validator is called, compiled once for all schemas. */
export const SHARED_KEYWORD = "x-eks-gitops-shared";

const objectMeta = (ref: string, ctx: ConvertContext): Json => (ctx.sharedObjectMeta ? { [SHARED_KEYWORD]: ref } : { $ref: ref });

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
    if (ctx.sharedDefs?.has(name)) return { [SHARED_KEYWORD]: `${ctx.documentId}#/$defs/${name}` };
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
  const ctx: ConvertContext = { flavour: "builtin", sharedDefs: options.shared, documentId };
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

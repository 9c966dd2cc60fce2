// Turning schema documents (CRDs, /openapi/v3 documents, JSON Schema files) into per-GVK TypeSchemas.
import type { ParsedResource } from "../types.ts";
import type { Gvk, SchemaNode, TypeSchema } from "./model.ts";

/** The `source` of the types of a CRD among the documents: its file and index (and place in a list). */
export const documentSource = (r: Pick<ParsedResource, "file" | "index" | "pointer">): string => `document ${r.file}#${r.index}${r.pointer ?? ""}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const isCrd = (obj: unknown): boolean =>
  isObject(obj) && obj.kind === "CustomResourceDefinition" && typeof obj.apiVersion === "string" && obj.apiVersion.startsWith("apiextensions.k8s.io/");

/**
 * The shape of a schema without its value constraints: only which fields exist. With the status subresource,
 * kube-apiserver still decodes `status` strictly (an unknown field there is rejected, as measured in
 * packages/e2e), then deletes it in PrepareForCreate before validating: types, formats, enums, required
 * fields and CEL rules of status are never checked on create.
 */
function structureOnly(node: SchemaNode): SchemaNode {
  const out: Record<string, unknown> = {};
  const preserve = node["x-kubernetes-preserve-unknown-fields"] === true;
  if (preserve) out["x-kubernetes-preserve-unknown-fields"] = true;
  if (isObject(node.properties)) out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, isObject(v) ? structureOnly(v as SchemaNode) : {}]));
  if (isObject(node.items)) out.items = structureOnly(node.items as SchemaNode);
  if (isObject(node.additionalProperties)) out.additionalProperties = structureOnly(node.additionalProperties as SchemaNode);
  else if (node.additionalProperties === true) out.additionalProperties = true;
  // an object that declares its fields (or none) has no others; without `type`, this is said explicitly
  if (!preserve && out.additionalProperties === undefined && (out.properties !== undefined || node.type === "object")) out.additionalProperties = false;
  return out as SchemaNode;
}

/** Every served version of a CRD (apiextensions.k8s.io/v1) with its structural schema; `contentId`: see TypeSchema.contentId (catalog files only). */
export function typesFromCrd(crd: unknown, source: string, contentId?: string): TypeSchema[] {
  if (!isCrd(crd)) return [];
  const spec = (crd as { spec?: Record<string, unknown> }).spec;
  if (!isObject(spec) || !isObject(spec.names) || typeof spec.group !== "string") return [];
  const kind = spec.names.kind;
  if (typeof kind !== "string") return [];
  const scope = spec.scope === "Cluster" ? "Cluster" : "Namespaced";
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const out: TypeSchema[] = [];
  for (const [i, v] of versions.entries()) {
    if (!isObject(v) || typeof v.name !== "string" || v.served === false) continue;
    const schemaMissing = !(isObject(v.schema) && isObject(v.schema.openAPIV3Schema));
    let schema = !schemaMissing && isObject(v.schema) && isObject(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : { type: "object", "x-kubernetes-preserve-unknown-fields": true };
    const statusSubresource = isObject(v.subresources) && isObject(v.subresources.status);
    if (statusSubresource && isObject(schema.properties) && isObject(schema.properties.status)) {
      schema = { ...schema, properties: { ...schema.properties, status: structureOnly(schema.properties.status as SchemaNode) } };
    }
    const where = { schemaPointer: `/spec/versions/${i}/schema/openAPIV3Schema`, ...(schemaMissing ? { schemaMissing } : {}) };
    const id = contentId ? { contentId: `${contentId}#${where.schemaPointer}` } : {};
    out.push({ gvk: { group: spec.group, version: v.name, kind }, flavour: "crd", root: schema, source, ...id, scope, ...(statusSubresource ? { statusSubresource } : {}), ...where });
  }
  return out;
}

/** Every component of a /openapi/v3 document that names its group/version/kind (the top-level kinds). */
export function typesFromOpenApi(doc: unknown, source: string, documentId: string): TypeSchema[] {
  if (!isObject(doc) || !isObject(doc.components) || !isObject(doc.components.schemas)) return [];
  const components = doc.components.schemas as Record<string, SchemaNode>;
  const out: TypeSchema[] = [];
  for (const [name, schema] of Object.entries(components)) {
    const gvks = schema["x-kubernetes-group-version-kind"];
    if (!Array.isArray(gvks)) continue;
    for (const g of gvks as Gvk[]) {
      if (typeof g?.kind !== "string" || typeof g.version !== "string") continue;
      out.push({
        gvk: { group: g.group ?? "", version: g.version, kind: g.kind },
        flavour: "builtin",
        root: { $ref: `#/components/schemas/${name}` },
        components,
        documentId,
        source,
      });
    }
  }
  return out;
}

/**
 * A plain JSON Schema given with --crd: its GVK comes from `x-kubernetes-group-version-kind` or, as in
 * kubeconform's schema folders, from a `<kind>-<group>-<version>.json` / `<kind>-<version>.json` file name.
 */
export function typesFromJsonSchema(schema: unknown, fileName: string, source: string): TypeSchema[] {
  if (!isObject(schema)) return [];
  const declared = schema["x-kubernetes-group-version-kind"];
  let gvks: Gvk[] = [];
  if (Array.isArray(declared)) gvks = (declared as Gvk[]).map((g) => ({ group: g.group ?? "", version: g.version, kind: g.kind }));
  else {
    const base = fileName.replace(/^.*[\\/]/, "").replace(/\.json$/i, "");
    const parts = base.split("-");
    const kindPart = parts[0];
    if (kindPart && parts.length >= 2) {
      const version = parts.at(-1) as string;
      const group = parts.slice(1, -1).join("-").replace(/_/g, ".");
      gvks = [{ group, version, kind: kindPart }];
    }
  }
  // kubeconform file names are lower-case kinds: matched case-insensitively by the registry
  return gvks.map((gvk) => ({ gvk, flavour: "jsonschema", root: schema, source }));
}

// What a schema source yields: one schema per group/version/kind, in OpenAPI v3 form, plus where it came from.

/** A raw OpenAPI v3 schema object (structural CRD schema or a /openapi/v3 component). */
export type SchemaNode = Readonly<Record<string, unknown>>;

export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/**
 * How a schema is to be read: `crd` is a structural schema (defaults, pruning, CEL apply), `builtin` a
 * /openapi/v3 component (references resolved through `components`), `jsonschema` a plain JSON Schema given with --crd.
 */
export type SchemaFlavour = "crd" | "builtin" | "jsonschema";

export interface TypeSchema {
  readonly gvk: Gvk;
  readonly flavour: SchemaFlavour;
  readonly root: SchemaNode;
  /** `components.schemas` of the OpenAPI document the root lives in (builtin only). */
  readonly components?: Readonly<Record<string, SchemaNode>>;
  /** A stable id of the OpenAPI document (builtin only): compiled references are shared per document. */
  readonly documentId?: string;
  /**
   * CRDs from a pinned, content-addressed file (the catalog): `catalog:<sha256>#<schemaPointer>`, the same
   * schema in every run. What is derived from the schema alone (compiled validators, schema checks) is kept on
   * disk by it, so a run does not convert and hash a multi-megabyte schema to find its cached validator.
   */
  readonly contentId?: string;
  /** Human-readable origin, e.g. `--crd crds/nodepool.yaml`, `catalog karpenter@1.14.1`. */
  readonly source: string;
  /** Namespaced or Cluster, when the source says (CRDs). */
  readonly scope?: "Namespaced" | "Cluster";
  /**
   * The CRD version enables the status subresource: the API server deletes `status` from an object it
   * creates before validating it (after strict decoding), so `root` keeps only the shape of `status`.
   */
  readonly statusSubresource?: boolean;
  /** CRDs: where `root` sits in its CRD document (JSON Pointer), for problems found in the schema itself. */
  readonly schemaPointer?: string;
  /** CRDs: the version has no openAPIV3Schema (the API server requires one), `root` is a stand-in. */
  readonly schemaMissing?: boolean;
}

export const gvkKey = (g: Gvk): string => `${g.group}/${g.version}/${g.kind}`;

/** gvkKey of `apiVersion` and `kind` as parseApiVersion splits it, without the objects (asked once per object read ahead). */
export const gvkKeyOf = (apiVersion: string, kind: string): string => `${apiVersion.includes("/") ? "" : "/"}${apiVersion}/${kind}`;

/** Splits `apiVersion` into group and version (`v1` is the core group ""). */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? { group: "", version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

const REF_PREFIX = "#/components/schemas/";

/**
 * Resolves `$ref` and the `allOf: [{$ref}]` wrapper Kubernetes uses to attach `default`/`description` to a
 * reference; returns the node itself otherwise. Results are memoised per node.
 */
export function makeDeref(components: Readonly<Record<string, SchemaNode>> | undefined): (node: SchemaNode) => SchemaNode {
  const memo = new WeakMap<SchemaNode, SchemaNode>();
  const target = (ref: unknown): SchemaNode | undefined =>
    typeof ref === "string" && ref.startsWith(REF_PREFIX) ? components?.[ref.slice(REF_PREFIX.length)] : undefined;
  const deref = (node: SchemaNode): SchemaNode => {
    const hit = memo.get(node);
    if (hit) return hit;
    let out = node;
    const direct = target(node.$ref);
    if (direct) out = deref(direct);
    else if (Array.isArray(node.allOf) && node.allOf.length === 1 && node.type === undefined && node.properties === undefined) {
      const inner = target((node.allOf[0] as SchemaNode).$ref);
      if (inner) {
        const { allOf: _allOf, ...own } = node;
        out = { ...deref(inner), ...own };
      }
    }
    memo.set(node, out);
    return out;
  };
  return deref;
}

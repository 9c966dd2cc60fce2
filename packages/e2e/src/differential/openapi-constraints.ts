// Answers "does the published OpenAPI v3 schema express the constraint the API server enforced at this field?",
// so a disagreement can be told apart: a schema constraint the validator missed (ours) vs Go-only validation.
import { get as httpsGet } from "node:https";
import { loadCatalog, selectReleases } from "@eks-gitops/validate";
import { KubeConfig } from "@kubernetes/client-node";

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  "x-kubernetes-group-version-kind"?: { group: string; version: string; kind: string }[];
}

/** What the schema says about one field: its own keywords and whether its parent lists it as required. */
export interface FieldConstraints {
  readonly keywords: readonly string[];
  readonly requiredByParent: boolean;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: string;
}

export type ConstraintLookup = (apiVersion: string, kind: string, fieldPath: string) => FieldConstraints | undefined;

const CONSTRAINT_KEYWORDS = ["enum", "minimum", "maximum", "pattern", "minLength", "maxLength", "minItems", "maxItems"] as const;

type OpenApiDocument = { components?: { schemas?: Record<string, Schema> } };

/** The pinned Kubernetes OpenAPI v3 documents (the validator's catalog, same bytes). */
export async function pinnedOpenApi(): Promise<OpenApiDocument[]> {
  const files = await loadCatalog(selectReleases().filter((r) => r.project === "kubernetes"));
  return files.map((f) => JSON.parse(f.text) as OpenApiDocument);
}

/** What the server itself publishes at /openapi/v3 for the given group-versions (`api/v1`, `apis/apps/v1`). */
export async function liveOpenApi(kubeconfigPath: string, groupVersions: readonly string[]): Promise<OpenApiDocument[]> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const cluster = kc.getCurrentCluster();
  const token = kc.getCurrentUser()?.token;
  if (!cluster || !token) throw new Error(`${kubeconfigPath}: no current cluster or token`);
  const ca = Buffer.from(cluster.caData ?? "", "base64").toString("utf8");
  const get = (path: string) =>
    new Promise<string>((resolve, reject) => {
      httpsGet(`${cluster.server}${path}`, { ca, headers: { Authorization: `Bearer ${token}` } }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c: string) => {
          body += c;
        });
        res.on("end", () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`GET ${path}: HTTP ${res.statusCode}`))));
      }).on("error", reject);
    });
  const index = JSON.parse(await get("/openapi/v3")) as { paths: Record<string, { serverRelativeURL: string }> };
  return Promise.all(
    groupVersions.map(async (gv) => {
      const entry = index.paths[gv];
      if (!entry) throw new Error(`/openapi/v3 has no ${gv}`);
      return JSON.parse(await get(entry.serverRelativeURL)) as OpenApiDocument;
    }),
  );
}

/** A constraint lookup over OpenAPI v3 documents (pinned or live). */
export function constraintLookup(docs: readonly OpenApiDocument[]): ConstraintLookup {
  const schemas: Record<string, Schema> = Object.assign({}, ...docs.map((d) => d.components?.schemas ?? {}));
  const roots = new Map<string, Schema>();
  for (const schema of Object.values(schemas)) {
    for (const gvk of schema["x-kubernetes-group-version-kind"] ?? []) {
      roots.set(`${gvk.group ? `${gvk.group}/` : ""}${gvk.version}/${gvk.kind}`, schema);
    }
  }
  const resolve = (s: Schema | undefined): Schema | undefined => {
    let cur = s;
    for (let i = 0; cur && i < 20; i++) {
      const ref = cur.$ref ?? (cur.allOf?.length === 1 ? cur.allOf[0]?.$ref : undefined);
      if (!ref) return cur;
      const target = schemas[ref.replace("#/components/schemas/", "")];
      // Keep the referring node's own keywords (k8s puts default/description beside allOf).
      cur = target && cur.$ref === undefined ? { ...target, ...withoutAllOf(cur) } : target;
    }
    return cur;
  };
  return (apiVersion, kind, fieldPath) => {
    let node = resolve(roots.get(`${apiVersion}/${kind}`));
    let parent: Schema | undefined;
    let last = "";
    for (const token of fieldTokens(fieldPath)) {
      if (!node) return undefined;
      parent = node;
      if (token.index !== undefined) {
        const isMap = node.additionalProperties !== undefined && typeof node.additionalProperties === "object";
        node = resolve(isMap ? (node.additionalProperties as Schema) : node.items);
        last = "";
      } else {
        // Go struct paths in decode errors (`spec.ports.targetPort`) name fields of list items without an index.
        const holder = node.properties === undefined && node.items ? resolve(node.items) : node;
        parent = holder;
        node = resolve(holder?.properties?.[token.name]);
        last = token.name;
      }
    }
    if (!node) return undefined;
    return {
      keywords: CONSTRAINT_KEYWORDS.filter((k) => node?.[k] !== undefined),
      requiredByParent: last !== "" && (parent?.required ?? []).includes(last),
      enum: node.enum,
      minimum: node.minimum,
      maximum: node.maximum,
      format: node.format,
    };
  };
}

function withoutAllOf(s: Schema): Schema {
  const { allOf: _allOf, ...rest } = s;
  return rest;
}

/** `spec.template.spec.containers[0].resources.limits[cpu]` → name and index tokens (bracket contents may hold dots). */
export function fieldTokens(path: string): { name: string; index?: string }[] {
  return [...path.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)].map((m) =>
    m[2] !== undefined ? { name: "", index: m[2] } : { name: m[1] ?? "" },
  );
}

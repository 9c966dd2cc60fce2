// Test support: the pinned catalog as the product gets it, and a catalog registry shared by the tests of one run.
import { defaultCacheDir } from "./catalog/fetch.ts";
import { type SchemaLayer, SchemaRegistry, catalogLayer } from "./schema/registry.ts";
import { typesFromCrd } from "./schema/sources.ts";
import { parseText } from "./reader.ts";

/**
 * $EKS_GITOPS_MIRROR when one is configured (an air-gapped machine: `.ci/run` points it at the shared
 * mirror), else undefined: the files are downloaded from upstream, as the product does.
 */
export const MIRROR: string | undefined = process.env.EKS_GITOPS_MIRROR || undefined;
/**
 * The product's own cache (~/.cache/eks-gitops/schemas, which the pull-request workflow keeps between runs):
 * content-addressed and re-checked against the pin on every read, so tests can share it.
 */
export const TEST_CACHE = defaultCacheDir();

let catalog: Promise<SchemaLayer> | undefined;
/** The pinned catalog (newest versions) through the product's fetch (cache, then mirror or upstream), once per process. */
export function catalogForTests(): Promise<SchemaLayer> {
  catalog ??= catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE });
  return catalog;
}

export async function catalogRegistry(): Promise<SchemaRegistry> {
  return new SchemaRegistry().with([await catalogForTests()]);
}

/** A registry from CRD YAML text written in a test. */
/** A cluster-scoped example.com/v1 CRD (JSON text) whose `spec` has the given schema. */
export function exampleCrd(kind: string, spec: Record<string, unknown>): string {
  const plural = `${kind.toLowerCase()}s`;
  const openAPIV3Schema = { type: "object", properties: { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" }, spec } };
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.example.com` },
    spec: { group: "example.com", scope: "Cluster", names: { kind, plural }, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema } }] },
  });
}

export function registryFromCrdYaml(yaml: string): SchemaRegistry {
  const { resources } = parseText({ file: "crd.yaml", text: yaml });
  return new SchemaRegistry().addLayer("test CRDs", resources.flatMap((r) => typesFromCrd(r.object, "test")));
}

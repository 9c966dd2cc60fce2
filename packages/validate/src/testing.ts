// Test support: the schema mirror (never the internet) and a catalog registry shared by the tests of one run.
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type SchemaLayer, SchemaRegistry, catalogLayer } from "./schema/registry.ts";
import { typesFromCrd } from "./schema/sources.ts";
import { parseText } from "./reader.ts";

const REPO = resolve(import.meta.dirname, "../../..");
/** $EKS_GITOPS_MIRROR, else the shared mirror beside the clone (as in CI) or beside its worktree folder. */
export const MIRROR =
  process.env.EKS_GITOPS_MIRROR ?? [resolve(REPO, "../shared/mirror"), resolve(REPO, "../../shared/mirror")].find((p) => existsSync(p)) ?? resolve(REPO, "../shared/mirror");
/** A cache that outlives one test run (content-addressed, so sharing it is safe). */
export const TEST_CACHE = join(tmpdir(), "eks-gitops-validate-test-cache");

let catalog: Promise<SchemaLayer> | undefined;
/** The pinned catalog (newest versions) read from the mirror, loaded once per process. */
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

// Test support: the schema mirror (never the internet) and a catalog registry shared by the tests of one run.
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type SchemaLayer, SchemaRegistry, catalogLayer } from "./schema/registry.ts";
import { typesFromCrd } from "./schema/sources.ts";
import { parseText } from "./reader.ts";

/** $EKS_GITOPS_MIRROR, else the shared mirror beside the repository (as in CI). */
export const MIRROR = process.env.EKS_GITOPS_MIRROR ?? resolve(import.meta.dirname, "../../../../../shared/mirror");
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
export function registryFromCrdYaml(yaml: string): SchemaRegistry {
  const { resources } = parseText({ file: "crd.yaml", text: yaml });
  return new SchemaRegistry().addLayer("test CRDs", resources.flatMap((r) => typesFromCrd(r.object, "test")));
}

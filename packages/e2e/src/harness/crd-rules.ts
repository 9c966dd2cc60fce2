// Reads a CRD's CEL rules at test time, so tests compare the server's messages with the CRD's own (no upstream text in the repository).
import type { V1CustomResourceDefinition } from "@kubernetes/client-node";

export interface CelRule {
  readonly rule: string;
  readonly message?: string;
}

interface Schema {
  properties?: Record<string, Schema>;
  "x-kubernetes-validations"?: CelRule[];
}

/**
 * The `x-kubernetes-validations` of the schema node at `fieldPath` (dot-separated, e.g.
 * `spec.template.spec.nodeClassRef`) of the CRD's first served version. The CRD is as parsed from YAML
 * (kebab-case keys), not a client-node model.
 */
export function celRulesAt(crd: V1CustomResourceDefinition, fieldPath: string): CelRule[] {
  const name = crd.metadata?.name;
  const version = crd.spec.versions.find((v) => v.served);
  let node = version?.schema?.openAPIV3Schema as Schema | undefined;
  if (!node) throw new Error(`CRD ${name}: no served version with a schema`);
  for (const key of fieldPath.split(".").filter(Boolean)) {
    node = node.properties?.[key];
    if (!node) throw new Error(`CRD ${name}: no schema at ${fieldPath} (stopped at ${key})`);
  }
  return node["x-kubernetes-validations"] ?? [];
}

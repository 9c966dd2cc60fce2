// Reads a CRD's CEL rules at test time, so tests compare the server's messages with the CRD's own (no upstream text in the repository).
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export interface CelRule {
  readonly rule: string;
  readonly message?: string;
}

/**
 * The `x-kubernetes-validations` of the schema node at `fieldPath` (dot-separated, e.g.
 * `spec.template.spec.nodeClassRef`) of the CRD's first served version.
 */
export function celRulesAt(crdFile: string, fieldPath: string): CelRule[] {
  const crd = parse(readFileSync(crdFile, "utf8")) as {
    spec: { versions: { served: boolean; schema: { openAPIV3Schema: Schema } }[] };
  };
  const version = crd.spec.versions.find((v) => v.served);
  if (!version) throw new Error(`${crdFile}: no served version`);
  let node: Schema | undefined = version.schema.openAPIV3Schema;
  for (const key of fieldPath.split(".").filter(Boolean)) {
    node = node?.properties?.[key];
    if (!node) throw new Error(`${crdFile}: no schema at ${fieldPath} (stopped at ${key})`);
  }
  return node?.["x-kubernetes-validations"] ?? [];
}

interface Schema {
  properties?: Record<string, Schema>;
  "x-kubernetes-validations"?: CelRule[];
}

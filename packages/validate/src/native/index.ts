// The native stage: the API server's hand-written Go validation of built-in kinds (and ObjectMeta of custom
// resources), run after schema validation and defaults. Entry point: nativeFindings().
// Go sources followed: k8s.io/kubernetes@v1.36.5/pkg/apis/*/validation, k8s.io/apimachinery@v0.36.5/pkg/api/validation.
import type { TypeSchema } from "../schema/model.ts";
import type { Finding } from "../types.ts";
import { NATIVE_GROUPS } from "./groups.ts";
import { nameRuleFor, validateObjectMeta } from "./objectmeta.ts";
import { NativeRegistry } from "./registry.ts";
import { Reporter } from "./report.ts";
import type { Obj } from "./values.ts";

export { FieldPath } from "./path.ts";
export { Reporter } from "./report.ts";
export { NativeRegistry, type NativeCheck, type NativeContext, type NativeGroup } from "./registry.ts";

const registry = new NativeRegistry(NATIVE_GROUPS);

/**
 * Findings of the native stage for one object of `type` (the object as the schema stage left it: nulls dropped,
 * defaults applied). Custom resources get ObjectMeta only (apiextensions validates nothing else in Go);
 * built-in kinds get ObjectMeta with their kind's name rule and their group's checks.
 */
export function nativeFindings(object: Obj, type: TypeSchema): Finding[] {
  if (type.flavour === "jsonschema") return [];
  const report = new Reporter();
  const { group, version, kind } = type.gvk;
  if (type.flavour === "crd") {
    validateObjectMeta(object, report, { kubeFinalizers: false });
    return report.findings;
  }
  validateObjectMeta(object, report, { nameRule: nameRuleFor(group, kind) });
  registry.lookup(group, kind)?.(object, { group, version, kind, report });
  return report.findings;
}

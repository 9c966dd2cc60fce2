// The native stage: the API server's hand-written Go validation of built-in kinds (and ObjectMeta of custom
// resources), run after schema validation and defaults. Entry point: nativeFindings().
// Go sources followed: k8s.io/kubernetes@v1.36.5/pkg/apis/*/validation, k8s.io/apimachinery@v0.36.5/pkg/api/validation.
import type { TypeSchema } from "../schema/model.ts";
import type { Finding } from "../types.ts";
import { decodeFindings } from "./decode.ts";
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
 * Schema findings that mean the API server could not even decode a built-in object (a JSON type that does not
 * fit the Go type, an unknown field under strict decoding, an int32 out of range): it answers 400 and validates nothing.
 */
const DECODE_RULES = new Set(["schema:type", "schema:additionalProperties", "schema:format", "schema:oneOf", "schema:anyOf"]);

/** Whether the schema stage found that the API server could not decode the object (then only decode findings follow). */
export function undecodable(schemaFindings: readonly Finding[]): boolean {
  return schemaFindings.some((f) => DECODE_RULES.has(f.rule));
}

/**
 * Findings of the native stage for one object of `type` (the object as the schema stage left it: nulls dropped,
 * defaults applied), given the schema stage's findings. Custom resources get ObjectMeta only (apiextensions
 * validates nothing else in Go); built-in kinds get ObjectMeta with their kind's name rule and their group's checks.
 */
export function nativeFindings(object: Obj, type: TypeSchema, schemaFindings: readonly Finding[] = []): Finding[] {
  if (type.flavour === "jsonschema") return [];
  // undecodable: the server's 400 names the first decode error; ours adds the quantity/int-or-string/base64 ones
  if (type.flavour === "builtin" && undecodable(schemaFindings)) return decodeFindings(object, type);
  if (type.flavour === "crd") {
    const report = new Reporter();
    validateObjectMeta(object, report, { kubeFinalizers: false });
    return report.findings;
  }
  return builtinFindings(object, type).findings;
}

/**
 * nativeFindings of a built-in object whose schema stage found no decode error, and whether they are decode
 * findings (the object does not decode, so nothing else was checked). The read-ahead worker makes these before the
 * schema stage has run: the answer for a schema stage that did find a decode error follows from them (the decode
 * findings, or none), see usableAhead in native-ahead.ts.
 */
export function builtinFindings(object: Obj, type: TypeSchema): { findings: Finding[]; undecodable: boolean } {
  // the server decodes before it validates: an undecodable value is its only answer (HTTP 400)
  const decode = decodeFindings(object, type);
  if (decode.length > 0) return { findings: decode, undecodable: true };
  const report = new Reporter();
  const { group, version, kind } = type.gvk;
  validateObjectMeta(object, report, { nameRule: nameRuleFor(group, kind) });
  registry.lookup(group, kind)?.(object, report, { group, version, kind, report });
  return { findings: report.findings, undecodable: false };
}

/**
 * The schema findings to keep beside the native ones. A schema:enum finding (from the generated table of Go enums)
 * or schema:required finding is dropped where the native stage speaks about the same field, since the native
 * finding is the server's own wording: a finding at the same pointer (`not a valid selector operator`, Go's value
 * order, `verbs must contain at least one value`), or, for an enum, one at its parent that refuses the parent object
 * as a whole (a DaemonSet's or StatefulSet's updateStrategy).
 */
export function withoutSuperseded(schemaFindings: readonly Finding[], native: readonly Finding[]): Finding[] {
  if (native.length === 0) return [...schemaFindings];
  const same = new Set(native.map((f) => f.path));
  const parents = new Set(native.filter((f) => /: (Unsupported|Invalid) value: \{/.test(f.message)).map((f) => f.path));
  const parentOf = (p: string) => p.slice(0, p.lastIndexOf("/"));
  return schemaFindings.filter((f) => {
    if (f.rule === "schema:required") return !same.has(f.path);
    return f.rule !== "schema:enum" || !(same.has(f.path) || parents.has(parentOf(f.path)));
  });
}

// Enumerates the x-kubernetes-validations rules of a CRD, with where in the schema each one sits (for the fixture coverage test).
import { parse } from "yaml";

export interface CrdRule {
  readonly kind: string;
  readonly version: string;
  /** Schema location as path segments: property names, `[]` for array items, `{}` for map values. */
  readonly schemaPath: readonly string[];
  readonly rule: string;
  readonly message: string;
  /** Uses oldSelf: evaluated on update only. */
  readonly transition: boolean;
}

type Schema = {
  readonly properties?: Record<string, Schema>;
  readonly items?: Schema;
  readonly additionalProperties?: Schema | boolean;
  readonly "x-kubernetes-validations"?: readonly { readonly rule: string; readonly message?: string; readonly messageExpression?: string }[];
};

export function crdRules(crdYaml: string): CrdRule[] {
  const crd = parse(crdYaml) as { spec: { names: { kind: string }; versions: { name: string; served: boolean; schema: { openAPIV3Schema: Schema } }[] } };
  const out: CrdRule[] = [];
  for (const v of crd.spec.versions) {
    if (!v.served) continue;
    const walk = (s: Schema | undefined, path: string[]) => {
      if (!s || typeof s !== "object") return;
      for (const r of s["x-kubernetes-validations"] ?? []) {
        out.push({
          kind: crd.spec.names.kind,
          version: v.name,
          schemaPath: path,
          rule: r.rule,
          message: r.message ?? r.messageExpression ?? `failed rule: ${r.rule}`,
          transition: /\boldSelf\b/.test(r.rule),
        });
      }
      for (const [k, child] of Object.entries(s.properties ?? {})) walk(child, [...path, k]);
      if (s.items) walk(s.items, [...path, "[]"]);
      if (s.additionalProperties && typeof s.additionalProperties === "object") walk(s.additionalProperties, [...path, "{}"]);
    };
    walk(v.schema.openAPIV3Schema, []);
  }
  return out;
}

/** JSON Pointer -> segments (`/a/b~1c` -> ["a", "b/c"]). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Does a concrete JSON Pointer (`/spec/terms/0/tags`) denote the schema location (`spec`, `terms`, `[]`, `tags`)? */
export function pointerAtSchemaPath(pointer: string, schemaPath: readonly string[]): boolean {
  const segs = pointerSegments(pointer);
  return segs.length === schemaPath.length && segs.every((s, i) => schemaPath[i] === "{}" || (schemaPath[i] === "[]" ? /^\d+$/.test(s) : schemaPath[i] === s));
}

/** Does `value` have something at the schema location (any array item / map value for `[]` / `{}`)? */
export function hasValueAt(value: unknown, schemaPath: readonly string[]): boolean {
  if (value === undefined || value === null) return false;
  if (schemaPath.length === 0) return true;
  const [head, ...rest] = schemaPath as [string, ...string[]];
  if (head === "[]") return Array.isArray(value) && value.some((v) => hasValueAt(v, rest));
  if (typeof value !== "object" || Array.isArray(value)) return false;
  const obj = value as Record<string, unknown>;
  if (head === "{}") return Object.values(obj).some((v) => hasValueAt(v, rest));
  return hasValueAt(obj[head], rest);
}

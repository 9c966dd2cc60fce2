// A schema that cannot be used (its CRD would be refused by the API server, or compiling it fails): its objects
// get one error naming the schema and the problem instead of aborting the run; the CRD document gets the problems.
import type { Finding } from "../types.ts";
import { checkCrdSchemas, SCHEMA_CHECK_VERSION, schemaFieldPath, schemaProblems } from "./check.ts";
import type { SchemaNode, TypeSchema } from "./model.ts";
import { isCrd } from "./sources.ts";

const problems = new WeakMap<TypeSchema, Finding | null>();

const gvkText = (t: TypeSchema) => `${t.gvk.group ? `${t.gvk.group}/` : ""}${t.gvk.version} ${t.gvk.kind}`;

/** The error for an object whose schema has `reason`. */
export function unusableFinding(type: TypeSchema, reason: string): Finding {
  return {
    severity: "error",
    path: "",
    message: `schema unusable: the schema of ${gvkText(type)} (${type.source}) is invalid: ${reason}`,
    rule: "schema:unusable",
    hint: "fix the CRD (the API server would refuse it) or supply a working schema with --crd",
  };
}

/** Keeps what is derived from a pinned schema between runs (SchemaCompiler.derived). */
export interface DerivedCache {
  derived<T>(name: string, type: TypeSchema, compute: () => T): T;
}

/**
 * The first problem of a CRD type's schema as an object finding, or undefined (checked once per type, and with
 * `cache` once per pinned schema: checking the largest catalog CRDs compiles hundreds of RE2 patterns).
 */
export function schemaUnusable(type: TypeSchema, cache?: DerivedCache): Finding | undefined {
  if (type.flavour !== "crd") return undefined;
  let found = problems.get(type);
  if (found === undefined) {
    const base = type.schemaPointer ?? "/openAPIV3Schema";
    const firstProblem = () => (type.schemaMissing ? { pointer: base, message: "Required value: schemas are required" } : (schemaProblems(type.root, base, 1)[0] ?? null));
    const first = cache ? cache.derived(`schema-check/${SCHEMA_CHECK_VERSION}`, type, firstProblem) : firstProblem();
    found = first ? unusableFinding(type, `${schemaFieldPath(first.pointer)}: ${first.message}`) : null;
    problems.set(type, found);
  }
  return found ?? undefined;
}

/** Findings for a CRD document whose schemas have problems, CEL rules over the API server's cost limits included (empty for anything else). */
export function crdDocumentFindings(object: Readonly<Record<string, unknown>>, cel?: { checkCosts(root: SchemaNode, base: string): readonly { pointer: string; message: string }[] }): Finding[] {
  if (!isCrd(object)) return [];
  const problems = checkCrdSchemas(object);
  const findings: Finding[] = problems.map((p) => ({ severity: "error", path: p.pointer, message: p.message, rule: "crd:schema" }));
  if (problems.length > 0 || !cel) return findings;
  const versions = (object.spec as { versions?: unknown } | undefined)?.versions;
  (Array.isArray(versions) ? versions : []).forEach((v, i) => {
    const root = (v as { schema?: { openAPIV3Schema?: SchemaNode } } | null)?.schema?.openAPIV3Schema;
    if (!root) return;
    for (const p of cel.checkCosts(root, `/spec/versions/${i}/schema/openAPIV3Schema`)) findings.push({ severity: "error", path: p.pointer, message: p.message, rule: "crd:cel-cost" });
  });
  return findings;
}

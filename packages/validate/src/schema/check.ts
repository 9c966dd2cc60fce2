// The checks the API server makes on a CRD's schema before it accepts the CRD (apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go, ValidateCustomResourceDefinitionOpenAPISchema), as far as a
// broken schema would otherwise make validation of its objects throw: keyword values of the wrong type, RE2
// patterns that do not compile, unknown types, `$ref` (not allowed in CRDs), malformed rules. A schema with a
// problem is unusable: its objects get one error saying so, and the CRD document gets the problems.
import { RE2JS } from "re2js";
import { pointerSegment } from "../pointer.ts";
import type { SchemaNode } from "./model.ts";

export interface SchemaProblem {
  /** JSON Pointer from the CRD document's root, e.g. `/spec/versions/0/schema/openAPIV3Schema/properties/a/pattern`. */
  readonly pointer: string;
  /** The API server's wording: `Invalid value: "(["`: error parsing regexp...`. */
  readonly message: string;
}

/** Bump when checkSchema's answers change: verdicts on pinned schemas are kept on disk by it (schemaUnusable). */
export const SCHEMA_CHECK_VERSION = 1;

const TYPES = new Set(["object", "array", "string", "integer", "number", "boolean"]);
const COUNTS = ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"] as const;
const NUMBERS = ["minimum", "maximum", "multipleOf"] as const;
const BRANCHES = ["allOf", "anyOf", "oneOf"] as const;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "object" ? "object" : String(v));

/** Problems of one schema (an openAPIV3Schema), pointers prefixed with `base`. Stops after `limit` problems. */
export function checkSchema(root: unknown, base: string, limit = 20): SchemaProblem[] {
  return byPointer(walkSchema(root, base, limit).found);
}

const byPointer = (problems: SchemaProblem[]): SchemaProblem[] => problems.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));

/**
 * checkSchema's walk: the problems in the order found, and how many had been found after each node that added some
 * (`counts`, rising). The walk stops before the next node once `limit` problems are found, so a walk with a smaller
 * limit finds the problems of the first nodes up to the first count at or past that limit, and nothing else.
 */
function walkSchema(root: unknown, base: string, limit: number): { found: SchemaProblem[]; counts: number[] } {
  const out: SchemaProblem[] = [];
  const counts: number[] = [];
  // iterative: a hostile schema may be nested deeper than the stack
  const stack: [unknown, string][] = [[root, base]];
  const seen = new Set<object>();
  while (stack.length > 0 && out.length < limit) {
    if (out.length > (counts.at(-1) ?? 0)) counts.push(out.length);
    const [node, at] = stack.pop() as [unknown, string];
    const bad = (key: string, message: string) => out.push({ pointer: `${at}/${pointerSegment(key)}`, message });
    if (!isObject(node)) {
      out.push({ pointer: at, message: `Invalid value: ${show(node)}: must be a schema object` });
      continue;
    }
    if (seen.has(node)) {
      out.push({ pointer: at, message: "Invalid value: the schema refers to itself (a YAML alias cycle)" });
      continue;
    }
    seen.add(node);
    if (node.$ref !== undefined) bad("$ref", "Forbidden: $ref is not supported");
    if (node.type !== undefined && !(typeof node.type === "string" && TYPES.has(node.type))) {
      bad("type", `Unsupported value: ${show(node.type)}: supported values: "array", "boolean", "integer", "number", "object", "string"`);
    }
    for (const k of COUNTS) if (node[k] !== undefined && !(Number.isInteger(node[k]) && (node[k] as number) >= 0)) bad(k, `Invalid value: ${show(node[k])}: must be a non-negative integer`);
    for (const k of NUMBERS) if (node[k] !== undefined && typeof node[k] !== "number") bad(k, `Invalid value: ${show(node[k])}: must be a number`);
    if (node.pattern !== undefined) {
      if (typeof node.pattern !== "string") bad("pattern", `Invalid value: ${show(node.pattern)}: must be a string`);
      else {
        try {
          RE2JS.compile(node.pattern);
        } catch (err) {
          bad("pattern", `Invalid value: ${show(node.pattern)}: must be a valid regular expression, but isn't: ${(err as Error).message}`);
        }
      }
    }
    if (node.enum !== undefined && !Array.isArray(node.enum)) bad("enum", `Invalid value: ${show(node.enum)}: must be a list`);
    if (node.required !== undefined && !(Array.isArray(node.required) && node.required.every((r) => typeof r === "string"))) bad("required", `Invalid value: ${show(node.required)}: must be a list of strings`);
    if (node.format !== undefined && typeof node.format !== "string") bad("format", `Invalid value: ${show(node.format)}: must be a string`);
    if (node.nullable !== undefined && typeof node.nullable !== "boolean") bad("nullable", `Invalid value: ${show(node.nullable)}: must be a boolean`);
    for (const k of ["x-kubernetes-list-map-keys"] as const) {
      if (node[k] !== undefined && !(Array.isArray(node[k]) && (node[k] as unknown[]).every((x) => typeof x === "string"))) bad(k, `Invalid value: ${show(node[k])}: must be a list of strings`);
    }
    const rules = node["x-kubernetes-validations"];
    if (rules !== undefined) {
      if (!Array.isArray(rules)) bad("x-kubernetes-validations", `Invalid value: ${show(rules)}: must be a list of rules`);
      else {
        rules.forEach((r, i) => {
          const p = `${at}/x-kubernetes-validations/${i}`;
          if (!isObject(r)) out.push({ pointer: p, message: `Invalid value: ${show(r)}: must be a rule object` });
          else if (typeof r.rule !== "string" || r.rule.trim() === "") out.push({ pointer: `${p}/rule`, message: "Required value: rule is not specified" });
          else {
            for (const k of ["message", "messageExpression", "fieldPath", "reason"] as const) {
              if (r[k] !== undefined && typeof r[k] !== "string") out.push({ pointer: `${p}/${k}`, message: `Invalid value: ${show(r[k])}: must be a string` });
            }
          }
        });
      }
    }
    if (node.properties !== undefined) {
      if (!isObject(node.properties)) bad("properties", `Invalid value: ${show(node.properties)}: must be a map of schemas`);
      else for (const [k, v] of Object.entries(node.properties)) stack.push([v, `${at}/properties/${pointerSegment(k)}`]);
    }
    if (node.items !== undefined) {
      if (!isObject(node.items)) bad("items", `Invalid value: ${show(node.items)}: items must be a schema object (a list of schemas is not supported)`);
      else stack.push([node.items, `${at}/items`]);
    }
    if (node.additionalProperties !== undefined && typeof node.additionalProperties !== "boolean") {
      if (!isObject(node.additionalProperties)) bad("additionalProperties", `Invalid value: ${show(node.additionalProperties)}: must be a boolean or a schema`);
      else stack.push([node.additionalProperties, `${at}/additionalProperties`]);
    }
    for (const k of BRANCHES) {
      if (node[k] === undefined) continue;
      if (!Array.isArray(node[k])) bad(k, `Invalid value: ${show(node[k])}: must be a list of schemas`);
      else for (const [i, b] of (node[k] as unknown[]).entries()) stack.push([b, `${at}/${k}/${i}`]);
    }
    if (node.not !== undefined) stack.push([node.not, `${at}/not`]);
  }
  if (out.length > (counts.at(-1) ?? 0)) counts.push(out.length);
  return { found: out, counts };
}

/** Problems of every served version's schema of a CRD document (pointers from the document's root). */
/** checkSchema's walks (default limit) by schema object and base, see schemaProblems. */
const SCHEMA_LIMIT = 20;
const checked = new WeakMap<object, { readonly base: string; readonly walk: ReturnType<typeof walkSchema> }>();

/**
 * checkSchema(root, base), worked out once per schema object and base: a CRD among the documents is checked as a
 * document (checkCrdSchemas: every problem) and its types again before their first object is validated
 * (schemaUnusable: the first problem of a walk with limit 1). When the types were made from the very objects the
 * stream validates (the scan's parse of a CRD file is the stream's, see scan.ts), the second check is a look-up.
 * Nothing changes parsed documents, so an object's problems stay what they were. Answers checkSchema(root, base, limit).
 */
export function schemaProblems(root: unknown, base: string, limit = SCHEMA_LIMIT): SchemaProblem[] {
  if (!isObject(root) || limit > SCHEMA_LIMIT) return checkSchema(root, base, limit);
  let known = checked.get(root);
  if (known?.base !== base) {
    known = { base, walk: walkSchema(root, base, SCHEMA_LIMIT) };
    checked.set(root, known);
  }
  // what a walk with `limit` finds: the problems up to the first count at or past it (see walkSchema)
  const { found, counts } = known.walk;
  return byPointer(found.slice(0, counts.find((c) => c >= limit) ?? found.length));
}

export function checkCrdSchemas(crd: Readonly<Record<string, unknown>>): SchemaProblem[] {
  const spec = crd.spec;
  if (!isObject(spec) || !Array.isArray(spec.versions)) return [];
  const out: SchemaProblem[] = [];
  spec.versions.forEach((v, i) => {
    if (!isObject(v)) return;
    const base = `/spec/versions/${i}/schema`;
    if (!isObject(v.schema) || !isObject(v.schema.openAPIV3Schema)) {
      out.push({ pointer: `${base}/openAPIV3Schema`, message: "Required value: schemas are required" });
      return;
    }
    out.push(...schemaProblems(v.schema.openAPIV3Schema as SchemaNode, `${base}/openAPIV3Schema`));
  });
  return out;
}

/** `/spec/versions/0/schema/openAPIV3Schema/properties/a` → `spec.versions[0].schema.openAPIV3Schema.properties[a]`, as the API server names it. */
export function schemaFieldPath(pointer: string): string {
  let out = "";
  let prev = "";
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(seg) || prev === "properties" ? `[${seg}]` : out === "" ? seg : `.${seg}`;
    prev = prev === "properties" ? "" : seg;
  }
  return out;
}

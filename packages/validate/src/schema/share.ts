// Repeated subschemas of a converted CRD schema, compiled once: each becomes a `$defs` entry that every place it
// appeared refers to. CRD schemas are written out in full (no `$ref` in a structural schema), and generated CRDs
// repeat whole types: Argo CD's ApplicationSet repeats its generators and the Application template inside every
// matrix and merge generator, its Application the source of an application in its spec, status and operation,
// Karpenter's NodePool and NodeClaim smaller parts. ajv generates code for every copy (`inlineRefs: false` keeps a
// referenced schema as one function): the ApplicationSet of Argo CD v3.5.1 was 8.2 MB of validator code (a first
// run with one ApplicationSet took ~4 s and ~480 MB), loaded (~0.15 s, ~50 MB) by every run that met one.
//
// Why by hand: sharing equal subtrees (hash-consing) is a few lines over the converted schema, whose shape this
// package defines (convert.ts); no JSON Schema library does it for ajv. What a finding says does not change: ajv
// reports the same instance path, keyword, parameters and message from a referenced schema as from the copy, in
// the same order (errors are appended where the reference is), and a finding never carries the schema path.

type Json = Record<string, unknown>;

/** A subschema is shared when it occurs at least twice and its JSON is at least this long (a few keywords are left where they are). */
const MIN_SHARED_CHARS = 256;

/** The keywords of a converted schema whose value is one schema, or a list of schemas (convert.ts writes no others). */
const ONE_SCHEMA = ["items", "additionalProperties", "not", "if", "then", "else"] as const;
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf"] as const;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The name of the `$defs` entries made here (a converted schema has none of its own). */
export const SHARED_PREFIX = "eksGitopsShared";

/**
 * `node` with each of its subschemas replaced by `f(subschema)`: schema positions only (`properties` is a map of
 * schemas; `enum` or `required` are data). Counting and copying both walk through here, so they meet the same
 * subschemas.
 */
function mapSubschemas(node: Json, f: (child: Json) => Json): Json {
  const out: Json = { ...node };
  for (const k of ONE_SCHEMA) if (isObject(node[k])) out[k] = f(node[k] as Json);
  for (const k of SCHEMA_LISTS) if (Array.isArray(node[k])) out[k] = (node[k] as unknown[]).map((c) => (isObject(c) ? f(c) : c));
  if (isObject(node.properties)) out.properties = Object.fromEntries(Object.entries(node.properties).map(([name, c]) => [name, isObject(c) ? f(c) : c]));
  return out;
}

/**
 * `schema` with every subschema that occurs more than once (equal JSON, MIN_SHARED_CHARS or longer) moved to
 * `$defs` and referred to, the largest first (a shared subschema's own repeats are shared inside it too). The
 * input is not changed; a schema with nothing repeated is returned as it is.
 */
export function shareRepeatedSubschemas(schema: Json): Json {
  // each subschema's JSON, by JSON.stringify of each in turn: a subtree is written again for every subschema above
  // it (~70 ms for the ApplicationSet, once, when its validator is compiled; never when it is loaded from the cache)
  const texts = new Map<Json, string>();
  const counts = new Map<string, number>();
  // every occurrence counted (one object at two places, a YAML alias, counts twice)
  const count = (node: Json): Json => {
    let text = texts.get(node);
    if (text === undefined) {
      text = JSON.stringify(node);
      texts.set(node, text);
    }
    counts.set(text, (counts.get(text) ?? 0) + 1);
    mapSubschemas(node, count);
    return node;
  };
  count(schema);
  const shared = new Map<string, string>();
  const defs: Json = {};
  const copy = (node: Json, top: boolean): Json => {
    const text = texts.get(node) as string;
    if (!top && text.length >= MIN_SHARED_CHARS && (counts.get(text) ?? 0) > 1) {
      let name = shared.get(text);
      if (name === undefined) {
        name = `${SHARED_PREFIX}${shared.size}`;
        shared.set(text, name);
        defs[name] = copy(node, true);
      }
      return { $ref: `#/$defs/${name}` };
    }
    return mapSubschemas(node, (child) => copy(child, false));
  };
  const out = copy(schema, true);
  if (shared.size === 0) return schema;
  return { ...out, $defs: { ...(isObject(out.$defs) ? out.$defs : {}), ...defs } };
}

// Generates a deterministic corpus of mutated objects from rendered ones (and bases.ts): wrong types, unknown fields,
// out-of-range numbers, bad enum values, rule-breaking edits and accepted edits, from a seeded RNG.
import type { KubernetesObject } from "@kubernetes/client-node";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { RandomGenerator } from "pure-rand/types/RandomGenerator";
import { ACCEPTED_EDITS, ENUM_FIELDS, MUTATED_KINDS, type MutatedKind, NUMERIC_FIELDS, RULE_EDITS } from "./catalog.ts";
import { isObject, type Json, type Path, pointer, setAt, walk } from "./paths.ts";

export const CATEGORIES = ["wrong-type", "unknown-field", "out-of-range", "bad-enum", "rule-breaking", "accepted-edit"] as const;
export type MutationCategory = (typeof CATEGORIES)[number];

export interface MutationBase {
  /** Rendered file the object came from (repository-relative). */
  readonly file: string;
  readonly object: KubernetesObject;
}

export interface Mutation {
  /** Stable within one seed: `0042-nodepool-default-bad-enum`. */
  readonly id: string;
  readonly category: MutationCategory;
  readonly baseFile: string;
  /** JSON Pointer of the edited field. */
  readonly path: string;
  /** What was done, e.g. `set /spec/replicas to -1`. */
  readonly description: string;
  readonly object: KubernetesObject;
}

export interface GenerateOptions {
  readonly seed: number;
  /** @default 1200 */
  readonly count?: number;
}

/** Identity fields are never mutated: a renamed or re-namespaced object is a different object, not an invalid one. */
const FROZEN = new Set(["/apiVersion", "/kind", "/metadata/name", "/metadata/namespace"]);

/**
 * Mutations of the bases whose kind is one of MUTATED_KINDS: categories take turns (an even share each),
 * bases rotate; a duplicate (same base, same resulting object) is drawn again.
 */
export function generateMutations(bases: readonly MutationBase[], options: GenerateOptions): Mutation[] {
  const count = options.count ?? 1200;
  const usable = bases.filter((b) => (MUTATED_KINDS as readonly string[]).includes(b.object.kind ?? ""));
  if (usable.length === 0) throw new Error(`no object of kind ${MUTATED_KINDS.join(", ")} to mutate`);
  const rng = xoroshiro128plus(options.seed);
  // Unchanged objects count as seen: an edit that sets a field to its current value is no mutation.
  const seen = new Set(usable.map((b) => `${b.file}\n${JSON.stringify(b.object)}`));
  const out: Mutation[] = [];
  const cursors = CATEGORIES.map(() => 0);
  for (let slot = 0; out.length < count; slot++) {
    if (slot >= count * 3) throw new Error(`only ${out.length} distinct mutations after ${slot} slots`);
    const c = out.length % CATEGORIES.length;
    const category = CATEGORIES[c] as MutationCategory;
    // each category walks the bases in turn, so every base gets every category; a base whose edits of this
    // category are used up yields to the next one at once
    const base = usable[(cursors[c] as number) % usable.length] as MutationBase;
    cursors[c] = (cursors[c] as number) + 1;
    // A few draws per slot; a base whose edits of this category are used up yields to the next base.
    for (let draw = 0; draw < 20; draw++) {
      const object = structuredClone(base.object) as unknown as Json;
      const edit = mutate(rng, base.object.kind as MutatedKind, category, object);
      const key = `${base.file}\n${JSON.stringify(object)}`;
      if (!edit || seen.has(key)) continue;
      seen.add(key);
      const id = `${String(out.length).padStart(4, "0")}-${base.object.kind?.toLowerCase()}-${base.object.metadata?.name}-${category}`;
      out.push({ id, category, baseFile: base.file, ...edit, object: object as unknown as KubernetesObject });
      break;
    }
  }
  return out;
}

type Edit = { path: string; description: string } | undefined;

function mutate(rng: RandomGenerator, kind: MutatedKind, category: MutationCategory, o: Json): Edit {
  switch (category) {
    case "wrong-type":
      return wrongType(rng, o);
    case "unknown-field":
      return unknownField(rng, o);
    case "out-of-range":
      return outOfRange(rng, kind, o);
    case "bad-enum":
      return badEnum(rng, kind, o);
    case "accepted-edit": {
      if (ACCEPTED_EDITS[kind].length === 0) return undefined;
      // one edit or two together, as for rule-breaking edits
      const first = pick(rng, ACCEPTED_EDITS[kind]);
      const second = uniformInt(rng, 0, 1) === 1 ? pick(rng, ACCEPTED_EDITS[kind]) : first;
      first.apply(o);
      if (second !== first) second.apply(o);
      return { path: "", description: second === first ? first.name : `${first.name} + ${second.name}` };
    }
    case "rule-breaking": {
      if (RULE_EDITS[kind].length === 0) return undefined;
      // One edit, or two together (combinations break rules that single edits do not).
      const first = pick(rng, RULE_EDITS[kind]);
      const second = uniformInt(rng, 0, 1) === 1 ? pick(rng, RULE_EDITS[kind]) : first;
      first.apply(o);
      if (second !== first) second.apply(o);
      return { path: "", description: second === first ? first.name : `${first.name} + ${second.name}` };
    }
  }
}

const pick = <T>(rng: RandomGenerator, items: readonly T[]): T => items[uniformInt(rng, 0, items.length - 1)] as T;

function mutableNodes(o: Json) {
  return [...walk(o)].filter((n) => {
    const p = pointer(n.path);
    return n.path[0] !== "status" && ![...FROZEN].some((f) => f === p || f.startsWith(`${p}/`));
  });
}

/** A value of another JSON type than `value`'s. */
function otherType(rng: RandomGenerator, value: Json): Json {
  if (typeof value === "string") return pick(rng, [42, true, { value }, [value]]);
  if (typeof value === "number") return pick<Json>(rng, [String(value), true, { value }, [value]]);
  if (typeof value === "boolean") return pick<Json>(rng, [String(value), 1, { value }]);
  if (Array.isArray(value)) return pick<Json>(rng, ["list", 3, { items: value }]);
  return pick<Json>(rng, ["object", 7, false, [value]]);
}

function wrongType(rng: RandomGenerator, o: Json): Edit {
  const node = pick(rng, mutableNodes(o));
  const replacement = otherType(rng, node.value);
  setAt(o, node.path, replacement);
  return { path: pointer(node.path), description: `set ${pointer(node.path)} to ${JSON.stringify(replacement)}` };
}

function unknownField(rng: RandomGenerator, o: Json): Edit {
  const objects = [{ path: [] as Path, value: o }, ...mutableNodes(o)].filter((n) => isObject(n.value));
  const node = pick(rng, objects);
  const siblings = Object.keys(node.value as object);
  // Typos of a real sibling (as people make them) or a plainly foreign name.
  const sibling = siblings.length > 0 ? pick(rng, siblings) : "field";
  const name = pick(rng, [`${sibling}s`, sibling.toLowerCase() === sibling ? `${sibling}X` : sibling.toLowerCase(), "unknownField", "extra"]);
  if (siblings.includes(name)) return undefined;
  const value = pick<Json>(rng, ["x", 1, true, {}]);
  setAt(o, [...node.path, name], value);
  return { path: pointer([...node.path, name]), description: `add unknown field ${pointer([...node.path, name])}` };
}

function outOfRange(rng: RandomGenerator, kind: MutatedKind, o: Json): Edit {
  // Known numeric fields (present or not) plus any number already in the object.
  const known = NUMERIC_FIELDS[kind];
  const present = mutableNodes(o)
    .filter((n) => typeof n.value === "number" && !known.some((k) => pointer(k.path) === pointer(n.path)))
    .map((n) => ({ path: n.path, integer: Number.isInteger(n.value), min: undefined, max: undefined }));
  if (known.length + present.length === 0) return undefined;
  const field = pick(rng, [...known, ...present]);
  const candidates: number[] = [-1, 0, 2 ** 31, 2 ** 31 * -1 - 1, 1e15];
  if (field.min !== undefined) candidates.push(field.min - 1);
  if (field.max !== undefined) candidates.push(field.max + 1);
  if (field.integer) candidates.push(1.5);
  const value = pick(rng, candidates);
  setAt(o, field.path, value);
  return { path: pointer(field.path), description: `set ${pointer(field.path)} to ${value}` };
}

function badEnum(rng: RandomGenerator, kind: MutatedKind, o: Json): Edit {
  if (ENUM_FIELDS[kind].length === 0) return undefined;
  const field = pick(rng, ENUM_FIELDS[kind]);
  const valid = pick(rng, field.values);
  const value = pick(rng, [valid.toLowerCase(), valid.toUpperCase(), `${valid} `, "", `${valid}${uniformInt(rng, 2, 99)}`]);
  if (field.values.includes(value)) return undefined;
  setAt(o, field.path, value);
  return { path: pointer(field.path), description: `set ${pointer(field.path)} to ${JSON.stringify(value)}` };
}

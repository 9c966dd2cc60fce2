// Block-style YAML for rendered objects: byte for byte what the `yaml` library's stringify writes with synth's
// options, several times faster. Written by hand because the library builds a node tree and runs every scalar
// through its whole tag machinery for each object, which was a third of a 100-overlay synth's CPU; no YAML
// library writes the same bytes faster. The library still decides how every scalar is written (plain or quoted,
// from its own schema), once per distinct string; a value this writer does not cover (a string written on
// several lines, a long or empty key, a non-integer number...) makes it return undefined, and the caller uses
// the library for that object. yaml-emit.test.ts compares the two on the committed renders and on generated data.
import { Document, stringify } from "yaml";

/** synth's YAML: no line folding, two-space indent, no anchors, YAML 1.1 quoting (as kubectl reads it). */
export const YAML_OPTIONS = { lineWidth: 0, indent: 2, aliasDuplicateObjects: false, version: "1.1" } as const;

/** Plain-safe characters, starting with a letter: no indicator, no `: ` or ` #`, no document marker, one line. */
const SIMPLE = /^[A-Za-z][A-Za-z0-9_./-]*$/;

const schema = new Document(null, YAML_OPTIONS).schema;
const typedTags = [...schema.tags, ...(schema.compat ?? [])].filter((t) => t.default && t.tag !== "tag:yaml.org,2002:str" && "test" in t && t.test instanceof RegExp);

/** The library's own check before writing a string plain: would it be read back as a bool, null, number...? */
const readsAsOther = (s: string) => typedTags.some((t) => (t as { test: RegExp }).test.test(s));

/** Written form of each string as a value and as a key; null: the library writes it on several lines. */
const values = new Map<string, string | null>();
const keys = new Map<string, string | null>();
const MAX_CACHED = 200_000;

function remember(cache: Map<string, string | null>, s: string, written: string | null): string | null {
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(s, written);
  return written;
}

/** How the library writes `s` as a mapping value (the same in a sequence): asked once per string. */
function valueText(s: string): string | null {
  const known = values.get(s);
  if (known !== undefined) return known;
  if (SIMPLE.test(s) && !readsAsOther(s)) return remember(values, s, s);
  const line = stringify({ k: s }, YAML_OPTIONS);
  return remember(values, s, line.indexOf("\n") === line.length - 1 && line.startsWith("k: ") ? line.slice(3, -1) : null);
}

/** A line starting like a document marker or directive: the library quotes such a key at the top level only. */
const DOCUMENT_MARKER = /^(?:%|---|\.\.\.)/m;

/** How the library writes `s` as a mapping key (null also for a key whose form depends on its depth). */
function keyText(s: string): string | null {
  const known = keys.get(s);
  if (known !== undefined) return known;
  if (SIMPLE.test(s) && s.length <= 1024 && !readsAsOther(s)) return remember(keys, s, s);
  if (DOCUMENT_MARKER.test(s)) return remember(keys, s, null);
  const line = stringify({ [s]: 0 }, YAML_OPTIONS);
  return remember(keys, s, line.indexOf("\n") === line.length - 1 && line.endsWith(": 0\n") ? line.slice(0, -4) : null);
}

class Unsupported extends Error {}

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** A scalar as one line, or the marker of a collection; throws Unsupported for what the library writes otherwise. */
function scalar(v: unknown): string {
  if (typeof v === "string") {
    const t = valueText(v);
    if (t === null) throw new Unsupported();
    return t;
  }
  if (typeof v === "number" && Number.isSafeInteger(v) && !Object.is(v, -0)) return String(v);
  if (v === true) return "true";
  if (v === false) return "false";
  if (v === null) return "null";
  throw new Unsupported();
}

const isEmpty = (v: object) => (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0);

/** Lines of a non-empty mapping at `indent`; `first` replaces the indent of its first line (an item of a sequence). */
function mapping(out: string[], m: Record<string, unknown>, indent: string, first: string): void {
  let lead = first;
  let written = 0;
  for (const k of Object.keys(m)) {
    const v = m[k];
    if (v === undefined) continue; // canonicalize drops them; the library skips them too
    written++;
    const key = keyText(k);
    if (key === null) throw new Unsupported();
    if (v !== null && typeof v === "object") {
      if (!Array.isArray(v) && !isPlainObject(v)) throw new Unsupported();
      if (isEmpty(v)) out.push(`${lead}${key}: ${Array.isArray(v) ? "[]" : "{}"}\n`);
      else {
        out.push(`${lead}${key}:\n`);
        const inner = `${indent}  `;
        if (Array.isArray(v)) sequence(out, v, inner, inner);
        else mapping(out, v as Record<string, unknown>, inner, inner);
      }
    } else out.push(`${lead}${key}: ${scalar(v)}\n`);
    lead = indent;
  }
  if (written === 0) throw new Unsupported(); // only undefined values: the library writes `{}`
}

/** Lines of a non-empty sequence at `indent`; `first` replaces the indent of its first line. */
function sequence(out: string[], items: readonly unknown[], indent: string, first: string): void {
  let lead = first;
  for (const v of items) {
    if (v !== null && typeof v === "object") {
      if (!Array.isArray(v) && !isPlainObject(v)) throw new Unsupported();
      if (isEmpty(v)) out.push(`${lead}- ${Array.isArray(v) ? "[]" : "{}"}\n`);
      else if (Array.isArray(v)) sequence(out, v, `${indent}  `, `${lead}- `);
      else mapping(out, v as Record<string, unknown>, `${indent}  `, `${lead}- `);
    } else out.push(`${lead}- ${scalar(v)}\n`);
    lead = indent;
  }
}

/**
 * `value` (a non-empty plain object of JSON data) as the library's `stringify(value, YAML_OPTIONS)` writes it,
 * or undefined when it holds something this writer leaves to the library.
 */
export function emitYaml(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !isPlainObject(value) || isEmpty(value)) return undefined;
  const out: string[] = [];
  try {
    mapping(out, value, "", "");
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
  return out.join("");
}

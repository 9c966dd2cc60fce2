// A JSON fast path for the reader (issue 19): plain JSON text, in a .json or a .yaml file, read with JSON.parse (about
// ten times faster than js-yaml) when js-yaml would read it to exactly the same value; any other text returns
// undefined and takes the YAML path, which keeps its error messages, duplicate-key and depth reports.
// Hand-written: a single linear pass over the text; no library says whether a JSON text reads the same as YAML.
import { MAX_NESTING_DEPTH } from "./hostile/json.ts";

/**
 * Counts the key-value pairs of a JSON text (its `:` outside strings), or returns -1 where the YAML path reads the
 * text otherwise than JSON.parse: the number `-0` (go-yaml's int resolution makes it 0, JSON.parse -0), or nesting
 * deeper than the reader allows (the YAML path reports it). Everything else of JSON reads the same with js-yaml and
 * the YAML 1.1 scalar rules (yaml11.ts): a property test (json-fast.test.ts) holds the two side by side, on texts
 * with tabs, line breaks before colons, control characters, long keys and integers past 2^64.
 */
function pairsOrUnsafe(text: string): number {
  let pairs = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === 0x22) break;
        i += d === 0x5c /* \ */ ? 2 : 1;
      }
    } else if (c === 0x3a /* : */) {
      pairs++;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > MAX_NESTING_DEPTH) return -1;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2d /* - */ && text.charCodeAt(i + 1) === 0x30) {
      const after = text.charCodeAt(i + 2);
      // `-0` alone (not `-0.5`, `-0e1`, which go-yaml reads as floats, as JSON.parse does)
      if (after !== 0x2e && after !== 0x65 && after !== 0x45) return -1;
    }
  }
  return pairs;
}

/** Keys of every object in a parsed JSON value (JSON.parse's values nest no deeper than the text allowed). */
function countKeys(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) n += countKeys(value[i]);
    return n;
  }
  const o = value as Record<string, unknown>;
  for (const k in o) n += 1 + countKeys(o[k]);
  return n;
}

/**
 * The single document of a plain JSON text (an object or a list at the top), or undefined when the text is not
 * plain JSON or might read differently as YAML. A duplicate key (which JSON.parse drops silently) shows as fewer
 * keys in the value than pairs in the text: such a text is left to the YAML path, which reports it.
 */
export function readPlainJson(text: string): unknown {
  let first = 0;
  while (first < text.length && (text.charCodeAt(first) === 0x20 || text.charCodeAt(first) === 0x0a || text.charCodeAt(first) === 0x0d)) first++;
  const c = text.charCodeAt(first);
  if (c !== 0x7b && c !== 0x5b) return undefined;
  // flow-style YAML (`{apiVersion: v1, ...}`) is not JSON: told by its first key, not by a JSON.parse that throws
  // (an exception with its message costs more than reading the text)
  if (c === 0x7b) {
    let next = first + 1;
    while (next < text.length && (text.charCodeAt(next) === 0x20 || text.charCodeAt(next) === 0x0a || text.charCodeAt(next) === 0x0d)) next++;
    if (text.charCodeAt(next) !== 0x22 && text.charCodeAt(next) !== 0x7d) return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const pairs = pairsOrUnsafe(text);
  if (pairs < 0 || countKeys(value) !== pairs) return undefined;
  return value;
}

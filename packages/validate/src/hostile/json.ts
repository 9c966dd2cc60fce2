// What JSON.parse lets through silently: duplicate keys (last one wins) and nesting deep enough to overflow the
// stack of whatever walks the value next. One linear, iterative pass over text JSON.parse has already accepted.
// Hand-written: JSON.parse has no duplicate or depth option, and a full second parser would cost more.

/** Deepest nesting of objects and lists a document may have (YAML and JSON alike; IAM documents need 5). */
export const MAX_NESTING_DEPTH = 1000;

export interface JsonProblem {
  readonly rule: "parse:duplicate-key" | "parse:too-deep";
  readonly message: string;
}

/** Line and column (1-based) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** The first duplicate key or excess depth in valid JSON text, or undefined. */
export function scanJson(text: string, maxDepth = MAX_NESTING_DEPTH): JsonProblem | undefined {
  // one frame per open container: the keys seen so far (objects) or null (lists)
  const stack: (Set<string> | null)[] = [];
  // in an object, the next string is a key when the previous token was `{` or `,`
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push(c === 0x7b ? new Set() : null);
      if (stack.length > maxDepth) {
        const at = lineColumn(text, i);
        return { rule: "parse:too-deep", message: `document is nested more than ${maxDepth} levels deep (line ${at.line}, column ${at.column})` };
      }
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = stack.at(-1) instanceof Set;
    } else if (c === 0x22 /* " */) {
      const start = i;
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      if (expectKey) {
        const keys = stack.at(-1) as Set<string>;
        // the key as JSON decodes it: "\u0041" and "A" are the same key
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (keys.has(key)) {
          const at = lineColumn(text, start);
          return { rule: "parse:duplicate-key", message: `duplicate key ${JSON.stringify(key)} (line ${at.line}, column ${at.column}): JSON.parse would keep only the last one` };
        }
        keys.add(key);
        expectKey = false;
      }
    }
  }
  return undefined;
}

/** Depth of parsed data, iteratively (a value too deep for recursion is measured without overflowing the stack). */
export function nestingDepth(value: unknown, limit = MAX_NESTING_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null || seen.has(v)) continue;
    seen.add(v);
    if (d > deepest) deepest = d;
    if (deepest > limit) return deepest;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (typeof x === "object" && x !== null) stack.push([x, d + 1]);
  }
  return deepest;
}

/**
 * Whether a YAML or JSON text can hold a value nested more than `limit` levels: each level needs an opening
 * bracket, or indentation or a `- ` on its line, so depth is at most the longest line plus the brackets (and
 * aliases, which the expansion budget already bounds). Spares measuring the depth of every ordinary document.
 */
export function mayNestDeeperThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  // indexOf finds a character many times faster than a loop over every character (this runs on every text)
  let longest = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i - lineStart > longest) longest = i - lineStart;
    lineStart = i + 1;
  }
  let bound = Math.max(longest, text.length - lineStart);
  for (const c of OPENERS) for (let i = text.indexOf(c); i !== -1; i = text.indexOf(c, i + 1)) if (++bound > limit) return true;
  return bound > limit;
}

/** What may open a level: brackets of flow collections, and aliases (`*a`), which the expansion budget bounds. */
const OPENERS = ["[", "{", "*"];

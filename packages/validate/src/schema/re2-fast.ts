// A JavaScript RegExp for an RE2 pattern, when the two engines provably accept the same strings.
//
// The API server matches OpenAPI `pattern` and CEL `matches()` with Go's RE2, which RE2JS reimplements
// faithfully but slowly: compiling the patterns of the catalog's CRDs and matching with them cost a run about
// 30 ms. Most patterns in Kubernetes schemas are small ASCII expressions (`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
// that mean the same in both engines, and V8's RegExp runs them far faster. Hand-written because no library
// translates RE2 syntax to JavaScript with that guarantee: this one translates only what it can show equal and
// answers undefined for anything else (RE2JS is used then):
//
// - ASCII pattern text only; the RegExp gets the `u` flag, so it reads the subject by code points as RE2 does;
// - literals, `^` and `$` (text start and end in both without the `m` flag), groups `(...)` and `(?:...)`,
//   alternation, the quantifiers `* + ? {n} {n,} {n,m}` and their lazy forms (which cannot change whether a
//   string matches);
// - `.` becomes `[^\n]` (RE2's dot; JavaScript's would also refuse `\r`, U+2028 and U+2029);
// - `\d \D \w \W` (ASCII classes in both, without `i`), `\s` becomes RE2's `[\t\n\f\r ]` (JavaScript's `\s` adds
//   `\v` and Unicode spaces), `\t \n \r \f \v`, and escaped punctuation;
// - classes `[...]` of those, with ranges, and `^` for negation.
// Flags (`(?i)`), named groups, POSIX classes, `\b`, `\pN`, Unicode and anything unusual are left to RE2JS.

const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);
const CLASS_SHORTHAND: Record<string, string> = { d: "\\d", D: "\\D", w: "\\w", W: "\\W" };
const CONTROL: Record<string, string> = { t: "\\t", n: "\\n", r: "\\r", f: "\\f", v: "\\v" };
const RE2_SPACE = "\\t\\n\\f\\r ";

/** Printable ASCII, space included. */
const isPrintable = (c: string) => c >= " " && c <= "~";

/** The same pattern as JavaScript RegExp source, or undefined when equality cannot be shown. */
export function translateRe2(pattern: string): string | undefined {
  let out = "";
  let depth = 0;
  // per open group: whether it holds a counted repetition (`(a{10}){10}` may be too large for RE2, never for V8)
  const counted: boolean[] = [false];
  // whether the previous item can take a quantifier (RE2 and JavaScript reject `**`, `(*`, `^*` alike, but
  // are left to disagree on nothing: anything unusual goes to RE2JS)
  let quantifiable = false;
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i] as string;
    if (!isPrintable(c)) return undefined;
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e === undefined) return undefined;
      if (CLASS_SHORTHAND[e]) out += CLASS_SHORTHAND[e];
      else if (CONTROL[e]) out += CONTROL[e];
      else if (e === "s") out += `[${RE2_SPACE}]`;
      else if (e === "S") out += `[^${RE2_SPACE}]`;
      else if (SYNTAX.has(e)) out += `\\${e}`;
      else return undefined;
      i += 2;
      quantifiable = true;
      continue;
    }
    if (c === "[") {
      const cls = translateClass(pattern, i);
      if (!cls) return undefined;
      out += cls.source;
      i = cls.end;
      quantifiable = true;
      continue;
    }
    if (c === "(") {
      if (pattern[i + 1] === "?") {
        if (pattern[i + 2] !== ":") return undefined;
        out += "(?:";
        i += 3;
      } else {
        out += "(";
        i++;
      }
      depth++;
      counted.push(false);
      quantifiable = false;
      continue;
    }
    if (c === ")") {
      if (depth === 0) return undefined;
      depth--;
      const inner = counted.pop() as boolean;
      if (inner && pattern[i + 1] === "{") return undefined;
      counted[counted.length - 1] ||= inner;
      out += ")";
      i++;
      quantifiable = true;
      continue;
    }
    if (c === "*" || c === "+" || c === "?" || c === "{") {
      if (!quantifiable) return undefined;
      let q = c;
      let j = i + 1;
      if (c === "{") {
        const m = /^\{(\d{1,3})(,(\d{1,3})?)?\}/.exec(pattern.slice(i));
        if (!m) return undefined;
        // RE2 refuses counts over 1000, min > max and programs too large: large counts are left to RE2JS
        const min = Number(m[1]);
        const max = m[3] === undefined ? undefined : Number(m[3]);
        if (min > 255 || (max !== undefined && (max > 255 || max < min))) return undefined;
        counted[counted.length - 1] = true;
        q = m[0];
        j = i + m[0].length;
      }
      if (pattern[j] === "?") {
        q += "?";
        j++;
      }
      // a quantifier after a quantifier: RE2 and JavaScript read `a**`, `a+*` differently (or refuse them)
      const after = pattern[j];
      if (after === "*" || after === "+" || after === "?" || after === "{") return undefined;
      out += q;
      i = j;
      quantifiable = false;
      continue;
    }
    if (c === "}" || c === "]") return undefined;
    if (c === ".") out += "[^\\n]";
    else out += c;
    quantifiable = c !== "^" && c !== "$" && c !== "|";
    i++;
  }
  return depth === 0 ? out : undefined;
}

/** A class `[...]` at `start`: its JavaScript source and where it ends, or undefined. */
function translateClass(pattern: string, start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  let out = "[";
  if (pattern[i] === "^") {
    out += "^";
    i++;
  }
  // `[]a]` and `[^]a]` hold a `]` in RE2; an empty class means something else in JavaScript
  if (pattern[i] === "]") return undefined;
  const first = i;
  while (i < pattern.length && pattern[i] !== "]") {
    const c = pattern[i] as string;
    if (!isPrintable(c) || c === "[") return undefined; // `[[:alpha:]]` is a POSIX class in RE2
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e === undefined) return undefined;
      if (CLASS_SHORTHAND[e]) out += CLASS_SHORTHAND[e];
      else if (CONTROL[e]) out += CONTROL[e];
      else if (e === "s") out += RE2_SPACE;
      else if (SYNTAX.has(e) || e === "-") out += `\\${e}`;
      else return undefined;
      i += 2;
      // an escape never starts a range here (`[\d-z]`, `[\.-z]`): left to RE2JS
      if (pattern[i] === "-" && pattern[i + 1] !== "]") return undefined;
      continue;
    }
    if (c === "-") {
      // a `-` is plain only first or last; elsewhere it is part of a range, read below
      if (i !== first && pattern[i + 1] !== "]") return undefined;
      out += "\\-";
      i++;
      continue;
    }
    if (pattern[i + 1] === "-" && pattern[i + 2] !== "]") {
      // a range of two plain characters, in order (both engines refuse `z-a`); nothing may follow it with `-`
      const end = pattern[i + 2];
      if (end === undefined || end === "\\" || end === "[" || !isPrintable(end) || end < c) return undefined;
      if (pattern[i + 3] === "-" && pattern[i + 4] !== "]") return undefined;
      out += `${escapeInClass(c)}-${escapeInClass(end)}`;
      i += 3;
      continue;
    }
    out += escapeInClass(c);
    i++;
  }
  if (i >= pattern.length || i === first) return undefined;
  return { source: `${out}]`, end: i + 1 };
}

/** A class member as JavaScript `u`-mode source (`/` and `^` escaped; `]`, `\\` and `[` never get here). */
const escapeInClass = (c: string) => (c === "/" || c === "^" || c === "-" ? `\\${c}` : c);

/** A RegExp matching exactly as RE2 matches `pattern` (unanchored search), or undefined (use RE2JS). */
export function re2AsRegExp(pattern: string): RegExp | undefined {
  const source = translateRe2(pattern);
  if (source === undefined) return undefined;
  try {
    return new RegExp(source, "u");
  } catch {
    return undefined;
  }
}

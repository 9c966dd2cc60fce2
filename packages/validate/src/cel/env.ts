// The CEL environment of x-kubernetes-validations: cel-js plus the Kubernetes library functions rules use.
import { Environment } from "@marcbachmann/cel-js";
import { RE2JS } from "re2js";
import { re2AsRegExp } from "../schema/re2-fast.ts";

const regexCache = new Map<string, RE2JS>();
// CEL regex functions follow Go RE2 semantics; JavaScript RegExp differs (lookarounds, \Z, Unicode classes).
function re2(pattern: string): RE2JS {
  let re = regexCache.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    regexCache.set(pattern, re);
  }
  return re;
}

// Rules run the same patterns over the same label keys object after object: memoise RE2 results (bounded).
const MEMO_LIMIT = 50_000;
/** Longer strings are not memoised: a few long values would otherwise hold megabytes per entry. */
const MEMO_MAX_STRING = 512;
const findMemo = new Map<string, string>();
const testMemo = new Map<string, boolean>();
function findFirst(s: string, pattern: string): string {
  if (s.length > MEMO_MAX_STRING) {
    const m = re2(pattern).matcher(s);
    return m.find() ? (m.group() ?? "") : "";
  }
  const key = `${pattern}\u0000${s}`;
  let hit = findMemo.get(key);
  if (hit === undefined) {
    const m = re2(pattern).matcher(s);
    hit = m.find() ? (m.group() ?? "") : "";
    if (findMemo.size >= MEMO_LIMIT) findMemo.clear();
    findMemo.set(key, hit);
  }
  return hit;
}
/** Patterns V8's RegExp reads as RE2 does (schema/re2-fast.ts), or null for those only RE2JS may run. */
const fastCache = new Map<string, RegExp | null>();

export function re2Test(s: string, pattern: string): boolean {
  let fast = fastCache.get(pattern);
  if (fast === undefined) {
    // an invalid pattern must fail as RE2 fails it: only patterns RE2 compiles take the fast path
    fast = re2AsRegExp(pattern) ?? null;
    if (fast) re2(pattern);
    fastCache.set(pattern, fast);
  }
  if (fast) return fast.test(s);
  if (s.length > MEMO_MAX_STRING) return re2(pattern).test(s);
  const key = `${pattern}\u0000${s}`;
  let hit = testMemo.get(key);
  if (hit === undefined) {
    hit = re2(pattern).test(s);
    if (testMemo.size >= MEMO_LIMIT) testMemo.clear();
    testMemo.set(key, hit);
  }
  return hit;
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  const out: string[] = [];
  const m = re2(pattern).matcher(s);
  while ((limit < 0n || BigInt(out.length) < limit) && m.find()) out.push(m.group() ?? "");
  return out;
}

const isSorted = (list: readonly unknown[]) => list.every((v, i) => i === 0 || (list[i - 1] as never) <= (v as never));

/** k8s.io/apiserver pkg/cel/library/regex.go (find, findAll) on RE2, and `re2matches`, the RE2 `matches` (see useRe2Matches). */
export function registerRegexLibrary(env: Environment): Environment {
  return env
    .registerFunction("string.find(string): string", (s: string, p: string) => findFirst(s, p))
    .registerFunction("string.findAll(string): list<string>", (s: string, p: string) => findAll(s, p, -1n))
    .registerFunction("string.findAll(string, int): list<string>", (s: string, p: string, n: bigint) => findAll(s, p, n))
    .registerFunction("string.re2matches(string): bool", (s: string, p: string) => re2Test(s, p))
    .registerFunction("re2matches(string, string): bool", (s: string, p: string) => re2Test(s, p));
}

/** Builds the environment once: `self` and `oldSelf` are dyn, optional types on, Kubernetes extensions registered. */
export function createCelEnvironment(): Environment {
  return registerRegexLibrary(new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true, homogeneousAggregateLiterals: false }))
    .registerVariable("self", "dyn")
    .registerVariable("oldSelf", "dyn")
    .registerFunction("string.charAt(int): string", (s: string, i: bigint) => {
      const chars = [...s];
      if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`);
      return chars[Number(i)] ?? "";
    })
    .registerFunction("string.replace(string, string): string", (s: string, a: string, b: string) => s.split(a).join(b))
    .registerFunction("string.reverse(): string", (s: string) => [...s].reverse().join(""))
    .registerFunction("list.isSorted(): bool", (l: unknown[]) => isSorted(l))
    .registerFunction("list.sum(): dyn", (l: unknown[]) => (l as never[]).reduce((a: never, b: never) => ((a as number) + (b as number)) as never, (typeof l[0] === "bigint" ? 0n : 0) as never))
    .registerFunction("list.min(): dyn", (l: unknown[]) => {
      if (l.length === 0) throw new Error("min called on empty list");
      return l.reduce((a, b) => ((b as never) < (a as never) ? b : a));
    })
    .registerFunction("list.max(): dyn", (l: unknown[]) => {
      if (l.length === 0) throw new Error("max called on empty list");
      return l.reduce((a, b) => ((b as never) > (a as never) ? b : a));
    });
}

/**
 * Rewrites `matches(` calls to the RE2 `re2matches(`: cel-js's built-in `matches` uses JavaScript RegExp and
 * cannot be overridden. String literals are skipped so rule text inside quotes is untouched.
 */
export function useRe2Matches(expr: string): string {
  let out = "";
  let i = 0;
  while (i < expr.length) {
    const c = expr[i] as string;
    if (c === '"' || c === "'") {
      const triple = expr.startsWith(c.repeat(3), i);
      const end = triple ? c.repeat(3) : c;
      let j = i + end.length;
      while (j < expr.length && !expr.startsWith(end, j)) j += expr[j] === "\\" ? 2 : 1;
      out += expr.slice(i, j + end.length);
      i = j + end.length;
      continue;
    }
    if (expr.startsWith("matches(", i) && !/[A-Za-z0-9_]/.test(expr[i - 1] ?? "")) {
      out += "re2matches(";
      i += "matches(".length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

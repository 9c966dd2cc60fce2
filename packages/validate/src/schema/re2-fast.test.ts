// re2AsRegExp must accept exactly what RE2 (RE2JS, the reference the validator used before) accepts, for every
// pattern it translates: checked on every `pattern` of the pinned CRDs and on hand-picked ones, over generated
// strings that mix the patterns' own characters with the ones where the engines differ (\r, U+2028, astral).
import fc from "fast-check";
import { load } from "js-yaml";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { CATALOG, fetchPinned } from "../catalog/index.ts";
import { MIRROR, TEST_CACHE } from "../testing.ts";
import { re2AsRegExp, translateRe2 } from "./re2-fast.ts";

/** Every `pattern` keyword of the pinned CRDs (all releases). */
async function catalogPatterns(): Promise<string[]> {
  const out = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "pattern" && typeof x === "string") out.add(x);
        else visit(x);
      }
    }
  };
  for (const release of CATALOG) {
    for (const file of release.files) {
      if (file.format === "openapi-v3") continue;
      const text = (await fetchPinned(file, { mirror: MIRROR, cacheDir: TEST_CACHE })).toString("utf8");
      visit(load(text));
    }
  }
  return [...out].sort();
}

const HAND_PICKED = [
  "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
  "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$",
  "^((100|[0-9]{1,2})%|[0-9]+)$",
  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
  "^[^/]*$",
  "a.c",
  "^.*$",
  "x\\sy",
  "x\\Sy",
  "[\\s,]+",
  "^\\d{2,4}\\w*?$",
  "[-a]",
  "[a-]",
  "[!--]",
  "[\\^x]",
  "[^^]",
  "(?:ab|cd)+?e",
  "a|",
  "()",
  "^$",
  "x{0}",
  "[a-z0-9.]{1,63}",
  "\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/\\$\\^\\\\",
];

/** Patterns left to RE2JS: constructs the translation does not claim to read as RE2 does. */
const LEFT_TO_RE2 = [
  "(?i)abc",
  "(?P<name>a)",
  "[[:alpha:]]",
  "\\bword\\b",
  "\\pL",
  "\\Qa.b\\E",
  "\\z",
  "\\A",
  "é",
  "a{1001}",
  "(a{10}){10}",
  "a**",
  "[]a]",
  "[a-\\d]",
  "[\\d-z]",
  "[a-c-e]",
  "[z-a]",
  "\\1",
  "a{,3}",
  "a{",
  "a}",
  "]",
  "\\-",
  "(a",
  "a)",
];

const SPECIAL = ["\n", "\r", "\u2028", "\u2029", "\u000b", "\u00a0", "\u{1F600}", "é", "K", "ſ", " ", "\t", "\f", "/", "%", "-", ".", "_"];

/** Strings built from the pattern's own characters, digits, letters and the characters where engines differ. */
function subjects(pattern: string): fc.Arbitrary<string> {
  const own = [...new Set([...pattern].filter((c) => !"\\[]()".includes(c)))];
  const alphabet = fc.constantFrom(...own, ...SPECIAL, "a", "b", "c", "z", "A", "Z", "0", "1", "9", "e", "E", "m", "i", "K", "%");
  return fc.array(alphabet, { maxLength: 24 }).map((cs) => cs.join(""));
}

describe("re2AsRegExp", () => {
  it("answers as RE2 for every pattern of the pinned CRDs and the hand-picked ones", async () => {
    const patterns = [...(await catalogPatterns()), ...HAND_PICKED];
    let translated = 0;
    for (const p of patterns) {
      const fast = re2AsRegExp(p);
      if (!fast) continue;
      translated++;
      const re2 = RE2JS.compile(p);
      fc.assert(
        fc.property(subjects(p), (s) => fast.test(s) === re2.test(s)),
        { numRuns: 300, seed: 11 },
      );
    }
    // the point of the fast path: the catalog's patterns are nearly all translated
    expect(translated).toBeGreaterThanOrEqual(patterns.length * 0.8);
  });

  it("translates the hand-picked patterns", () => {
    for (const p of HAND_PICKED) expect(translateRe2(p), p).toBeDefined();
  });

  it("leaves to RE2JS what it cannot show equal", () => {
    for (const p of LEFT_TO_RE2) expect(translateRe2(p), p).toBeUndefined();
  });

  it("reads `.` and `\\s` as RE2 does, not as JavaScript does", () => {
    expect(re2AsRegExp("^a.b$")?.test("a\rb")).toBe(true);
    expect(re2AsRegExp("^a.b$")?.test("a\nb")).toBe(false);
    expect(re2AsRegExp("^a.b$")?.test("a\u{1F600}b")).toBe(true);
    expect(re2AsRegExp("^\\s$")?.test("\u00a0")).toBe(false);
    expect(re2AsRegExp("^\\s$")?.test("\u000b")).toBe(false);
  });
});

// checkSchema (check.ts) takes a translated pattern as one RE2 compiles, without asking RE2JS: hold it to that on
// patterns generated from RE2's syntax characters (most are invalid), and on the hand-picked invalid ones.
describe("translateRe2 and RE2's own verdict", () => {
  const piece = fc.constantFrom(..."^$.*+?()[]{}|\\-,:/", "a", "z", "0", "9", "{2}", "{1,3}", "{3,1}", "{1001}", "(?:", "(?i)", "(?P<n>", "[a-z]", "[z-a]", "[^a]", "\\d", "\\s", "\\b", "\\pL", "[[:alpha:]]", "é");
  it("translates only patterns RE2JS compiles", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join("")), (p) => {
        if (translateRe2(p) === undefined) return true;
        try {
          RE2JS.compile(p);
          return true;
        } catch {
          return false;
        }
      }),
      { numRuns: 20_000, seed: 19 },
    );
  });
});

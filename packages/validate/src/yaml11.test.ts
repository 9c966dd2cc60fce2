// Scalars as kubectl sends them (YAML 1.1 rules of go.yaml.in/yaml/v2), and the hint to quote them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAY_HAVE_COMPLEX_KEY, mayHaveComplexKey } from "./hostile/yaml-doc.ts";
import { parseText } from "./reader.ts";
import { exampleCrd, registryFromCrdYaml } from "./testing.ts";
import { ObjectValidator } from "./validate.ts";
import { resolveYaml11, timestamp } from "./yaml11.ts";

describe("resolveYaml11", () => {
  it.each([
    ["yes", true], ["Yes", true], ["YES", true], ["y", true], ["Y", true], ["on", true], ["On", true], ["ON", true], ["true", true], ["True", true],
    ["no", false], ["n", false], ["N", false], ["off", false], ["OFF", false], ["false", false],
    ["", null], ["~", null], ["null", null], ["NULL", null],
    ["0755", 493], ["0o755", 493], ["0x1F", 31], ["0b101", 5], ["-0b11", -3], ["1_000", 1000], ["+12", 12], ["-7", -7], ["0", 0],
    ["012345678901", 12345678901], ["08", 8], ["1.10", 1.1], ["1e3", 1000], [".5", 0.5], ["1.", 1],
    [".inf", Number.POSITIVE_INFINITY], ["-.Inf", Number.NEGATIVE_INFINITY],
    ["2024-01-02", "2024-01-02T00:00:00Z"], ["2001-12-14t21:59:43.10-05:00", "2001-12-14T21:59:43.1-05:00"], ["2001-12-14 21:59:43.5", "2001-12-14T21:59:43.5Z"],
    ["2024-13-01", "2024-13-01"], ["yess", "yess"], ["nope", "nope"], ["1:20", "1:20"], ["0x", "0x"], ["4Gi", "4Gi"], ["100m", "100m"], ["-", "-"], ["1.2.3", "1.2.3"],
    ["Off ", "Off "], ["ok", "ok"], ["18446744073709551615", Number(18446744073709551615n)], ["inf", "inf"],
  ])("%j → %j", (text, value) => {
    expect(resolveYaml11(text)).toEqual(value);
  });

  it("applies to plain scalars only, keys included; quoted and tagged scalars stay strings", () => {
    const { resources } = parseText({ file: "a.yaml", text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {a: yes, b: "yes", c: !!str on, on: 1, d: 0755, e: \'0755\'}\n' });
    expect(resources[0]?.object.data).toEqual({ a: true, b: "yes", c: "on", true: 1, d: 493, e: "0755" });
  });

  it("merges YAML 1.1 merge keys, as kubectl does, on both paths", () => {
    const text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nx: &d {p: '1', q: '2'}\ndata: {<<: *d, q: '3'}\n";
    expect(parseText({ file: "a.yaml", text }).resources[0]?.object.data).toEqual({ p: "1", q: "3" });
    // a complex-key look-alike sends the text through yaml
    expect(parseText({ file: "a.yaml", text: `${text}z: '[x]: y'\n` }).resources[0]?.object.data).toEqual({ p: "1", q: "3" });
  });

  it("the slow path (yaml) resolves the same way", () => {
    // a duplicate-free text with a complex-key look-alike goes through yaml
    const { resources } = parseText({ file: "a.yaml", text: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {a: yes, d: 0755, s: '[x]: y'}\n" });
    expect(resources[0]?.object.data).toEqual({ a: true, d: 493, s: "[x]: y" });
  });
});

describe("a YAML 1.1 boolean or number in a string field", () => {
  it("is a type error with the hint to quote it", () => {
    const registry = registryFromCrdYaml(exampleCrd("Flag", { type: "object", properties: { enabled: { type: "string" }, mode: { type: "string" } } }));
    const type = registry.lookup("example.com/v1", "Flag");
    if (!type) throw new Error("no type");
    const { resources } = parseText({ file: "f.yaml", text: "apiVersion: example.com/v1\nkind: Flag\nmetadata: {name: f}\nspec: {enabled: yes, mode: 0755}\n" });
    const findings = new ObjectValidator().validate(resources[0]?.object ?? {}, type, registry);
    expect(findings.map((f) => [f.path, f.message, f.hint])).toEqual([
      ["/spec/enabled", "Invalid value: true: must be of type string, not boolean", 'quote the value: kubectl reads YAML 1.1, where unquoted yes/no/on/off/y/n/true/false are booleans and 0755, 1_000 or 1.10 are numbers (write "yes" in quotes)'],
      ["/spec/mode", "Invalid value: 493: must be of type string, not integer", 'quote the value: kubectl reads YAML 1.1, where unquoted yes/no/on/off/y/n/true/false are booleans and 0755, 1_000 or 1.10 are numbers (write "0755" in quotes)'],
    ]);
  });
});

// resolveYaml11 before its fast cases (issue 19), kept as the reference they must agree with
const WORDS = new Map<string, unknown>([
  ...["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"].map((w) => [w, true] as const),
  ...["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"].map((w) => [w, false] as const),
  ...["", "~", "null", "Null", "NULL"].map((w) => [w, null] as const),
  ...[".nan", ".NaN", ".NAN"].map((w) => [w, Number.NaN] as const),
  ...[".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"].map((w) => [w, Number.POSITIVE_INFINITY] as const),
  ...["-.inf", "-.Inf", "-.INF"].map((w) => [w, Number.NEGATIVE_INFINITY] as const),
]);
function referenceResolve(s: string): unknown {
  if (s.length > 0 && (s.charCodeAt(0) >= 128 || !"+-0123456789.yYnNtTfFoO~".includes(s[0] as string))) return s;
  if (WORDS.has(s)) return WORDS.get(s);
  const c = s[0];
  if (c === ".") return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) ? Number(s) : s;
  if (c !== "+" && c !== "-" && (c === undefined || c < "0" || c > "9")) return s;
  const t = timestamp(s);
  if (t !== undefined) return t;
  const plain = s.includes("_") ? s.replace(/_/g, "") : s;
  const int = /^([-+]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]?([0-7]+)|0[bB]([01]+)|([1-9][0-9]*|0))$/.exec(plain);
  if (int) {
    const [, sign, hex, oct, bin, dec] = int;
    const abs = BigInt(hex !== undefined ? `0x${hex}` : oct !== undefined ? `0o${oct}` : bin !== undefined ? `0b${bin}` : (dec as string));
    const v = sign === "-" ? -abs : abs;
    if (v >= -(2n ** 63n) && (v < 2n ** 63n || (sign === "" && v <= 2n ** 64n - 1n))) return Number(v);
  }
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain)) return Number(plain);
  return s;
}

describe("resolveYaml11's fast cases", () => {
  const scalar = fc.oneof(
    fc.array(fc.constantFrom(..."0123456789+-._:eExXoObBaAfFgGiIm TtZzyYnNlLsS~"), { maxLength: 24 }).map((cs) => cs.join("")),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    fc.constantFrom(...WORDS.keys()),
    fc.string({ maxLength: 8 }),
    // dates and times of every width go-yaml accepts (`2024-1-2` is the shortest)
    fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.constantFrom("", "T1:2:3Z", " 10:20:30.5", "t23:59:59+01:00"), fc.boolean())
      .map(([y, m, d, time, pad]) => `${String(y).padStart(4, "0")}-${pad ? String(m).padStart(2, "0") : m}-${d}${time}`),
  );

  it("answer as the general rules do, -0 and NaN included", () => {
    fc.assert(
      fc.property(scalar, (s) => {
        expect(Object.is(resolveYaml11(s), referenceResolve(s)), s).toBe(true);
      }),
      { numRuns: 20000 },
    );
  });
});

describe("mayHaveComplexKey", () => {
  it("answers as MAY_HAVE_COMPLEX_KEY does", () => {
    const text = fc.array(fc.constantFrom("a", ":", " ", "\t", "\n", "\r", "?", "]", "}", "[", "{", ",", "- "), { maxLength: 16 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(text, (t) => {
        expect(mayHaveComplexKey(t), JSON.stringify(t)).toBe(MAY_HAVE_COMPLEX_KEY.test(t));
      }),
      { numRuns: 20000 },
    );
  });
});

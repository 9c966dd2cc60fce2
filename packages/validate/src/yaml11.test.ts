// Scalars as kubectl sends them (YAML 1.1 rules of go.yaml.in/yaml/v2), and the hint to quote them.
import { describe, expect, it } from "vitest";
import { parseText } from "./reader.ts";
import { exampleCrd, registryFromCrdYaml } from "./testing.ts";
import { ObjectValidator } from "./validate.ts";
import { resolveYaml11 } from "./yaml11.ts";

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

// The Go string-format checks, with apimachinery 1.36.5's exact wording (double space after each example included).
import { describe, expect, it } from "vitest";
import { isConfigMapKey, isDns1123Label, isQualifiedName, isRelaxedEnvVarName, isValidPortName, maskTrailingDash } from "./names.ts";
import { goQuote } from "./report.ts";

describe("names", () => {
  it("words regex errors as Go does", () => {
    expect(isConfigMapKey("a b")).toEqual([
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
    expect(isConfigMapKey("..x")).toEqual(["must not start with '..'"]);
    expect(isDns1123Label("a.b")).toEqual(["must not contain dots"]);
  });

  it("accepts env var names as 1.36 does (printable ASCII but '=')", () => {
    expect(isRelaxedEnvVarName("1_STARTS.with-digit")).toEqual([]);
    expect(isRelaxedEnvVarName("A=B")).toEqual(["a valid environment variable name must consist only of printable ASCII characters other than '='"]);
    expect(isRelaxedEnvVarName("")).toEqual(["environment variable name must be non-empty"]);
    expect(isRelaxedEnvVarName("é")).toHaveLength(1);
  });

  it("checks port names and qualified names part by part", () => {
    expect(isValidPortName("metrics-endpoint-x")).toEqual(["must be no more than 15 characters"]);
    expect(isValidPortName("--")).toEqual([
      "must contain at least one letter (a-z)",
      "must not contain consecutive hyphens",
      "must not begin or end with a hyphen",
    ]);
    expect(isQualifiedName("a/b/c")[0]).toMatch(/^a valid label key must consist of/);
    expect(isQualifiedName(`${"x".repeat(254)}/a`)).toEqual(["prefix part must be no more than 253 bytes"]);
    expect(maskTrailingDash("web-")).toBe("wea");
  });

  it("quotes values as Go's %q", () => {
    expect(goQuote('a"b\\c\n\u0001é')).toBe('"a\\"b\\\\c\\n\\x01é"');
  });
});

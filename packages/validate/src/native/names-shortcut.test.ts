import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName, SHORTCUTS_FOR_TESTS } from "./names.ts";

// Strings near the rules' edges: the characters the rules care about, lengths around 63 and 253, one or two slashes.
const part = (max: number) => fc.string({ unit: fc.constantFrom("a", "z", "A", "0", "9", "-", ".", "_", "/", "é", " "), maxLength: max });
const lengthy = fc.tuple(fc.constantFrom(62, 63, 64, 252, 253, 254), fc.constantFrom("a", "a.", "A_")).map(([n, s]) => s.repeat(n).slice(0, n));
const values = fc.oneof(
  part(8),
  part(70),
  lengthy,
  fc.tuple(fc.oneof(part(8), lengthy, fc.domain()), fc.oneof(part(8), lengthy)).map(([a, b]) => `${a}/${b}`),
  fc.domain(),
);

describe("the one-test shortcuts of the memoised name checks", () => {
  for (const { name, check, valid } of SHORTCUTS_FOR_TESTS) {
    it(`${name}: a value the shortcut passes has no error`, () => {
      fc.assert(
        fc.property(values, (v) => {
          if (valid(v)) expect(check(v)).toEqual([]);
        }),
        { numRuns: 5000 },
      );
    });
  }

  it("the shortcuts pass the usual valid values (else they would save nothing)", () => {
    const shortcut = Object.fromEntries(SHORTCUTS_FOR_TESTS.map((s) => [s.name, s.valid]));
    expect(shortcut.IsQualifiedName?.("app.kubernetes.io/name")).toBe(true);
    expect(shortcut.IsQualifiedName?.("app")).toBe(true);
    expect(shortcut.IsValidLabelValue?.("")).toBe(true);
    expect(shortcut.IsDNS1123Label?.("web-0")).toBe(true);
    expect(shortcut.IsDNS1123Subdomain?.("a.b-c.d")).toBe(true);
  });

  it("the checks still report what the shortcut does not pass", () => {
    expect(isQualifiedName("a/b/c")).toHaveLength(1);
    expect(isQualifiedName(`${"a".repeat(254)}/b`)).toEqual(["prefix part must be no more than 253 bytes"]);
    expect(isLabelValue("a".repeat(64))).toHaveLength(1);
    expect(isDns1123Label("Web")).toHaveLength(1);
    expect(isDns1123Subdomain("a..b")).toHaveLength(1);
  });
});

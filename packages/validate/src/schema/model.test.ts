// gvkKeyOf: the key of a group/version/kind straight from `apiVersion` and `kind`, as gvkKey of parseApiVersion's parts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gvkKey, gvkKeyOf, parseApiVersion } from "./model.ts";

describe("gvkKeyOf", () => {
  it("is gvkKey of the group and version parseApiVersion reads, for any apiVersion and kind", () => {
    expect(gvkKeyOf("v1", "ConfigMap")).toBe("/v1/ConfigMap");
    expect(gvkKeyOf("apps/v1", "Deployment")).toBe("apps/v1/Deployment");
    // slashes anywhere, empty parts, and the characters a hostile file may hold
    const part = fc.string({ unit: fc.constantFrom("a", "/", "v", "1", ".", "", "\u0000", "é") });
    fc.assert(
      fc.property(part, fc.string(), (apiVersion, kind) => {
        expect(gvkKeyOf(apiVersion, kind)).toBe(gvkKey({ ...parseApiVersion(apiVersion), kind }));
      }),
      { numRuns: 5000 },
    );
  });
});

// checkSchema's walks kept per schema object (schemaProblems): the same answers as checkSchema for every limit.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSchema, schemaProblems } from "./check.ts";

describe("schemaProblems", () => {
  it("answers as checkSchema does, with any limit, once per schema object and base", () => {
    // problems are sorted by pointer, but the walk stops after the limit: limit 1 answers the first node's problems
    const bad = { type: "object", properties: { a: { type: "nonsense", maxLength: "5" }, b: { pattern: "([" }, c: { $ref: "#/x" } } };
    const base = "/spec/versions/0/schema/openAPIV3Schema";
    for (const limit of [1, 2, 3, 4, 20]) expect(schemaProblems(bad, base, limit)).toEqual(checkSchema(bad, base, limit));
    expect(schemaProblems(bad, base, 1)[0]).not.toEqual(checkSchema(bad, base)[0]);
    expect(schemaProblems(bad, base)).toEqual(checkSchema(bad, base));
    // another base: pointers under it
    expect(schemaProblems(bad, "/openAPIV3Schema")).toEqual(checkSchema(bad, "/openAPIV3Schema"));
    expect(schemaProblems(bad, base, 1)).toEqual(checkSchema(bad, base, 1));
    expect(schemaProblems({ type: "object" }, base)).toEqual([]);
    expect(schemaProblems("x", base)).toEqual(checkSchema("x", base));
  });

  it("answers as checkSchema does on generated schemas, whichever limit is asked first", () => {
    const leaf = fc.record(
      {
        type: fc.constantFrom("string", "integer", "nonsense", 3),
        maxLength: fc.constantFrom(1, "5", -1),
        pattern: fc.constantFrom("^a$", "([", "(?=a)"),
        enum: fc.constantFrom(["a"], "x"),
        $ref: fc.constant("#/x"),
        "x-kubernetes-validations": fc.constantFrom([{ rule: "true" }], [null], [{ rule: "" }], "r"),
      },
      { requiredKeys: [] },
    );
    const schema = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leaf, fc.record({ type: fc.constant("object"), properties: fc.dictionary(fc.constantFrom("a", "b", "c", "d"), tie("node"), { maxKeys: 4 }) }), fc.record({ type: fc.constant("array"), items: tie("node") }), fc.constant(null)),
    })).node;
    fc.assert(
      fc.property(schema, fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 4 }), (s, limits) => {
        const root = { type: "object", properties: { spec: s } };
        for (const limit of limits) expect(schemaProblems(root, "/b", limit)).toEqual(checkSchema(root, "/b", limit));
      }),
      { numRuns: 500 },
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cloneWithoutNulls } from "./nulls.ts";

// What Go's decoder sees, written the slow and obvious way: every object property set to null dropped, at any
// depth; null list items kept (a list item is not a field).
function reference(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reference);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, reference(x)]));
}

describe("cloneWithoutNulls", () => {
  it("drops null properties at any depth and keeps null list items", () => {
    const input = { a: null, b: [null, { c: null, d: 1 }], e: { f: { g: null } }, h: "x" };
    expect(cloneWithoutNulls(input)).toEqual({ b: [null, { d: 1 }], e: { f: {} }, h: "x" });
    expect(input.a).toBeNull(); // the input is not changed
  });

  it("returns the object itself when no property is null, also with null list items", () => {
    const input = { a: [null, 1, [null]], b: { c: "d" } };
    expect(cloneWithoutNulls(input)).toBe(input);
  });

  it("copies a `__proto__` key as an own property, not as the copy's prototype", () => {
    const input = JSON.parse('{"__proto__":{"x":1},"a":null}') as object;
    const out = cloneWithoutNulls(input) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.x).toBeUndefined();
  });

  it("equals the obvious copy on any JSON value (and is the input itself exactly when nothing is dropped)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const out = cloneWithoutNulls(v);
        expect(out).toStrictEqual(reference(v));
        expect(out === v).toBe(JSON.stringify(reference(v)) === JSON.stringify(v));
      }),
      { numRuns: 2000 },
    );
  });
});

// CelEvaluator: findings worded like the API server's, and memoised results that never mix up two rules.
import { describe, expect, it, vi } from "vitest";
import type { CelTask, ValidationRule } from "../schema/walk.ts";
import { CelEvaluator } from "./evaluate.ts";

const plain = (v: unknown): unknown => (typeof v === "bigint" ? Number(v) : Array.isArray(v) ? v.map(plain) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v);
const task = (self: unknown, rules: ValidationRule[], path = "/spec/x"): CelTask => ({ path, rules, self, value: plain(self), hasOld: false, type: "string" });

describe("CelEvaluator", () => {
  it("reports false, errors and non-bool results with the rule's message, reason and field path", () => {
    const cel = new CelEvaluator();
    const rules: ValidationRule[] = [
      { rule: "self != 'bad'", message: "must not be bad" },
      { rule: "self != 'bad'", message: "also not bad", reason: "FieldValueForbidden", fieldPath: ".inner" },
      { rule: "self.missing == 1" },
      { rule: "size(self)" },
    ];
    expect(cel.evaluate([task("bad", rules)])).toEqual([
      { severity: "error", path: "/spec/x", message: 'Invalid value: "bad": must not be bad', rule: "cel:self != 'bad'" },
      { severity: "error", path: "/spec/x/inner", message: "Forbidden: also not bad", rule: "cel:self != 'bad'" },
      { severity: "error", path: "/spec/x", message: expect.stringMatching(/^Invalid value: "string": .+ evaluating rule: self.missing == 1$/), rule: "cel:self.missing == 1" },
      { severity: "error", path: "/spec/x", message: 'Invalid value: "string": rule did not evaluate to a bool', rule: "cel:size(self)" },
    ]);
  });

  it("gives the same findings for a scalar self seen again (memoised), per rule object, at each task's own path", () => {
    const cel = new CelEvaluator();
    const a: ValidationRule = { rule: "self.startsWith('ok')", message: "message A" };
    const b: ValidationRule = { rule: "self.startsWith('ok')", messageExpression: "'message B for ' + self" };
    const first = cel.evaluate([task("nope", [a, b], "/spec/one")]);
    const again = cel.evaluate([task("nope", [a, b], "/spec/two"), task("ok-value", [a, b], "/spec/three")]);
    // the offending value stands where the API server prints the type ("string"): see readable.ts
    expect(first.map((f) => f.message)).toEqual(['Invalid value: "nope": message A', 'Invalid value: "nope": message B for nope']);
    expect(again).toEqual(first.map((f) => ({ ...f, path: "/spec/two" })));
    expect(cel.stats.evaluated).toBe(6);
  });

  it("memoises list and object values by content, not by identity", () => {
    const cel = new CelEvaluator();
    const r: ValidationRule = { rule: "self.all(x, x.n < 3)", message: "n must be below 3" };
    const ok = [{ n: 1n }, { n: 2n }];
    const bad = [{ n: 1n }, { n: 5n }];
    expect(cel.evaluate([task(ok, [r]), task(structuredClone(ok), [r])])).toEqual([]);
    expect(cel.evaluate([task(bad, [r], "/a"), task(structuredClone(bad), [r], "/b"), task(ok, [r], "/c")]).map((f) => f.path)).toEqual(["/a", "/b"]);
    // with a -0 about (JSON cannot tell it from 0), objects are evaluated, not looked up
    const signed: ValidationRule = { rule: "self.all(x, 1.0 / x.d > 0.0)" };
    expect(cel.evaluate([task([{ d: 0 }], [signed])])).toEqual([]);
    expect(cel.evaluate([task([{ d: -0 }], [signed])], false)).toHaveLength(1);
  });

  it("stops making memo keys for a rule whose object values do not recur, after a few of them", () => {
    const cel = new CelEvaluator();
    const onObjects: ValidationRule = { rule: "self.minSize <= self.size", message: "minSize must not exceed size" };
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      const findings = cel.evaluate(Array.from({ length: 100 }, (_, i) => task({ size: BigInt(i), minSize: BigInt(i % 7 === 0 ? i + 1 : i) }, [onObjects], `/o/${i}`)));
      // every value was still evaluated, to the same findings
      expect(findings.map((f) => f.path)).toEqual(Array.from({ length: 100 }, (_, i) => i).filter((i) => i % 7 === 0).map((i) => `/o/${i}`));
      expect(cel.stats.evaluated).toBe(100);
      // a key (the value's JSON) for the first values only
      expect(stringify.mock.calls.length).toBeLessThanOrEqual(16);
    } finally {
      stringify.mockRestore();
    }
  });

  it("keeps a number and a string with the same text apart", () => {
    const cel = new CelEvaluator();
    const r: ValidationRule = { rule: "string(self) == '1'" };
    expect(cel.evaluate([task(1n, [r])])).toEqual([]);
    expect(cel.evaluate([task("1", [r])])).toEqual([]);
    expect(cel.evaluate([task(2n, [r])])).toHaveLength(1);
  });
});

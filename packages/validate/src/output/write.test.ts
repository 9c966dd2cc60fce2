// writeReport writes, in chunks, exactly what formatReport returns, for every format.
import { describe, expect, it } from "vitest";
import type { Report, ResourceResult } from "../types.ts";
import { formatReport, OUTPUT_FORMATS } from "./format.ts";
import { JSON_BATCH, writeJson, writeReport } from "./write.ts";

const resource = (i: number): ResourceResult => ({
  file: `dir/f${Math.floor(i / 100)}.yaml`,
  index: i % 100,
  apiVersion: "karpenter.sh/v1",
  kind: "NodePool",
  name: `p-${i}`,
  namespace: i % 3 === 0 ? "ns" : "",
  status: i % 10 === 0 ? "invalid" : i % 17 === 0 ? "skipped" : "valid",
  findings:
    i % 10 === 0
      ? [
          { severity: "error", path: "/spec/x", message: 'unknown field "spec.x" <&>', rule: "schema:additionalProperties", hint: "remove it", line: 3 + i, column: 5 },
          { severity: "error", path: "/spec/limits", message: "Invalid value: bad", rule: "cel:self.cpu > 0" },
        ]
      : i % 17 === 0
        ? [{ severity: "warning", path: "", message: "no schema; skipped", rule: "schema:missing" }]
        : [],
});
const report = (n: number): Report => {
  const resources = Array.from({ length: n }, (_, i) => resource(i));
  const count = (s: string) => resources.filter((r) => r.status === s).length;
  return { summary: { resources: n, valid: count("valid"), invalid: count("invalid"), error: 0, skipped: count("skipped") }, resources, stats: { transitionRulesSkipped: 1, celRulesEvaluated: 9 } };
};

describe("writeReport", () => {
  it.each(OUTPUT_FORMATS)("writes %s byte for byte as formatReport, in chunks", (format) => {
    // JSON resources are written a batch at a time: a whole batch, one more, and a last batch cut short too
    for (const n of [0, 1, JSON_BATCH, JSON_BATCH + 1, 3000]) {
      const chunks: string[] = [];
      writeReport(report(n), format, { verbose: true }, (c) => chunks.push(c));
      expect(chunks.join("")).toBe(formatReport(report(n), format, { verbose: true }));
      if (n === 3000 && format !== "text" && format !== "github") expect(chunks.length).toBeGreaterThan(1);
    }
  });
});

describe("writeJson", () => {
  it("equals JSON.stringify(value, null, 2) at any streaming depth", () => {
    const value = { a: [], b: {}, c: [1, { d: [true, null, "x\ny"], e: undefined }], f: { g: { h: [[]] } }, "k\"ey": 1.5 };
    for (const depth of [0, 1, 2, 5]) {
      const parts: string[] = [];
      writeJson(value, (s) => parts.push(s), 0, depth);
      expect(parts.join("")).toBe(JSON.stringify(value, null, 2));
    }
  });
});

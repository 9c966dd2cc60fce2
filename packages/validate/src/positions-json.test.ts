// locateFindings takes the reader's word that a text is plain JSON (LoadedDocuments.json): the flow scanner's
// whole-text check (isFlowDocument) is then not made. A file of its own: the check is watched through a module mock.
import { describe, expect, it, vi } from "vitest";
import * as flow from "./positions-flow.ts";
import { locateFindings } from "./positions.ts";
import type { ResourceResult } from "./types.ts";

vi.mock("./positions-flow.ts", async (original) => {
  const real = await original<typeof import("./positions-flow.ts")>();
  return { ...real, isFlowDocument: vi.fn(real.isFlowDocument) };
});

describe("locateFindings told a text is plain JSON", () => {
  it("skips the whole-text scan, and places the findings where it would have", () => {
    const text = `${JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { k: 1 } }, null, 2)}\n`;
    const result: ResourceResult = { file: "c.json", index: 0, apiVersion: "v1", kind: "ConfigMap", name: "a", namespace: "", status: "invalid", findings: [{ severity: "error", path: "/data/k", message: "m", rule: "schema:type" }] };
    const scan = vi.mocked(flow.isFlowDocument);
    scan.mockClear();
    const scanned = locateFindings(text, [result]);
    expect(scan).toHaveBeenCalledTimes(1);
    scan.mockClear();
    const told = locateFindings(text, [result], true);
    expect(scan).not.toHaveBeenCalled();
    expect(told).toEqual(scanned);
    expect(told[0]?.findings[0]).toMatchObject({ line: 8, column: 5 });
  });
});

import type { CostReport } from "@eks-gitops/capacity";
import { describe, expect, it } from "vitest";
import { costTable } from "./cost.ts";

const report = (hourly: number, sources = ["src (2026-01-01)"], unpriced: string[] = []): CostReport => ({ lines: [], hourly, monthly: Math.round(hourly * 730 * 1e6) / 1e6, sources, unpriced });

describe("the cost table of the PR comment", () => {
  it("shows base, head and the signed change per hour and per month at HPA min and max, then the sources", () => {
    const md = costTable({ min: report(1), max: report(2) }, { min: report(1), max: report(1.5, ["other | source (2026-02-02)"], ["NodeClaim default-1 x9.big"]) });
    expect(md).toBe(
      [
        "| cost (USD) | base | head | change |",
        "|---|---:|---:|---:|",
        "| per hour at HPA min | $1.00 | $1.00 | $0.00 |",
        "| per month at HPA min | $730.00 | $730.00 | $0.00 |",
        "| per hour at HPA max | $2.00 | $1.50 | -$0.50 |",
        "| per month at HPA max | $1460.00 | $1095.00 | -$365.00 |",
        "",
        "Prices: other \\| source (2026-02-02); src (2026-01-01). NodeClaims at the offering Karpenter most likely launches (cheapest compatible).",
        "",
        "Not priced (no source has the type): NodeClaim default-1 x9.big.",
        "",
      ].join("\n"),
    );
  });
  it("a new cluster has no base column values", () => {
    expect(costTable(undefined, { min: report(1), max: report(1) })).toContain("| per month at HPA max | - | $730.00 | new |\n");
  });
});

import { describe, expect, it } from "vitest";
import { costOf, HOURS_PER_MONTH, KARPENTER_PRICES_SOURCE } from "./cost.ts";
import { KARPENTER_PRICE_TABLE } from "./karpenter-prices.generated.ts";
import { formatSimulation } from "./report.ts";
import { simulate } from "./simulate.ts";
import { labInput } from "./testing/lab.ts";
import { labSnapshot } from "./testing/region-snapshot.ts";

const snapshot = labSnapshot();

describe("cost of the eksworkshop lab at 12 replicas", () => {
  const r = simulate(labInput(12), snapshot);

  it("without snapshot prices, uses Karpenter's built-in table: the cheapest listed candidate, and says so with its date", () => {
    const cost = costOf(r, snapshot);
    const claim = cost.lines.find((l) => l.kind === "nodeClaim")!;
    const table = KARPENTER_PRICE_TABLE.onDemand;
    const cheapest = Math.min(...r.nodeClaims[0]!.instanceTypes.map((t) => table[t] ?? Number.POSITIVE_INFINITY));
    expect(claim.quote?.price).toBe(cheapest);
    expect(table[claim.instanceType]).toBe(cheapest);
    expect(claim.capacityType).toBe("spot");
    expect(claim.quote?.source).toBe(`${KARPENTER_PRICES_SOURCE}, used for ap-southeast-1 as Karpenter does before it reaches the Pricing API`);
    expect(claim.quote?.date).toBe("2026-07-06");
    const group = cost.lines.find((l) => l.kind === "nodeGroup")!;
    expect([group.name, group.count, group.instanceType, group.hourly]).toEqual(["ng-ondemand", 3, "t3.2xlarge", 3 * table["t3.2xlarge"]!]);
    expect(cost.hourly).toBeCloseTo(cheapest + 3 * table["t3.2xlarge"]!, 6);
    expect(cost.monthly).toBeCloseTo(cost.hourly * HOURS_PER_MONTH, 4);
    expect(cost.unpriced).toEqual([]);
  });

  it("with snapshot prices, prices the NodeClaim at its cheapest offering and names the snapshot's source and time", () => {
    const priced = {
      ...snapshot,
      pricesSource: "test prices",
      pricesTakenAt: "2026-12-03T10:00:00Z",
      instanceTypes: snapshot.instanceTypes.map((t) => ({
        ...t,
        offerings: t.offerings.map((o) => ({ ...o, price: t.name === "c5.2xlarge" && o.capacityType === "spot" ? 0.1 : 2 })),
      })),
    };
    const cost = costOf(simulate(labInput(12), priced), priced);
    expect(cost.lines.map((l) => [l.name, l.instanceType, l.capacityType, l.hourly, l.quote?.source, l.quote?.date])).toEqual([
      ["default-1", "c5.2xlarge", "spot", 0.1, "test prices", "2026-12-03T10:00:00Z"],
      ["ng-ondemand", "t3.2xlarge", "on-demand", 6, "test prices", "2026-12-03T10:00:00Z"],
    ]);
    expect(cost.hourly).toBe(6.1);
  });

  it("reports a type no source prices as unpriced, out of the totals", () => {
    const odd = { ...r, nodeClaims: [], nodes: r.nodes.map((n) => ({ ...n, instanceType: "zz9.huge" })) };
    const cost = costOf(odd, snapshot);
    expect(cost.hourly).toBe(0);
    expect(cost.unpriced).toEqual(["node group ng-ondemand zz9.huge"]);
  });

  it("shows every price beside its source and date in text and markdown", () => {
    const cost = [{ at: "HPA max", report: costOf(r, snapshot) }];
    const text = formatSimulation(r, "text", { cost });
    expect(text).toMatch(/NodeClaim default-1 +1 x \S+ spot +\$0\.\d{4}\/h +\$\d+\.\d+\/month +\[1\]\n/);
    expect(text).toContain("\n  [1] Karpenter v1.14.1 built-in on-demand table (us-east-1), used for ap-southeast-1 as Karpenter does before it reaches the Pricing API (2026-07-06)\n");
    const md = formatSimulation(r, "markdown", { cost });
    expect(md).toContain("### Cost");
    expect(md).toMatch(/\| node group ng-ondemand \| 3 x t3\.2xlarge on-demand \| \$0\.9984\/h \| \$728\.83\/month \| Karpenter v1\.14\.1/);
    expect(JSON.parse(formatSimulation(r, "json", { cost })).cost[0].report.hourly).toBe(cost[0]!.report.hourly);
  });
});

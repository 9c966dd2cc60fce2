import { describe, expect, it } from "vitest";
import { budgetNodes, describeSchedule, driftBudgets } from "./budgets.ts";

describe("disruption budgets for drift", () => {
  it("defaults to the CRD's 10%, rounded up as Karpenter does", () => {
    const b = driftBudgets(undefined);
    expect(b.sentences).toEqual(["at most 10% of the NodePool's NodeClaims at a time"]);
    expect(b.allowedAt(3)).toBe(1);
    expect(b.allowedAt(25)).toBe(3);
    expect(b.allowedAt(0)).toBe(0);
  });

  it("takes the smallest always-active budget and words scheduled ones", () => {
    const b = driftBudgets([
      { nodes: "1" },
      { nodes: "20%", reasons: ["Drifted", "Underutilized"] },
      { nodes: "0", schedule: "0 9 * * mon-fri", duration: "8h" },
      { nodes: "5", reasons: ["Empty"] },
    ]);
    expect(b.sentences).toEqual([
      "at most 1 NodeClaim at a time",
      "at most 20% of the NodePool's NodeClaims at a time (reasons: Drifted, Underutilized)",
      "no NodeClaim replaced between 09:00 and 17:00 UTC, Mon-Fri",
    ]);
    expect(b.allowedAt(50)).toBe(1);
  });

  it("counts percentages and node numbers", () => {
    expect(budgetNodes("10%", 5)).toBe(1);
    expect(budgetNodes("0%", 5)).toBe(0);
    expect(budgetNodes("3", 5)).toBe(3);
  });

  it("quotes a schedule it cannot put in words", () => expect(describeSchedule("*/5 1-3 1 * *", "1h")).toBe("during the schedule `*/5 1-3 1 * *` (UTC) for 1h"));
});

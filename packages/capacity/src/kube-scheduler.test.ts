import { describe, expect, it } from "vitest";
import { labelsMatch, tolerates, untolerated } from "./kube-scheduler.ts";

const node = new Map([
  ["kubernetes.io/arch", "amd64"],
  ["eks.amazonaws.com/capacityType", "ON_DEMAND"],
  ["cores", "8"],
]);

describe("node selector and required node affinity, as kube-scheduler reads them", () => {
  it("matches each operator", () => {
    const m = (operator: "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt", key: string, values?: string[]) =>
      labelsMatch(node, {}, [{ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] }]);
    expect(m("In", "eks.amazonaws.com/capacityType", ["ON_DEMAND"])).toBe(true);
    expect(m("In", "eks.amazonaws.com/capacityType", ["SPOT"])).toBe(false);
    expect(m("NotIn", "absent", ["x"])).toBe(true);
    expect(m("Exists", "cores")).toBe(true);
    expect(m("DoesNotExist", "karpenter.sh/nodepool")).toBe(true);
    expect(m("Gt", "cores", ["4"])).toBe(true);
    expect(m("Lt", "cores", ["8"])).toBe(false);
    expect(m("Gt", "kubernetes.io/arch", ["1"])).toBe(false);
  });

  it("ORs terms, ANDs expressions, and needs every nodeSelector label", () => {
    expect(labelsMatch(node, { "kubernetes.io/arch": "arm64" }, undefined)).toBe(false);
    expect(labelsMatch(node, {}, [{ matchExpressions: [{ key: "cores", operator: "Lt", values: ["4"] }] }, { matchExpressions: [{ key: "cores", operator: "Exists" }] }])).toBe(true);
    expect(labelsMatch(node, {}, [{ matchExpressions: [] }])).toBe(false);
  });
});

describe("taints and tolerations", () => {
  const taint = { key: "dedicated", value: "web", effect: "NoSchedule" as const };
  it("tolerates by key/value/effect or Exists", () => {
    expect(tolerates([{ key: "dedicated", value: "web", effect: "NoSchedule" }], taint)).toBe(true);
    expect(tolerates([{ key: "dedicated", value: "db" }], taint)).toBe(false);
    expect(tolerates([{ key: "dedicated", operator: "Exists" }], taint)).toBe(true);
    expect(tolerates([{ operator: "Exists" }], taint)).toBe(true);
    expect(tolerates([{ key: "dedicated", operator: "Exists", effect: "NoExecute" }], taint)).toBe(false);
  });
  it("PreferNoSchedule never blocks", () => {
    expect(untolerated([{ key: "a", effect: "PreferNoSchedule" }, taint], [])).toEqual(taint);
    expect(untolerated([{ key: "a", effect: "PreferNoSchedule" }], [])).toBeUndefined();
  });
});

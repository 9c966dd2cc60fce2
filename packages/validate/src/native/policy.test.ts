// PodDisruptionBudget native checks with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { POLICY } from "./policy.ts";
import { runNative } from "./testing.ts";

const pdb = (spec: Record<string, unknown>) => ({ apiVersion: "policy/v1", kind: "PodDisruptionBudget", metadata: { name: "web", namespace: "shop" }, spec });

describe("PodDisruptionBudget", () => {
  it("accepts a count or a percentage", () => {
    expect(runNative(POLICY, pdb({ minAvailable: 1, selector: { matchLabels: { app: "web" } } }))).toEqual([]);
    expect(runNative(POLICY, pdb({ maxUnavailable: "25%", selector: {} }))).toEqual([]);
  });

  it("refuses minAvailable with maxUnavailable, negative counts, bad or >100% percentages, bad selectors", () => {
    expect(runNative(POLICY, pdb({ minAvailable: 1, maxUnavailable: 1 }))).toEqual([
      '/spec spec: Invalid value: {"MinAvailable":1,"Selector":null,"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set [native:policy/pdb-min-max]',
    ]);
    expect(runNative(POLICY, pdb({ minAvailable: -1 }))).toEqual(["/spec/minAvailable spec.minAvailable: Invalid value: -1: must be greater than or equal to 0 [native:policy/pdb-min-available]"]);
    expect(runNative(POLICY, pdb({ maxUnavailable: "150%" }))).toEqual(['/spec/maxUnavailable spec.maxUnavailable: Invalid value: "150%": must not be greater than 100% [native:policy/pdb-max-unavailable]']);
    expect(runNative(POLICY, pdb({ maxUnavailable: "half" }))).toEqual([
      "/spec/maxUnavailable spec.maxUnavailable: Invalid value: \"half\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%') [native:policy/pdb-max-unavailable]",
    ]);
    expect(runNative(POLICY, pdb({ selector: { matchExpressions: [{ key: "app", operator: "In" }] } }))).toEqual([
      "/spec/selector/matchExpressions/0/values spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn' [native:meta/label-selector]",
    ]);
  });
});

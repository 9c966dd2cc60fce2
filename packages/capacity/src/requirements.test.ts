import { describe, expect, it } from "vitest";
import { Requirement, Requirements } from "./requirements.ts";

describe("Requirement", () => {
  it("Gt / Lt / Gte / Lte bound integer values", () => {
    const gt = Requirement.of("karpenter.k8s.aws/instance-generation", "Gt", ["2"]);
    expect([gt.has("3"), gt.has("2"), gt.has("x")]).toEqual([true, false, false]);
    expect(Requirement.of("k", "Lt", ["4"]).has("3")).toBe(true);
    expect(Requirement.of("k", "Lt", ["4"]).has("4")).toBe(false);
    expect(Requirement.of("k", "Gte", ["4"]).has("4")).toBe(true);
    expect(Requirement.of("k", "Lte", ["4"]).has("5")).toBe(false);
    expect(() => Requirement.of("k", "Gt", ["two"])).toThrow('k Gt: needs one integer value (got ["two"])');
  });

  it("intersects sets, complements and bounds", () => {
    const a = Requirement.of("k", "In", ["a", "b"]).intersection(Requirement.of("k", "NotIn", ["b"]));
    expect(a.operator()).toBe("In");
    expect([...a.values]).toEqual(["a"]);
    const none = Requirement.of("k", "Gt", ["5"]).intersection(Requirement.of("k", "Lt", ["3"]));
    expect(none.operator()).toBe("DoesNotExist");
    const bounded = Requirement.of("k", "In", ["1", "4", "9"]).intersection(Requirement.of("k", "Gt", ["2"]));
    expect([...bounded.values]).toEqual(["4", "9"]);
    expect(Requirement.of("k", "Exists").hasIntersection(Requirement.of("k", "DoesNotExist"))).toBe(false);
    expect(Requirement.of("k", "NotIn", ["a"]).hasIntersection(Requirement.of("k", "NotIn", ["b"]))).toBe(true);
  });

  it("reads deprecated keys as their stable names", () => {
    expect(Requirement.of("beta.kubernetes.io/arch", "In", ["amd64"]).key).toBe("kubernetes.io/arch");
  });
});

describe("Requirements", () => {
  const pool = Requirements.fromSelectors([
    { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
    { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] },
  ]).addAll(Requirements.fromLabels({ intent: "apps" }));

  it("accepts well-known keys the NodePool leaves open and custom keys it defines", () => {
    expect(pool.compatible(Requirements.fromLabels({ "topology.kubernetes.io/zone": "ap-southeast-1a" }))).toBeUndefined();
    expect(pool.compatible(Requirements.fromLabels({ intent: "apps" }))).toBeUndefined();
    expect(pool.compatible(Requirements.fromSelectors([{ key: "team", operator: "NotIn", values: ["x"] }]))).toBeUndefined();
  });

  it("says why a pod cannot go there", () => {
    expect(pool.compatible(Requirements.fromLabels({ team: "a" }))).toBe('label "team" does not have known values');
    expect(pool.compatible(Requirements.fromLabels({ "kubernetes.io/arch": "arm64" }))).toBe("key kubernetes.io/arch, kubernetes.io/arch In [arm64] not in kubernetes.io/arch In [amd64]");
    expect(pool.compatible(Requirements.fromLabels({ intent: "batch" }))).toBe("key intent, intent In [batch] not in intent In [apps]");
  });

  it("lets two exclusions of a key agree even without a common value", () => {
    const a = Requirements.fromSelectors([{ key: "k", operator: "DoesNotExist" }]);
    expect(a.intersects(Requirements.fromSelectors([{ key: "k", operator: "NotIn", values: ["x"] }]))).toBeUndefined();
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { amiFamily, ec2NodeClassHash, nodePoolHash } from "./karpenter-hash.ts";

// Captured from Karpenter v1.14.1's own Go code by karpenter-hash.peer.test.ts (pnpm e2e), which also checks it still holds.
const fixture = JSON.parse(readFileSync(new URL("./testing/hash-fixture.json", import.meta.url), "utf8")) as {
  cases: { kind: string; object: unknown; caBundle?: string }[];
  hashes: string[];
};

describe("Karpenter v1.14.1 hashes", () => {
  it("equal the Go peer's on the committed fixture", () => {
    expect(fixture.cases.length).toBe(60);
    expect(fixture.cases.map((c) => (c.kind === "NodePool" ? nodePoolHash(c.object) : ec2NodeClassHash(c.object, c.caBundle)))).toEqual(fixture.hashes);
  });

  const np = (template: unknown, extra: object = {}) => ({ kind: "NodePool", spec: { template, ...extra } });
  const base = { metadata: { labels: { intent: "apps" } }, spec: { expireAfter: "720h", nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" } } };

  it("covers spec.template only: requirements, weight, limits and disruption do not change it", () => {
    const h = nodePoolHash(np(base));
    expect(nodePoolHash(np({ ...base, spec: { ...base.spec, requirements: [{ key: "a", operator: "Exists" }] } }, { weight: 5, limits: { cpu: "1" } }))).toBe(h);
    expect(nodePoolHash(np({ ...base, metadata: { labels: { intent: "batch" } } }))).not.toBe(h);
  });

  it("tells nil from empty, and a duration by its value (1h30m = 90m)", () => {
    const withTaints = (taints: unknown) => nodePoolHash(np({ ...base, spec: { ...base.spec, taints } }));
    expect(withTaints(null)).toBe(nodePoolHash(np(base)));
    expect(withTaints([])).not.toBe(nodePoolHash(np(base)));
    const expire = (e: string) => nodePoolHash(np({ ...base, spec: { ...base.spec, expireAfter: e } }));
    expect(expire("1h30m")).toBe(expire("90m"));
    expect(expire("Never")).toBe(nodePoolHash(np({ ...base, spec: { nodeClassRef: base.spec.nodeClassRef } })));
  });

  it("hashes the resolved AMI family, not the alias version", () => {
    const nc = (alias: string) => ({ kind: "EC2NodeClass", spec: { role: "R", amiSelectorTerms: [{ alias }] } });
    expect(amiFamily(nc("bottlerocket@latest"))).toBe("Bottlerocket");
    expect(ec2NodeClassHash(nc("al2023@latest"))).toBe(ec2NodeClassHash(nc("al2023@v20251101")));
    expect(ec2NodeClassHash(nc("al2023@latest"))).not.toBe(ec2NodeClassHash(nc("bottlerocket@latest")));
  });
});

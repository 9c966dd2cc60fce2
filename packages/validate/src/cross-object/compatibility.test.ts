// Tests of the Karpenter/Kubernetes compatibility lookup.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KARPENTER_MIN_VERSION_FOR_KUBERNETES, karpenterCompatibility, kubernetesMinor } from "./compatibility.ts";

describe("karpenterCompatibility", () => {
  it("needs Karpenter >= 1.13 on Kubernetes 1.36", () => {
    expect(karpenterCompatibility("1.36", "1.14.1")).toEqual({ status: "supported", minimum: "1.13.0" });
    expect(karpenterCompatibility("1.36", "1.13.0")).toEqual({ status: "supported", minimum: "1.13.0" });
    expect(karpenterCompatibility("v1.36.2", "1.12.9")).toEqual({ status: "unsupported", minimum: "1.13.0" });
  });
  it("compares patch versions where the table has them (1.31 needs 1.0.5)", () => {
    expect(karpenterCompatibility("1.31", "1.0.4").status).toBe("unsupported");
    expect(karpenterCompatibility("1.31", "v1.0.5").status).toBe("supported");
    expect(karpenterCompatibility("1.30", "0.37.0").status).toBe("supported");
    expect(karpenterCompatibility("1.35", "1.8.6").status).toBe("unsupported");
  });
  it("says unknown for Kubernetes versions outside the table", () => {
    expect(karpenterCompatibility("1.37", "1.14.1")).toEqual({ status: "unknown", known: ["1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36"] });
    expect(karpenterCompatibility("1.29", "1.14.1").status).toBe("unknown");
  });
  it("rejects a chart version that is not x.y.z", () => {
    expect(() => karpenterCompatibility("1.36", "latest")).toThrow("'latest' is not a Karpenter version (expected x.y.z)");
  });
  it("reads the minor from EKS-style versions", () => {
    expect(kubernetesMinor("v1.36.1-eks-3b2c1a")).toBe("1.36");
    expect(kubernetesMinor("1.36")).toBe("1.36");
    expect(kubernetesMinor("one")).toBeUndefined();
  });
});

// The table is data in code; this compares it with Karpenter's published matrix where the mirror is available.
const MATRIX_DOC = "aws/karpenter-provider-aws/1d927085dd81a9df9301e613f371dac5b4d16bfe/website/content/en/v1.14/upgrading/compatibility.md";
const mirror = process.env.EKS_GITOPS_MIRROR;
describe.skipIf(!mirror || !existsSync(join(mirror, MATRIX_DOC)))("KARPENTER_MIN_VERSION_FOR_KUBERNETES", () => {
  it("matches the compatibility matrix of the Karpenter v1.14 docs", () => {
    const text = readFileSync(join(mirror!, MATRIX_DOC), "utf8");
    const rows = text.split("\n").filter((l) => /^\|\s*(Kubernetes|karpenter)\s*\|/.test(l));
    const cells = (row: string) => row.split("|").slice(2, -1).map((c) => c.trim());
    const [kube, karpenter] = rows.map(cells) as [string[], string[]];
    const published = Object.fromEntries(kube.map((k, i) => [k, karpenter[i]!.replace(/^\\?>=\s*/, "")]));
    const ours = Object.fromEntries(Object.entries(KARPENTER_MIN_VERSION_FOR_KUBERNETES).map(([k, v]) => [k, v.replace(/\.0$/, "")]));
    expect(ours).toEqual(published);
  });
});

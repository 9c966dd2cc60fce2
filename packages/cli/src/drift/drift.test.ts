import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeDrift, paceOf } from "./drift.ts";
import { formatDriftMarkdown, formatDriftText } from "./format.ts";

const ROOT = new URL("../../../../", import.meta.url);
const NP = "clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml";
const NC = "clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.k8s.aws_v1_ec2nodeclass_default.yaml";
const read = (p: string) => readFileSync(new URL(p, ROOT), "utf8");
const tree = (np: string, nc: string) => new Map([[NP, np], [NC, nc]]);
const base = tree(read(NP), read(NC));

describe("analyzeDrift on the eksworkshop NodePool and EC2NodeClass", () => {
  it("an AMI alias bump drifts once Karpenter resolves the new AMI; the static hash stays", () => {
    const [f, ...rest] = analyzeDrift(base, tree(read(NP), read(NC).replace("al2023@latest", "al2023@v20251101")));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ kind: "EC2NodeClass", name: "default", verdict: "drifts-once-resolved", nodePools: ["default"] });
    expect(f!.hash!.base).toBe(f!.hash!.head);
    expect(f!.reasons[0]).toMatch(/^AMIDrift: spec.amiSelectorTerms al2023@latest -> al2023@v20251101: drifts once Karpenter resolves the new AMI/);
  });

  it("a template label drifts statically with the annotation values; weight and limits say they do not drift", () => {
    const head = tree(read(NP).replace("intent: apps", "intent: batch").replace('cpu: "1000"', 'cpu: "2000"'), read(NC));
    const [f] = analyzeDrift(base, head);
    expect(f).toMatchObject({ kind: "NodePool", verdict: "drifts", noDrift: ["spec.limits"] });
    expect(f!.hash).toMatchObject({ annotation: "karpenter.sh/nodepool-hash", version: "v3" });
    expect(f!.hash!.base).not.toBe(f!.hash!.head);
    expect(f!.reasons[0]).toMatch(/^NodePoolDrifted: spec.template changed \(template.metadata\)/);
  });

  it("limits alone: no drift; requirements: may drift", () => {
    expect(analyzeDrift(base, tree(read(NP).replace('cpu: "1000"', 'cpu: "2000"'), read(NC)))[0]).toMatchObject({ verdict: "no-drift" });
    expect(analyzeDrift(base, tree(read(NP).replace("- spot", "- on-demand"), read(NC)))[0]).toMatchObject({ verdict: "may-drift" });
  });

  it("a role change drifts every NodeClaim of the class; the pace follows the budgets", () => {
    const head = tree(read(NP), read(NC).replace("role: KarpenterNodeRole-eksworkshop", "role: Other"));
    const findings = analyzeDrift(base, head);
    expect(findings[0]).toMatchObject({ verdict: "drifts" });
    const pace = paceOf(findings, head, () => [{ at: "HPA maximum", count: 12 }]);
    expect(pace).toEqual([{ cluster: "eksworkshop", nodePool: "default", budgets: ["at most 10% of the NodePool's NodeClaims at a time"], nodeClaims: [{ at: "HPA maximum", count: 12, atOnce: 2 }] }]);
    const md = formatDriftMarkdown({ findings, pace });
    expect(md).toContain("| eksworkshop | EC2NodeClass `default` | replaces nodes | NodeClassDrift: spec.role changed (hashed)");
    expect(formatDriftText({ findings, pace })).toContain("Pace for NodePool eksworkshop/default: 12 NodeClaim(s) at HPA maximum (2 at a time)");
  });
});

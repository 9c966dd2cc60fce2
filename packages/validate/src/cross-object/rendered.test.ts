// The committed overlays (clusters/*/rendered) pass every cross-object check, with facts read from their cluster.ts.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadDocuments } from "../reader.ts";
import { crossObjectChecks, loadOverlayFacts } from "./index.ts";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));

describe("rendered overlays", () => {
  it("have no cross-object findings", async () => {
    const facts = await loadOverlayFacts(REPO);
    expect(facts.eksworkshop).toEqual({ clusterName: "eksworkshop", kubernetesVersion: "1.36", karpenterVersion: "1.14.1" });
    const docs = loadDocuments([`${REPO}clusters`], { cwd: REPO });
    expect(docs.resources.length).toBeGreaterThan(10);
    expect(docs.iam.length).toBeGreaterThan(3);
    expect(crossObjectChecks(docs.resources, { iam: docs.iam, overlays: facts })).toEqual([]);
  });

  it("checks each overlay against its own facts", async () => {
    const facts = await loadOverlayFacts(REPO, ["eksworkshop"]);
    const docs = loadDocuments([`${REPO}clusters/eksworkshop/rendered`], { cwd: REPO });
    // The same files claimed by another cluster: the names disagree with the overlay's.
    const findings = crossObjectChecks(docs.resources, { iam: docs.iam, overlays: { eksworkshop: { ...facts.eksworkshop, clusterName: "other" } } });
    expect(findings.map((f) => `${f.rule} ${f.file} ${f.path}`)).toEqual([
      "cluster-name-mismatch clusters/eksworkshop/rendered/argocd/argoproj.io_v1alpha1_application_argocd_eksworkshop-karpenter.yaml /spec/source/helm/valuesObject/settings/clusterName",
      "discovery-tag-mismatch clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.k8s.aws_v1_ec2nodeclass_default.yaml /spec/securityGroupSelectorTerms/0/tags/karpenter.sh~1discovery",
      "discovery-tag-mismatch clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.k8s.aws_v1_ec2nodeclass_default.yaml /spec/subnetSelectorTerms/0/tags/karpenter.sh~1discovery",
    ]);
  });
});

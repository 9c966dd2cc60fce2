// Loose files from several fixture folders checked in one run (as `validate <folder>` over a tree does): one group,
// where findings must not rest on an arbitrary pick among documents that disagree, nor repeat names.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadDocuments } from "../reader.ts";
import { crossObjectChecks } from "./index.ts";

const ROOT = fileURLToPath(new URL("../../fixtures/cross-object/", import.meta.url));
const checkTogether = (...folders: string[]) => {
  const docs = loadDocuments(folders.map((f) => join(ROOT, f)), { cwd: ROOT });
  expect(docs.unreadable).toEqual([]);
  return crossObjectChecks(docs.resources, { iam: docs.iam });
};

describe("cross-object checks over loose files of several folders", () => {
  it("compare discovery tags with the chart's cluster name only when the Karpenter Applications agree on one", () => {
    // discovery-tag-from-chart alone: its chart says 'eksworkshop', and the '*' subnet tag is flagged against it.
    const alone = checkTogether("discovery-tag-from-chart").filter((f) => f.rule === "discovery-tag-mismatch");
    expect(alone.map((f) => f.message)).toEqual([`EC2NodeClass default selects subnets tagged karpenter.sh/discovery="*", but the cluster is 'eksworkshop'`]);
    // With cluster-name-mismatch's chart ('eks-workshop') in the same group there is no one cluster name to compare with.
    const mixed = checkTogether("cluster-name-mismatch", "discovery-tag-from-chart");
    expect(mixed.filter((f) => f.rule === "discovery-tag-mismatch")).toEqual([]);
  });

  it("name a role once when several IAM indexes of the group define it", () => {
    const findings = checkTogether("nodeclass-role-mismatch", "valid-overlay").filter(
      (f) => f.rule === "nodeclass-role-mismatch" && f.file.endsWith("nodeclass-role-mismatch/ec2nodeclass.yaml"),
    );
    expect(findings).toHaveLength(1);
    // both indexes define the node role: both are named, the role once
    expect(findings[0]?.message).toBe(
      "EC2NodeClass default uses role 'KarpenterControllerRole-eksworkshop', but the node role defined in nodeclass-role-mismatch/iam/index.json, valid-overlay/iam/index.json (the role trusting the EC2 service) is 'KarpenterNodeRole-eksworkshop'",
    );
    const irsa = checkTogether("irsa-role-mismatch", "valid-overlay").filter((f) => f.rule === "irsa-role-mismatch" && f.file.startsWith("irsa-role-mismatch/"));
    expect(irsa).toHaveLength(1);
    expect(irsa[0]?.message).toMatch(/, but the controller role in irsa-role-mismatch\/iam\/index\.json, valid-overlay\/iam\/index\.json is arn:aws:iam::\d+:role\/KarpenterControllerRole-eksworkshop$/);
  });
});

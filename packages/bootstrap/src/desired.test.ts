// Reading the rendered IAM documents: the committed eksworkshop output, an optional queue policy entry, and errors.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadCluster } from "@eks-gitops/config";
import { describe, expect, it } from "vitest";
import { readDesired } from "./desired.ts";
import { CLUSTER, TEST_MANAGED_POLICY, writeOverlay } from "./testing/lab.ts";

const repo = resolve(import.meta.dirname, "../../..");

describe("readDesired", () => {
  it("reads the committed eksworkshop rendered/iam exactly as listed in index.json", async () => {
    const config = await loadCluster(repo, "eksworkshop");
    const d = readDesired(repo, config);
    expect(d.roles.map((r) => r.name)).toEqual(["KarpenterNodeRole-eksworkshop", "KarpenterControllerRole-eksworkshop"]);
    expect(d.roles[0]!.managedPolicyArns).toContain("arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly");
    expect(d.roles[0]!.trustPolicy).toEqual({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }] });
    expect(d.queue).toBeUndefined();
    // Every inline policy the index lists is read, whatever the policies package puts there.
    const index = JSON.parse(readFileSync(join(repo, "clusters/eksworkshop/rendered/iam/index.json"), "utf8"));
    expect(d.roles[1]!.inlinePolicies.map((p) => p.name)).toEqual(index.roles[1].inlinePolicies.map((p: { name: string }) => p.name));
  });

  it("takes the queue, its policy and rules, and customer managed policies from the index; refuses stale or escaping entries", async () => {
    const root = writeOverlay({ oidcIssuer: "https://oidc.eks.ap-southeast-1.amazonaws.com/id/X", vpcId: "vpc-1" });
    const config = await loadCluster(root, CLUSTER);
    const dir = join(root, "clusters", CLUSTER, "rendered", "iam");
    const d = readDesired(root, config);
    const q = d.queue!;
    expect(q.arn).toBe(`arn:aws:sqs:ap-southeast-1:123456789012:${CLUSTER}`);
    expect(q.policySource).toBe(join("clusters", CLUSTER, "rendered", "iam", `${CLUSTER}.queue-policy.json`));
    expect(q.policy).toEqual(JSON.parse(readFileSync(join(dir, `${CLUSTER}.queue-policy.json`), "utf8")));
    expect(q.attributes).toEqual({ MessageRetentionPeriod: "300", SqsManagedSseEnabled: "true" });
    expect(q.rules.map((r) => r.name)).toEqual(["ScheduledChange", "SpotInterruption", "Rebalance", "InstanceStateChange", "CapacityReservationInterruption"].map((x) => `Karpenter-${CLUSTER}-${x}`));
    expect(JSON.parse(q.rules[1]!.pattern)).toEqual({ source: ["aws.ec2"], "detail-type": ["EC2 Spot Instance Interruption Warning"] });
    const controller = d.roles.find((r) => r.name === config.controllerRole.name)!;
    expect(controller.customerManagedPolicies.map((p) => [p.name, p.arn])).toEqual([[TEST_MANAGED_POLICY, `arn:aws:iam::123456789012:policy/${TEST_MANAGED_POLICY}`]]);

    const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
    const shownIndex = join("clusters", CLUSTER, "rendered", "iam", "index.json");
    writeFileSync(join(dir, "index.json"), JSON.stringify({ roles: index.roles }));
    expect(() => readDesired(root, config)).toThrow(`${shownIndex}: queue: missing, but the overlay enables the interruption queue '${CLUSTER}'; run \`pnpm synth --cluster ${CLUSTER}\``);
    const escaping = structuredClone(index);
    escaping.roles[0].inlinePolicies = [{ name: "P", file: "../../cluster.ts" }];
    writeFileSync(join(dir, "index.json"), JSON.stringify(escaping));
    expect(() => readDesired(root, config)).toThrow(
      `${shownIndex}: roles[0].inlinePolicies[0].file: file '../../cluster.ts' is not in ${join("clusters", CLUSTER, "rendered", "iam")}; run \`pnpm synth --cluster ${CLUSTER}\``,
    );
    writeFileSync(join(dir, "index.json"), JSON.stringify({ ...index, roles: [index.roles[0]] }));
    expect(() => readDesired(root, config)).toThrow(`roles: no role '${config.controllerRole.name}'; run \`pnpm synth --cluster ${CLUSTER}\``);
  });
});

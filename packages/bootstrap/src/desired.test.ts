// Reading the rendered IAM documents: the committed eksworkshop output, an optional queue policy entry, and errors.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadCluster } from "@eks-gitops/config";
import { describe, expect, it } from "vitest";
import { readDesired } from "./desired.ts";

const repo = resolve(import.meta.dirname, "../../..");

describe("readDesired", () => {
  it("reads the committed eksworkshop rendered/iam exactly as listed in index.json", async () => {
    const config = await loadCluster(repo, "eksworkshop");
    const d = readDesired(repo, config);
    expect(d.roles.map((r) => r.name)).toEqual(["KarpenterNodeRole-eksworkshop", "KarpenterControllerRole-eksworkshop"]);
    expect(d.roles[0]!.managedPolicyArns).toContain("arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly");
    expect(d.roles[0]!.trustPolicy).toEqual({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }] });
    expect(d.queue).toBeUndefined();
  });

  it("uses a queue policy listed in the index, and Karpenter's standard one otherwise", async () => {
    const root = mkdtempSync(join(tmpdir(), "desired-"));
    const dir = join(root, "clusters", "q", "rendered", "iam");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(root, "clusters", "q", "cluster.ts"), `export default ${JSON.stringify({
      name: "q", account: "133129065110", region: "cn-north-1", kubernetesVersion: "1.36", oidcIssuer: "https://oidc.eks.cn-north-1.amazonaws.com.cn/id/X",
      karpenter: { version: "1.14.1", interruptionQueue: { name: "q-interruptions" } }, nodeClasses: [{ name: "default", amiSelectorTerms: [{ alias: "al2023@latest" }] }], nodePools: [{ name: "default", nodeClass: "default", requirements: [{ key: "kubernetes.io/arch", operator: "In", values: ["amd64"] }] }], argocd: { repoURL: "https://e.invalid/r.git" },
    })};\n`);
    const roles = ["KarpenterNodeRole-q", "KarpenterControllerRole-q"].map((name) => ({ name, arn: `arn:aws-cn:iam::133129065110:role/${name}`, description: "", trustPolicyFile: "t.json", managedPolicyArns: [], inlinePolicies: [] }));
    writeFileSync(join(dir, "t.json"), "{}");
    writeFileSync(join(dir, "index.json"), JSON.stringify({ roles }));
    const config = await loadCluster(root, "q");
    const standard = readDesired(root, config).queue!;
    expect(standard.arn).toBe("arn:aws-cn:sqs:cn-north-1:133129065110:q-interruptions");
    expect(standard.policySource).toBe("Karpenter's standard interruption queue policy");
    expect(JSON.stringify(standard.policy)).toContain('"events.amazonaws.com.cn"');
    expect(standard.rules.map((r) => r.name)).toEqual(["ScheduledChange", "SpotInterruption", "Rebalance", "InstanceStateChange", "CapacityReservationInterruption"].map((s) => `Karpenter-q-${s}`));

    writeFileSync(join(dir, "queue.json"), JSON.stringify({ Version: "2012-10-17", Statement: [{ Sid: "Rendered" }] }));
    writeFileSync(join(dir, "index.json"), JSON.stringify({ roles, queuePolicy: { name: "queue", file: "queue.json" } }));
    const rendered = readDesired(root, config).queue!;
    expect(rendered.policy).toEqual({ Version: "2012-10-17", Statement: [{ Sid: "Rendered" }] });
    expect(rendered.policySource).toBe(join("clusters", "q", "rendered", "iam", "queue.json"));

    writeFileSync(join(dir, "index.json"), JSON.stringify({ roles: [{ ...roles[0], inlinePolicies: [{ name: "P", file: "../../cluster.ts" }] }, roles[1]] }));
    expect(() => readDesired(root, config)).toThrow(
      `${join("clusters", "q", "rendered", "iam", "index.json")}: roles[0].inlinePolicies[0].file: file '../../cluster.ts' is not in ${join("clusters", "q", "rendered", "iam")}; run \`pnpm synth --cluster q\``,
    );
    writeFileSync(join(dir, "index.json"), JSON.stringify({ roles: [roles[0]] }));
    expect(() => readDesired(root, config)).toThrow(`roles: no role 'KarpenterControllerRole-q'; run \`pnpm synth --cluster q\``);
  });
});

import { describe, expect, it } from "vitest";
import eksworkshop from "../../../clusters/eksworkshop/cluster.ts";
import { ConfigError } from "./errors.ts";
import { checkCluster } from "./resolve.ts";
import type { ClusterInput } from "./types.ts";

const FILE = "clusters/eksworkshop/cluster.ts";

/** The eksworkshop overlay with one change applied; `as unknown` lets tests feed values the types forbid. */
function withChange(change: (c: Record<string, any>) => void): unknown {
  const copy = structuredClone(eksworkshop) as Record<string, any>;
  change(copy);
  return copy;
}

function problemsOf(input: unknown): string[] {
  try {
    checkCluster(input, FILE);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
  }
  throw new Error("expected a ConfigError");
}

describe("checkCluster defaults", () => {
  const c = checkCluster(eksworkshop, FILE);

  it("derives partition, principals and role ARNs from region and account", () => {
    expect(c.partition).toBe("aws");
    expect(c.ec2ServicePrincipal).toBe("ec2.amazonaws.com");
    expect(c.nodeRole).toEqual({ name: "KarpenterNodeRole-eksworkshop", arn: "arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop" });
    expect(c.controllerRole.arn).toBe("arn:aws:iam::133129065110:role/KarpenterControllerRole-eksworkshop");
    expect(c.oidcProvider).toBe("oidc.eks.ap-southeast-1.amazonaws.com/id/D0A7E4BBBBD26CD6E003B94E42FECFD2");
    expect(c.oidcProviderArn).toBe("arn:aws:iam::133129065110:oidc-provider/oidc.eks.ap-southeast-1.amazonaws.com/id/D0A7E4BBBBD26CD6E003B94E42FECFD2");
  });

  it("applies Karpenter defaults in one place", () => {
    expect(c.karpenter).toMatchObject({ namespace: "kube-system", serviceAccount: "karpenter", replicas: 2, iamProfile: "scoped", identity: "irsa", interruptionQueue: undefined });
    expect(c.nodeClasses[0]?.role).toBe("KarpenterNodeRole-eksworkshop");
    expect(c.nodeClasses[0]?.subnetSelectorTerms).toEqual([{ tags: { "karpenter.sh/discovery": "eksworkshop" } }]);
  });

  it("leaves replicas to the autoscaler and keeps fixed replicas otherwise", () => {
    expect(c.workloads[0]?.replicas).toBeUndefined();
    expect(c.workloads[1]?.replicas).toBe(3);
  });

  it("returns a frozen config", () => {
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.nodePools[0]?.requirements)).toBe(true);
  });

  it("derives aws-cn principals for China regions", () => {
    const cn = checkCluster(
      withChange((x) => {
        x.region = "cn-northwest-1";
        x.oidcIssuer = "https://oidc.eks.cn-northwest-1.amazonaws.com.cn/id/ABC";
      }),
      FILE,
    );
    expect(cn.partition).toBe("aws-cn");
    expect(cn.ec2ServicePrincipal).toBe("ec2.amazonaws.com.cn");
    expect(cn.nodeRole.arn).toBe("arn:aws-cn:iam::133129065110:role/KarpenterNodeRole-eksworkshop");
  });
});

describe("checkCluster errors name the field path", () => {
  it("rejects a negative CPU limit", () => {
    expect(problemsOf(withChange((x) => (x.nodePools[0].limits.cpu = -1)))).toEqual(["nodePools[0].limits.cpu: must not be negative; got -1"]);
  });

  it("rejects an unknown requirement operator", () => {
    expect(problemsOf(withChange((x) => (x.nodePools[0].requirements[0].operator = "Within")))).toEqual([
      `nodePools[0].requirements[0].operator: must be one of 'In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte'; got "Within"`,
    ]);
  });

  it("rejects an empty cluster name", () => {
    expect(problemsOf(withChange((x) => (x.name = "")))).toContain("name: must not be empty");
  });

  it("rejects a region in another partition", () => {
    expect(
      problemsOf(
        withChange((x) => {
          x.region = "cn-north-1";
          x.partition = "aws";
        }),
      ),
    ).toContain("partition: region 'cn-north-1' (China (Beijing)) is in partition 'aws-cn', not 'aws'");
  });

  it("rejects minReplicas above maxReplicas with both values", () => {
    expect(problemsOf(withChange((x) => (x.workloads[0].autoscaling.minReplicas = 13)))).toEqual([
      "workloads[0].autoscaling.minReplicas: 'minReplicas' (13) must be less than or equal to 'maxReplicas' (12)",
    ]);
  });

  it("rejects replicas together with an autoscaler", () => {
    expect(problemsOf(withChange((x) => (x.workloads[0].replicas = 1)))).toEqual([
      "workloads[0].replicas: must be unset when 'autoscaling' is set: the HorizontalPodAutoscaler owns the replica count",
    ]);
  });

  it("names the removed v1beta1 consolidation policy", () => {
    expect(problemsOf(withChange((x) => (x.nodePools[0].disruption.consolidationPolicy = "WhenUnderutilized")))).toEqual([
      "nodePools[0].disruption.consolidationPolicy: 'WhenUnderutilized' was removed in karpenter.sh/v1; use 'WhenEmptyOrUnderutilized'",
    ]);
  });

  it("rejects a NodePool pointing at an undeclared EC2NodeClass", () => {
    expect(problemsOf(withChange((x) => (x.nodePools[0].nodeClass = "gpu")))).toEqual(["nodePools[0].nodeClass: no EC2NodeClass named 'gpu' in this overlay (have: default)"]);
  });

  it("rejects Gt with a non-integer value and unknown capacity types", () => {
    expect(
      problemsOf(
        withChange((x) => {
          x.nodePools[0].requirements[4].values = ["two"];
          x.nodePools[0].requirements[2].values = ["spot", "preemptible"];
        }),
      ),
    ).toEqual([
      "nodePools[0].requirements[2].values[1]: capacity type must be one of spot, on-demand, reserved; got 'preemptible'",
      'nodePools[0].requirements[4].values: operator \'Gt\' needs exactly one integer value, got ["two"]',
    ]);
  });

  it("rejects unknown fields (typos) instead of ignoring them", () => {
    expect(problemsOf(withChange((x) => (x.karpenter.verison = "1.14.1")))).toEqual(["karpenter.verison: unknown key 'verison'"]);
  });

  it("lists every problem at once, with the file in the message", () => {
    const input = withChange((x) => {
      x.account = "123";
      x.nodePools[0].expireAfter = "30 days";
    });
    expect(() => checkCluster(input, FILE)).toThrow(
      "clusters/eksworkshop/cluster.ts: account: must be a 12-digit AWS account id; got \"123\" (e.g. `account: \"123456789012\"`)\nclusters/eksworkshop/cluster.ts: nodePools[0].expireAfter: must be a duration such as '30s', '1m', '720h' or '1h30m'; got \"30 days\" (e.g. `expireAfter: \"720h\"`)",
    );
  });

  it("bounds names by where they end up (issue 18 item 9: a 253-character name never reaches the file system)", () => {
    const long = "a".repeat(253);
    expect(problemsOf(withChange((x) => (x.workloads[1].name = long)))).toEqual([
      "workloads[1].name: must be at most 63 characters: it is also the container's name, which Kubernetes limits to a DNS-1123 label; it has 253",
    ]);
    expect(problemsOf(withChange((x) => (x.nodePools[0].name = "p".repeat(64))))).toEqual([
      "nodePools[0].name: must be at most 63 characters: it is the value of the 'karpenter.sh/nodepool' label on every node of the pool; it has 64",
    ]);
    expect(problemsOf(withChange((x) => (x.name = "c".repeat(41))))).toEqual([
      "name: must be at most 40 characters: it is part of the IAM role name 'KarpenterControllerRole-<name>', which IAM limits to 64; it has 41",
    ]);
  });

  it("rejects a region the AWS SDK does not list, suggesting the nearest", () => {
    const input = withChange((x) => {
      x.region = "eu-wset-1";
      x.oidcIssuer = "https://oidc.eks.eu-wset-1.amazonaws.com/id/ABC";
    });
    try {
      checkCluster(input, FILE);
      throw new Error("expected a ConfigError");
    } catch (err) {
      expect((err as ConfigError).problems).toEqual([
        expect.objectContaining({ path: "region", message: "unknown AWS region 'eu-wset-1' (not in the AWS SDK's partition metadata)", hint: "did you mean `eu-west-1`?", rule: "overlay:region" }),
      ]);
    }
  });

  it("accepts the typed overlay unchanged", () => {
    const input: ClusterInput = eksworkshop;
    expect(() => checkCluster(input, FILE)).not.toThrow();
  });
});

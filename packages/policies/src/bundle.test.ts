// The IAM documents of an overlay: exact trust conditions, partition-aware ARNs, both profiles, the interruption queue, the file layout.
import { readdirSync, readFileSync } from "node:fs";
import { type ClusterConfig, checkCluster } from "@eks-gitops/config";
import { describe, expect, test } from "vitest";
import awsCn from "../../../clusters/aws-cn/cluster.ts";
import eksworkshop from "../../../clusters/eksworkshop/cluster.ts";
import { buildIamDocuments, type IamIndex, iamFiles } from "./bundle.ts";
import { ACTIONS_MISSING_FROM_LAB } from "./controller/scoped.ts";
import type { Statement } from "./types.ts";

function config(karpenter: Partial<typeof eksworkshop.karpenter> = {}, base = eksworkshop, file = "clusters/eksworkshop/cluster.ts"): ClusterConfig {
  return checkCluster({ ...base, karpenter: { ...base.karpenter, ...karpenter } }, file);
}
const cn = () => checkCluster(awsCn, "clusters/aws-cn/cluster.ts");
const controller = (c: ClusterConfig) => buildIamDocuments(c).roles.find((r) => r.name === c.controllerRole.name)!;
const node = (c: ClusterConfig) => buildIamDocuments(c).roles.find((r) => r.name === c.nodeRole.name)!;
const actionsOf = (statements: readonly Statement[]) => statements.flatMap((s) => (typeof s.Action === "string" ? [s.Action] : s.Action));
const OIDC = "oidc.eks.ap-southeast-1.amazonaws.com/id/D0A7E4BBBBD26CD6E003B94E42FECFD2";

describe("trust policies", () => {
  test("IRSA: federated OIDC provider, exact StringEquals on :aud and :sub", () => {
    expect(controller(config()).trustPolicy).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "AllowIrsa",
          Effect: "Allow",
          Principal: { Federated: `arn:aws:iam::133129065110:oidc-provider/${OIDC}` },
          Action: "sts:AssumeRoleWithWebIdentity",
          Condition: { StringEquals: { [`${OIDC}:aud`]: "sts.amazonaws.com", [`${OIDC}:sub`]: "system:serviceaccount:kube-system:karpenter" } },
        },
      ],
    });
  });

  test("IRSA: the subject follows the chart's namespace and service account", () => {
    const trust = controller(config({ namespace: "karpenter", serviceAccount: "karpenter-controller" })).trustPolicy;
    expect(trust.Statement[0]!.Condition!.StringEquals![`${OIDC}:sub`]).toBe("system:serviceaccount:karpenter:karpenter-controller");
  });

  test("Pod Identity: the EKS pods principal with AssumeRole and TagSession, pinned to cluster, namespace and service account", () => {
    expect(controller(config({ identity: "pod-identity" })).trustPolicy.Statement).toEqual([
      {
        Sid: "AllowEksPodIdentity",
        Effect: "Allow",
        Principal: { Service: "pods.eks.amazonaws.com" },
        Action: ["sts:AssumeRole", "sts:TagSession"],
        Condition: {
          StringEquals: {
            "aws:SourceAccount": "133129065110",
            "aws:RequestTag/eks-cluster-name": "eksworkshop",
            "aws:RequestTag/kubernetes-namespace": "kube-system",
            "aws:RequestTag/kubernetes-service-account": "karpenter",
          },
        },
      },
    ]);
  });

  test("node role: the partition's EC2 principal and the lab's four managed policies", () => {
    expect(node(config()).trustPolicy.Statement).toEqual([{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }]);
    const china = node(cn());
    expect(china.trustPolicy.Statement[0]!.Principal).toEqual({ Service: "ec2.amazonaws.com.cn" });
    expect(china.managedPolicyArns).toEqual([
      "arn:aws-cn:iam::aws:policy/AmazonEKSWorkerNodePolicy",
      "arn:aws-cn:iam::aws:policy/AmazonEKS_CNI_Policy",
      "arn:aws-cn:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly",
      "arn:aws-cn:iam::aws:policy/AmazonSSMManagedInstanceCore",
    ]);
    expect(china.inlinePolicies).toEqual([]);
  });
});

describe("controller permissions", () => {
  test("tutorial: exactly the lab's inline policy, its Sids and actions in order", () => {
    const role = controller(config({ iamProfile: "tutorial" }));
    expect(role.customerManagedPolicies).toEqual([]);
    expect(role.inlinePolicies.map((p) => p.name)).toEqual(["KarpenterControllerPolicy-eksworkshop"]);
    const statements = role.inlinePolicies[0]!.document.Statement;
    expect(statements.map((s) => s.Sid)).toEqual([
      "Karpenter",
      "ConditionalEC2Termination",
      "PassNodeIAMRole",
      "EKSClusterEndpointLookup",
      "AllowScopedInstanceProfileCreationActions",
      "AllowScopedInstanceProfileTagActions",
      "AllowScopedInstanceProfileActions",
      "AllowInstanceProfileReadActions",
      "AllowUnscopedInstanceProfileListAction",
    ]);
    expect(statements[0]!.Action).toEqual([
      "ssm:GetParameter",
      "ec2:DescribeImages",
      "ec2:RunInstances",
      "ec2:DescribeSubnets",
      "ec2:DescribeSecurityGroups",
      "ec2:DescribeLaunchTemplates",
      "ec2:DescribeInstances",
      "ec2:DescribeInstanceTypes",
      "ec2:DescribeInstanceTypeOfferings",
      "ec2:DeleteLaunchTemplate",
      "ec2:CreateTags",
      "ec2:CreateLaunchTemplate",
      "ec2:CreateFleet",
      "ec2:DescribeSpotPriceHistory",
      "pricing:GetProducts",
    ]);
    expect(statements[1]).toEqual({
      Sid: "ConditionalEC2Termination",
      Effect: "Allow",
      Action: "ec2:TerminateInstances",
      Resource: "*",
      Condition: { StringLike: { "ec2:ResourceTag/karpenter.sh/nodepool": "*" } },
    });
    expect(statements[2]).toEqual({ Sid: "PassNodeIAMRole", Effect: "Allow", Action: "iam:PassRole", Resource: "arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop" });
    expect(statements[4]!.Condition).toEqual({
      StringEquals: { "aws:RequestTag/kubernetes.io/cluster/eksworkshop": "owned", "aws:RequestTag/topology.kubernetes.io/region": "ap-southeast-1" },
      StringLike: { "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass": "*" },
    });
    for (const missing of ACTIONS_MISSING_FROM_LAB) expect(actionsOf(statements)).not.toContain(missing);
  });

  test("tutorial with an interruption queue keeps the lab's policy and adds the queue access beside it", () => {
    const role = controller(config({ iamProfile: "tutorial", interruptionQueue: true }));
    expect(role.inlinePolicies.map((p) => p.name)).toEqual(["KarpenterControllerPolicy-eksworkshop", "KarpenterControllerInterruptionPolicy-eksworkshop"]);
  });

  test("scoped: the upstream grouping, and what the lab lacks", () => {
    const role = controller(config());
    expect(role.inlinePolicies.map((p) => p.name)).toEqual([
      "KarpenterControllerNodeLifecyclePolicy-eksworkshop",
      "KarpenterControllerIAMIntegrationPolicy-eksworkshop",
      "KarpenterControllerEKSIntegrationPolicy-eksworkshop",
      "KarpenterControllerZonalShiftPolicy-eksworkshop",
      "KarpenterControllerResourceDiscoveryPolicy-eksworkshop",
    ]);
    const all = role.inlinePolicies.flatMap((p) => p.document.Statement);
    for (const missing of ACTIONS_MISSING_FROM_LAB) expect(actionsOf(all)).toContain(missing);
    expect(actionsOf(all).filter((a) => a.startsWith("sqs:"))).toEqual([]);
    const deletion = all.find((s) => s.Sid === "AllowScopedDeletion")!;
    expect(deletion.Resource).toEqual(["arn:aws:ec2:ap-southeast-1:133129065110:instance/*", "arn:aws:ec2:ap-southeast-1:133129065110:launch-template/*"]);
    expect(deletion.Condition).toEqual({
      StringEquals: { "aws:ResourceTag/kubernetes.io/cluster/eksworkshop": "owned" },
      StringLike: { "aws:ResourceTag/karpenter.sh/nodepool": "*" },
    });
    expect(all.find((s) => s.Sid === "AllowSSMReadActions")!.Resource).toBe("arn:aws:ssm:ap-southeast-1::parameter/aws/service/*");
    expect(all.find((s) => s.Sid === "AllowPassingInstanceRole")).toEqual({
      Sid: "AllowPassingInstanceRole",
      Effect: "Allow",
      Action: "iam:PassRole",
      Resource: "arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop",
      Condition: { StringEquals: { "iam:PassedToService": "ec2.amazonaws.com" } },
    });
    expect(all.find((s) => s.Sid === "AllowScopedResourceTagging")!.Condition!["ForAllValues:StringEquals"]).toEqual({
      "aws:TagKeys": ["eks:eks-cluster-name", "karpenter.sh/nodeclaim", "Name"],
    });
  });

  test("aws-cn: every ARN in aws-cn, EC2 principal names of the partition, queue access", () => {
    const role = controller(cn());
    const text = JSON.stringify(role.inlinePolicies);
    expect(text.match(/arn:[a-z-]+:/g)!.every((a) => a === "arn:aws-cn:")).toBe(true);
    const all = role.inlinePolicies.flatMap((p) => p.document.Statement);
    expect(all.find((s) => s.Sid === "AllowPassingInstanceRole")!.Condition).toEqual({
      StringEquals: { "iam:PassedToService": ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"] },
    });
    expect(all.find((s) => s.Sid === "AllowInterruptionQueueActions")).toEqual({
      Sid: "AllowInterruptionQueueActions",
      Effect: "Allow",
      Action: ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"],
      Resource: "arn:aws-cn:sqs:cn-northwest-1:210987654321:aws-cn",
    });
    expect(all.find((s) => s.Sid === "AllowAPIServerEndpointDiscovery")!.Resource).toBe("arn:aws-cn:eks:cn-northwest-1:210987654321:cluster/aws-cn");
  });
});

describe("interruption queue", () => {
  test("absent unless the overlay enables it", () => {
    expect(buildIamDocuments(config()).queue).toBeUndefined();
  });

  test("queue, attributes, policy and the five rules", () => {
    const q = buildIamDocuments(config({ interruptionQueue: { name: "karpenter-eksworkshop" } })).queue!;
    expect(q.arn).toBe("arn:aws:sqs:ap-southeast-1:133129065110:karpenter-eksworkshop");
    expect(q.attributes).toEqual({ MessageRetentionPeriod: "300", SqsManagedSseEnabled: "true" });
    expect(q.policy.Statement.map((s) => [s.Sid, s.Effect, s.Principal, s.Action])).toEqual([
      ["AllowEventBridgeToSendFromThisAccount", "Allow", { Service: "events.amazonaws.com" }, "sqs:SendMessage"],
      ["DenyHTTP", "Deny", "*", "sqs:*"],
    ]);
    expect(q.rules.map((r) => [r.name, r.eventPattern.source[0], r.eventPattern["detail-type"][0]])).toEqual([
      ["Karpenter-eksworkshop-ScheduledChange", "aws.health", "AWS Health Event"],
      ["Karpenter-eksworkshop-SpotInterruption", "aws.ec2", "EC2 Spot Instance Interruption Warning"],
      ["Karpenter-eksworkshop-Rebalance", "aws.ec2", "EC2 Instance Rebalance Recommendation"],
      ["Karpenter-eksworkshop-InstanceStateChange", "aws.ec2", "EC2 Instance State-change Notification"],
      ["Karpenter-eksworkshop-CapacityReservationInterruption", "aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"],
    ]);
  });
});

describe("rendered/iam layout", () => {
  test("index.json names every file; existing fields unchanged, queue and customer managed policies added", () => {
    const files = iamFiles(buildIamDocuments(cn()));
    const index = files.get("index.json") as IamIndex;
    const named = [
      ...index.roles.flatMap((r) => [r.trustPolicyFile, ...r.inlinePolicies.map((p) => p.file), ...r.customerManagedPolicies.map((p) => p.file)]),
      index.queue!.policyFile,
      "index.json",
    ];
    expect([...files.keys()].sort()).toEqual(named.sort());
    expect(Object.keys(index.roles[1]!)).toEqual(["name", "arn", "description", "trustPolicyFile", "managedPolicyArns", "inlinePolicies", "customerManagedPolicies"]);
    expect(index.roles[1]!.inlinePolicies[0]).toEqual({
      name: "KarpenterControllerNodeLifecyclePolicy-aws-cn",
      file: "KarpenterControllerRole-aws-cn.KarpenterControllerNodeLifecyclePolicy-aws-cn.json",
    });
    expect(index.queue!.policyFile).toBe("aws-cn.queue-policy.json");
  });

  for (const [cluster, build] of [
    ["eksworkshop", () => config()],
    ["aws-cn", cn],
  ] as const) {
    test(`${cluster}: the committed rendered/iam/ is what the documents render to`, () => {
      const dir = new URL(`../../../clusters/${cluster}/rendered/iam/`, import.meta.url);
      const committed = readdirSync(dir).sort();
      const files = iamFiles(buildIamDocuments(build()));
      expect(committed).toEqual([...files.keys()].sort());
      for (const [name, doc] of files) expect(readFileSync(new URL(name, dir), "utf8")).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    });
  }
});

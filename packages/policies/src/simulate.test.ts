// What the controller, trust and queue policies allow and deny, proven with @cloud-copilot/iam-simulate (AGPL; tests only).
import { createValidatedPolicy, validateTrustPolicy } from "@cloud-copilot/iam-policy";
import { type RunSimulationResults, runSimulation, runUnsafeSimulation } from "@cloud-copilot/iam-simulate";
import { type ClusterConfig, checkCluster } from "@eks-gitops/config";
import { describe, expect, test } from "vitest";
import awsCn from "../../../clusters/aws-cn/cluster.ts";
import eksworkshop from "../../../clusters/eksworkshop/cluster.ts";
import { buildIamDocuments } from "./bundle.ts";
import type { PolicyDocument } from "./types.ts";

type Decision = "Allowed" | "Denied";
type Profile = "scoped" | "tutorial";

function overlay(base: typeof eksworkshop, karpenter: Partial<typeof eksworkshop.karpenter>, file: string): ClusterConfig {
  return checkCluster({ ...base, karpenter: { ...base.karpenter, ...karpenter } }, file);
}

const configs: Record<Profile, ClusterConfig> = {
  scoped: overlay(eksworkshop, {}, "clusters/eksworkshop/cluster.ts"),
  tutorial: overlay(eksworkshop, { iamProfile: "tutorial" }, "clusters/eksworkshop/cluster.ts"),
};

const ACCOUNT = "133129065110";
const REGION = "ap-southeast-1";
const CLUSTER_TAG = "kubernetes.io/cluster/eksworkshop";
const ec2Arn = (type: string, id: string, account = ACCOUNT) => `arn:aws:ec2:${REGION}:${account}:${type}/${id}`;
const profileArn = (name: string) => `arn:aws:iam::${ACCOUNT}:instance-profile/${name}`;

/** Tags already on a resource: EC2 exposes them under both ec2:ResourceTag/ and aws:ResourceTag/, which are separate keys. */
function onResource(tags: Record<string, string>, prefixes: readonly string[] = ["ec2", "aws"]): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).flatMap(([k, v]) => prefixes.map((p) => [`${p}:ResourceTag/${k}`, v])));
}

/** Tags in the request, with the aws:TagKeys list IAM derives from them. */
function inRequest(tags: Record<string, string>): Record<string, string | string[]> {
  return { ...Object.fromEntries(Object.entries(tags).map(([k, v]) => [`aws:RequestTag/${k}`, v])), "aws:TagKeys": Object.keys(tags) };
}

const launchTags = { [CLUSTER_TAG]: "owned", "eks:eks-cluster-name": "eksworkshop", "karpenter.sh/nodepool": "default" };
const ownedNode = { [CLUSTER_TAG]: "owned", "karpenter.sh/nodepool": "default" };
const profileTags = {
  [CLUSTER_TAG]: "owned",
  "eks:eks-cluster-name": "eksworkshop",
  "topology.kubernetes.io/region": REGION,
  "karpenter.k8s.aws/ec2nodeclass": "default",
};
const ownedProfile = { [CLUSTER_TAG]: "owned", "topology.kubernetes.io/region": REGION, "karpenter.k8s.aws/ec2nodeclass": "default" };
const { "eks:eks-cluster-name": _, ...profileTagsOfTheLab } = profileTags;

interface Row {
  readonly name: string;
  readonly action: string;
  readonly resource: string;
  readonly context?: Record<string, string | string[]>;
  readonly scoped: Decision;
  readonly tutorial: Decision;
  /** Why this request cannot go through iam-simulate's input validation (it is then evaluated without it). */
  readonly unvalidated?: string;
}

const NO_ACCOUNT = "public SSM parameter ARNs have no account field, which iam-simulate's resource-type lookup rejects";

const rows: Row[] = [
  // Termination and the tag-then-terminate path.
  { name: "terminate a node of this cluster's nodepool", action: "ec2:TerminateInstances", resource: ec2Arn("instance", "i-0a"), context: onResource(ownedNode), scoped: "Allowed", tutorial: "Allowed" },
  { name: "terminate an untagged instance", action: "ec2:TerminateInstances", resource: ec2Arn("instance", "i-0b"), scoped: "Denied", tutorial: "Denied" },
  { name: "terminate another cluster's node", action: "ec2:TerminateInstances", resource: ec2Arn("instance", "i-0c"), context: onResource({ "kubernetes.io/cluster/other": "owned", "karpenter.sh/nodepool": "default" }), scoped: "Denied", tutorial: "Allowed" },
  { name: "escalation step 1: tag an unrelated instance with karpenter.sh/nodepool", action: "ec2:CreateTags", resource: ec2Arn("instance", "i-0d"), context: inRequest({ "karpenter.sh/nodepool": "x" }), scoped: "Denied", tutorial: "Allowed" },
  { name: "escalation step 2: terminate the instance just tagged", action: "ec2:TerminateInstances", resource: ec2Arn("instance", "i-0d"), context: onResource({ "karpenter.sh/nodepool": "x" }), scoped: "Denied", tutorial: "Allowed" },
  { name: "tag a new instance at launch with the cluster's tags", action: "ec2:CreateTags", resource: ec2Arn("instance", "i-0e"), context: { ...inRequest(launchTags), "ec2:CreateAction": "RunInstances" }, scoped: "Allowed", tutorial: "Allowed" },
  { name: "tag at launch without the cluster ownership tag", action: "ec2:CreateTags", resource: ec2Arn("instance", "i-0f"), context: { ...inRequest({ "karpenter.sh/nodepool": "default" }), "ec2:CreateAction": "RunInstances" }, scoped: "Denied", tutorial: "Allowed" },
  { name: "add Name and karpenter.sh/nodeclaim to an owned node", action: "ec2:CreateTags", resource: ec2Arn("instance", "i-10"), context: { ...onResource(ownedNode), ...inRequest({ Name: "n", "karpenter.sh/nodeclaim": "default-abc" }) }, scoped: "Allowed", tutorial: "Allowed" },
  { name: "rewrite the ownership tag of an owned node", action: "ec2:CreateTags", resource: ec2Arn("instance", "i-11"), context: { ...onResource(ownedNode), ...inRequest({ [CLUSTER_TAG]: "shared" }) }, scoped: "Denied", tutorial: "Allowed" },
  { name: "tag an unrelated security group", action: "ec2:CreateTags", resource: ec2Arn("security-group", "sg-1"), context: inRequest({ "karpenter.sh/nodepool": "x" }), scoped: "Denied", tutorial: "Allowed" },
  // Launching.
  { name: "launch an instance with the cluster's request tags", action: "ec2:RunInstances", resource: ec2Arn("instance", "*"), context: inRequest(launchTags), scoped: "Allowed", tutorial: "Allowed" },
  { name: "launch an instance without a nodepool tag", action: "ec2:RunInstances", resource: ec2Arn("instance", "*"), context: inRequest({ [CLUSTER_TAG]: "owned", "eks:eks-cluster-name": "eksworkshop" }), scoped: "Denied", tutorial: "Allowed" },
  { name: "launch an instance tagged for another EKS cluster", action: "ec2:RunInstances", resource: ec2Arn("instance", "*"), context: inRequest({ ...launchTags, "eks:eks-cluster-name": "other" }), scoped: "Denied", tutorial: "Allowed" },
  { name: "launch into a subnet", action: "ec2:RunInstances", resource: ec2Arn("subnet", "subnet-1"), scoped: "Allowed", tutorial: "Allowed" },
  { name: "launch from a public AMI", action: "ec2:RunInstances", resource: `arn:aws:ec2:${REGION}::image/ami-1`, scoped: "Allowed", tutorial: "Allowed" },
  { name: "launch from this cluster's launch template", action: "ec2:RunInstances", resource: ec2Arn("launch-template", "lt-1"), context: onResource(ownedNode, ["aws"]), scoped: "Allowed", tutorial: "Allowed" },
  { name: "launch from someone else's launch template", action: "ec2:RunInstances", resource: ec2Arn("launch-template", "lt-2"), context: onResource({ team: "x" }, ["aws"]), scoped: "Denied", tutorial: "Allowed" },
  { name: "create a launch template with the cluster's tags", action: "ec2:CreateLaunchTemplate", resource: ec2Arn("launch-template", "*"), context: inRequest(launchTags), scoped: "Allowed", tutorial: "Allowed" },
  { name: "delete this cluster's launch template", action: "ec2:DeleteLaunchTemplate", resource: ec2Arn("launch-template", "lt-1"), context: onResource(ownedNode), scoped: "Allowed", tutorial: "Allowed" },
  { name: "delete an untagged launch template", action: "ec2:DeleteLaunchTemplate", resource: ec2Arn("launch-template", "lt-3"), scoped: "Denied", tutorial: "Allowed" },
  // Instance profiles.
  { name: "create an instance profile with the right tags", action: "iam:CreateInstanceProfile", resource: profileArn("eksworkshop_1"), context: inRequest(profileTags), scoped: "Allowed", tutorial: "Allowed" },
  { name: "create an instance profile without the ec2nodeclass tag", action: "iam:CreateInstanceProfile", resource: profileArn("x"), context: inRequest({ [CLUSTER_TAG]: "owned", "topology.kubernetes.io/region": REGION }), scoped: "Denied", tutorial: "Denied" },
  { name: "create an instance profile tagged for another region", action: "iam:CreateInstanceProfile", resource: profileArn("x"), context: inRequest({ ...profileTags, "topology.kubernetes.io/region": "us-east-1" }), scoped: "Denied", tutorial: "Denied" },
  { name: "create an instance profile with the lab's tags only (no eks:eks-cluster-name)", action: "iam:CreateInstanceProfile", resource: profileArn("x"), context: inRequest(profileTagsOfTheLab), scoped: "Denied", tutorial: "Allowed" },
  { name: "add the node role to this cluster's instance profile", action: "iam:AddRoleToInstanceProfile", resource: profileArn("eksworkshop_1"), context: onResource(ownedProfile, ["aws"]), scoped: "Allowed", tutorial: "Allowed" },
  { name: "add a role to another cluster's instance profile", action: "iam:AddRoleToInstanceProfile", resource: profileArn("other_1"), context: onResource({ ...ownedProfile, [CLUSTER_TAG]: "shared" }, ["aws"]), scoped: "Denied", tutorial: "Denied" },
  { name: "read an instance profile of this account", action: "iam:GetInstanceProfile", resource: profileArn("any"), scoped: "Allowed", tutorial: "Allowed" },
  { name: "list instance profiles", action: "iam:ListInstanceProfiles", resource: "*", scoped: "Allowed", tutorial: "Allowed" },
  // PassRole.
  { name: "pass the node role to EC2", action: "iam:PassRole", resource: `arn:aws:iam::${ACCOUNT}:role/KarpenterNodeRole-eksworkshop`, context: { "iam:PassedToService": "ec2.amazonaws.com" }, scoped: "Allowed", tutorial: "Allowed" },
  { name: "pass the node role to Lambda", action: "iam:PassRole", resource: `arn:aws:iam::${ACCOUNT}:role/KarpenterNodeRole-eksworkshop`, context: { "iam:PassedToService": "lambda.amazonaws.com" }, scoped: "Denied", tutorial: "Allowed" },
  { name: "pass an admin role to EC2", action: "iam:PassRole", resource: `arn:aws:iam::${ACCOUNT}:role/Admin`, context: { "iam:PassedToService": "ec2.amazonaws.com" }, scoped: "Denied", tutorial: "Denied" },
  // SSM, reads, EKS, pricing, zonal shift.
  { name: "read the EKS AL2023 AMI parameter", action: "ssm:GetParameter", resource: `arn:aws:ssm:${REGION}::parameter/aws/service/eks/optimized-ami/1.36/amazon-linux-2023/x86_64/standard/recommended/image_id`, scoped: "Allowed", tutorial: "Allowed", unvalidated: NO_ACCOUNT },
  { name: "read an own-account secret parameter", action: "ssm:GetParameter", resource: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/prod/db/password`, scoped: "Denied", tutorial: "Allowed" },
  { name: "describe instances in the cluster's region", action: "ec2:DescribeInstances", resource: "*", context: { "aws:RequestedRegion": REGION }, scoped: "Allowed", tutorial: "Allowed" },
  { name: "describe instances in another region", action: "ec2:DescribeInstances", resource: "*", context: { "aws:RequestedRegion": "us-east-1" }, scoped: "Denied", tutorial: "Allowed" },
  { name: "describe instance status (1.14 calls it; the lab lacks it)", action: "ec2:DescribeInstanceStatus", resource: "*", context: { "aws:RequestedRegion": REGION }, scoped: "Allowed", tutorial: "Denied" },
  { name: "describe capacity reservations (lab lacks it)", action: "ec2:DescribeCapacityReservations", resource: "*", context: { "aws:RequestedRegion": REGION }, scoped: "Allowed", tutorial: "Denied" },
  { name: "describe placement groups (lab lacks it)", action: "ec2:DescribePlacementGroups", resource: "*", context: { "aws:RequestedRegion": REGION }, scoped: "Allowed", tutorial: "Denied" },
  { name: "describe this EKS cluster", action: "eks:DescribeCluster", resource: `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/eksworkshop`, scoped: "Allowed", tutorial: "Allowed" },
  { name: "describe another EKS cluster", action: "eks:DescribeCluster", resource: `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/prod`, scoped: "Denied", tutorial: "Denied" },
  { name: "get spot prices", action: "pricing:GetProducts", resource: "*", scoped: "Allowed", tutorial: "Allowed" },
  { name: "read this cluster's zonal shift status (lab lacks it)", action: "arc-zonal-shift:GetManagedResource", resource: "*", context: { "arc-zonal-shift:ResourceIdentifier": `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/eksworkshop` }, scoped: "Allowed", tutorial: "Denied" },
  { name: "read another resource's zonal shift status", action: "arc-zonal-shift:GetManagedResource", resource: "*", context: { "arc-zonal-shift:ResourceIdentifier": `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/prod` }, scoped: "Denied", tutorial: "Denied" },
  { name: "create an IAM role", action: "iam:CreateRole", resource: `arn:aws:iam::${ACCOUNT}:role/x`, scoped: "Denied", tutorial: "Denied" },
];

function identityPolicies(config: ClusterConfig) {
  const role = buildIamDocuments(config).roles.find((r) => r.name === config.controllerRole.name)!;
  return [...role.inlinePolicies, ...role.customerManagedPolicies].map((p) => ({ name: p.name, policy: p.document }));
}

function decision(result: RunSimulationResults): Decision {
  if (result.resultType === "error") throw new Error(`simulation input rejected: ${JSON.stringify(result.errors)}`);
  if (result.resultType === "single") expect(result.result.ignoredContextKeys ?? []).toEqual([]);
  return result.overallResult === "Allowed" ? "Allowed" : "Denied";
}

async function simulate(config: ClusterConfig, row: Omit<Row, "scoped" | "tutorial" | "name">): Promise<Decision> {
  const simulation = {
    request: {
      principal: `arn:${config.partition}:sts::${config.account}:assumed-role/${config.controllerRole.name}/karpenter`,
      action: row.action,
      resource: { resource: row.resource, accountId: config.account },
      contextVariables: row.context ?? {},
    },
    identityPolicies: identityPolicies(config),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
  };
  if (row.unvalidated) return runUnsafeSimulation(simulation, {}) === "Allowed" ? "Allowed" : "Denied";
  return decision(await runSimulation(simulation, {}));
}

describe("controller permissions, by profile", () => {
  test("the table has at least 30 requests and both profiles differ where the issue says", () => {
    expect(rows.length).toBeGreaterThanOrEqual(30);
    expect(rows.filter((r) => r.scoped !== r.tutorial).length).toBeGreaterThanOrEqual(15);
  });
  for (const profile of ["scoped", "tutorial"] as const) {
    test.each(rows)(`${profile}: $name`, async (row) => {
      expect(await simulate(configs[profile], row)).toBe(row[profile]);
    });
  }
});

describe("aws-cn overlay (scoped, interruption queue on)", () => {
  const cn = checkCluster(awsCn, "clusters/aws-cn/cluster.ts");
  const arn = (service: string, rest: string) => `arn:aws-cn:${service}:cn-northwest-1:210987654321:${rest}`;
  const cnRows: Omit<Row, "tutorial">[] = [
    { name: "receive from the interruption queue", action: "sqs:ReceiveMessage", resource: arn("sqs", "aws-cn"), scoped: "Allowed" },
    { name: "delete a message from the interruption queue", action: "sqs:DeleteMessage", resource: arn("sqs", "aws-cn"), scoped: "Allowed" },
    { name: "receive from another queue", action: "sqs:ReceiveMessage", resource: arn("sqs", "orders"), scoped: "Denied" },
    { name: "send to the interruption queue", action: "sqs:SendMessage", resource: arn("sqs", "aws-cn"), scoped: "Denied" },
    { name: "terminate a node (aws-cn ARN)", action: "ec2:TerminateInstances", resource: arn("ec2", "instance/i-1"), context: onResource({ "kubernetes.io/cluster/aws-cn": "owned", "karpenter.sh/nodepool": "graviton-on-demand" }), scoped: "Allowed" },
    { name: "terminate a node named with the aws partition", action: "ec2:TerminateInstances", resource: "arn:aws:ec2:cn-northwest-1:210987654321:instance/i-1", context: onResource({ "kubernetes.io/cluster/aws-cn": "owned", "karpenter.sh/nodepool": "graviton-on-demand" }), scoped: "Denied" },
    { name: "pass the node role to ec2.amazonaws.com.cn", action: "iam:PassRole", resource: "arn:aws-cn:iam::210987654321:role/KarpenterNodeRole-aws-cn", context: { "iam:PassedToService": "ec2.amazonaws.com.cn" }, scoped: "Allowed" },
    { name: "read the public AMI parameters of cn-northwest-1", action: "ssm:GetParameter", resource: "arn:aws-cn:ssm:cn-northwest-1::parameter/aws/service/eks/optimized-ami/1.36/amazon-linux-2023/arm64/standard/recommended/image_id", scoped: "Allowed", unvalidated: NO_ACCOUNT },
  ];
  test.each(cnRows)("$name", async (row) => {
    expect(await simulate(cn, row)).toBe(row.scoped);
  });
});

describe("trust policies", () => {
  const config = configs.scoped;
  const roles = buildIamDocuments(config).roles;
  const controllerTrust = roles.find((r) => r.name === config.controllerRole.name)!.trustPolicy;
  const nodeTrust = roles.find((r) => r.name === config.nodeRole.name)!.trustPolicy;

  // IRSA keys are named after each cluster's OIDC provider, which iam-data cannot list, so the validating runner would drop them:
  // evaluate without that validation.
  function assumeWithWebIdentity(trust: PolicyDocument, provider: string, claims: { sub: string; aud: string }): Decision {
    // The unvalidating runner loads a resource policy without its name unless it comes pre-validated.
    const validated = createValidatedPolicy(trust, validateTrustPolicy, { name: "trust" });
    expect(validated.errors).toEqual([]);
    const result = runUnsafeSimulation(
      {
        request: {
          principal: `arn:aws:iam::${ACCOUNT}:oidc-provider/${provider}`,
          action: "sts:AssumeRoleWithWebIdentity",
          resource: { resource: config.controllerRole.arn, accountId: ACCOUNT },
          contextVariables: { [`${provider}:sub`]: claims.sub, [`${provider}:aud`]: claims.aud },
        },
        identityPolicies: [],
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        resourcePolicy: validated,
      },
      {},
    );
    return result === "Allowed" ? "Allowed" : "Denied";
  }

  test.each([
    { name: "the chart's service account", sub: "system:serviceaccount:kube-system:karpenter", aud: "sts.amazonaws.com", expected: "Allowed" },
    { name: "another service account in the same namespace", sub: "system:serviceaccount:kube-system:default", aud: "sts.amazonaws.com", expected: "Denied" },
    { name: "the same name in another namespace", sub: "system:serviceaccount:karpenter:karpenter", aud: "sts.amazonaws.com", expected: "Denied" },
    { name: "a token for another audience", sub: "system:serviceaccount:kube-system:karpenter", aud: "vault", expected: "Denied" },
  ] as const)("IRSA: $name -> $expected", ({ sub, aud, expected }) => {
    expect(assumeWithWebIdentity(controllerTrust, config.oidcProvider, { sub, aud })).toBe(expected);
  });

  test("IRSA: another cluster's OIDC provider is refused", () => {
    const other = "oidc.eks.ap-southeast-1.amazonaws.com/id/0000000000000000000000000000AAAA";
    expect(assumeWithWebIdentity(controllerTrust, other, { sub: "system:serviceaccount:kube-system:karpenter", aud: "sts.amazonaws.com" })).toBe("Denied");
  });

  async function assumeAsService(trust: PolicyDocument, service: string, action: string, context: Record<string, string> = {}): Promise<Decision> {
    return decision(
      await runSimulation(
        {
          request: { principal: service, action, resource: { resource: config.nodeRole.arn, accountId: ACCOUNT }, contextVariables: context },
          identityPolicies: [],
          serviceControlPolicies: [],
          resourceControlPolicies: [],
          resourcePolicy: trust,
        },
        {},
      ),
    );
  }

  test("node role: EC2 may assume it, Lambda may not", async () => {
    expect(await assumeAsService(nodeTrust, "ec2.amazonaws.com", "sts:AssumeRole")).toBe("Allowed");
    expect(await assumeAsService(nodeTrust, "lambda.amazonaws.com", "sts:AssumeRole")).toBe("Denied");
  });

  test("Pod Identity: the chart's service account of this cluster only", async () => {
    const pi = buildIamDocuments(overlay(eksworkshop, { identity: "pod-identity" }, "clusters/eksworkshop/cluster.ts")).roles[1]!.trustPolicy;
    const tags = { "aws:SourceAccount": ACCOUNT, "aws:RequestTag/eks-cluster-name": "eksworkshop", "aws:RequestTag/kubernetes-namespace": "kube-system", "aws:RequestTag/kubernetes-service-account": "karpenter" };
    expect(await assumeAsService(pi, "pods.eks.amazonaws.com", "sts:AssumeRole", tags)).toBe("Allowed");
    expect(await assumeAsService(pi, "pods.eks.amazonaws.com", "sts:TagSession", tags)).toBe("Allowed");
    expect(await assumeAsService(pi, "pods.eks.amazonaws.com", "sts:AssumeRole", { ...tags, "aws:RequestTag/kubernetes-service-account": "default" })).toBe("Denied");
    expect(await assumeAsService(pi, "pods.eks.amazonaws.com", "sts:AssumeRole", { ...tags, "aws:RequestTag/eks-cluster-name": "prod" })).toBe("Denied");
    expect(await assumeAsService(pi, "pods.eks.amazonaws.com", "sts:AssumeRole", { ...tags, "aws:SourceAccount": "111122223333" })).toBe("Denied");
  });
});

describe("interruption queue policy (aws-cn)", () => {
  const cn = checkCluster(awsCn, "clusters/aws-cn/cluster.ts");
  const queue = buildIamDocuments(cn).queue!;
  async function send(principal: string, context: Record<string, string>): Promise<string> {
    const result = await runSimulation(
      {
        request: { principal, action: "sqs:SendMessage", resource: { resource: queue.arn, accountId: cn.account }, contextVariables: context },
        identityPolicies: [],
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        resourcePolicy: queue.policy,
      },
      {},
    );
    if (result.resultType === "error") throw new Error(JSON.stringify(result.errors));
    return result.overallResult;
  }

  test("EventBridge rules of this account may send over TLS", async () => {
    expect(await send("events.amazonaws.com", { "aws:SourceAccount": cn.account, "aws:SecureTransport": "true" })).toBe("Allowed");
  });
  test("EventBridge on behalf of another account may not", async () => {
    expect(await send("events.amazonaws.com", { "aws:SourceAccount": "111122223333", "aws:SecureTransport": "true" })).toBe("ImplicitlyDenied");
  });
  test("anything over plain HTTP is explicitly denied", async () => {
    expect(await send("events.amazonaws.com", { "aws:SourceAccount": cn.account, "aws:SecureTransport": "false" })).toBe("ExplicitlyDenied");
  });
});

// Pure planning: desired vs discovered state -> changes, notes and blockers (no AWS involved).
import { checkCluster, DISCOVERY_TAG } from "@eks-gitops/config";
import { describe, expect, it } from "vitest";
import type { Desired } from "./desired.ts";
import type { Actual, ActualRole } from "./discover.ts";
import { planApply, planDestroy } from "./plan.ts";
import { formatPlan } from "./report.ts";
import { managedTags, TAG_ADDED_DISCOVERY } from "./tags.ts";

const config = checkCluster(
  {
    name: "eksworkshop",
    account: "133129065110",
    region: "ap-southeast-1",
    kubernetesVersion: "1.36",
    oidcIssuer: "https://oidc.eks.ap-southeast-1.amazonaws.com/id/D0A7E4BBBBD26CD6E003B94E42FECFD2",
    vpcId: "vpc-0a69fad178fdc8284",
    authenticationMode: "API_AND_CONFIG_MAP",
    karpenter: { version: "1.14.1" },
    nodeClasses: [{ name: "default", amiSelectorTerms: [{ alias: "al2023@latest" }] }],
    nodePools: [{ name: "default", nodeClass: "default", requirements: [{ key: "kubernetes.io/arch", operator: "In", values: ["amd64"] }] }],
    argocd: { repoURL: "https://example.invalid/r.git" },
  },
  "clusters/eksworkshop/cluster.ts",
);
const trust = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }] };
const inline = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["ec2:DescribeSubnets", "ec2:DescribeImages"], Resource: "*" }] };
const desired: Desired = {
  config,
  roles: [
    { name: config.nodeRole.name, arn: config.nodeRole.arn, description: "nodes", trustPolicy: trust, managedPolicyArns: ["arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy"], inlinePolicies: [], customerManagedPolicies: [] },
    { name: config.controllerRole.name, arn: config.controllerRole.arn, description: "controller", trustPolicy: trust, managedPolicyArns: [], inlinePolicies: [{ name: "P", document: inline, file: "x.P.json" }], customerManagedPolicies: [] },
  ],
  queue: undefined,
};
const role = (o: Partial<ActualRole> = {}): ActualRole => ({
  arn: "",
  description: "nodes",
  trustPolicy: trust,
  tags: managedTags(config),
  managedPolicyArns: ["arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy"],
  inlinePolicies: {},
  instanceProfiles: [],
  ...o,
});
const converged: Actual = {
  caller: { account: config.account, arn: "arn:aws:sts::133129065110:assumed-role/Ops/alice" },
  cluster: { name: "eksworkshop", arn: "", endpoint: undefined, oidcIssuer: config.oidcIssuer, vpcId: "vpc-0a69fad178fdc8284", securityGroupId: "sg-1", authenticationMode: "API_AND_CONFIG_MAP" },
  nodegroups: [{ name: "ng", subnets: ["subnet-a"] }],
  discoveryTargets: [
    { id: "subnet-a", kind: "subnet", vpcId: "vpc-0a69fad178fdc8284", tags: { [DISCOVERY_TAG]: "eksworkshop", [TAG_ADDED_DISCOVERY]: "eksworkshop" } },
    { id: "sg-1", kind: "security-group", vpcId: "vpc-0a69fad178fdc8284", tags: { [DISCOVERY_TAG]: "eksworkshop" } },
  ],
  discoveryTagged: [],
  oidcProviderExists: true,
  roles: {
    [config.nodeRole.name]: role(),
    [config.controllerRole.name]: role({ description: "controller", managedPolicyArns: [], inlinePolicies: { P: { Statement: [{ Resource: ["*"], Action: ["ec2:DescribeImages", "ec2:DescribeSubnets"], Effect: "Allow" }], Version: "2012-10-17" } } }),
  },
  addons: { "metrics-server": { status: "ACTIVE", tags: {} } },
  accessEntry: { type: "EC2_LINUX", tags: managedTags(config) },
  podIdentityAssociations: [],
  queue: undefined,
  rules: {},
  customerPolicies: {},
};

describe("planApply", () => {
  it("has no changes when AWS matches, even with reordered actions and one-element lists", () => {
    const plan = planApply(desired, converged, {});
    expect(plan.changes).toEqual([]);
    expect(plan.blockers).toEqual([]);
    expect(formatPlan(plan).at(-1)).toBe("Plan: 0 to add, 0 to change, 0 to remove.");
  });

  it("updates drift on a managed role and removes what rendered/iam no longer lists", () => {
    const plan = planApply(desired, {
      ...converged,
      roles: {
        ...converged.roles,
        [config.nodeRole.name]: role({ trustPolicy: { ...trust, Statement: [{ ...trust.Statement[0], Principal: { Service: "lambda.amazonaws.com" } }] }, managedPolicyArns: ["arn:aws:iam::aws:policy/AdministratorAccess"], inlinePolicies: { Old: inline } }),
      },
    }, {});
    expect(formatPlan(plan).filter((l) => l.startsWith("  ["))).toEqual([
      `  [~] iam role ${config.nodeRole.name}: update trust policy to Service ec2.amazonaws.com`,
      `  [+] iam role ${config.nodeRole.name}: attach arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy`,
      `  [-] iam role ${config.nodeRole.name}: detach arn:aws:iam::aws:policy/AdministratorAccess (not in rendered/iam)`,
      `  [-] iam role ${config.nodeRole.name}: delete inline policy Old (not in rendered/iam)`,
    ]);
  });

  it("never removes from a role it did not create, and says so", () => {
    const plan = planApply(desired, { ...converged, roles: { ...converged.roles, [config.nodeRole.name]: role({ tags: {}, managedPolicyArns: ["arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy", "arn:aws:iam::aws:policy/Extra"] }) } }, {});
    expect(plan.changes).toEqual([]);
    expect(plan.notes).toContain(`iam role ${config.nodeRole.name} exists and was not created by eks-gitops: apply keeps it up to date, destroy leaves it in place`);
    expect(plan.notes).toContain(`iam role ${config.nodeRole.name} also has arn:aws:iam::aws:policy/Extra attached; left as it is (role not created by eks-gitops)`);
  });

  it("refuses without the OIDC provider and with an access entry of the wrong type", () => {
    const plan = planApply(desired, { ...converged, oidcProviderExists: false, accessEntry: { type: "STANDARD", tags: {} } }, {});
    expect(plan.blockers).toEqual([
      `iam oidc provider ${config.oidcProviderArn}: not found; the controller role's trust refers to it. Create it with \`eksctl utils associate-iam-oidc-provider --cluster eksworkshop --region ap-southeast-1 --approve\``,
      `eks access entry ${config.nodeRole.arn}: exists with type STANDARD, nodes need EC2_LINUX; delete it (aws eks delete-access-entry) and run again`,
    ]);
  });

  it("never tags outside the cluster VPC, nor over another cluster's discovery tag", () => {
    const plan = planApply(desired, {
      ...converged,
      discoveryTargets: [
        { id: "subnet-x", kind: "subnet", vpcId: "vpc-other", tags: {} },
        { id: "subnet-y", kind: "subnet", vpcId: "vpc-0a69fad178fdc8284", tags: { [DISCOVERY_TAG]: "blue" } },
      ],
    }, {});
    expect(plan.changes).toEqual([]);
    expect(plan.notes).toContain("ec2 subnet subnet-x is in vpc-other, not the cluster VPC vpc-0a69fad178fdc8284: not tagged");
    expect(plan.notes).toContain(`ec2 subnet subnet-y has ${DISCOVERY_TAG}=blue (another cluster); left unchanged, so Karpenter of eksworkshop will not use it`);
  });

  it("uses aws-auth in CONFIG_MAP mode and refuses when Kubernetes cannot be read", () => {
    const cm = { ...converged, cluster: { ...converged.cluster, authenticationMode: "CONFIG_MAP" as const }, accessEntry: undefined };
    expect(planApply(desired, cm, { awsAuthHasNodeRole: false }).changes.map((c) => c.op)).toEqual([{ type: "awsAuthAddRole", roleArn: config.nodeRole.arn }]);
    expect(planApply(desired, cm, { awsAuthHasNodeRole: true }).changes).toEqual([]);
    expect(planApply(desired, cm, { error: "no kubeconfig" }).blockers).toEqual(["aws-auth: authentication mode CONFIG_MAP maps nodes through the aws-auth ConfigMap, but no kubeconfig"]);
    expect(planApply(desired, cm, { awsAuthHasNodeRole: true }).notes).toContain(
      "the cluster's authentication mode is CONFIG_MAP but clusters/eksworkshop/cluster.ts says API_AND_CONFIG_MAP; using CONFIG_MAP",
    );
  });

  it("updates a drifted customer managed policy with a new default version, making room when IAM's five are used", () => {
    const arn = "arn:aws:iam::133129065110:policy/Big-1";
    const withPolicy: Desired = {
      ...desired,
      roles: [desired.roles[0]!, { ...desired.roles[1]!, customerManagedPolicies: [{ name: "Big-1", arn, document: inline, file: "c.Big-1.json" }] }],
    };
    const roles = { ...converged.roles, [config.controllerRole.name]: { ...converged.roles[config.controllerRole.name]!, managedPolicyArns: [arn] } };
    const plan = planApply(withPolicy, { ...converged, roles, customerPolicies: { [arn]: { document: trust, tags: managedTags(config), otherVersions: ["v1", "v2", "v3", "v4"] } } }, {});
    expect(plan.changes.map((c) => [c.marker, c.resource, c.detail, c.op])).toEqual([
      ["~", "iam policy Big-1", "new default version (c.Big-1.json), deleting old version v1", { type: "createPolicyVersion", arn, document: inline, deleteVersion: "v1" }],
    ]);
    const missing = planApply(withPolicy, { ...converged, customerPolicies: {} }, {});
    expect(missing.changes.map((c) => `[${c.marker}] ${c.resource}: ${c.detail}`)).toEqual([
      "[+] iam policy Big-1: create (c.Big-1.json)",
      `[+] iam role ${config.controllerRole.name}: attach ${arn}`,
    ]);
  });
});

describe("planDestroy", () => {
  it("refuses while the node role is still in an instance profile", () => {
    const plan = planDestroy(desired, { ...converged, roles: { ...converged.roles, [config.nodeRole.name]: role({ instanceProfiles: ["eksworkshop_123"] }) } }, { nodeClaims: 0 });
    expect(plan.blockers).toEqual([`iam role ${config.nodeRole.name} is still in instance profile(s) eksworkshop_123; Karpenter removes them when the EC2NodeClasses are deleted`]);
  });

  it("with --force goes on despite NodeClaims and removes only marked discovery tags", () => {
    const plan = planDestroy(desired, converged, { nodeClaims: 3, server: "https://k" }, { force: true });
    expect(plan.blockers).toEqual([]);
    expect(plan.notes[0]).toBe(
      "3 Karpenter NodeClaim(s) still exist in https://k; delete the NodePools and EC2NodeClasses first and wait until `kubectl get nodeclaims` is empty (--force: destroying anyway)",
    );
    const untag = plan.changes.filter((c) => c.op.type === "untagResource").map((c) => c.resource);
    expect(untag).toEqual(["ec2 subnet subnet-a"]);
  });
});

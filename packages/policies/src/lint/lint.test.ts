// The lint: the rendered scoped documents are clean, the tutorial is flagged for what it has, and each check fires on its own.
import { readFileSync } from "node:fs";
import { checkCluster } from "@eks-gitops/config";
import { describe, expect, test } from "vitest";
import awsCn from "../../../../clusters/aws-cn/cluster.ts";
import eksworkshop from "../../../../clusters/eksworkshop/cluster.ts";
import { buildIamDocuments, type IamIndex } from "../bundle.ts";
import { controllerPolicyGroups } from "../controller/index.ts";
import { policyDocument } from "../size.ts";
import { lintPolicyDocument } from "./lint.ts";
import { lintRolePolicies } from "./role.ts";
import { iamLintTargets } from "./targets.ts";
import type { LintContext, PolicyFinding } from "./types.ts";

const A = "133129065110";
const R = "ap-southeast-1";
const identity: LintContext = { kind: "identity" };
const doc = (...Statement: unknown[]) => ({ Version: "2012-10-17", Statement });
const codes = (findings: PolicyFinding[]) => findings.map((f) => `${f.severity} ${f.code} ${f.path}`);
const serious = (findings: PolicyFinding[]) => findings.filter((f) => f.severity === "error" || f.severity === "security-warning");

/** Every document the committed rendered/iam/ of an overlay holds, with the lint context its index gives it. */
function renderedDocuments(cluster: string): { file: string; doc: unknown; context: LintContext }[] {
  const dir = new URL(`../../../../clusters/${cluster}/rendered/iam/`, import.meta.url);
  const read = (f: string) => JSON.parse(readFileSync(new URL(f, dir), "utf8"));
  return iamLintTargets(read("index.json") as IamIndex).map(({ file, context }) => ({ file, doc: read(file), context }));
}

describe("rendered documents", () => {
  for (const cluster of ["eksworkshop", "aws-cn"]) {
    test(`${cluster}: the scoped profile has no errors and no security warnings`, () => {
      const docs = renderedDocuments(cluster);
      expect(docs.length).toBeGreaterThanOrEqual(cluster === "aws-cn" ? 9 : 7);
      expect(docs.every(({ context }) => context.partition === (cluster === "aws-cn" ? "aws-cn" : "aws"))).toBe(true);
      expect(docs.map(({ context }) => context.kind).sort()).toEqual(
        [...(cluster === "aws-cn" ? ["resource"] : []), ...Array(cluster === "aws-cn" ? 6 : 5).fill("identity"), "trust", "trust"].sort(),
      );
      const findings = docs.flatMap(({ file, doc, context }) => lintPolicyDocument(doc, context).map((f) => `${file}${f.path} ${f.severity} ${f.code}`));
      // The one suggestion: GetManagedResource's IAM resource types are load balancers, so the EKS cluster is named by a condition.
      expect(findings).toEqual([`KarpenterControllerRole-${cluster}.KarpenterControllerZonalShiftPolicy-${cluster}.json/Statement/0/Resource suggestion RESOURCE_STAR_SCOPABLE`]);
    });
  }

  test("the tutorial profile is flagged for PassRole to any service and for tag-then-terminate", () => {
    const config = checkCluster({ ...eksworkshop, karpenter: { ...eksworkshop.karpenter, iamProfile: "tutorial" } }, "clusters/eksworkshop/cluster.ts");
    const [group] = controllerPolicyGroups(config);
    const findings = lintPolicyDocument(policyDocument(group!.statements), identity);
    expect(codes(serious(findings))).toEqual([
      "security-warning PASS_ROLE_WITHOUT_PASSED_TO_SERVICE /Statement/2",
      "security-warning PRIVILEGE_ESCALATION_TAG_THEN_ACT /Statement/1/Condition",
    ]);
    expect(findings.find((f) => f.code === "PRIVILEGE_ESCALATION_TAG_THEN_ACT")!.message).toBe(
      "ec2:TerminateInstances is gated only on resource tag karpenter.sh/nodepool, which /Statement/0 lets the same principal set with ec2:CreateTags on any resource: " +
        "it can tag an unrelated resource and then act on it. Allow CreateTags only at creation (ec2:CreateAction) or with a ForAllValues:StringEquals aws:TagKeys list that excludes those keys, " +
        "and gate the action on tags only this cluster's launches carry (kubernetes.io/cluster/<cluster> = owned).",
    );
    expect(codes(findings.filter((f) => f.severity === "warning"))).toEqual([
      "warning RESOURCE_STAR_SCOPABLE /Statement/0/Resource",
      "warning RESOURCE_STAR_SCOPABLE /Statement/1/Resource",
      "warning RESOURCE_STAR_SCOPABLE /Statement/4/Resource",
      "warning RESOURCE_STAR_SCOPABLE /Statement/5/Resource",
      "warning RESOURCE_STAR_SCOPABLE /Statement/6/Resource",
      "warning RESOURCE_STAR_SCOPABLE /Statement/7/Resource",
    ]);
    expect(findings[0]!.message).toContain("ssm:GetParameter, ec2:RunInstances, ec2:DeleteLaunchTemplate, ec2:CreateTags, ec2:CreateLaunchTemplate, ec2:CreateFleet on every resource");
  });

  test("scoped statements built for aws-us-gov lint clean in that partition", () => {
    const config = checkCluster({ ...eksworkshop, name: "gov", region: "us-gov-west-1", oidcIssuer: "https://oidc.eks.us-gov-west-1.amazonaws.com/id/ABCDEF0123456789ABCDEF0123456789" }, "clusters/gov/cluster.ts");
    const bundle = buildIamDocuments(config);
    for (const p of bundle.roles[1]!.inlinePolicies) {
      expect(serious(lintPolicyDocument(p.document, { kind: "identity", partition: "aws-us-gov" }))).toEqual([]);
      expect(JSON.stringify(p.document)).not.toMatch(/arn:aws:/);
    }
  });

  test("aws-cn documents checked as aws are reported as the wrong partition", () => {
    const config = checkCluster(awsCn, "clusters/aws-cn/cluster.ts");
    const trust = buildIamDocuments(config).roles[0]!.trustPolicy;
    expect(lintPolicyDocument(trust, { kind: "trust", partition: "aws" })).toEqual([
      {
        severity: "error",
        code: "WRONG_PARTITION",
        path: "/Statement/0/Principal/Service",
        message: "'ec2.amazonaws.com.cn' is a China-partition principal but this policy is for partition aws; use ec2.amazonaws.com",
      },
    ]);
  });
});

describe("checks", () => {
  const cases: { name: string; doc: unknown; context?: LintContext; expected: string[] }[] = [
    {
      name: "unknown service",
      doc: doc({ Effect: "Allow", Action: "ec3:RunInstances", Resource: "*" }),
      expected: ["error UNKNOWN_SERVICE /Statement/0/Action"],
    },
    {
      name: "unknown action and a wildcard that matches nothing",
      doc: doc({ Sid: "A", Effect: "Allow", Action: ["ec2:DescribeInstance", "ec2:Frobnicate*"], Resource: "*" }),
      expected: ["error UNKNOWN_ACTION /Statement/0/Action/0", "error UNKNOWN_ACTION /Statement/0/Action/1"],
    },
    {
      name: "condition key no action of the statement supports",
      doc: doc({ Effect: "Allow", Action: "eks:DescribeCluster", Resource: `arn:aws:eks:${R}:${A}:cluster/c`, Condition: { StringEquals: { "ec2:CreateAction": "RunInstances" } } }),
      expected: ["error CONDITION_KEY_NOT_VALID_FOR_ACTIONS /Statement/0/Condition/StringEquals/ec2:CreateAction"],
    },
    {
      name: "condition key only some actions support",
      doc: doc({ Effect: "Allow", Action: ["ec2:CreateTags", "ec2:TerminateInstances"], Resource: `arn:aws:ec2:${R}:${A}:instance/*`, Condition: { StringEquals: { "ec2:CreateAction": "RunInstances" } } }),
      expected: ["warning CONDITION_KEY_NOT_VALID_FOR_SOME_ACTIONS /Statement/0/Condition/StringEquals/ec2:CreateAction"],
    },
    {
      name: "unknown condition key",
      doc: doc({ Effect: "Allow", Action: "ec2:DescribeImages", Resource: "*", Condition: { StringEquals: { "aws:RequestedRegionn": R } } }),
      expected: ["error UNKNOWN_CONDITION_KEY /Statement/0/Condition/StringEquals/aws:RequestedRegionn"],
    },
    {
      name: "operator that does not fit the key's type",
      doc: doc({ Effect: "Allow", Action: "ec2:DescribeImages", Resource: "*", Condition: { NumericEquals: { "aws:RequestedRegion": "1" }, Bool: { "aws:SecureTransport": "yes" } } }),
      expected: ["error MISMATCHED_OPERATOR_TYPE /Statement/0/Condition/NumericEquals/aws:RequestedRegion", "error INVALID_CONDITION_VALUE /Statement/0/Condition/Bool/aws:SecureTransport"],
    },
    {
      name: "invalid operator and a multi-valued key without a set operator",
      doc: doc({ Effect: "Allow", Action: "ec2:CreateTags", Resource: `arn:aws:ec2:${R}:${A}:instance/*`, Condition: { StringEqualz: { "aws:TagKeys": "Name" }, StringEquals: { "aws:TagKeys": "Name" } } }),
      expected: ["error INVALID_OPERATOR /Statement/0/Condition/StringEqualz", "warning MISSING_SET_OPERATOR /Statement/0/Condition/StringEquals"],
    },
    {
      name: "malformed ARN, bad account, wrong partition for the region",
      doc: doc({ Effect: "Allow", Action: "ec2:TerminateInstances", Resource: ["arn:aws:ec2:instance/i-1", `arn:aws:ec2:${R}:1234:instance/*`, `arn:aws:ec2:cn-north-1:${A}:instance/*`] }),
      expected: ["error MALFORMED_ARN /Statement/0/Resource/0", "error MALFORMED_ARN /Statement/0/Resource/1", "error WRONG_PARTITION /Statement/0/Resource/2"],
    },
    {
      name: "ARN in another partition than the policy's",
      doc: doc({ Effect: "Allow", Action: "eks:DescribeCluster", Resource: `arn:aws:eks:${R}:${A}:cluster/c` }),
      context: { kind: "identity", partition: "aws-cn" },
      expected: ["error WRONG_PARTITION /Statement/0/Resource"],
    },
    {
      name: "resource that no action of the statement can act on",
      doc: doc({ Effect: "Allow", Action: "ec2:TerminateInstances", Resource: [`arn:aws:ec2:${R}:${A}:instance/*`, `arn:aws:ec2:${R}:${A}:volume/*`] }),
      expected: ["error RESOURCE_MATCHES_NO_ACTION /Statement/0/Resource/1"],
    },
    {
      name: "action that takes no resource ARN, given one",
      doc: doc({ Effect: "Allow", Action: "ec2:DescribeInstances", Resource: `arn:aws:ec2:${R}:${A}:instance/*` }),
      expected: ["error RESOURCE_MATCHES_NO_ACTION /Statement/0/Resource", "error ACTION_NEEDS_STAR_RESOURCE /Statement/0/Resource"],
    },
    {
      name: "PassRole on every role without iam:PassedToService",
      doc: doc({ Effect: "Allow", Action: "iam:PassRole", Resource: "*" }),
      expected: [
        "warning RESOURCE_STAR_SCOPABLE /Statement/0/Resource",
        "security-warning PASS_ROLE_WITH_WILDCARD_RESOURCE /Statement/0/Resource",
        "security-warning PASS_ROLE_WITHOUT_PASSED_TO_SERVICE /Statement/0",
      ],
    },
    {
      name: "PassRole on one role to one service is clean",
      doc: doc({ Effect: "Allow", Action: "iam:PassRole", Resource: `arn:aws:iam::${A}:role/KarpenterNodeRole-c`, Condition: { StringEquals: { "iam:PassedToService": "ec2.amazonaws.com" } } }),
      expected: [],
    },
    {
      name: "duplicate and invalid Sids",
      doc: doc(
        { Sid: "Read", Effect: "Allow", Action: "pricing:GetProducts", Resource: "*" },
        { Sid: "Read", Effect: "Allow", Action: "iam:ListInstanceProfiles", Resource: "*" },
        { Sid: "read-ssm", Effect: "Allow", Action: "ssm:DescribeParameters", Resource: "*" },
      ),
      expected: ["error DUPLICATE_SID /Statement/1/Sid", "error INVALID_SID /Statement/2/Sid"],
    },
    {
      name: "missing Version",
      doc: { Statement: [{ Effect: "Allow", Action: "pricing:GetProducts", Resource: "*" }] },
      expected: ["warning MISSING_VERSION /Version"],
    },
    {
      name: "Principal in an identity policy and a missing Resource",
      doc: doc({ Effect: "Allow", Principal: "*", Action: "pricing:GetProducts" }),
      expected: ["error PRINCIPAL_IN_IDENTITY_POLICY /Statement/0/Principal", "error MISSING_RESOURCE /Statement/0/Resource"],
    },
    {
      name: "IRSA trust without a subject",
      doc: doc({
        Effect: "Allow",
        Principal: { Federated: `arn:aws:iam::${A}:oidc-provider/oidc.eks.${R}.amazonaws.com/id/X` },
        Action: "sts:AssumeRoleWithWebIdentity",
        Condition: { StringEquals: { [`oidc.eks.${R}.amazonaws.com/id/X:aud`]: "sts.amazonaws.com" } },
      }),
      context: { kind: "trust" },
      expected: ["security-warning WEB_IDENTITY_WITHOUT_SUBJECT /Statement/0/Condition"],
    },
    {
      name: "IRSA trust with a subject pattern",
      doc: doc({
        Effect: "Allow",
        Principal: { Federated: `arn:aws:iam::${A}:oidc-provider/oidc.eks.${R}.amazonaws.com/id/X` },
        Action: "sts:AssumeRoleWithWebIdentity",
        Condition: { StringLike: { [`oidc.eks.${R}.amazonaws.com/id/X:sub`]: "system:serviceaccount:kube-system:*", [`oidc.eks.${R}.amazonaws.com/id/X:aud`]: "sts.amazonaws.com" } },
      }),
      context: { kind: "trust" },
      expected: ["warning WEB_IDENTITY_SUBJECT_PATTERN /Statement/0/Condition"],
    },
    {
      name: "trust policy with a Resource and a non-STS action",
      doc: doc({ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "s3:GetObject", Resource: "*" }),
      context: { kind: "trust" },
      expected: ["error NOT_A_TRUST_ACTION /Statement/0/Action", "error RESOURCE_IN_TRUST_POLICY /Statement/0/Resource"],
    },
    {
      name: "queue policy open to everyone",
      doc: doc({ Effect: "Allow", Principal: "*", Action: "sqs:SendMessage", Resource: `arn:aws:sqs:${R}:${A}:q` }),
      context: { kind: "resource" },
      expected: ["security-warning PUBLIC_ACCESS /Statement/0/Principal"],
    },
  ];
  test.each(cases)("$name", ({ doc, context, expected }) => {
    expect(codes(lintPolicyDocument(doc, context ?? identity))).toEqual(expected);
  });

  test("messages say how to fix the problem", () => {
    const [unknown] = lintPolicyDocument(doc({ Effect: "Allow", Action: "ec2:DescribeInstance", Resource: "*" }), identity);
    expect(unknown).toEqual({
      severity: "error",
      code: "UNKNOWN_ACTION",
      path: "/Statement/0/Action",
      message: "'ec2:DescribeInstance' is not an action of ec2; check the spelling against the Service Authorization Reference",
    });
    const [passRole] = lintPolicyDocument(doc({ Effect: "Allow", Action: "iam:PassRole", Resource: `arn:aws:iam::${A}:role/r` }), identity);
    expect(passRole!.message).toBe(
      'iam:PassRole without an iam:PassedToService condition lets the role be passed to any service (e.g. Lambda); add "Condition": {"StringEquals": {"iam:PassedToService": "ec2.amazonaws.com"}}',
    );
  });

  test("JSON pointers escape / in condition keys", () => {
    const findings = lintPolicyDocument(doc({ Effect: "Allow", Action: "eks:DescribeCluster", Resource: `arn:aws:eks:${R}:${A}:cluster/c`, Condition: { StringEquals: { "aws:RequestTag/a/b": "x" } } }), identity);
    expect(codes(findings)).toEqual(["error CONDITION_KEY_NOT_VALID_FOR_ACTIONS /Statement/0/Condition/StringEquals/aws:RequestTag~1a~1b"]);
  });

  test("size over the limit: inline 10,240, managed 6,144", () => {
    const actions = Array.from({ length: 40 }, () => "ec2:DescribeInstances");
    const statements = Array.from({ length: 9 }, (_, i) => ({ Sid: `S${i}`, Effect: "Allow", Action: actions, Resource: "*" }));
    const big = doc(...statements);
    const size = JSON.stringify(big).length;
    expect(size).toBeGreaterThan(6_144);
    expect(size).toBeLessThan(10_240);
    expect(codes(lintPolicyDocument(big, identity))).toEqual([]);
    const managed = lintPolicyDocument(big, { kind: "identity", attachment: "managed" });
    expect(managed).toEqual([
      {
        severity: "error",
        code: "POLICY_TOO_LARGE",
        path: "",
        message: `${size} characters (whitespace excluded); a managed policy can have at most 6144; split the statements across several documents (packPolicies does this) or remove some`,
      },
    ]);
    const huge = doc(...statements, ...statements.map((s) => ({ ...s, Sid: `T${s.Sid}` })));
    expect(codes(lintPolicyDocument(huge, identity))).toEqual(["error POLICY_TOO_LARGE "]);
  });

  test("not a policy at all", () => {
    expect(codes(lintPolicyDocument([], identity))).toEqual(["error NOT_A_POLICY "]);
    expect(codes(lintPolicyDocument({ Version: "2012-10-17" }, identity))).toEqual(["error MISSING_STATEMENT /Statement"]);
  });
});

describe("lintRolePolicies", () => {
  const tagAnything = { Sid: "Tag", Effect: "Allow", Action: "ec2:CreateTags", Resource: "*" };
  const terminateTagged = { Sid: "Terminate", Effect: "Allow", Action: "ec2:TerminateInstances", Resource: "*", Condition: { StringLike: { "ec2:ResourceTag/team": "*" } } };

  test("finds a tag-then-terminate path split across two documents", () => {
    const findings = lintRolePolicies([
      { file: "a.json", doc: doc(tagAnything) },
      { file: "b.json", doc: doc(terminateTagged) },
    ]);
    expect(findings.map((f) => [f.file, f.path, f.code])).toEqual([["b.json", "/Statement/0/Condition", "PRIVILEGE_ESCALATION_TAG_THEN_ACT"]]);
    expect(findings[0]!.message).toContain("which a.json#/Statement/0 lets the same principal set");
  });

  test("leaves a path within one document to lintPolicyDocument, and finds none in the scoped policies", () => {
    expect(lintRolePolicies([{ file: "a.json", doc: doc(tagAnything, terminateTagged) }])).toEqual([]);
    const role = buildIamDocuments(checkCluster(eksworkshop, "clusters/eksworkshop/cluster.ts")).roles[1]!;
    expect(lintRolePolicies(role.inlinePolicies.map((p) => ({ file: p.name, doc: p.document })))).toEqual([]);
  });
});

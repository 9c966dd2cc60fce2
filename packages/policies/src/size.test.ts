// Packing statements into documents under IAM's size limits, and the errors when they cannot fit.
import { describe, expect, test } from "vitest";
import { IAM_LIMITS, packPolicies, PolicySizeError, policyDocument, policySize, splitStatements } from "./size.ts";
import type { Statement } from "./types.ts";

const statement = (sid: string, actions: number): Statement => ({
  Sid: sid,
  Effect: "Allow",
  Action: Array.from({ length: actions }, (_, i) => `ec2:DescribeInstances${String(i).padStart(3, "0")}`),
  Resource: "*",
});
const input = (groups: { name: string; statements: Statement[] }[], attached = 0) => ({
  roleName: "KarpenterControllerRole-c",
  partition: "aws",
  account: "111122223333",
  groups,
  attachedManagedPolicies: attached,
});

describe("policySize", () => {
  test("counts the JSON without whitespace", () => {
    const doc = policyDocument([{ Effect: "Allow", Action: "pricing:GetProducts", Resource: "*" }]);
    expect(policySize(doc)).toBe(JSON.stringify(doc).length);
    expect(policySize(doc)).toBeLessThan(JSON.stringify(doc, null, 2).length);
  });
});

describe("packPolicies", () => {
  test("inline, one policy per group, while the role's total fits 10,240", () => {
    const packed = packPolicies(input([{ name: "A", statements: [statement("S1", 100)] }, { name: "B", statements: [statement("S2", 100)] }]));
    expect(packed.inlinePolicies.map((p) => p.name)).toEqual(["A", "B"]);
    expect(packed.customerManagedPolicies).toEqual([]);
    expect(packed.inlinePolicies.reduce((n, p) => n + policySize(p.document), 0)).toBeLessThanOrEqual(IAM_LIMITS.inlineRolePolicies);
  });

  test("over 10,240 in total: customer managed policies, split in order into parts of at most 6,144", () => {
    const big = ["S1", "S2", "S3", "S4"].map((sid) => statement(sid, 100));
    const packed = packPolicies(input([{ name: "Big", statements: big }, { name: "Small", statements: [statement("S5", 10)] }]));
    expect(packed.inlinePolicies).toEqual([]);
    expect(packed.customerManagedPolicies.map((p) => [p.name, p.arn, p.document.Statement.map((s) => s.Sid)])).toEqual([
      ["Big-1", "arn:aws:iam::111122223333:policy/Big-1", ["S1", "S2"]],
      ["Big-2", "arn:aws:iam::111122223333:policy/Big-2", ["S3", "S4"]],
      ["Small", "arn:aws:iam::111122223333:policy/Small", ["S5"]],
    ]);
    for (const p of packed.customerManagedPolicies) expect(policySize(p.document)).toBeLessThanOrEqual(IAM_LIMITS.managedPolicy);
  });

  test("a statement that alone passes 6,144 cannot be split", () => {
    const huge = [statement("S0", 150), statement("Huge", 300)];
    expect(() => packPolicies(input([{ name: "P", statements: huge }]))).toThrow(PolicySizeError);
    expect(() => splitStatements(huge, IAM_LIMITS.managedPolicy, "KarpenterControllerRole-c: policy P")).toThrow(
      `KarpenterControllerRole-c: policy P: statement Huge alone is ${policySize(policyDocument([huge[1]!]))} characters, over the 6144-character limit of one policy; split its Action or Resource list into several statements`,
    );
  });

  test("more parts than the role may attach", () => {
    const groups = Array.from({ length: 6 }, (_, i) => ({ name: `G${i}`, statements: [statement(`S${i}`, 80)] }));
    expect(() => packPolicies(input(groups, 5))).toThrow(
      /^KarpenterControllerRole-c: the permissions \(\d+ characters\) pass the 10240-character inline limit, and as managed policies they need 11 attachments, more than the default quota of 10 per role; /,
    );
  });
});

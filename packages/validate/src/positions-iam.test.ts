// IAM policy documents (JSON, one a file, no apiVersion or kind) are located by the flow scanner, as their span is
// taken as it is by the `yaml` path too: the same lines and columns, without loading the `yaml` library.
import { describe, expect, it, vi } from "vitest";
import type { ResourceResult } from "./types.ts";

const calls = vi.hoisted(() => ({ n: 0 }));
vi.mock("./yaml-lib.ts", async (importActual) => {
  const actual = await importActual<typeof import("./yaml-lib.ts")>();
  return {
    ...actual,
    yamlLib: () => {
      calls.n++;
      return actual.yamlLib();
    },
  };
});

const { locateFindings } = await import("./positions.ts");

const text = `{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Sid": "a",
      "Effect": "Allow",
      "Action": ["ec2:RunInstances", "ec2:CreateFleet",
                 "iam:PassRole"],
      "Resource": "*"
    },
    {"Effect": "Allow", "Action": "ec2:CreateTags", "Resource": ["arn:aws:ec2:*:*:instance/*"],
     "Condition": {"StringEquals": {"aws:RequestTag/karpenter.sh~nodepool": "x", "ec2:CreateAction": ["RunInstances"]}}}
  ]
}
`;
const paths = ["/Statement/0/Resource", "/Statement/0/Action/2", "/Statement/1/Condition/StringEquals/aws:RequestTag~1karpenter.sh~0nodepool", "/Statement/1/Resource/0", "/Statement/1/Condition/StringEquals/ec2:CreateAction/0", "/Statement/0/Missing"];
const result = (kind: string): ResourceResult => ({
  file: "policy.json",
  index: 0,
  apiVersion: "",
  kind,
  name: "policy",
  namespace: "",
  status: "valid",
  findings: paths.map((path) => ({ severity: "warning", path, message: "m", rule: "iam:X" })),
});

describe("locating findings in an IAM policy document", () => {
  it("finds each pointer where the yaml library finds it, without loading the library", () => {
    calls.n = 0;
    const fast = locateFindings(text, [result("IAM:policy")]);
    expect(calls.n).toBe(0);
    // the same document with nothing saying what it is: located by the yaml library
    const slow = locateFindings(text, [result("")]);
    expect(calls.n).toBeGreaterThan(0);
    expect(fast[0]?.findings.map((f) => [f.line, f.column])).toEqual(slow[0]?.findings.map((f) => [f.line, f.column]));
    expect(fast[0]?.findings.slice(0, 2).map((f) => [f.line, f.column])).toEqual([
      [9, 7],
      [8, 18],
    ]);
  });
});

// iamLintTargets: each file of index.json with the lint context it needs.
import { expect, test } from "vitest";
import type { IamIndex } from "../bundle.ts";
import { iamLintTargets } from "./targets.ts";

test("trust, inline, customer managed and queue files get their kind, attachment and the roles' partition", () => {
  const index: IamIndex = {
    roles: [
      {
        name: "R",
        arn: "arn:aws-us-gov:iam::111122223333:role/R",
        description: "",
        trustPolicyFile: "R.trust-policy.json",
        managedPolicyArns: [],
        inlinePolicies: [{ name: "I", file: "R.I.json" }],
        customerManagedPolicies: [{ name: "M-1", arn: "arn:aws-us-gov:iam::111122223333:policy/M-1", file: "R.M-1.json" }],
      },
    ],
    queue: { name: "q", arn: "arn:aws-us-gov:sqs:us-gov-west-1:111122223333:q", attributes: {}, policyFile: "q.queue-policy.json", rules: [] },
  };
  expect(iamLintTargets(index)).toEqual([
    { file: "R.trust-policy.json", context: { kind: "trust", file: "R.trust-policy.json", partition: "aws-us-gov" } },
    { file: "R.I.json", context: { kind: "identity", attachment: "inline", file: "R.I.json", partition: "aws-us-gov" } },
    { file: "R.M-1.json", context: { kind: "identity", attachment: "managed", file: "R.M-1.json", partition: "aws-us-gov" } },
    { file: "q.queue-policy.json", context: { kind: "resource", file: "q.queue-policy.json", partition: "aws-us-gov" } },
  ]);
});

// IAM documents of rendered/iam/ linted in the context index.json gives them (trust, identity, resource).
import { describe, expect, it } from "vitest";
import { lintIamDocuments } from "./iam.ts";
import type { IamDocument } from "./types.ts";

const dir = "clusters/x/rendered/iam";
const index = {
  roles: [{ name: "R", arn: "arn:aws:iam::111122223333:role/R", trustPolicyFile: "R.trust-policy.json", managedPolicyArns: [], inlinePolicies: [{ name: "P", file: "R.P.json" }] }],
};
const doc = (name: string, object: unknown, iamKind: IamDocument["iamKind"] = "policy"): IamDocument => ({ file: `${dir}/${name}`, index: 0, iamKind, object });

describe("lintIamDocuments", () => {
  it("reports lint errors with their code and JSON pointer, and passes a good trust policy", () => {
    const trust = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }] };
    const bad = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "ec2:NoSuchAction", Resource: "*" }] };
    const out = lintIamDocuments([doc("index.json", index, "index"), doc("R.trust-policy.json", trust, "trust-policy"), doc("R.P.json", bad)]);
    expect(out.get(`${dir}/index.json`)).toEqual({ status: "valid", findings: [] });
    expect(out.get(`${dir}/R.trust-policy.json`)?.status).toBe("valid");
    const p = out.get(`${dir}/R.P.json`);
    expect(p?.status).toBe("invalid");
    expect(p?.findings.find((f) => f.severity === "error")).toMatchObject({ path: "/Statement/0/Action", rule: "iam:UNKNOWN_ACTION" });
  });

  it("says when a file is not listed in index.json", () => {
    const out = lintIamDocuments([doc("index.json", index, "index"), doc("Stray.json", { Version: "2012-10-17", Statement: [] })]);
    expect(out.get(`${dir}/Stray.json`)?.findings).toContainEqual({
      severity: "warning",
      path: "",
      message: `not listed in ${dir}/index.json; linted as kind "identity" (from its file name)`,
      rule: "iam:unlisted",
    });
  });
});

// arnMatchesTemplate: a policy ARN (with * ? and ${aws:...} wildcards) against iam-data ARN templates (with ${Var}).
import { describe, expect, it } from "vitest";
import { arnMatchesTemplate } from "./arn.ts";

/** `${Name}`, as iam-data writes a placeholder. */
const v = (name: string) => ["$", `{${name}}`].join("");
const INSTANCE = `arn:${v("Partition")}:ec2:${v("Region")}:${v("Account")}:instance/${v("InstanceId")}`;
const ROLE = `arn:${v("Partition")}:iam::${v("Account")}:role/${v("RoleNameWithPath")}`;

describe("arnMatchesTemplate", () => {
  it("matches an ARN of the template's service and resource type", () => {
    expect(arnMatchesTemplate("arn:aws:ec2:ap-southeast-1:133129065110:instance/i-0123", INSTANCE)).toBe(true);
    expect(arnMatchesTemplate("arn:aws-cn:iam::133129065110:role/KarpenterNodeRole-aws-cn", ROLE)).toBe(true);
  });

  it("does not match another service or resource type", () => {
    expect(arnMatchesTemplate("arn:aws:iam::133129065110:role/KarpenterNodeRole", INSTANCE)).toBe(false);
    expect(arnMatchesTemplate("arn:aws:ec2:ap-southeast-1:133129065110:volume/vol-1", INSTANCE)).toBe(false);
  });

  it("matches through wildcards in the policy ARN, the service field included", () => {
    expect(arnMatchesTemplate("arn:aws:ec2:*:*:instance/*", INSTANCE)).toBe(true);
    expect(arnMatchesTemplate("arn:aws:ec?:*:*:instance/*", INSTANCE)).toBe(true);
    expect(arnMatchesTemplate("arn:aws:*:*:*:instance/*", INSTANCE)).toBe(true);
    expect(arnMatchesTemplate("arn:*:i*", ROLE)).toBe(true);
    expect(arnMatchesTemplate("arn:aws:ec2:*:*:instance/*", ROLE)).toBe(false);
  });

  it("gives the same answer when asked again", () => {
    for (let i = 0; i < 3; i++) {
      expect(arnMatchesTemplate("arn:aws:ec2:*:*:instance/*", INSTANCE)).toBe(true);
      expect(arnMatchesTemplate("arn:aws:s3:::bucket", INSTANCE)).toBe(false);
    }
  });
});

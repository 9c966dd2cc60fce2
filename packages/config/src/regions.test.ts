import { describe, expect, it } from "vitest";
import { partitionOfRegion } from "./aws.ts";
import { knownRegion, listedRegions, suggestRegion } from "./regions.ts";
import { closest } from "./suggest.ts";

describe("regions from the AWS SDK's partition metadata", () => {
  it("knows a listed region and its partition, not a made-up one", () => {
    expect(knownRegion("ap-southeast-1")).toEqual({ partition: "aws", description: "Asia Pacific (Singapore)" });
    expect(knownRegion("cn-northwest-1")?.partition).toBe("aws-cn");
    expect(knownRegion("us-gov-west-1")?.partition).toBe("aws-us-gov");
    expect(knownRegion("eu-wset-1")).toBeUndefined();
    expect(partitionOfRegion("cn-north-1")).toBe("aws-cn");
  });

  it("suggests the nearest listed region", () => {
    expect(suggestRegion("eu-wset-1")).toBe("eu-west-1");
    expect(suggestRegion("ap-southeast-11")).toBe("ap-southeast-1");
    expect(suggestRegion("us-est-1")).toBe("us-east-1");
    expect(suggestRegion("mars-north-1")).toBeUndefined();
    expect(listedRegions()).toContain("eu-central-2");
  });
});

describe("closest", () => {
  it("suggests within a few edits, never a far name", () => {
    expect(closest("maxReplica", ["minReplicas", "maxReplicas", "targetCpuUtilizationPercent"])).toBe("maxReplicas");
    expect(closest("alais", ["alias", "id", "name"])).toBe("alias");
    expect(closest("colour", ["name", "labels", "weight"])).toBeUndefined();
    expect(closest("xy", ["id"])).toBeUndefined();
  });
});

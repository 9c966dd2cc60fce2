// Test fixture: a few of moto 5.2.5's real ap-southeast-1 DescribeInstanceTypes / DescribeInstanceTypeOfferings
// answers (describe-fixture.ap-southeast-1.json), committed so unit tests need no moto. pnpm e2e
// (packages/cli/src/commands/capacity.emulator.test.ts) checks every item is still what moto serves.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Ec2InstanceTypeInfo, Ec2InstanceTypeOffering } from "../snapshot.ts";

export interface DescribeFixture {
  readonly region: string;
  readonly instanceTypes: readonly Ec2InstanceTypeInfo[];
  readonly offerings: readonly Ec2InstanceTypeOffering[];
}

export const DESCRIBE_FIXTURE_FILE = join(import.meta.dirname, "describe-fixture.ap-southeast-1.json");

/** The instance types the fixture holds: a burstable, Xen and Nitro, arm64, a GPU, an accelerator, bare metal. */
export const DESCRIBE_FIXTURE_TYPES = ["t3.2xlarge", "c4.2xlarge", "m6g.large", "g4dn.xlarge", "inf1.xlarge", "m5.metal"] as const;

export function describeFixture(): DescribeFixture {
  return JSON.parse(readFileSync(DESCRIBE_FIXTURE_FILE, "utf8")) as DescribeFixture;
}

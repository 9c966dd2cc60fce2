// e2e-only helper: the EC2 instance-type data an installed moto package serves (pnpm e2e checks the committed
// snapshot and describe-fixture.ap-southeast-1.json against it). Unit tests never call this: they read those files.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Ec2InstanceTypeInfo, Ec2InstanceTypeOffering } from "../snapshot.ts";
import type { DescribeFixture } from "./describe-fixture.ts";

function readGzJson(path: string): unknown {
  return JSON.parse(gunzipSync(readFileSync(path)).toString("utf8"));
}

/** DescribeInstanceTypes items (every type moto knows), from the `moto` package folder (checkMoto().packageDir). */
export function motoInstanceTypes(motoPackageDir: string): Ec2InstanceTypeInfo[] {
  return Object.values(readGzJson(join(motoPackageDir, "ec2", "resources", "instance_types.json.gz")) as Record<string, Ec2InstanceTypeInfo>);
}

/** DescribeInstanceTypeOfferings items of a region with LocationType availability-zone. */
export function motoOfferings(motoPackageDir: string, region: string): Ec2InstanceTypeOffering[] {
  const file = join(motoPackageDir, "ec2", "resources", "instance_type_offerings", "availability-zone", `${region}.json.gz`);
  const items = readGzJson(file) as { InstanceType: string; Location: string }[];
  return items.map((o) => ({ ...o, LocationType: "availability-zone" }));
}

/** What moto serves for the given instance types in a region, in the order describe-fixture.ap-southeast-1.json keeps. */
export function motoDescribe(motoPackageDir: string, region: string, types: readonly string[]): DescribeFixture {
  const want = new Set(types);
  return {
    region,
    instanceTypes: motoInstanceTypes(motoPackageDir)
      .filter((t) => want.has(t.InstanceType ?? ""))
      .sort((a, b) => (a.InstanceType ?? "").localeCompare(b.InstanceType ?? "")),
    offerings: motoOfferings(motoPackageDir, region)
      .filter((o) => want.has(o.InstanceType ?? ""))
      .sort((a, b) => (a.InstanceType ?? "").localeCompare(b.InstanceType ?? "") || (a.Location ?? "").localeCompare(b.Location ?? "")),
  };
}

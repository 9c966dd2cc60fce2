// Test helper: the real EC2 instance-type data moto serves (read from the installed moto package; never committed).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { snapshotFromDescribe, type Ec2InstanceTypeInfo, type Ec2InstanceTypeOffering } from "../snapshot.ts";
import type { InstanceTypeSnapshot } from "../types.ts";

let motoDir: string | undefined;

/** The directory of the installed moto package (`.ci/run` installs moto; the tests require it). */
export function motoResources(): string {
  motoDir ??= execFileSync("python3", ["-c", "import moto, os; print(os.path.dirname(moto.__file__))"], { encoding: "utf8" }).trim();
  return join(motoDir, "ec2", "resources");
}

function readGzJson(path: string): unknown {
  return JSON.parse(gunzipSync(readFileSync(path)).toString("utf8"));
}

/** DescribeInstanceTypes items (every type moto knows). */
export function motoInstanceTypes(): Ec2InstanceTypeInfo[] {
  return Object.values(readGzJson(join(motoResources(), "instance_types.json.gz")) as Record<string, Ec2InstanceTypeInfo>);
}

/** DescribeInstanceTypeOfferings items of a region with LocationType availability-zone. */
export function motoOfferings(region: string): Ec2InstanceTypeOffering[] {
  const items = readGzJson(join(motoResources(), "instance_type_offerings", "availability-zone", `${region}.json.gz`)) as {
    InstanceType: string;
    Location: string;
  }[];
  return items.map((o) => ({ ...o, LocationType: "availability-zone" }));
}

const cache = new Map<string, InstanceTypeSnapshot>();

/** The snapshot `eks-gitops capacity refresh` would write against moto for a region. */
export function motoSnapshot(region = "ap-southeast-1"): InstanceTypeSnapshot {
  let s = cache.get(region);
  if (!s) {
    s = snapshotFromDescribe({ region, instanceTypes: motoInstanceTypes(), offerings: motoOfferings(region), source: "moto" });
    cache.set(region, s);
  }
  return s;
}

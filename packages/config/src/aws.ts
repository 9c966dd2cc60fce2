// Partition facts: which partition a region is in, and the partition's DNS suffix and service principals.
import { knownRegion } from "./regions.ts";
import type { Partition } from "./types.ts";

/** The partition a region belongs to: the AWS SDK's partition metadata, or (a region it does not list) from its name. */
export function partitionOfRegion(region: string): Partition {
  const listed = knownRegion(region)?.partition;
  if (listed === "aws" || listed === "aws-cn" || listed === "aws-us-gov") return listed;
  if (region.startsWith("cn-")) return "aws-cn";
  if (region.startsWith("us-gov-")) return "aws-us-gov";
  return "aws";
}

/** DNS suffix of service endpoints and principals in a partition. */
export function dnsSuffix(partition: Partition): string {
  return partition === "aws-cn" ? "amazonaws.com.cn" : "amazonaws.com";
}

/** The EC2 service principal that node roles trust (`ec2.amazonaws.com`, `ec2.amazonaws.com.cn` in aws-cn). */
export function ec2ServicePrincipal(partition: Partition): string {
  return `ec2.${dnsSuffix(partition)}`;
}

/** Region names AWS uses today: `<area>-<direction>-<n>`, with the partition prefixes. */
export const REGION_PATTERN = /^(us-gov-|cn-)?[a-z]{2}-(?:[a-z]+-)*[a-z]+-\d$/;

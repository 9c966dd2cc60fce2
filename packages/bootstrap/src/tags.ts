// Tag keys that mark what the bootstrap created, so destroy removes only that.
import { MANAGED_BY, type ClusterConfig } from "@eks-gitops/config";

/** Tag on every resource the bootstrap creates; its value is MANAGED_BY. */
export const TAG_MANAGED_BY = "eks-gitops/managed-by";
/** Tag naming the overlay (cluster) a created resource belongs to. */
export const TAG_CLUSTER = "eks-gitops/cluster";
/**
 * Put beside a discovery tag the bootstrap added to a subnet or security group it does not own,
 * so destroy can remove that tag (and only that one) later.
 */
export const TAG_ADDED_DISCOVERY = "eks-gitops/added-discovery-tag";

/** Tags for a resource the bootstrap creates: the overlay's tags plus the two ownership tags. */
export function managedTags(config: ClusterConfig): Record<string, string> {
  return { ...config.tags, [TAG_MANAGED_BY]: MANAGED_BY, [TAG_CLUSTER]: config.name };
}

/** True when tags say the bootstrap of this cluster created the resource. */
export function isManaged(tags: Readonly<Record<string, string>> | undefined, cluster: string): boolean {
  return tags?.[TAG_MANAGED_BY] === MANAGED_BY && tags?.[TAG_CLUSTER] === cluster;
}

/** `[{Key, Value}]` (IAM, EC2, SQS-less APIs) -> record. */
export function tagRecord(tags: readonly { Key?: string | undefined; Value?: string | undefined }[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tags ?? []) if (t.Key !== undefined) out[t.Key] = t.Value ?? "";
  return out;
}

/** record -> `[{Key, Value}]`, sorted by key for stable requests. */
export function tagList(tags: Readonly<Record<string, string>>): { Key: string; Value: string }[] {
  return Object.keys(tags)
    .sort()
    .map((Key) => ({ Key, Value: tags[Key]! }));
}

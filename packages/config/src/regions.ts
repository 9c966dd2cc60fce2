// Which AWS regions exist, and in which partition: asked of the AWS SDK's own partition metadata
// (@aws-sdk/util-endpoints `partition()`, the table every AWS SDK client resolves endpoints with), not a list of ours.
import { createRequire } from "node:module";
import { closest } from "./suggest.ts";

type PartitionFn = (region: string) => { name?: string; description?: string };
let sdkPartition: PartitionFn | undefined;
/** Loaded on first use (about 60 ms): importing this package's index must stay cheap. */
function partitionOf(region: string): { name?: string; description?: string } {
  sdkPartition ??= (createRequire(import.meta.url)("@aws-sdk/util-endpoints") as { partition: PartitionFn }).partition;
  return sdkPartition(region);
}

export interface KnownRegion {
  /** `aws`, `aws-cn`, `aws-us-gov`, ... as the SDK names it. */
  readonly partition: string;
  /** e.g. `Asia Pacific (Singapore)`. */
  readonly description: string;
}

/**
 * The region's partition and name when the SDK lists it. `partition()` answers for any name that merely
 * looks like a region (it falls back to the partition's name pattern); only a listed region comes back
 * with a `description`.
 */
export function knownRegion(region: string): KnownRegion | undefined {
  let info: { name?: string; description?: string };
  try {
    info = partitionOf(region);
  } catch {
    return undefined;
  }
  return info.description && info.name ? { partition: info.name, description: info.description } : undefined;
}

// Region names are `<area>-<direction>-<n>`. The SDK offers no list, so the candidates of a suggestion are
// the names this grammar spells (and the area the user typed), each asked of the SDK like any other name.
const AREAS = ["af", "ap", "ca", "cn", "eu", "eusc-de", "il", "me", "mx", "sa", "us", "us-gov", "us-iso", "us-isob", "us-isof", "eu-isoe"];
const DIRECTIONS = ["central", "east", "north", "northeast", "northwest", "south", "southeast", "southwest", "west"];

let listed: string[] | undefined;

/** Every region the SDK knows whose name the grammar above spells. Computed on first use (an error path). */
export function listedRegions(typed = ""): string[] {
  const typedArea = /^(.*)-[a-z]+-\d+$/.exec(typed)?.[1];
  const areas = typedArea && !AREAS.includes(typedArea) ? [...AREAS, typedArea] : AREAS;
  if (listed && areas === AREAS) return listed;
  const found: string[] = [];
  for (const area of areas) for (const dir of DIRECTIONS) for (let n = 1; n <= 9; n++) if (knownRegion(`${area}-${dir}-${n}`)) found.push(`${area}-${dir}-${n}`);
  if (areas === AREAS) listed = found;
  return found;
}

/** The listed region nearest to a misspelt one, if any is near. */
export function suggestRegion(typed: string): string | undefined {
  return closest(typed, listedRegions(typed));
}

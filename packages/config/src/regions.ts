// Which AWS regions exist, and in which partition: asked of the AWS SDK's own partition metadata
// (@aws-sdk/util-endpoints `partition()`, the table every AWS SDK client resolves endpoints with), not a list of ours.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { overlayCacheDir } from "./compile.ts";
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
 * The regions the installed SDK lists, as a table cached per SDK version: loading the SDK's endpoint code
 * takes 60 ms or more, and every overlay load checks its region. A name the table lacks is asked of the SDK
 * itself (the grammar below may not spell every region), so the table can only make a lookup faster.
 */
let table: ReadonlyMap<string, KnownRegion> | undefined;
function cachedTable(): ReadonlyMap<string, KnownRegion> | undefined {
  if (table) return table;
  // EKS_GITOPS_OVERLAY_CACHE=off means no cache at all: ask the SDK per lookup, and never take "off" for a folder
  // (it once was: a stray `off/regions-*.json` appeared in whatever folder the command was typed in)
  if (process.env.EKS_GITOPS_OVERLAY_CACHE === "off") return undefined;
  try {
    const require = createRequire(import.meta.url);
    const endpoints = require.resolve("@aws-sdk/util-endpoints/package.json");
    const core = createRequire(endpoints).resolve("@aws-sdk/core/package.json");
    const version = (path: string) => (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
    const file = join(overlayCacheDir(), `regions-${version(endpoints)}-${version(core)}.json`);
    try {
      table = new Map(Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, KnownRegion>));
    } catch {
      const built = new Map<string, KnownRegion>();
      for (const region of listedRegions()) built.set(region, askSdk(region) as KnownRegion);
      mkdirSync(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(Object.fromEntries(built), null, 2)}\n`);
      renameSync(tmp, file);
      table = built;
    }
  } catch {
    return undefined;
  }
  return table;
}

/** The region's partition and name when the SDK lists it (see {@link askSdk}). */
export function knownRegion(region: string): KnownRegion | undefined {
  return cachedTable()?.get(region) ?? askSdk(region);
}

/**
 * The region's partition and name when the SDK lists it. `partition()` answers for any name that merely
 * looks like a region (it falls back to the partition's name pattern); only a listed region comes back
 * with a `description`.
 */
function askSdk(region: string): KnownRegion | undefined {
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
  for (const area of areas) for (const dir of DIRECTIONS) for (let n = 1; n <= 9; n++) if (askSdk(`${area}-${dir}-${n}`)) found.push(`${area}-${dir}-${n}`);
  if (areas === AREAS) listed = found;
  return found;
}

/** The listed region nearest to a misspelt one, if any is near. */
export function suggestRegion(typed: string): string | undefined {
  return closest(typed, listedRegions(typed));
}

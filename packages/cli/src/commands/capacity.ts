// `eks-gitops capacity refresh`: takes the instance-type data of a region from EC2 and commits it as a snapshot.
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
// Static: this module is itself loaded only for `capacity` (bin.ts), and the CLI bundle require()s the SDK.
import { EC2Client, paginateDescribeInstanceTypeOfferings, paginateDescribeInstanceTypes, paginateDescribeSpotPriceHistory } from "@aws-sdk/client-ec2";
import { PricingClient, paginateGetProducts } from "@aws-sdk/client-pricing";
import type { PriceInput } from "@eks-gitops/capacity";
import { CAPACITY_DIR, CAPACITY_REFRESH_COMMAND, CLUSTERS_DIR, instanceTypesFile, listClusters, loadCluster, REGION_PATTERN } from "@eks-gitops/config";
import { parseCommandArgs, pickSubcommand } from "../args.ts";
import { EXIT, exitCodeHelp, UsageError } from "../exit-codes.ts";
import { findRepoRoot } from "../repo.ts";
import { writeFileAtomically } from "../write-file.ts";

export const capacityUsage = `Usage: eks-gitops capacity refresh [--region REGION] [--cluster NAME]... [--captured-at YYYY-MM-DD] [--source TEXT] [--prices | --spot-prices] [--check] [--root DIR]

Calls ec2:DescribeInstanceTypes and ec2:DescribeInstanceTypeOfferings (per availability zone) and
writes clusters/<name>/capacity/instance-types.<region>.json for each selected overlay: sorted JSON
with only the fields the simulation uses, so \`eks-gitops simulate\` runs without AWS credentials.
Read-only; the IAM actions needed are ec2:DescribeInstanceTypes and ec2:DescribeInstanceTypeOfferings.
  --region REGION      the region to describe: every overlay in it (default: each --cluster's own region)
  --cluster NAME       this overlay (repeatable; default: every overlay in --region)
  --captured-at DATE   the date recorded in the snapshot (default: today, UTC)
  --source TEXT        where the data came from, recorded in the snapshot (default: the two EC2 calls)
  --check              write nothing; exit 1 if the committed snapshot's data differs from EC2's answer
  --prices             also record prices with the time taken: on-demand from the AWS Price List (pricing:GetProducts,
                       AmazonEC2, the region, Linux, shared tenancy, no pre-installed software, capacity status Used;
                       endpoint us-east-1, or ap-south-1 for ap-* regions, as Karpenter does) and Spot as --spot-prices
  --spot-prices        also record each type's current Spot price per zone (ec2:DescribeSpotPriceHistory,
                       Linux/UNIX), so reports name the cheapest-looking candidate; prices change: so does the file
  --root DIR           repository root (default: found from the current directory)
Credentials and endpoint come from the standard AWS variables and files (AWS_PROFILE, AWS_ENDPOINT_URL, ...).

${exitCodeHelp("capacity refresh")}`;

/** IAM actions `capacity refresh` calls; all read-only (plus ec2:DescribeSpotPriceHistory with --spot-prices, and pricing:GetProducts with --prices). */
export const REFRESH_IAM_ACTIONS = ["ec2:DescribeInstanceTypes", "ec2:DescribeInstanceTypeOfferings"] as const;

const DEFAULT_SOURCE = "ec2:DescribeInstanceTypes + ec2:DescribeInstanceTypeOfferings (availability-zone)";

export interface RefreshOptions {
  readonly root: string;
  readonly region?: string;
  readonly clusters?: readonly string[];
  /** ISO date recorded in the snapshot. @default today (UTC) */
  readonly capturedAt?: string;
  readonly source?: string;
  /** Compare instead of writing; exit 1 when a snapshot's data differs. */
  readonly check?: boolean;
  /** Also record current Spot prices (ec2:DescribeSpotPriceHistory). @default false */
  readonly spotPrices?: boolean;
  /** Also record on-demand prices (pricing:GetProducts) and Spot prices. @default false */
  readonly prices?: boolean;
  /** The clock, for the time prices were taken. @default the current time */
  readonly now?: () => Date;
  readonly out?: (line: string) => void;
}

/** The raw EC2 answers of one region: every instance type and every (type, zone) offering. */
export async function describeRegion(region: string, options: { spotPrices?: boolean } = {}): Promise<{ instanceTypes: unknown[]; offerings: unknown[]; prices: SpotPrice[] }> {
  const { describeAwsError, rejectNonApiAnswers } = await import("@eks-gitops/bootstrap/aws");
  // The SDK's standard retry (exponential backoff with jitter) absorbs throttling of these paginated calls.
  const client = new EC2Client({ region, maxAttempts: 8 });
  // an HTML page (a proxy, a wrong AWS_ENDPOINT_URL) is a set-up mistake (exit 2), as in bootstrap
  rejectNonApiAnswers(client as never); // (its StackClient type is the structural subset both SDK clients share)
  const instanceTypes: unknown[] = [];
  const offerings: unknown[] = [];
  const latest = new Map<string, { price: SpotPrice; at: number }>();
  try {
    try {
      for await (const page of paginateDescribeInstanceTypes({ client, pageSize: 100 }, {})) instanceTypes.push(...(page.InstanceTypes ?? []));
    } catch (err) {
      throw describeAwsError(err, "EC2Client", "DescribeInstanceTypesCommand", undefined);
    }
    try {
      for await (const page of paginateDescribeInstanceTypeOfferings({ client, pageSize: 1000 }, { LocationType: "availability-zone" }))
        offerings.push(...(page.InstanceTypeOfferings ?? []));
    } catch (err) {
      throw describeAwsError(err, "EC2Client", "DescribeInstanceTypeOfferingsCommand", undefined);
    }
    if (options.spotPrices) {
      try {
        // StartTime now: EC2 answers each type's price in effect now, per zone (the latest entry wins).
        for await (const page of paginateDescribeSpotPriceHistory({ client, pageSize: 1000 }, { StartTime: new Date(), ProductDescriptions: ["Linux/UNIX"] }))
          for (const h of page.SpotPriceHistory ?? []) {
            const price = Number(h.SpotPrice);
            if (!h.InstanceType || !h.AvailabilityZone || !Number.isFinite(price)) continue;
            const key = `${h.InstanceType} ${h.AvailabilityZone}`;
            const at = h.Timestamp?.getTime() ?? 0;
            if ((latest.get(key)?.at ?? Number.NEGATIVE_INFINITY) <= at)
              latest.set(key, { price: { instanceType: h.InstanceType, capacityType: "spot", zone: h.AvailabilityZone, price }, at });
          }
      } catch (err) {
        throw describeAwsError(err, "EC2Client", "DescribeSpotPriceHistoryCommand", undefined);
      }
    }
  } finally {
    client.destroy();
  }
  return { instanceTypes, offerings, prices: [...latest.values()].map((l) => l.price) };
}

/** The Pricing API endpoint region Karpenter v1.14.1 uses for a region (pkg/providers/pricing/pricing.go NewAPI). */
export function pricingApiRegion(region: string): string {
  if (region.startsWith("ap-")) return "ap-south-1";
  if (region.startsWith("cn-")) return "cn-northwest-1";
  return "us-east-1";
}

/** On-demand prices of a region from pricing:GetProducts, one per instance type. */
export async function describeOnDemandPrices(region: string): Promise<PriceInput[]> {
  const { describeAwsError } = await import("@eks-gitops/bootstrap/aws");
  const { onDemandPricesFromPriceList, priceListFilters } = await import("@eks-gitops/capacity");
  const client = new PricingClient({ region: pricingApiRegion(region), maxAttempts: 8 });
  const items: unknown[] = [];
  try {
    for await (const page of paginateGetProducts({ client, pageSize: 100 }, { ServiceCode: "AmazonEC2", Filters: priceListFilters(region), FormatVersion: "aws_v1" }))
      items.push(...((page.PriceList as unknown[] | undefined) ?? []));
  } catch (err) {
    throw describeAwsError(err, "PricingClient", "GetProductsCommand", undefined);
  } finally {
    client.destroy();
  }
  return onDemandPricesFromPriceList(items);
}

/** A Spot price of one instance type in one zone, USD per hour. */
export interface SpotPrice {
  readonly instanceType: string;
  readonly capacityType: "spot";
  readonly zone: string;
  readonly price: number;
}

/** EC2 answered, but with nothing usable. */
export class RefreshError extends Error {
  override name = "RefreshError";
}

/** The snapshot text without `capturedAt` and `source`, to tell new data from a new date or label. */
function dataOf(text: string): string {
  return text.replace(/^ {2}"(capturedAt|source|pricesTakenAt|pricesSource)": ".*",?\n/gm, "");
}

/** Describes each selected overlay's region once and writes its snapshot; a file whose data did not change keeps its date and source. */
export async function refresh(options: RefreshOptions): Promise<number> {
  const out = options.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  if (options.region !== undefined && !REGION_PATTERN.test(options.region)) throw new UsageError(`--region must be an AWS region such as 'ap-southeast-1', not '${options.region}'`);
  if (options.capturedAt !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.capturedAt)) throw new UsageError(`--captured-at must be a date YYYY-MM-DD, not '${options.capturedAt}'`);
  const explicit = options.clusters !== undefined && options.clusters.length > 0;
  if (!explicit && options.region === undefined) throw new UsageError("give --region REGION, --cluster NAME, or both");

  const targets: { name: string; region: string }[] = [];
  for (const name of explicit ? [...(options.clusters ?? [])] : listClusters(options.root)) {
    const config = await loadCluster(options.root, name);
    if (!explicit && config.region !== options.region) continue;
    // a snapshot of another region would never be read (simulate reads the overlay's region)
    if (options.region !== undefined && config.region !== options.region)
      throw new UsageError(`--region ${options.region}: ${config.sourceFile} is in region ${config.region}; drop --region or pass the overlay's`);
    targets.push({ name, region: options.region ?? config.region });
  }
  if (targets.length === 0) throw new UsageError(`no overlay under ${join(options.root, CLUSTERS_DIR)} is in region ${options.region}; pass --cluster NAME`);

  const { parseSnapshot, serializeSnapshot, snapshotFromDescribe } = await import("@eks-gitops/capacity");
  const capturedAt = options.capturedAt ?? new Date().toISOString().slice(0, 10);
  const byRegion = new Map<string, string>();
  let stale = 0;
  for (const { name, region } of targets) {
    let text = byRegion.get(region);
    if (text === undefined) {
      const raw = await describeRegion(region, { spotPrices: (options.spotPrices ?? false) || (options.prices ?? false) });
      const onDemand = options.prices ? await describeOnDemandPrices(region) : [];
      if (options.prices && onDemand.length === 0) throw new RefreshError(`the Price List answered no on-demand prices for region ${region}; nothing was written`);
      const takenAt = (options.now ?? (() => new Date()))().toISOString().replace(/\.\d{3}Z$/, "Z");
      const prices = [...onDemand, ...raw.prices];
      if (raw.offerings.length === 0)
        throw new RefreshError(`EC2 answered no instance-type offerings for region ${region} (${raw.instanceTypes.length} instance types): is the region served at this endpoint? nothing was written`);
      const snapshot = snapshotFromDescribe({
        region,
        instanceTypes: raw.instanceTypes as never,
        offerings: raw.offerings as never,
        ...(prices.length > 0 ? { prices, pricesTakenAt: takenAt, pricesSource: pricesSource(options, onDemand.length, raw.prices.length) } : {}),
        capturedAt,
        source: options.source ?? DEFAULT_SOURCE,
      });
      text = serializeSnapshot(snapshot);
      // A bug in the conversion must never be committed: the file must read back.
      parseSnapshot(text, `${region} snapshot`);
      byRegion.set(region, text);
      out(
        `described ${region}: ${snapshot.instanceTypes.length} instance types in ${snapshot.zones.length} zones (${snapshot.zones.join(", ")})${options.prices ? `, ${onDemand.length} on-demand prices` : ""}${options.spotPrices || options.prices ? `, ${raw.prices.length} Spot prices` : ""}`,
      );
    }
    const file = join(options.root, CLUSTERS_DIR, name, CAPACITY_DIR, instanceTypesFile(region));
    const shown = relative(options.root, file);
    const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
    if (before !== undefined && dataOf(before) === dataOf(text)) {
      out(`unchanged ${shown} (same data as on ${/"capturedAt": "([^"]*)"/.exec(before)?.[1] ?? "an unknown date"})`);
      continue;
    }
    if (options.check) {
      stale++;
      out(`stale     ${shown}: ${before === undefined ? "missing" : "EC2 answers different data"}; fix: ${CAPACITY_REFRESH_COMMAND} --cluster ${name}`);
      continue;
    }
    writeFileAtomically(file, text, { createFolder: true });
    out(`wrote     ${shown}`);
  }
  return stale > 0 ? EXIT.invalid : EXIT.ok;
}

/** Where the prices came from; `--source` (an emulator, a fixture) labels them too, so a synthetic price never reads as AWS's. */
function pricesSource(options: RefreshOptions, onDemand: number, spot: number): string {
  const calls = [onDemand > 0 ? "pricing:GetProducts (AmazonEC2, Linux, Shared, Used)" : "", spot > 0 ? "ec2:DescribeSpotPriceHistory (Linux/UNIX)" : ""].filter(Boolean).join(" + ");
  return options.source !== undefined ? `${options.source}: ${calls}` : calls;
}
const SUBCOMMANDS = ["refresh"] as const;

export async function capacityCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h") {
    process.stdout.write(`${capacityUsage}\n`);
    return EXIT.ok;
  }
  pickSubcommand("capacity", sub, SUBCOMMANDS, capacityUsage);
  const { values } = parseCommandArgs("capacity refresh", rest, {
    options: {
      region: { type: "string" },
      cluster: { type: "string", multiple: true },
      "captured-at": { type: "string" },
      source: { type: "string" },
      check: { type: "boolean", default: false },
      "spot-prices": { type: "boolean", default: false },
      prices: { type: "boolean", default: false },
      root: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${capacityUsage}\n`);
    return EXIT.ok;
  }
  try {
    return await refresh({
      root: values.root ?? findRepoRoot(),
      region: values.region,
      clusters: values.cluster,
      capturedAt: values["captured-at"],
      source: values.source,
      check: values.check,
      spotPrices: values["spot-prices"],
      prices: values.prices,
    });
  } catch (err) {
    // Matched by name: importing the classes would load the AWS SDK on every error path.
    // The rule of ../exit-codes.ts, as for bootstrap: set-up (credentials, permissions, endpoint) 2, EC2 failing 4.
    const name = (err as Error).name;
    if (name === "CredentialsProviderError") {
      process.stderr.write(`eks-gitops capacity refresh: no AWS credentials (${(err as Error).message.split("\n")[0]}); set AWS_PROFILE or AWS_ACCESS_KEY_ID; nothing was written.\n`);
      return EXIT.usage;
    }
    if (name === "RefreshError" || name === "PriceListError") {
      process.stderr.write(`eks-gitops capacity refresh: ${(err as Error).message}\n`);
      return EXIT.external;
    }
    if (name === "AwsCallError") {
      const { accessDenied, setup } = err as { accessDenied?: boolean; setup?: boolean };
      process.stderr.write(`eks-gitops capacity refresh: ${(err as Error).message}${accessDenied ? ` (it needs ${REFRESH_IAM_ACTIONS.join(", ")}${values["spot-prices"] || values.prices ? ", ec2:DescribeSpotPriceHistory" : ""}${values.prices ? ", pricing:GetProducts" : ""})` : ""}; nothing was written.\n`);
      return accessDenied || setup ? EXIT.usage : EXIT.external;
    }
    // SnapshotError: our conversion wrote a snapshot that does not read back, a bug (3)
    throw err;
  }
}

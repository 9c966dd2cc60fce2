// What a simulation's nodes cost per hour and per month, every price with its source and date.
import { KARPENTER_PRICE_TABLE } from "./karpenter-prices.generated.ts";
import type { CapacityType, InstanceTypeSnapshot, SimulationResult } from "./types.ts";

/** Hours in a month, as AWS's pricing calculator counts them. */
export const HOURS_PER_MONTH = 730;

export const KARPENTER_PRICES_SOURCE = `Karpenter ${KARPENTER_PRICE_TABLE.karpenterVersion} built-in on-demand table (${KARPENTER_PRICE_TABLE.region})`;

/** A price and where it came from: never one without the other. */
export interface PriceQuote {
  /** USD per hour, one node. */
  readonly price: number;
  readonly source: string;
  /** When the price was taken (ISO date or timestamp). */
  readonly date: string;
}

export interface CostLine {
  readonly kind: "nodeClaim" | "nodeGroup";
  /** NodeClaim name, or node group name. */
  readonly name: string;
  readonly count: number;
  readonly instanceType: string;
  readonly capacityType: CapacityType;
  /** Absent when no source prices the type: the line is then left out of the totals and named in `unpriced`. */
  readonly quote?: PriceQuote;
  /** `quote.price * count`. */
  readonly hourly?: number;
}

export interface CostReport {
  readonly lines: readonly CostLine[];
  /** Sum of the priced lines, USD per hour and per month (730 h). */
  readonly hourly: number;
  readonly monthly: number;
  /** Every distinct `source (date)` used, for the report's footnote. */
  readonly sources: readonly string[];
  /** Lines without a price (`kind name instanceType`). */
  readonly unpriced: readonly string[];
}

function fallbackQuote(instanceType: string, region: string): PriceQuote | undefined {
  const price = KARPENTER_PRICE_TABLE.onDemand[instanceType];
  if (price === undefined) return undefined;
  // Karpenter v1.14.1 uses the us-east-1 table for every region until it reaches the Pricing API (pricing.go Reset).
  const where = region === KARPENTER_PRICE_TABLE.region ? "" : `, used for ${region} as Karpenter does before it reaches the Pricing API`;
  return { price, source: `${KARPENTER_PRICES_SOURCE}${where}`, date: KARPENTER_PRICE_TABLE.generatedAt.slice(0, 10) };
}

function snapshotQuote(snapshot: InstanceTypeSnapshot, price: number): PriceQuote {
  return { price, source: snapshot.pricesSource ?? snapshot.source ?? "instance-type snapshot", date: snapshot.pricesTakenAt ?? snapshot.capturedAt ?? "unknown date" };
}

/**
 * Prices each NodeClaim at the offering Karpenter most likely launches (the simulation's cheapest compatible offering,
 * from the snapshot's prices) and each node-group node at its type. Without snapshot prices, Karpenter's own built-in
 * table: cheapest listed candidate, on-demand price (Karpenter seeds its Spot prices from the same table, so the order
 * is the one it uses before it has fetched any price; spot is launched where allowed).
 */
export function costOf(result: SimulationResult, snapshot: InstanceTypeSnapshot): CostReport {
  const lines: CostLine[] = [];
  for (const c of result.nodeClaims) {
    if (c.cheapest) {
      lines.push(line("nodeClaim", c.name, c.count ?? 1, c.cheapest.instanceType, c.cheapest.capacityType, snapshotQuote(snapshot, c.cheapest.price)));
      continue;
    }
    let best: { type: string; quote: PriceQuote } | undefined;
    for (const type of c.instanceTypes) {
      const quote = fallbackQuote(type, result.region);
      if (quote && (!best || quote.price < best.quote.price || (quote.price === best.quote.price && type < best.type))) best = { type, quote };
    }
    const capacityType: CapacityType = c.capacityTypes.includes("spot") ? "spot" : "on-demand";
    lines.push(line("nodeClaim", c.name, c.count ?? 1, best?.type ?? c.instanceTypes[0] ?? "", capacityType, best?.quote));
  }
  const groups = new Map<string, { type: string; capacityType: CapacityType; zones: string[] }>();
  for (const n of result.nodes) {
    const g = groups.get(n.nodeGroup) ?? { type: n.instanceType, capacityType: n.capacityType, zones: [] };
    g.zones.push(n.zone);
    groups.set(n.nodeGroup, g);
  }
  const typeInfo = new Map(snapshot.instanceTypes.map((t) => [t.name, t]));
  for (const [name, g] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let quote: PriceQuote | undefined;
    let total = 0;
    let priced = 0;
    for (const zone of g.zones) {
      const offer = typeInfo.get(g.type)?.offerings.find((o) => o.zone === zone && o.capacityType === g.capacityType && o.price !== undefined);
      if (offer) {
        total += offer.price!;
        priced++;
      }
    }
    if (priced === g.zones.length) quote = snapshotQuote(snapshot, total / priced);
    else quote = fallbackQuote(g.type, result.region);
    lines.push(line("nodeGroup", name, g.zones.length, g.type, g.capacityType, quote));
  }
  const hourly = round(lines.reduce((s, l) => s + (l.hourly ?? 0), 0));
  const sources = [...new Set(lines.flatMap((l) => (l.quote ? [`${l.quote.source} (${l.quote.date})`] : [])))].sort();
  const unpriced = lines.filter((l) => !l.quote).map((l) => `${l.kind === "nodeClaim" ? "NodeClaim" : "node group"} ${l.name} ${l.instanceType}`);
  return { lines, hourly, monthly: round(hourly * HOURS_PER_MONTH), sources, unpriced };
}

function line(kind: CostLine["kind"], name: string, count: number, instanceType: string, capacityType: CapacityType, quote: PriceQuote | undefined): CostLine {
  return { kind, name, count, instanceType, capacityType, ...(quote ? { quote, hourly: round(quote.price * count) } : {}) };
}

/** Cents of a cent: enough for hourly sums of many nodes, and stable across platforms. */
function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

// On-demand prices from AWS Price List (Pricing API `GetProducts`) answers: one JSON document per product.
import type { PriceInput } from "./snapshot.ts";

/**
 * The `Filters` of `GetProducts` (service code AmazonEC2) that leave one on-demand price per instance type of a region:
 * Linux, shared tenancy, no pre-installed software, capacity status Used (the same terms Karpenter v1.14.1 filters on in
 * aws/karpenter-provider-aws pkg/providers/pricing/pricing.go fetchOnDemandPricing).
 */
export function priceListFilters(region: string): { Type: "TERM_MATCH"; Field: string; Value: string }[] {
  return [
    ["regionCode", region],
    ["operatingSystem", "Linux"],
    ["tenancy", "Shared"],
    ["preInstalledSw", "NA"],
    ["capacitystatus", "Used"],
  ].map(([Field, Value]) => ({ Type: "TERM_MATCH" as const, Field: Field!, Value: Value! }));
}

/** Thrown for a Price List document that is not what `GetProducts` documents; names the item. */
export class PriceListError extends Error {
  override readonly name = "PriceListError";
}

/**
 * Reads `GetProducts` `PriceList` items (each a JSON string): the USD hourly on-demand price of each instance type.
 * Items without an instance type or an hourly USD price (reserved-only SKUs, zero-priced placeholders) are left out;
 * when two SKUs price one type, the lower wins, as Karpenter keeps one price per type.
 */
export function onDemandPricesFromPriceList(items: readonly unknown[]): PriceInput[] {
  const best = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    let doc: unknown;
    try {
      // The SDK hands each item over as a string, or as a String-like lazy JSON wrapper (smithy LazyJsonString).
      const isDoc = typeof item === "object" && item !== null && "product" in item;
      doc = isDoc ? item : JSON.parse(String(item));
    } catch (e) {
      throw new PriceListError(`PriceList[${i}]: not valid JSON: ${(e as Error).message}`);
    }
    const d = doc as { product?: { attributes?: Record<string, string> }; terms?: { OnDemand?: Record<string, { priceDimensions?: Record<string, { unit?: string; pricePerUnit?: { USD?: string } }> }> } };
    const type = d.product?.attributes?.instanceType;
    if (!type) continue;
    for (const term of Object.values(d.terms?.OnDemand ?? {})) {
      for (const dim of Object.values(term.priceDimensions ?? {})) {
        if (dim.unit !== undefined && dim.unit !== "Hrs") continue;
        const price = Number(dim.pricePerUnit?.USD);
        if (!Number.isFinite(price) || price <= 0) continue;
        if (!best.has(type) || price < best.get(type)!) best.set(type, price);
      }
    }
  }
  return [...best.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([instanceType, price]) => ({ instanceType, capacityType: "on-demand", price }));
}

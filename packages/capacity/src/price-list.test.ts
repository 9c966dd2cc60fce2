import { describe, expect, it } from "vitest";
import { parseKarpenterPriceTable } from "./karpenter-price-table.ts";
import { KARPENTER_PRICE_TABLE } from "./karpenter-prices.generated.ts";
import { onDemandPricesFromPriceList, PriceListError, priceListFilters } from "./price-list.ts";
import { parseSnapshot, SnapshotError, serializeSnapshot, snapshotFromDescribe } from "./snapshot.ts";

/** One `GetProducts` PriceList item, as the Price List documents it (a JSON string). */
export function priceListItem(instanceType: string, usd: string, unit = "Hrs"): string {
  return JSON.stringify({
    product: { productFamily: "Compute Instance", attributes: { instanceType, operatingSystem: "Linux", tenancy: "Shared", capacitystatus: "Used", regionCode: "ap-southeast-1" } },
    terms: { OnDemand: { "SKU.JRTCKXETXF": { priceDimensions: { "SKU.JRTCKXETXF.6YS6EN2CT7": { unit, pricePerUnit: { USD: usd } } } } } },
  });
}

describe("Price List answers", () => {
  it("reads the hourly USD on-demand price per type, lowest SKU wins, non-hourly and zero prices left out", () => {
    const items = [priceListItem("m5.large", "0.1200000000"), priceListItem("m5.large", "0.1300000000"), priceListItem("c5.large", "0.0000000000"), priceListItem("t3.micro", "5", "Quantity")];
    expect(onDemandPricesFromPriceList(items)).toEqual([{ instanceType: "m5.large", capacityType: "on-demand", price: 0.12 }]);
  });
  it("names the item that is not JSON", () => {
    expect(() => onDemandPricesFromPriceList(["{"])).toThrow(PriceListError);
    expect(() => onDemandPricesFromPriceList(["ok", "{"].slice(1))).toThrow(/^PriceList\[0\]: not valid JSON/);
  });
  it("filters to the region, Linux, shared tenancy, no pre-installed software, capacity status Used", () => {
    expect(priceListFilters("ap-southeast-1").map((f) => `${f.Field}=${f.Value}`)).toEqual([
      "regionCode=ap-southeast-1",
      "operatingSystem=Linux",
      "tenancy=Shared",
      "preInstalledSw=NA",
      "capacitystatus=Used",
    ]);
  });
});

describe("prices in the snapshot", () => {
  const base = {
    region: "us-east-1",
    instanceTypes: [{ InstanceType: "m5.large", SupportedUsageClasses: ["on-demand"], ProcessorInfo: { SupportedArchitectures: ["x86_64"] }, VCpuInfo: { DefaultVCpus: 2 }, MemoryInfo: { SizeInMiB: 8192 }, NetworkInfo: { MaximumNetworkInterfaces: 3, Ipv4AddressesPerInterface: 10 } }],
    offerings: [{ InstanceType: "m5.large", Location: "us-east-1a", LocationType: "availability-zone" }],
  };
  it("records when and where the prices were taken, and reads them back", () => {
    const s = snapshotFromDescribe({ ...base, prices: [{ instanceType: "m5.large", capacityType: "on-demand", price: 0.096 }], pricesTakenAt: "2026-12-03T17:00:00Z", pricesSource: "fake" });
    const back = parseSnapshot(serializeSnapshot(s), "f.json");
    expect([back.pricesTakenAt, back.pricesSource, back.instanceTypes[0]!.offerings[0]!.price]).toEqual(["2026-12-03T17:00:00Z", "fake", 0.096]);
  });
  it("refuses prices without a date and source", () => {
    const s = snapshotFromDescribe({ ...base, prices: [{ instanceType: "m5.large", capacityType: "on-demand", price: 0.096 }] });
    expect(() => parseSnapshot(serializeSnapshot(s), "f.json")).toThrow(SnapshotError);
    expect(() => parseSnapshot(serializeSnapshot(s), "f.json")).toThrow(/^f\.json: pricesTakenAt: offerings carry prices/);
  });
});

describe("Karpenter's built-in price table", () => {
  it("parses the generated Go map, header and every cell", () => {
    const go = `package pricing\n\n// generated at 2026-07-06T14:20:29Z for us-east-1\n\nvar InitialOnDemandPricesAWS = map[string]map[ec2types.InstanceType]float64{\n\t// us-east-1\n\t"us-east-1": {\n\t\t// a1 family\n\t\t"a1.2xlarge": 0.204000, "a1.large": 0.051000,\n\t\t"m5.large": 0.096000,\n\t},\n}\n`;
    expect(parseKarpenterPriceTable(go)).toEqual({ region: "us-east-1", generatedAt: "2026-07-06T14:20:29Z", onDemand: { "a1.2xlarge": 0.204, "a1.large": 0.051, "m5.large": 0.096 } });
    expect(() => parseKarpenterPriceTable(go.replace("0.051000", "x"))).toThrow(/^line 9: unexpected entry/);
    expect(() => parseKarpenterPriceTable("package pricing\n")).toThrow(/generated at/);
  });
  it("the committed data is v1.14.1's us-east-1 table", () => {
    expect([KARPENTER_PRICE_TABLE.karpenterVersion, KARPENTER_PRICE_TABLE.region, KARPENTER_PRICE_TABLE.generatedAt]).toEqual(["v1.14.1", "us-east-1", "2026-07-06T14:20:29Z"]);
    expect(Object.keys(KARPENTER_PRICE_TABLE.onDemand).length).toBe(1361);
    expect(KARPENTER_PRICE_TABLE.onDemand["t3.2xlarge"]).toBe(0.3328);
  });
});

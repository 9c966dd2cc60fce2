// `capacity refresh --prices` against a local fake of the AWS Pricing API (moto has none) on 127.0.0.1.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOnDemandPrices, pricingApiRegion } from "./capacity.ts";

function item(instanceType: string, usd: string): string {
  return JSON.stringify({
    product: { attributes: { instanceType, regionCode: "ap-southeast-1" } },
    terms: { OnDemand: { "X.JRTCKXETXF": { priceDimensions: { "X.JRTCKXETXF.6YS6EN2CT7": { unit: "Hrs", pricePerUnit: { USD: usd } } } } } },
  });
}

const requests: { target: string | undefined; authorization: string; body: { ServiceCode?: string; Filters?: { Field: string; Value: string }[]; NextToken?: string } }[] = [];
let server: Server;
const saved = { ...process.env };

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const parsed = JSON.parse(await body(req));
    requests.push({ target: req.headers["x-amz-target"] as string | undefined, authorization: String(req.headers.authorization), body: parsed });
    // Two pages, as GetProducts pages with NextToken.
    const page = parsed.NextToken === "page-2" ? { PriceList: [item("c5.large", "0.0980000000")] } : { PriceList: [item("m5.large", "0.1200000000"), item("t3.2xlarge", "0.4224000000")], NextToken: "page-2" };
    res.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
    res.end(JSON.stringify(page));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_PRICING: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_ACCESS_KEY_ID: "testing",
    AWS_SECRET_ACCESS_KEY: "testing",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  });
});
afterAll(async () => {
  process.env = saved;
  await new Promise((resolve) => server.close(resolve));
});

describe("on-demand prices from the Pricing API", () => {
  it("pages through GetProducts filtered to the region, Linux, shared tenancy, no software, Used; signed for Karpenter's endpoint region", async () => {
    const prices = await describeOnDemandPrices("ap-southeast-1");
    expect(prices).toEqual([
      { instanceType: "c5.large", capacityType: "on-demand", price: 0.098 },
      { instanceType: "m5.large", capacityType: "on-demand", price: 0.12 },
      { instanceType: "t3.2xlarge", capacityType: "on-demand", price: 0.4224 },
    ]);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.target).toBe("AWSPriceListService.GetProducts");
    expect(requests[0]!.body.ServiceCode).toBe("AmazonEC2");
    expect(Object.fromEntries((requests[0]!.body.Filters ?? []).map((f) => [f.Field, f.Value]))).toEqual({
      regionCode: "ap-southeast-1",
      operatingSystem: "Linux",
      tenancy: "Shared",
      preInstalledSw: "NA",
      capacitystatus: "Used",
    });
    expect(requests[1]!.body.NextToken).toBe("page-2");
    expect(requests[0]!.authorization).toContain("/ap-south-1/pricing/aws4_request");
  }, 60_000);

  it("uses the endpoint region Karpenter uses", () => {
    expect([pricingApiRegion("ap-southeast-1"), pricingApiRegion("eu-west-1"), pricingApiRegion("us-east-1")]).toEqual(["ap-south-1", "us-east-1", "us-east-1"]);
  });
});

// `eks-gitops capacity refresh` as a process against moto server (real AWS instance-type data) on 127.0.0.1, region ap-southeast-1.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { checkMoto, type Moto, startMoto } from "@eks-gitops/bootstrap/testing/moto";
import { DESCRIBE_FIXTURE_FILE, DESCRIBE_FIXTURE_TYPES, describeFixture } from "@eks-gitops/capacity/testing/describe-fixture";
import { motoDescribe } from "@eks-gitops/capacity/testing/moto-data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../../..");
const BIN = join(ROOT, "packages/cli/bin/eks-gitops.js");
const SNAPSHOT = "clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json";
const committed = readFileSync(join(ROOT, SNAPSHOT), "utf8");
const committedHeader = JSON.parse(committed) as { capturedAt: string; source: string };

let moto: Moto;
let tmp: string;

function cli(args: string[], root = ROOT, extraEnv: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args, "--root", root], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      ...process.env,
      ...extraEnv,
      AWS_ENDPOINT_URL: moto.endpoint,
      AWS_ACCESS_KEY_ID: "testing",
      AWS_SECRET_ACCESS_KEY: "testing",
      AWS_PROFILE: "",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function cliAsync(args: string[], root: string, extraEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args, "--root", root], {
      cwd: ROOT,
      env: { ...process.env, ...extraEnv, AWS_ENDPOINT_URL: moto.endpoint, AWS_ACCESS_KEY_ID: "testing", AWS_SECRET_ACCESS_KEY: "testing", AWS_PROFILE: "", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  moto = await startMoto();
  // A repository of its own holding the eksworkshop overlay; its imports resolve through the real workspace.
  tmp = mkdtempSync(join(tmpdir(), "eks-gitops-refresh-"));
  writeFileSync(join(tmp, "pnpm-workspace.yaml"), "packages: []\n");
  mkdirSync(join(tmp, "clusters/eksworkshop"), { recursive: true });
  cpSync(join(ROOT, "clusters/eksworkshop/cluster.ts"), join(tmp, "clusters/eksworkshop/cluster.ts"));
  mkdirSync(join(tmp, "clusters/aws-cn"), { recursive: true });
  cpSync(join(ROOT, "clusters/aws-cn/cluster.ts"), join(tmp, "clusters/aws-cn/cluster.ts"));
  writeFileSync(join(tmp, "clusters/package.json"), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, "clusters/node_modules"), join(tmp, "clusters/node_modules"), "dir");
});

afterAll(async () => {
  await moto?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("capacity refresh against moto", () => {
  it("reproduces the committed eksworkshop snapshot byte for byte", () => {
    const r = cli(["capacity", "refresh", "--cluster", "eksworkshop", "--captured-at", committedHeader.capturedAt, "--source", committedHeader.source], tmp);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      "described ap-southeast-1: 896 instance types in 3 zones (ap-southeast-1a, ap-southeast-1b, ap-southeast-1c)\nwrote     clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json\n",
    );
    expect(r.code).toBe(0);
    expect(readFileSync(join(tmp, SNAPSHOT), "utf8")).toBe(committed);
  });

  it("the capacity unit tests' Describe fixture is still what moto serves for its instance types", () => {
    const fixture = describeFixture();
    const served = motoDescribe(checkMoto().packageDir, fixture.region, DESCRIBE_FIXTURE_TYPES);
    expect(fixture, `${DESCRIBE_FIXTURE_FILE} differs from moto's data; rewrite it: pnpm --filter @eks-gitops/capacity exec tsx src/testing/write-describe-fixture.ts <moto package folder>`).toEqual(served);
  });

  it("keeps a file whose data did not change, and its date", () => {
    const r = cli(["capacity", "refresh", "--region", "ap-southeast-1", "--captured-at", "2030-01-01"], tmp);
    expect(r.stdout).toContain(`unchanged clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json (same data as on ${committedHeader.capturedAt})`);
    expect(r.code).toBe(0);
    expect(readFileSync(join(tmp, SNAPSHOT), "utf8")).toBe(committed);
  });

  it("--check on the repository: the committed snapshot is what EC2 (moto) answers", () => {
    const r = cli(["capacity", "refresh", "--cluster", "eksworkshop", "--check"]);
    expect(r.stdout).toContain("unchanged clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json");
    expect(r.code).toBe(0);
  });

  it("--check reports a snapshot whose data differs, exit 1, and writes nothing", () => {
    const edited = committed.replace('"memoryMiB": 15360,\n      "name": "c4.2xlarge"', '"memoryMiB": 15361,\n      "name": "c4.2xlarge"');
    expect(edited).not.toBe(committed);
    writeFileSync(join(tmp, SNAPSHOT), edited);
    const r = cli(["capacity", "refresh", "--cluster", "eksworkshop", "--check"], tmp);
    expect(r.stdout).toContain(
      "stale     clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json: EC2 answers different data; fix: pnpm eks-gitops capacity refresh --cluster eksworkshop",
    );
    expect(r.code).toBe(1);
    expect(readFileSync(join(tmp, SNAPSHOT), "utf8")).toBe(edited);
  });

  it("--spot-prices records each type's Spot price per zone, and simulate names the cheapest-looking candidate", () => {
    const r = cli(["capacity", "refresh", "--cluster", "eksworkshop", "--spot-prices", "--captured-at", "2026-12-03"], tmp);
    expect(r.stdout).toMatch(/^described ap-southeast-1: 896 instance types in 3 zones \(ap-southeast-1a, ap-southeast-1b, ap-southeast-1c\), \d+ Spot prices\nwrote {5}clusters\/eksworkshop\/capacity\/instance-types\.ap-southeast-1\.json\n$/);
    expect(r.code).toBe(0);
    const snapshot = JSON.parse(readFileSync(join(tmp, SNAPSHOT), "utf8")) as { instanceTypes: { name: string; offerings: { capacityType: string; zone: string; price?: number }[] }[] };
    const c4 = snapshot.instanceTypes.find((t) => t.name === "c4.2xlarge");
    // moto answers every Spot price with the same placeholder, 0.00001 USD/h; on-demand prices are not fetched
    expect(c4?.offerings.filter((o) => o.capacityType === "spot").map((o) => o.price)).toEqual([0.00001, 0.00001, 0.00001]);
    expect(c4?.offerings.filter((o) => o.capacityType === "on-demand").map((o) => o.price)).toEqual([undefined, undefined, undefined]);
    const sim = spawnSync(process.execPath, [BIN, "simulate", "--cluster", "eksworkshop", "--root", tmp], { cwd: ROOT, encoding: "utf8" });
    expect(sim.status).toBe(0);
    expect(sim.stdout).toMatch(/\n +cheapest-looking: \S+ spot in ap-southeast-1[abc] at \S+/);
  });

  it("--prices records on-demand prices (a local Pricing API fake: moto has none) and moto's Spot prices, with source and time; simulate prices the NodeClaim", async () => {
    // The fake answers two on-demand prices, as pricing:GetProducts would: one document per SKU.
    const doc = (instanceType: string, usd: string) =>
      JSON.stringify({ product: { attributes: { instanceType } }, terms: { OnDemand: { T: { priceDimensions: { D: { unit: "Hrs", pricePerUnit: { USD: usd } } } } } } });
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
      res.end(JSON.stringify({ PriceList: [doc("t3.2xlarge", "0.4224000000"), doc("c5.2xlarge", "0.3920000000")] }));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const pricing = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const args = ["capacity", "refresh", "--cluster", "eksworkshop", "--prices", "--captured-at", "2026-12-03", "--source", "moto 5.2.5 emulator data"];
      // spawnSync would block the fake server's event loop: run the CLI asynchronously.
      const r = await cliAsync(args, tmp, { AWS_ENDPOINT_URL_PRICING: pricing });
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/^described ap-southeast-1: 896 instance types in 3 zones \(ap-southeast-1a, ap-southeast-1b, ap-southeast-1c\), 2 on-demand prices, \d+ Spot prices\n/);
      expect(r.code).toBe(0);
      const snapshot = JSON.parse(readFileSync(join(tmp, SNAPSHOT), "utf8")) as {
        pricesSource: string;
        pricesTakenAt: string;
        instanceTypes: { name: string; offerings: { capacityType: string; price?: number }[] }[];
      };
      expect(snapshot.pricesSource).toBe("moto 5.2.5 emulator data: pricing:GetProducts (AmazonEC2, Linux, Shared, Used) + ec2:DescribeSpotPriceHistory (Linux/UNIX)");
      expect(snapshot.pricesTakenAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      const t3 = snapshot.instanceTypes.find((t) => t.name === "t3.2xlarge");
      expect(t3?.offerings.filter((o) => o.capacityType === "on-demand").map((o) => o.price)).toEqual([0.4224, 0.4224, 0.4224]);
      const sim = spawnSync(process.execPath, [BIN, "simulate", "--cluster", "eksworkshop", "--root", tmp], { cwd: ROOT, encoding: "utf8" });
      expect(sim.status).toBe(0);
      // the node group at the Pricing API's price, labelled with the snapshot's source and time
      expect(sim.stdout).toMatch(/\n {4}node group podsubnet +3 x t3\.2xlarge on-demand +\$1\.2672\/h +\$925\.06\/month +\[1\]\n/);
      expect(sim.stdout).toContain(`\n  [1] moto 5.2.5 emulator data: pricing:GetProducts (AmazonEC2, Linux, Shared, Used) + ec2:DescribeSpotPriceHistory (Linux/UNIX) (${snapshot.pricesTakenAt})\n`);
    } finally {
      await new Promise((done) => server.close(done));
    }
  }, 300_000);

  it("--region of another overlay's region: exit 2", () => {
    const r = cli(["capacity", "refresh", "--cluster", "eksworkshop", "--region", "us-east-1"], tmp);
    expect(r.stderr).toBe("eks-gitops: --region us-east-1: clusters/eksworkshop/cluster.ts is in region ap-southeast-1; drop --region or pass the overlay's\n");
    expect(r.code).toBe(2);
  });

  it("a region the endpoint does not serve: exit 4 (an external service's answer, not our fault), nothing written", () => {
    const r = cli(["capacity", "refresh", "--cluster", "aws-cn"], tmp);
    expect(r.stderr).toBe(
      "eks-gitops capacity refresh: EC2 answered no instance-type offerings for region cn-northwest-1 (1395 instance types): is the region served at this endpoint? nothing was written\n",
    );
    expect(r.code).toBe(4);
    expect(existsSync(join(tmp, "clusters/aws-cn/capacity"))).toBe(false);
  });
});

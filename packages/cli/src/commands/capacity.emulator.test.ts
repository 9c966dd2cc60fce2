// `eks-gitops capacity refresh` as a process against moto server (real AWS instance-type data) on 127.0.0.1, region ap-southeast-1.
import { spawnSync } from "node:child_process";
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

function cli(args: string[], root = ROOT) {
  const r = spawnSync(process.execPath, [BIN, ...args, "--root", root], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      ...process.env,
      AWS_ENDPOINT_URL: moto.endpoint,
      AWS_ACCESS_KEY_ID: "testing",
      AWS_SECRET_ACCESS_KEY: "testing",
      AWS_PROFILE: "",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
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

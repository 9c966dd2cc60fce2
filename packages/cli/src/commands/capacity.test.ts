// `eks-gitops capacity` command line: usage errors exit 2 before any AWS call (the EC2 path is tested against moto in
// capacity.emulator.test.ts).
import { describe, expect, it, vi } from "vitest";
import { captureOutput } from "../testing/capture.ts";
import { main } from "../bin.ts";

// the first test loads the command (and the AWS SDK): slow on a busy machine, not a timing test
vi.setConfig({ testTimeout: 60_000 });

const output = captureOutput();

describe("eks-gitops capacity", () => {
  it("knows only refresh, and suggests it for a typo", async () => {
    expect(await main(["capacity", "update"])).toBe(2);
    expect(output.err).toBe("eks-gitops: capacity update: unknown subcommand (expected 'refresh'; eks-gitops help capacity lists them)\n");
    output.err = "";
    expect(await main(["capacity", "refrsh"])).toBe(2);
    expect(output.err).toBe("eks-gitops: capacity refrsh: unknown subcommand; did you mean 'refresh'? (expected 'refresh'; eks-gitops help capacity lists them)\n");
  });

  it("bare `capacity` lists its subcommands and the usage (exit 2)", async () => {
    expect(await main(["capacity"])).toBe(2);
    expect(output.err.split("\n").slice(0, 2)).toEqual(["eks-gitops: capacity needs a subcommand: 'refresh'", "Usage: eks-gitops capacity refresh [--region REGION] [--cluster NAME]... [--captured-at YYYY-MM-DD] [--source TEXT] [--spot-prices] [--check] [--root DIR]"]);
  });

  it("refresh options get a did-you-mean like every command's", async () => {
    expect(await main(["capacity", "refresh", "--regoin", "x"])).toBe(2);
    expect(output.err).toBe("eks-gitops: capacity refresh --regoin: unknown option; did you mean --region? (eks-gitops capacity refresh --help lists the options)\n");
  });

  it("refresh needs a region or a cluster", async () => {
    expect(await main(["capacity", "refresh"])).toBe(2);
    expect(output.err).toBe("eks-gitops: give --region REGION, --cluster NAME, or both\n");
  });

  it("checks --region and --captured-at", async () => {
    expect(await main(["capacity", "refresh", "--region", "mars-1"])).toBe(2);
    expect(await main(["capacity", "refresh", "--cluster", "eksworkshop", "--captured-at", "yesterday"])).toBe(2);
    expect(output.err).toBe(
      "eks-gitops: --region must be an AWS region such as 'ap-southeast-1', not 'mars-1'\neks-gitops: --captured-at must be a date YYYY-MM-DD, not 'yesterday'\n",
    );
  });

  it("refuses a region other than the overlay's", async () => {
    expect(await main(["capacity", "refresh", "--cluster", "eksworkshop", "--region", "us-east-1"])).toBe(2);
    expect(output.err).toBe("eks-gitops: --region us-east-1: clusters/eksworkshop/cluster.ts is in region ap-southeast-1; drop --region or pass the overlay's\n");
  });

  it("--help lists the IAM actions", async () => {
    expect(await main(["capacity", "--help"])).toBe(0);
    expect(output.out).toContain("the IAM actions needed are ec2:DescribeInstanceTypes and ec2:DescribeInstanceTypeOfferings");
  });
});

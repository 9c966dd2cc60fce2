// `eks-gitops bootstrap` command line: usage errors exit 2 before any AWS call (the AWS paths are tested in @eks-gitops/bootstrap).
import { describe, expect, it, vi } from "vitest";
import { captureOutput } from "../testing/capture.ts";
import { main } from "../bin.ts";

// loading a command (the AWS SDK for bootstrap) is slow on a busy machine: not a timing test
vi.setConfig({ testTimeout: 60_000 });

const output = captureOutput();

describe("eks-gitops bootstrap", () => {
  it("needs one of plan, apply, destroy, and suggests the closest", async () => {
    expect(await main(["bootstrap", "--cluster", "eksworkshop"])).toBe(2);
    expect(output.err.split("\n")[0]).toBe("eks-gitops: bootstrap needs a subcommand: 'plan', 'apply', 'destroy'");
    output.err = "";
    expect(await main(["bootstrap", "aply", "--cluster", "eksworkshop"])).toBe(2);
    expect(output.err).toBe("eks-gitops: bootstrap aply: unknown subcommand; did you mean 'apply'? (expected 'plan', 'apply', 'destroy'; eks-gitops help bootstrap lists them)\n");
  });

  it("needs --cluster", async () => {
    expect(await main(["bootstrap", "apply"])).toBe(2);
    expect(output.err).toBe("eks-gitops: bootstrap apply needs --cluster NAME, e.g. `pnpm bootstrap apply --cluster eksworkshop`\n");
  });

  it("rejects --force outside destroy and an unknown output format", async () => {
    expect(await main(["bootstrap", "apply", "--cluster", "eksworkshop", "--force"])).toBe(2);
    expect(output.err).toBe("eks-gitops: --force only applies to destroy\n");
    output.err = "";
    expect(await main(["bootstrap", "plan", "--cluster", "eksworkshop", "--output", "yaml"])).toBe(2);
    expect(output.err).toBe("eks-gitops: --output must be text or json, not 'yaml'\n");
  });

  it("is listed in the command table and prints its help", async () => {
    expect(await main(["--help"])).toBe(0);
    expect(output.out).toContain("  bootstrap  plan|apply|destroy the AWS-only parts");
    output.out = "";
    expect(await main(["bootstrap", "--help"])).toBe(0);
    expect(output.out.split("\n")[0]).toBe("Usage: eks-gitops bootstrap plan|apply|destroy --cluster NAME [options]");
  });
});

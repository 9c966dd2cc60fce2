// `eks-gitops bootstrap` command line: usage errors exit 2 before any AWS call (the AWS paths are tested in @eks-gitops/bootstrap).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../bin.ts";

let err = "";
let out = "";
beforeEach(() => {
  err = "";
  out = "";
  vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    err += String(s);
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    out += String(s);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

describe("eks-gitops bootstrap", () => {
  it("needs one of plan, apply, destroy", async () => {
    expect(await main(["bootstrap", "--cluster", "eksworkshop"])).toBe(2);
    expect(err.split("\n")[0]).toBe("eks-gitops: bootstrap needs one of plan, apply, destroy, e.g. `pnpm bootstrap plan --cluster eksworkshop`");
  });

  it("needs --cluster", async () => {
    expect(await main(["bootstrap", "apply"])).toBe(2);
    expect(err).toBe("eks-gitops: bootstrap apply needs --cluster NAME, e.g. `pnpm bootstrap apply --cluster eksworkshop`\n");
  });

  it("rejects --force outside destroy and an unknown output format", async () => {
    expect(await main(["bootstrap", "apply", "--cluster", "eksworkshop", "--force"])).toBe(2);
    expect(err).toBe("eks-gitops: --force only applies to destroy\n");
    err = "";
    expect(await main(["bootstrap", "plan", "--cluster", "eksworkshop", "--output", "yaml"])).toBe(2);
    expect(err).toBe("eks-gitops: --output must be text or json, not 'yaml'\n");
  });

  it("is listed in the command table and prints its help", async () => {
    expect(await main(["--help"])).toBe(0);
    expect(out).toContain("  bootstrap  plan|apply|destroy the AWS-only parts");
    out = "";
    expect(await main(["bootstrap", "--help"])).toBe(0);
    expect(out.split("\n")[0]).toBe("Usage: eks-gitops bootstrap plan|apply|destroy --cluster NAME [options]");
  });
});

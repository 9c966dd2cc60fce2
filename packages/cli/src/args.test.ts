// Command-line mistakes: our own messages (not Node's parseArgs text), a "did you mean", exit code 2.
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { closestOption, parseCommandArgs } from "./args.ts";
import { captureOutput } from "./testing/capture.ts";
import { main } from "./bin.ts";

// loading a command (the AWS SDK for bootstrap) is slow on a busy machine: not a timing test
vi.setConfig({ testTimeout: 60_000 });

const output = captureOutput();

const OPTIONS = { check: { type: "boolean" }, cluster: { type: "string" }, root: { type: "string" }, output: { type: "string", short: "o" } } as const;

describe("closestOption", () => {
  it("finds a typo's option and refuses a guess that is too far", () => {
    expect(closestOption("--chek", OPTIONS)).toBe("--check");
    expect(closestOption("--clustr", OPTIONS)).toBe("--cluster");
    expect(closestOption("--outptu=json", OPTIONS)).toBe("--output");
    expect(closestOption("--x", OPTIONS)).toBeUndefined();
    expect(closestOption("--verbose", OPTIONS)).toBeUndefined();
  });
});

describe("parseCommandArgs", () => {
  const parse = (...argv: string[]) => parseCommandArgs("synth", argv, { options: OPTIONS, allowPositionals: false });

  it("parses what the command declares", () => {
    expect(parse("--check", "--cluster", "a", "-o", "json").values).toEqual({ check: true, cluster: "a", output: "json" });
  });

  it.each([
    [["--chek"], "synth --chek: unknown option; did you mean --check? (eks-gitops synth --help lists the options)"],
    [["--frobnicate"], "synth --frobnicate: unknown option (eks-gitops synth --help lists the options)"],
    [["--cluster"], "synth --cluster: needs a value (eks-gitops synth --help lists the options)"],
    [["-o"], "synth -o: needs a value (eks-gitops synth --help lists the options)"],
    [["--check=yes"], "synth --check: takes no value (eks-gitops synth --help lists the options)"],
    [["extra"], "synth extra: unexpected argument; synth takes options only (eks-gitops synth --help lists the options)"],
  ])("%j -> %s", (argv, message) => {
    expect(() => parse(...argv)).toThrow(expect.objectContaining({ name: "UsageError", message }));
  });
});

describe("eks-gitops usage errors exit 2 with our message", () => {
  it.each([
    [["synth", "--chek"], "eks-gitops: synth --chek: unknown option; did you mean --check? (eks-gitops synth --help lists the options)\n"],
    [["validate", "--outptu", "json"], "eks-gitops: validate --outptu: unknown option; did you mean --output? (eks-gitops validate --help lists the options)\n"],
    [["diff", "--bsae", "main"], "eks-gitops: diff --bsae: unknown option; did you mean --base? (eks-gitops diff --help lists the options)\n"],
    [["bootstrap", "plan", "--clustr", "x"], "eks-gitops: bootstrap --clustr: unknown option; did you mean --cluster? (eks-gitops bootstrap --help lists the options)\n"],
  ])("%j", async (argv, message) => {
    expect(await main(argv)).toBe(2);
    expect(output.err).toBe(message);
    expect(output.err).not.toContain("To specify a positional argument");
  });

  it("suggests the closest command, and the closest top-level option", async () => {
    expect(await main(["valdiate"])).toBe(2);
    expect(output.err.split("\n")[0]).toBe("eks-gitops: unknown command 'valdiate'; did you mean 'validate'?");
    output.err = "";
    expect(await main(["--verison"])).toBe(2);
    expect(output.err.split("\n")[0]).toBe("eks-gitops: unknown option '--verison'; did you mean '--version'?");
  });
});

describe("eks-gitops --version", () => {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  it.each(["--version", "-V"])("%s prints the CLI package's version", async (flag) => {
    expect(await main([flag])).toBe(0);
    expect(output.out).toBe(`eks-gitops ${version}\n`);
  });
});

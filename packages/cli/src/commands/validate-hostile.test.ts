// `eks-gitops validate` on hostile input (issue 14): exit codes and messages at the command line.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { captureOutput } from "../testing/capture.ts";
import { main } from "../bin.ts";

const ROOT = resolve(import.meta.dirname, "../../../..");
const MIRROR = process.env.EKS_GITOPS_MIRROR ?? [resolve(ROOT, "../shared/mirror"), resolve(ROOT, "../../shared/mirror")].find((p) => existsSync(p)) ?? "";
const common = ["--mirror", MIRROR, "--cache-dir", join(tmpdir(), "eks-gitops-validate-test-cache")];
const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: default}\ndata: {a: b}\n";

const output = captureOutput();

describe("eks-gitops validate, hostile input", () => {
  it("--max-file-bytes sets the size limit the too-large message names", async () => {
    const dir = mkdtempSync(join(tmpdir(), "validate-hostile-"));
    writeFileSync(join(dir, "cm.yaml"), CM);
    expect(await main(["validate", join(dir, "cm.yaml"), "--max-file-bytes", "10", "--root", dir, ...common])).toBe(1);
    expect(output.out).toContain("cm.yaml#0 ?/? error /: file is 84 bytes, over the 10-byte limit; split it or raise --max-file-bytes [parse:too-large]");
    output.out = "";
    expect(await main(["validate", join(dir, "cm.yaml"), "--max-file-bytes", "100", "--root", dir, ...common])).toBe(0);
  });

  it("--max-file-bytes must be a positive number (exit 2)", async () => {
    expect(await main(["validate", "--max-file-bytes", "ten", "--root", ROOT])).toBe(2);
    expect(output.err).toBe("eks-gitops: --max-file-bytes ten: must be a positive whole number of bytes\n");
  });

  it("a FIFO among the paths is refused (exit 1), the rest validated", async () => {
    const dir = mkdtempSync(join(tmpdir(), "validate-hostile-"));
    execFileSync("mkfifo", [join(dir, "pipe.yaml")]);
    writeFileSync(join(dir, "cm.yaml"), CM);
    expect(await main(["validate", dir, "--root", dir, ...common])).toBe(1);
    expect(output.out).toContain("pipe.yaml#0 ?/? error /: a FIFO (named pipe), not a regular file: refused (pipe YAML through stdin with '-' instead) [parse:not-a-file]");
    expect(output.out).toContain("Valid: 1, Invalid: 0, Errors: 1");
  });

  it("an unparsable --crd file is exit 2 naming it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "validate-hostile-"));
    writeFileSync(join(dir, "crd.yaml"), Buffer.from([0x00, 0xff, 0x00]));
    writeFileSync(join(dir, "cm.yaml"), CM);
    expect(await main(["validate", join(dir, "cm.yaml"), "--crd", join(dir, "crd.yaml"), "--root", dir, ...common])).toBe(2);
    expect(output.err).toMatch(new RegExp(`^eks-gitops: --crd ${join(dir, "crd.yaml")}: `));
  });
});

// The written kubeconfig is one client-node reads back to the same server, CA and token.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, expect, it } from "vitest";
import { writeKubeconfig } from "./kubeconfig.ts";

const dir = mkdtempSync(join(tmpdir(), "kubeconfig-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("round-trips through client-node's KubeConfig, readable by its owner only", () => {
  const file = join(dir, "kubeconfig.yaml");
  const caPem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  writeKubeconfig(file, { server: "https://127.0.0.1:6443", caPem, token: "abc123" });
  const kc = new KubeConfig();
  kc.loadFromString(readFileSync(file, "utf8"));
  expect(kc.getCurrentCluster()).toMatchObject({ server: "https://127.0.0.1:6443", caData: Buffer.from(caPem).toString("base64") });
  expect(kc.getCurrentUser()).toMatchObject({ name: "eks-gitops-e2e", token: "abc123" });
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

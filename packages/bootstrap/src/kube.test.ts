// aws-auth through @kubernetes/client-node against a local API stand-in: resourceVersion conflicts, backups, NodeClaims.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { addNodeRole, NODE_USERNAME } from "./aws-auth.ts";
import { kubeAccess } from "./kube.ts";
import { type FakeApiServer, startFakeApiServer } from "./testing/fake-apiserver.ts";

const NODE = "arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop";
const OTHER = "- rolearn: arn:aws:iam::133129065110:role/other\n  username: other\n  groups: [a]\n";
let api: FakeApiServer;
let backups: string;

beforeAll(async () => {
  api = await startFakeApiServer();
});
afterAll(() => api.close());
beforeEach(() => {
  api.configMaps.clear();
  api.beforePut = undefined;
  api.requests.length = 0;
  backups = mkdtempSync(join(tmpdir(), "aws-auth-backups-"));
  return () => rmSync(backups, { recursive: true, force: true });
});

const access = () => kubeAccess({ kubeconfig: api.kubeconfig, backupDir: backups, now: () => new Date("2026-09-01T10:00:00Z") });

describe("updateAwsAuth", () => {
  it("re-reads and retries when someone else wrote in between, keeping their change", async () => {
    api.setConfigMap("kube-system", "aws-auth", { mapRoles: OTHER });
    let raced = false;
    api.beforePut = (cm) => {
      if (raced || !cm) return;
      raced = true;
      // A concurrent writer adds its own entry and bumps the resourceVersion.
      api.setConfigMap("kube-system", "aws-auth", { mapRoles: `${OTHER}- rolearn: arn:aws:iam::133129065110:role/racer\n  username: racer\n  groups: [b]\n` });
    };
    const r = await access().updateAwsAuth((d) => addNodeRole(d, NODE));
    expect(r.changed).toBe(true);
    expect(r.attempts).toBe(2);
    const roles = parse(api.configMaps.get("kube-system/aws-auth")!.data!.mapRoles!) as { rolearn: string; username: string }[];
    expect(roles.map((x) => x.rolearn)).toEqual(["arn:aws:iam::133129065110:role/other", "arn:aws:iam::133129065110:role/racer", NODE]);
    expect(roles[2]!.username).toBe(NODE_USERNAME);
    expect(api.requests.filter((q) => q.startsWith("PUT"))).toHaveLength(2);
  });

  it("saves the previous content to a backup file before writing", async () => {
    api.setConfigMap("kube-system", "aws-auth", { mapRoles: OTHER, mapUsers: "[]" });
    const rv = api.configMaps.get("kube-system/aws-auth")!.metadata.resourceVersion;
    const r = await access().updateAwsAuth((d) => addNodeRole(d, NODE));
    expect(r.backupFile).toBe(join(backups, `aws-auth.2026-09-01T10-00-00-000Z.rv${rv}.1.yaml`));
    const saved = parse(readFileSync(r.backupFile!, "utf8"));
    expect(saved).toEqual({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "aws-auth", namespace: "kube-system", resourceVersion: rv }, data: { mapRoles: OTHER, mapUsers: "[]" } });
  });

  it("makes no write and no backup when the entry is already there", async () => {
    api.setConfigMap("kube-system", "aws-auth", addNodeRole({ mapRoles: OTHER }, NODE).data as Record<string, string>);
    const r = await access().updateAwsAuth((d) => addNodeRole(d, NODE));
    expect(r).toEqual({ changed: false, attempts: 1 });
    expect(api.requests.filter((q) => !q.startsWith("GET"))).toEqual([]);
    expect(readdirSync(backups)).toEqual([]);
  });

  it("creates the ConfigMap when the cluster has none", async () => {
    const r = await access().updateAwsAuth((d) => addNodeRole(d, NODE));
    expect(r.changed).toBe(true);
    expect(parse(api.configMaps.get("kube-system/aws-auth")!.data!.mapRoles!)).toEqual([{ rolearn: NODE, username: NODE_USERNAME, groups: ["system:bootstrappers", "system:nodes"] }]);
    expect(api.requests).toEqual(["GET /api/v1/namespaces/kube-system/configmaps/aws-auth", "POST /api/v1/namespaces/kube-system/configmaps"]);
  });

  it("gives up after the retry limit with a message saying so", async () => {
    api.setConfigMap("kube-system", "aws-auth", { mapRoles: OTHER });
    api.beforePut = () => api.setConfigMap("kube-system", "aws-auth", { mapRoles: OTHER });
    const k = kubeAccess({ kubeconfig: api.kubeconfig, backupDir: backups, maxConflictRetries: 2 });
    await expect(k.updateAwsAuth((d) => addNodeRole(d, NODE))).rejects.toThrow(
      "ConfigMap kube-system/aws-auth: still conflicting after 2 retries; someone else keeps changing it, run again later",
    );
    expect(existsSync(backups)).toBe(true);
  });
});

describe("countNodeClaims", () => {
  it("counts NodeClaims, and 0 when the CRD is not installed", async () => {
    api.nodeClaims = null;
    expect(await access().countNodeClaims()).toBe(0);
    api.nodeClaims = [{ metadata: { name: "a" } }, { metadata: { name: "b" } }];
    expect(await access().countNodeClaims()).toBe(2);
  });
});

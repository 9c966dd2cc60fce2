// The aws-auth path through @kubernetes/client-node against a real kube-apiserver (the e2e harness).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { startTestCluster, type TestCluster } from "@eks-gitops/e2e";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { addNodeRole, NODE_USERNAME } from "./aws-auth.ts";
import { kubeAccess } from "./kube.ts";

const NODE = "arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop";
// Existing entries with fields of their own and a comment; all must survive the merge.
const EXISTING_ROLES = `# managed node group
- rolearn: arn:aws:iam::133129065110:role/eksctl-ng-NodeInstanceRole
  username: system:node:{{EC2PrivateDNSName}}
  groups:
    - system:bootstrappers
    - system:nodes
- rolearn: arn:aws:iam::133129065110:role/admins
  username: admin:{{SessionName}}
  groups: [system:masters]
`;
const EXISTING_USERS = `- userarn: arn:aws:iam::133129065110:user/alice
  username: alice
  groups: [team-a]
`;

let cluster: TestCluster;
let core: CoreV1Api;
let backups: string;
let caFile: string;

beforeAll(async () => {
  cluster = await startTestCluster();
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  core = kc.makeApiClient(CoreV1Api);
  caFile = join(cluster.dir, "racer-ca.pem");
  writeFileSync(caFile, cluster.caPem);
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});
beforeEach(async () => {
  backups = mkdtempSync(join(tmpdir(), "aws-auth-backups-"));
  await core.deleteNamespacedConfigMap({ name: "aws-auth", namespace: "kube-system" }).catch(() => undefined);
  await core.createNamespacedConfigMap({
    namespace: "kube-system",
    body: { metadata: { name: "aws-auth", namespace: "kube-system" }, data: { mapRoles: EXISTING_ROLES, mapUsers: EXISTING_USERS } },
  });
  return () => rmSync(backups, { recursive: true, force: true });
});

const access = () => kubeAccess({ kubeconfig: cluster.kubeconfigPath, backupDir: backups });
const read = async () => (await core.readNamespacedConfigMap({ name: "aws-auth", namespace: "kube-system" })).data ?? {};

describe("aws-auth against kube-apiserver", () => {
  it("adds the node role, keeps every existing entry byte for byte, and backs up first", async () => {
    const r = await access().updateAwsAuth((d) => addNodeRole(d, NODE));
    expect(r).toMatchObject({ changed: true, attempts: 1 });
    const data = await read();
    expect(data.mapRoles!.startsWith(EXISTING_ROLES)).toBe(true);
    expect(data.mapUsers).toBe(EXISTING_USERS);
    const roles = parse(data.mapRoles!) as { rolearn: string; username: string; groups: string[] }[];
    expect(roles.at(-1)).toEqual({ rolearn: NODE, username: NODE_USERNAME, groups: ["system:bootstrappers", "system:nodes"] });
    expect(NODE_USERNAME).toBe("system:node:{{EC2PrivateDNSName}}");
    expect(readdirSync(backups)).toHaveLength(1);
  });

  it("is a no-op the second time: no write, no backup, same resourceVersion", async () => {
    await access().updateAwsAuth((d) => addNodeRole(d, NODE));
    const before = (await core.readNamespacedConfigMap({ name: "aws-auth", namespace: "kube-system" })).metadata?.resourceVersion;
    const r = await access().updateAwsAuth((d) => addNodeRole(d, NODE));
    expect(r).toEqual({ changed: false, attempts: 1 });
    expect((await core.readNamespacedConfigMap({ name: "aws-auth", namespace: "kube-system" })).metadata?.resourceVersion).toBe(before);
  });

  it("retries on a real 409 conflict and keeps the concurrent writer's entry", async () => {
    let raced = false;
    const r = await access().updateAwsAuth((d) => {
      if (!raced) {
        raced = true;
        // Another writer replaces the ConfigMap after our read (the edit callback is synchronous, so the
        // racer is a blocking curl); our PUT then carries a stale resourceVersion and the server answers 409.
        const racer = `${EXISTING_ROLES}- rolearn: arn:aws:iam::133129065110:role/racer\n  username: racer\n  groups: [b]\n`;
        const body = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "aws-auth", namespace: "kube-system" }, data: { mapRoles: racer, mapUsers: EXISTING_USERS } });
        const put = spawnSync("curl", ["-sf", "--cacert", caFile, "-H", `Authorization: Bearer ${cluster.token}`, "-H", "Content-Type: application/json", "-X", "PUT", "--data-binary", body, `${cluster.server}/api/v1/namespaces/kube-system/configmaps/aws-auth`]);
        expect(put.status, put.stderr.toString()).toBe(0);
      }
      return addNodeRole(d, NODE);
    });
    expect(r).toMatchObject({ changed: true, attempts: 2 });
    const roles = parse((await read()).mapRoles!) as { rolearn: string }[];
    expect(roles.map((x) => x.rolearn)).toEqual([
      "arn:aws:iam::133129065110:role/eksctl-ng-NodeInstanceRole",
      "arn:aws:iam::133129065110:role/admins",
      "arn:aws:iam::133129065110:role/racer",
      NODE,
    ]);
  });
});

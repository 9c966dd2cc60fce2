// Against moto server (a real AWS API emulator on 127.0.0.1): plan, apply, apply again, injected faults, destroy.
// moto 5.2.5 has no EKS add-on, access entry or pod identity APIs: those calls are served by the in-memory
// fake in testing/sdk-hooks.ts (and tested on their own with aws-sdk-client-mock in eks-fake.test.ts).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DISCOVERY_TAG, MANAGED_BY } from "@eks-gitops/config";
import type { AwsClients } from "./aws.ts";
import { kubeAccess } from "./kube.ts";
import { DISCOVERY_STEPS } from "./discover.ts";
import { bootstrap, type BootstrapOptions } from "./run.ts";
import { startFakeApiServer, type FakeApiServer } from "./testing/fake-apiserver.ts";
import { CLUSTER, MOTO_ACCOUNT, REGION, type Seeded, seedLab, TEST_MANAGED_POLICY, testClients, useEmulatorEnv, writeOverlay } from "./testing/lab.ts";
import { type Moto, startMoto } from "./testing/moto.ts";
import { type FakeEksState, FaultInjector, fakeMissingEksApis, injectFaults, isReadOnly, recordCommands } from "./testing/sdk-hooks.ts";
import { readState } from "./testing/state.ts";
import { TAG_ADDED_DISCOVERY, TAG_CLUSTER, TAG_MANAGED_BY } from "./tags.ts";

let moto: Moto;
let kube: FakeApiServer;
let seeded: Seeded;
let root: string;
let eksState: FakeEksState;

const NODE_ROLE = `KarpenterNodeRole-${CLUSTER}`;
const CONTROLLER_ROLE = `KarpenterControllerRole-${CLUSTER}`;
const NODE_ROLE_ARN = `arn:aws:iam::${MOTO_ACCOUNT}:role/${NODE_ROLE}`;
const EXISTING_MAP_ROLES = `# managed node group, added by eksctl
- rolearn: arn:aws:iam::${MOTO_ACCOUNT}:role/eks-node-group-role
  username: system:node:{{EC2PrivateDNSName}}
  groups:
    - system:bootstrappers
    - system:nodes
`;
const MAP_USERS = "- userarn: arn:aws:iam::123456789012:user/admin\n  username: admin\n  groups: [system:masters]\n";

let baseline: Awaited<ReturnType<typeof state>>;

function resetKube(): void {
  kube.configMaps.clear();
  kube.setConfigMap("kube-system", "aws-auth", { mapRoles: EXISTING_MAP_ROLES, mapUsers: MAP_USERS });
  kube.nodeClaims = null;
}

/**
 * Back to the lab's starting point. Resetting moto costs ~15 s on this machine (it reloads every AWS
 * managed policy), so instead the bootstrap's own destroy undoes a test's work, the test-made extras are
 * removed by hand, and the result must equal the seeded baseline exactly.
 */
async function restoreWorld(): Promise<void> {
  kube.nodeClaims = [];
  await run("destroy", { force: true });
  const { clients } = clientsFor();
  const { DeleteRoleCommand, DetachRolePolicyCommand, ListAttachedRolePoliciesCommand, ListRolesCommand } = await import("@aws-sdk/client-iam");
  for (const r of (await clients.iam.send(new ListRolesCommand({}))).Roles ?? []) {
    if (!r.RoleName?.startsWith("Karpenter")) continue;
    for (const p of (await clients.iam.send(new ListAttachedRolePoliciesCommand({ RoleName: r.RoleName }))).AttachedPolicies ?? []) {
      await clients.iam.send(new DetachRolePolicyCommand({ RoleName: r.RoleName, PolicyArn: p.PolicyArn }));
    }
    await clients.iam.send(new DeleteRoleCommand({ RoleName: r.RoleName }));
  }
  const { CreateTagsCommand } = await import("@aws-sdk/client-ec2");
  await clients.ec2.send(new CreateTagsCommand({ Resources: [seeded.straySubnet], Tags: [{ Key: DISCOVERY_TAG, Value: CLUSTER }] }));
  eksState.addons.clear();
  eksState.accessEntries.clear();
  eksState.podIdentity.clear();
  resetKube();
  expect(await state()).toEqual(baseline);
}

function clientsFor(o: { faults?: FaultInjector } = {}): { clients: AwsClients; calls: string[] } {
  const clients = testClients();
  const calls = recordCommands(clients);
  if (o.faults) injectFaults(clients, o.faults);
  fakeMissingEksApis(clients, eksState);
  return { clients, calls };
}

async function run(action: BootstrapOptions["action"], o: { fix?: boolean; force?: boolean; faults?: FaultInjector; overlayRoot?: string } = {}) {
  const { clients, calls } = clientsFor(o);
  const lines: string[] = [];
  const k = kubeAccess({ kubeconfig: kube.kubeconfig, backupDir: `${o.overlayRoot ?? root}/.cache/backups` });
  // The aws-auth write is a write step too: recorded, and subject to the injected fault.
  const access = {
    ...k,
    server: k.server,
    updateAwsAuth: (edit: Parameters<typeof k.updateAwsAuth>[0]) => {
      calls.push("Kubernetes:UpdateAwsAuth");
      o.faults?.beforeWrite("aws-auth");
      return k.updateAwsAuth(edit);
    },
  };
  const progress: string[] = [];
  const result = await bootstrap({
    root: o.overlayRoot ?? root,
    cluster: CLUSTER,
    action,
    yes: true,
    fix: o.fix,
    force: o.force,
    clients,
    kube: access,
    out: (l) => lines.push(l),
    onDiscoveryProgress: (p) => progress.push(`${p.done}/${p.total} ${p.step}`),
  });
  return { result, calls, lines, progress, writes: calls.filter((c) => !isReadOnly(c.split(":")[1]!)) };
}

const state = () => readState(testClients(), { vpcIds: [seeded.vpcId, seeded.otherVpcId], eks: eksState, kube });

beforeAll(async () => {
  moto = await startMoto();
  kube = await startFakeApiServer();
  useEmulatorEnv(moto.endpoint);
  seeded = await seedLab(moto.seed);
  eksState = { addons: new Map(), accessEntries: new Map(), podIdentity: new Map() };
  resetKube();
  root = writeOverlay({ oidcIssuer: seeded.oidcIssuer, vpcId: seeded.vpcId });
  baseline = await state();
}, 120_000);

afterAll(async () => {
  await kube?.close();
  await moto?.stop();
});

describe("bootstrap against moto server", { timeout: 60_000 }, () => {
  afterEach(restoreWorld, 60_000);

  it("plan lists every change and makes no mutating call", async () => {
    const { result, calls, writes, lines, progress } = await run("plan");
    expect(result.status, lines.join("\n")).toBe("ok");
    // discovery reports each of its reads once, counting up to all of them
    expect(progress.slice(0, 2)).toEqual([`1/${DISCOVERY_STEPS.length} caller identity`, `2/${DISCOVERY_STEPS.length} cluster`]);
    expect(progress.map((p) => p.split(" ")[0])).toEqual(DISCOVERY_STEPS.map((_, i) => `${i + 1}/${DISCOVERY_STEPS.length}`));
    expect(progress.map((p) => p.replace(/^\S+ /, "")).sort()).toEqual([...DISCOVERY_STEPS].sort());
    expect(writes).toEqual([]);
    expect(calls).toContain("STS:GetCallerIdentity");
    expect(calls).toContain("EKS:DescribeCluster");
    expect(lines).toContain(`  [+] iam role ${NODE_ROLE}: create with trust Service ec2.amazonaws.com`);
    expect(lines).toContain(`  [+] iam role ${NODE_ROLE}: attach arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly`);
    expect(lines).toContain(`  [+] iam role ${CONTROLLER_ROLE}: put inline policy TestControllerPolicy-${CLUSTER} (${CONTROLLER_ROLE}.TestControllerPolicy-${CLUSTER}.json)`);
    for (const id of [...seeded.subnets, seeded.clusterSecurityGroup]) expect(lines.some((l) => l.includes(`[+] ec2 `) && l.includes(`${id}: tag ${DISCOVERY_TAG}=${CLUSTER}`))).toBe(true);
    expect(lines).toContain(`  [+] configmap kube-system/aws-auth: add mapRoles entry for ${NODE_ROLE_ARN} (groups system:bootstrappers, system:nodes)`);
    expect(lines).toContain("  [+] eks add-on metrics-server: create");
    expect(lines.some((l) => l.startsWith(`  [!] stray tag: ec2 subnet ${seeded.straySubnet} in ${seeded.otherVpcId}`))).toBe(true);
    // IAM is listed first.
    expect(lines.findIndex((l) => l.includes("[+] iam role"))).toBeLessThan(lines.findIndex((l) => l.includes("[+] ec2 ")));
    expect(lines).toContain(`  [+] iam policy ${TEST_MANAGED_POLICY}: create (${CONTROLLER_ROLE}.${TEST_MANAGED_POLICY}.json)`);
    expect(lines).toContain(`  [+] iam role ${CONTROLLER_ROLE}: attach arn:aws:iam::${MOTO_ACCOUNT}:policy/${TEST_MANAGED_POLICY}`);
    expect(lines).toContain(`  [+] sqs queue ${CLUSTER}: create (policy: clusters/${CLUSTER}/rendered/iam/${CLUSTER}.queue-policy.json)`);
    expect(lines.at(-1)).toBe(`Plan: ${result.plan.changes.length} to add, 0 to change, 0 to remove.`);
    // Nothing changed in the emulator.
    expect((await state()).roles).toEqual({});
    expect(kube.requests.filter((r) => !r.startsWith("GET"))).toEqual([]);
  });

  it("apply converges; a second apply reports no changes and makes no mutating call", async () => {
    const first = await run("apply", { fix: true });
    expect(first.result.status, first.lines.join("\n")).toBe("ok");
    expect(first.writes.length).toBeGreaterThan(20);
    const s = await state();

    const node = s.roles[NODE_ROLE] as { attached: string[]; tags: Record<string, string>; trust: unknown; inline: object };
    expect(node.attached).toEqual([
      "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly",
      "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
      "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
      "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore",
    ]);
    expect(node.tags).toEqual({ [TAG_MANAGED_BY]: MANAGED_BY, [TAG_CLUSTER]: CLUSTER, team: "platform" });
    expect(node.trust).toEqual({ Statement: [{ Action: ["sts:AssumeRole"], Effect: "Allow", Principal: { Service: ["ec2.amazonaws.com"] } }], Version: "2012-10-17" });
    const controller = s.roles[CONTROLLER_ROLE] as { trust: { Statement: { Principal: unknown; Condition: unknown }[] }; inline: Record<string, unknown> };
    const host = seeded.oidcIssuer.replace("https://", "");
    expect(controller.trust.Statement[0]!.Principal).toEqual({ Federated: [`arn:aws:iam::${MOTO_ACCOUNT}:oidc-provider/${host}`] });
    expect(controller.trust.Statement[0]!.Condition).toEqual({ StringEquals: { [`${host}:aud`]: ["sts.amazonaws.com"], [`${host}:sub`]: ["system:serviceaccount:kube-system:karpenter"] } });
    expect(Object.keys(controller.inline)).toContain(`TestControllerPolicy-${CLUSTER}`);
    expect((controller as unknown as { attached: string[] }).attached).toEqual([`arn:aws:iam::${MOTO_ACCOUNT}:policy/${TEST_MANAGED_POLICY}`]);
    expect(s.policies[TEST_MANAGED_POLICY]).toEqual({
      document: { Statement: [{ Action: ["ec2:DescribeInstances", "ec2:DescribeSubnets"], Effect: "Allow", Resource: ["*"], Sid: "Describe" }], Version: "2012-10-17" },
      versions: 1,
      tags: { [TAG_MANAGED_BY]: MANAGED_BY, [TAG_CLUSTER]: CLUSTER, team: "platform" },
    });

    for (const id of [...seeded.subnets, seeded.clusterSecurityGroup]) expect(s.ec2Tags[id]).toEqual({ [DISCOVERY_TAG]: CLUSTER, [TAG_ADDED_DISCOVERY]: CLUSTER });
    expect(s.ec2Tags[seeded.straySubnet]).toEqual({});

    expect(s.addons).toEqual({ "metrics-server": { status: "ACTIVE", tags: { [TAG_MANAGED_BY]: MANAGED_BY, [TAG_CLUSTER]: CLUSTER, team: "platform" } } });
    expect(s.awsAuth?.mapUsers).toBe(MAP_USERS);
    expect(s.awsAuth?.mapRoles).toContain(EXISTING_MAP_ROLES.trimEnd());
    expect(s.awsAuth?.mapRoles).toContain(`rolearn: ${NODE_ROLE_ARN}`);
    expect(s.awsAuth!.mapRoles!.split("{{EC2PrivateDNSName}}").length).toBe(3);

    const queue = s.queues[CLUSTER] as { MessageRetentionPeriod: string; SqsManagedSseEnabled: string; tags: Record<string, string>; Policy: { Statement: unknown[] } };
    expect(queue.MessageRetentionPeriod).toBe("300");
    expect(queue.SqsManagedSseEnabled).toBe("true");
    expect(queue.tags[TAG_MANAGED_BY]).toBe(MANAGED_BY);
    expect(queue.Policy.Statement).toHaveLength(2);
    expect(Object.keys(s.rules).sort()).toEqual(
      ["CapacityReservationInterruption", "InstanceStateChange", "Rebalance", "ScheduledChange", "SpotInterruption"].map((r) => `Karpenter-${CLUSTER}-${r}`),
    );
    expect(s.rules[`Karpenter-${CLUSTER}-SpotInterruption`]).toEqual({
      pattern: { source: ["aws.ec2"], "detail-type": ["EC2 Spot Instance Interruption Warning"] },
      state: "ENABLED",
      targets: [`KarpenterInterruptionQueueTarget -> arn:aws:sqs:${REGION}:${MOTO_ACCOUNT}:${CLUSTER}`],
      tags: { [TAG_MANAGED_BY]: MANAGED_BY, [TAG_CLUSTER]: CLUSTER, team: "platform" },
    });

    const second = await run("apply", { fix: true });
    expect(second.result.status).toBe("ok");
    expect(second.result.plan.changes).toEqual([]);
    expect(second.writes).toEqual([]);
    expect(second.lines).toContain("No changes: AWS already matches the overlay.");
    expect(await state()).toEqual(s);
  });

  it("without --fix the stray tag is reported and kept; with --fix only it is removed", async () => {
    const { lines } = await run("apply");
    expect(lines).toContain(
      `  [!] stray tag: ec2 subnet ${seeded.straySubnet} in ${seeded.otherVpcId} (outside the cluster VPC ${seeded.vpcId}) has ${DISCOVERY_TAG}=${CLUSTER}; Karpenter may launch nodes there. Run again with --fix to remove it`,
    );
    expect((await state()).ec2Tags[seeded.straySubnet]).toEqual({ [DISCOVERY_TAG]: CLUSTER });
    const fixed = await run("apply", { fix: true });
    expect(fixed.writes).toEqual(["EC2:DeleteTags"]);
    expect(fixed.lines).toContain(`  [-] ec2 subnet ${seeded.straySubnet}: remove stray ${DISCOVERY_TAG}=${CLUSTER} (in ${seeded.otherVpcId}, outside the cluster VPC ${seeded.vpcId})`);
    expect((await state()).ec2Tags[seeded.straySubnet]).toEqual({});
  });

  it("a failure injected after each write in turn: a re-run converges to the same state, nothing duplicated or lost", async () => {
    const reference = await run("apply", { fix: true });
    const total = reference.writes.length;
    expect(reference.writes).toContain("Kubernetes:UpdateAwsAuth");
    const expected = await state();
    for (let k = 0; k < total; k++) {
      await restoreWorld();
      const faults = new FaultInjector(k);
      const broken = await run("apply", { fix: true, faults });
      expect(broken.result.status, `fault after write ${k}`).toBe("failed");
      expect(broken.result.error?.message).toContain(`injected fault before write #${k + 1}`);
      const again = await run("apply", { fix: true });
      expect(again.result.status, `re-run after fault ${k}`).toBe("ok");
      // Exactly the writes that were still missing: the two runs together do the reference's writes once.
      expect(broken.writes.length - 1 + again.writes.length, `writes after fault ${k}`).toBe(reference.writes.length);
      expect(await state(), `state after fault ${k}`).toEqual(expected);
    }
  }, 400_000);

  it("destroy refuses while NodeClaims exist, then removes only what apply created", async () => {
    await run("apply", { fix: true });
    kube.nodeClaims = [{ metadata: { name: "default-abcde" } }];
    const refused = await run("destroy");
    expect(refused.result.status).toBe("blocked");
    expect(refused.writes).toEqual([]);
    expect(refused.lines).toContain(
      `  [x] 1 Karpenter NodeClaim(s) still exist in ${kube.url}; delete the NodePools and EC2NodeClasses first and wait until \`kubectl get nodeclaims\` is empty, or pass --force`,
    );

    kube.nodeClaims = [];
    const destroyed = await run("destroy");
    expect(destroyed.result.status).toBe("ok");
    // The lab's safe order: queue rules before the queue, identity mapping before roles, policies before roles.
    const order = destroyed.writes;
    expect(order.indexOf("SQS:DeleteQueue")).toBeGreaterThan(order.lastIndexOf("EventBridge:DeleteRule"));
    const ops = destroyed.result.plan.changes.map((c) => c.op);
    const at = (pred: (op: (typeof ops)[number]) => boolean) => ops.findIndex(pred);
    for (const role of [NODE_ROLE, CONTROLLER_ROLE]) {
      const del = at((op) => op.type === "deleteRole" && op.role === role);
      expect(del).toBeGreaterThan(-1);
      ops.forEach((op, i) => {
        if ((op.type === "detachPolicy" || op.type === "deleteInlinePolicy") && op.role === role) expect(i).toBeLessThan(del);
      });
    }
    expect(at((op) => op.type === "awsAuthRemoveRole")).toBeLessThan(at((op) => op.type === "deleteRole"));
    expect(at((op) => op.type === "deletePolicy")).toBeGreaterThan(at((op) => op.type === "detachPolicy" && op.policyArn.endsWith(TEST_MANAGED_POLICY)));
    expect(at((op) => op.type === "deleteRule")).toBeLessThan(at((op) => op.type === "deleteQueue"));

    const s = await state();
    expect(s.roles).toEqual({});
    expect(s.policies).toEqual({});
    expect(s.queues).toEqual({});
    expect(s.rules).toEqual({});
    expect(s.addons).toEqual({});
    for (const id of [...seeded.subnets, seeded.clusterSecurityGroup]) expect(s.ec2Tags[id]).toEqual({});
    // The pre-existing entry and mapUsers survive; only the node role's entry is gone.
    expect(s.awsAuth?.mapRoles).toContain("role/eks-node-group-role");
    expect(s.awsAuth?.mapRoles).not.toContain(NODE_ROLE);
    expect(s.awsAuth?.mapUsers).toBe(MAP_USERS);

    const again = await run("destroy");
    expect(again.result.plan.changes).toEqual([]);
    expect(again.writes).toEqual([]);
  });

  it("destroy leaves resources it did not create", async () => {
    const { clients } = clientsFor();
    const { CreateRoleCommand } = await import("@aws-sdk/client-iam");
    await clients.iam.send(new CreateRoleCommand({ RoleName: NODE_ROLE, AssumeRolePolicyDocument: JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }] }) }));
    await run("apply", { fix: true });
    kube.nodeClaims = [];
    const destroyed = await run("destroy");
    expect(destroyed.lines).toContain(`  [!] iam role ${NODE_ROLE} was not created by eks-gitops: left in place`);
    expect(destroyed.lines).toContain(`  [!] aws-auth maps ${NODE_ROLE_ARN}, a role eks-gitops did not create: entry left in place`);
    const s = await state();
    expect(Object.keys(s.roles)).toEqual([NODE_ROLE]);
    expect((s.roles[NODE_ROLE] as { attached: string[] }).attached).toHaveLength(4);
  });

  it("refuses when the credentials are for another account, before any other call", async () => {
    const other = writeOverlay({ oidcIssuer: seeded.oidcIssuer, vpcId: seeded.vpcId, account: "133129065110" });
    const { clients, calls } = clientsFor();
    await expect(bootstrap({ root: other, cluster: CLUSTER, action: "plan", clients, out: () => {} })).rejects.toThrow(
      `account: the credentials are for account ${MOTO_ACCOUNT} (arn:aws:sts::${MOTO_ACCOUNT}:user/moto) but clusters/${CLUSTER}/cluster.ts says 133129065110; use credentials for 133129065110`,
    );
    expect(calls).toEqual(["STS:GetCallerIdentity"]);
  });

  it("refuses when the overlay's VPC or OIDC issuer differ from the cluster", async () => {
    const other = writeOverlay({ oidcIssuer: "https://oidc.eks.ap-southeast-1.amazonaws.com/id/OTHER", vpcId: seeded.otherVpcId });
    const { clients } = clientsFor();
    const err = await bootstrap({ root: other, cluster: CLUSTER, action: "plan", clients, out: () => {} }).catch((e: Error & { problems?: string[] }) => e);
    expect((err as { problems?: string[] }).problems).toEqual([
      `vpcId: cluster ${CLUSTER} is in ${seeded.vpcId} but clusters/${CLUSTER}/cluster.ts says ${seeded.otherVpcId}; fix the overlay`,
      `oidcIssuer: cluster ${CLUSTER} has issuer ${seeded.oidcIssuer} but clusters/${CLUSTER}/cluster.ts says https://oidc.eks.ap-southeast-1.amazonaws.com/id/OTHER; fix the overlay and run \`pnpm synth --cluster ${CLUSTER}\``,
    ]);
  });

  it("API mode with Pod Identity: an EC2_LINUX access entry and an association instead of aws-auth", async () => {
    const apiRoot = writeOverlay({ oidcIssuer: seeded.oidcIssuer, vpcId: seeded.vpcId, authenticationMode: "API", identity: "pod-identity", interruptionQueue: false, addons: ["metrics-server", "eks-pod-identity-agent"] });
    const first = await run("apply", { overlayRoot: apiRoot });
    expect(first.result.status).toBe("ok");
    expect(first.writes).toContain("EKS:CreateAccessEntry");
    expect(first.writes).toContain("EKS:CreatePodIdentityAssociation");
    const s = await state();
    expect(s.accessEntries).toEqual({ [NODE_ROLE_ARN]: { type: "EC2_LINUX", tags: { [TAG_MANAGED_BY]: MANAGED_BY, [TAG_CLUSTER]: CLUSTER, team: "platform" } } });
    expect(s.podIdentity).toEqual([{ namespace: "kube-system", serviceAccount: "karpenter", roleArn: `arn:aws:iam::${MOTO_ACCOUNT}:role/${CONTROLLER_ROLE}`, tags: { [TAG_MANAGED_BY]: MANAGED_BY, [TAG_CLUSTER]: CLUSTER, team: "platform" } }]);
    expect((s.roles[CONTROLLER_ROLE] as { trust: { Statement: { Principal: unknown }[] } }).trust.Statement[0]!.Principal).toEqual({ Service: ["pods.eks.amazonaws.com"] });
    expect(s.awsAuth?.mapRoles).toBe(EXISTING_MAP_ROLES);
    expect(s.queues).toEqual({});
    const second = await run("apply", { overlayRoot: apiRoot });
    expect(second.writes).toEqual([]);
    kube.nodeClaims = [];
    await run("destroy", { overlayRoot: apiRoot });
    const after = await state();
    expect(after.accessEntries).toEqual({});
    expect(after.podIdentity).toEqual([]);
    expect(after.roles).toEqual({});
  });

  it("the eks-gitops binary: AWS_ENDPOINT_URL reaches moto, --output json, and apply refuses without --yes when stdin is not a terminal", async () => {
    // moto has no add-on API, so this overlay asks for none; CONFIG_MAP mode uses the local API server.
    const cliRoot = writeOverlay({ oidcIssuer: seeded.oidcIssuer, vpcId: seeded.vpcId, addons: [] });
    const bin = join(import.meta.dirname, "../../cli/bin/eks-gitops.js");
    // Asynchronous on purpose: the local API server lives in this process and must keep answering.
    const cli = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, "bootstrap", ...args, "--cluster", CLUSTER, "--root", cliRoot, "--kubeconfig", kube.kubeconfig], {
          env: { ...process.env, NO_COLOR: "1" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      });
    const plan = await cli("plan", "--output", "json");
    expect(plan.status, plan.stderr).toBe(0);
    const json = JSON.parse(plan.stdout) as { status: string; summary: string; changes: { marker: string; resource: string; operation: { type: string } }[]; blockers: string[] };
    expect(json.status).toBe("ok");
    expect(json.blockers).toEqual([]);
    expect(json.changes[0]).toMatchObject({ marker: "+", resource: `iam role ${NODE_ROLE}`, operation: { type: "createRole" } });
    expect(json.summary).toBe(`${json.changes.length} to add, 0 to change, 0 to remove`);
    expect(json.changes.every((c) => c.marker === "+")).toBe(true);
    expect(plan.stdout + plan.stderr).not.toContain(process.env.AWS_SECRET_ACCESS_KEY!);

    const apply = await cli("apply");
    expect(apply.status).toBe(1);
    expect(apply.stdout).toContain("Refusing to apply without --yes: stdin is not a terminal, so nobody can confirm.");
    expect((await state()).roles).toEqual({});

    const yes = await cli("apply", "--yes");
    expect(yes.status, yes.stdout + yes.stderr).toBe(0);
    expect(yes.stdout).toContain(`done    [+] iam role ${NODE_ROLE}: create with trust Service ec2.amazonaws.com`);
    expect(Object.keys((await state()).roles).sort()).toEqual([CONTROLLER_ROLE, NODE_ROLE]);
  }, 240_000);

  it("a process killed (SIGKILL) in the middle of apply: a re-run converges to the same state as an uninterrupted apply", async () => {
    const cliRoot = writeOverlay({ oidcIssuer: seeded.oidcIssuer, vpcId: seeded.vpcId, addons: [] });
    await run("apply", { fix: true, overlayRoot: cliRoot });
    const expected = await state();
    await restoreWorld();

    const bin = join(import.meta.dirname, "../../cli/bin/eks-gitops.js");
    const child = spawn(process.execPath, [bin, "bootstrap", "apply", "--yes", "--fix", "--cluster", CLUSTER, "--root", cliRoot, "--kubeconfig", kube.kubeconfig], {
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const closed = new Promise<NodeJS.Signals | null>((r) => child.on("close", (_code, signal) => r(signal)));
    let done = 0;
    const killedAfter = await new Promise<number>((resolve) => {
      child.stdout.on("data", (d: Buffer) => {
        done += String(d).split("\n").filter((l) => l.startsWith("done ")).length;
        if (done >= 6 && child.exitCode === null && !child.killed) {
          child.kill("SIGKILL");
          resolve(done);
        }
      });
      child.on("close", () => resolve(done));
    });
    expect(await closed).toBe("SIGKILL");
    expect(killedAfter).toBeGreaterThanOrEqual(6);
    const partial = await state();
    expect(partial).not.toEqual(expected);

    const again = await run("apply", { fix: true, overlayRoot: cliRoot });
    expect(again.result.status).toBe("ok");
    expect(await state()).toEqual(expected);
    expect((await run("apply", { fix: true, overlayRoot: cliRoot })).writes).toEqual([]);
  }, 240_000);
});


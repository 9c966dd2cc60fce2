// Test helper: seeds moto with the lab's starting point and writes a matching overlay + rendered/iam to a temp root.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateSecurityGroupCommand, CreateSubnetCommand, CreateTagsCommand, CreateVpcCommand, EC2Client } from "@aws-sdk/client-ec2";
import { CreateClusterCommand, CreateNodegroupCommand, EKSClient } from "@aws-sdk/client-eks";
import { CreateOpenIDConnectProviderCommand, IAMClient } from "@aws-sdk/client-iam";
import { checkCluster, DISCOVERY_TAG } from "@eks-gitops/config";
import { buildIamDocuments, iamFiles } from "@eks-gitops/policies";
import type { AwsClients } from "../aws.ts";
import { createAwsClients } from "../aws.ts";

export const MOTO_ACCOUNT = "123456789012";
export const REGION = "ap-southeast-1";
export const CLUSTER = "emulated";
export const TEST_MANAGED_POLICY = `TestManagedPolicy-${CLUSTER}`;

export interface Seeded {
  readonly vpcId: string;
  readonly otherVpcId: string;
  readonly subnets: readonly string[];
  readonly straySubnet: string;
  readonly clusterSecurityGroup: string;
  readonly oidcIssuer: string;
}

/** Points the SDK at moto through the standard variables (what a user of an emulator would set). */
export function useEmulatorEnv(endpoint: string): void {
  process.env.AWS_ENDPOINT_URL = endpoint;
  process.env.AWS_ACCESS_KEY_ID = "AKIAEMULATORTESTKEY0";
  process.env.AWS_SECRET_ACCESS_KEY = "emulator-secret-never-printed";
  process.env.AWS_REGION = REGION;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
  // An empty variable is not the same as an unset one for the SDK's credential chain.
  for (const k of ["AWS_SESSION_TOKEN", "AWS_PROFILE"]) Reflect.deleteProperty(process.env, k);
}

/** Clients for tests: fast retries so throttling tests do not sleep. */
export function testClients(): AwsClients {
  return createAwsClients({ region: REGION, maxAttempts: 4, backoff: () => 5 }, { arn: undefined });
}

/**
 * Creates: the cluster VPC with three subnets and the cluster security group; a second VPC whose subnet
 * carries a stray discovery tag for this cluster; the EKS cluster; two node groups; the IAM OIDC provider.
 */
export async function seedLab(seed: (n: number) => Promise<void>): Promise<Seeded> {
  const ec2 = new EC2Client({ region: REGION });
  const eks = new EKSClient({ region: REGION });
  const iam = new IAMClient({ region: REGION });
  const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: "10.0.0.0/16" }))).Vpc!.VpcId!;
  const subnets: string[] = [];
  for (const [i, az] of ["a", "b", "c"].entries()) {
    subnets.push((await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: `10.0.${i}.0/24`, AvailabilityZone: `${REGION}${az}` }))).Subnet!.SubnetId!);
  }
  const clusterSecurityGroup = (await ec2.send(new CreateSecurityGroupCommand({ GroupName: `eks-cluster-sg-${CLUSTER}`, Description: "EKS cluster security group", VpcId: vpcId }))).GroupId!;
  const otherVpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: "10.1.0.0/16" }))).Vpc!.VpcId!;
  const straySubnet = (await ec2.send(new CreateSubnetCommand({ VpcId: otherVpcId, CidrBlock: "10.1.0.0/24", AvailabilityZone: `${REGION}a` }))).Subnet!.SubnetId!;
  await ec2.send(new CreateTagsCommand({ Resources: [straySubnet], Tags: [{ Key: DISCOVERY_TAG, Value: CLUSTER }] }));

  // CreateCluster's request shape has no vpcId/clusterSecurityGroupId (EKS derives them); moto echoes
  // resourcesVpcConfig back, so add them to the body before signing to get a realistic DescribeCluster.
  eks.middlewareStack.add(
    (next) => async (args) => {
      const req = (args as { request: { body: string | Uint8Array; headers: Record<string, string> } }).request;
      const b = JSON.parse(typeof req.body === "string" ? req.body : new TextDecoder().decode(req.body));
      b.resourcesVpcConfig = { ...b.resourcesVpcConfig, vpcId, clusterSecurityGroupId: clusterSecurityGroup };
      req.body = JSON.stringify(b);
      for (const h of Object.keys(req.headers)) if (h.toLowerCase() === "content-length") req.headers[h] = String(Buffer.byteLength(req.body));
      return next(args);
    },
    { step: "build", name: "seedVpcFields" },
  );
  await seed(7);
  const cluster = await eks.send(
    new CreateClusterCommand({
      name: CLUSTER,
      version: "1.36",
      roleArn: `arn:aws:iam::${MOTO_ACCOUNT}:role/eks-cluster-role`,
      resourcesVpcConfig: { subnetIds: subnets, securityGroupIds: [clusterSecurityGroup] },
    }),
  );
  const oidcIssuer = cluster.cluster!.identity!.oidc!.issuer!;
  const nodeRole = `arn:aws:iam::${MOTO_ACCOUNT}:role/eks-node-group-role`;
  await eks.send(new CreateNodegroupCommand({ clusterName: CLUSTER, nodegroupName: "ng-ondemand-a", subnets: [subnets[0]!, subnets[1]!], nodeRole, scalingConfig: { minSize: 1, maxSize: 3, desiredSize: 3 } }));
  await eks.send(new CreateNodegroupCommand({ clusterName: CLUSTER, nodegroupName: "ng-ondemand-b", subnets: [subnets[1]!, subnets[2]!], nodeRole, scalingConfig: { minSize: 1, maxSize: 3, desiredSize: 3 } }));
  await iam.send(new CreateOpenIDConnectProviderCommand({ Url: oidcIssuer, ClientIDList: ["sts.amazonaws.com"], ThumbprintList: ["9e99a48a9960b14926bb7f3b02e22da2b0ab7280"] }));
  return { vpcId, otherVpcId, subnets, straySubnet, clusterSecurityGroup, oidcIssuer };
}

export interface OverlayOptions {
  readonly oidcIssuer: string;
  readonly vpcId: string;
  readonly authenticationMode?: "API" | "API_AND_CONFIG_MAP" | "CONFIG_MAP";
  readonly identity?: "irsa" | "pod-identity";
  readonly interruptionQueue?: boolean;
  readonly account?: string;
  readonly addons?: readonly string[];
}

/** Writes clusters/<CLUSTER>/cluster.ts and its rendered/iam (with one extra inline policy) under a new temp root. */
export function writeOverlay(o: OverlayOptions): string {
  const root = mkdtempSync(join(tmpdir(), "eks-gitops-bootstrap-"));
  const input = {
    name: CLUSTER,
    account: o.account ?? MOTO_ACCOUNT,
    region: REGION,
    kubernetesVersion: "1.36",
    oidcIssuer: o.oidcIssuer,
    vpcId: o.vpcId,
    authenticationMode: o.authenticationMode ?? "CONFIG_MAP",
    karpenter: { version: "1.14.1", identity: o.identity ?? "irsa", interruptionQueue: o.interruptionQueue ?? true },
    nodeClasses: [{ name: "default", amiSelectorTerms: [{ alias: "al2023@latest" }] }],
    nodePools: [{ name: "default", nodeClass: "default", requirements: [{ key: "kubernetes.io/arch", operator: "In", values: ["amd64"] }] }],
    addons: o.addons ?? ["metrics-server"],
    argocd: { repoURL: "https://example.invalid/repo.git" },
    tags: { team: "platform" },
  };
  const dir = join(root, "clusters", CLUSTER);
  mkdirSync(join(dir, "rendered", "iam"), { recursive: true });
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
  // ESM, as in the repository, so the CLI's TypeScript loader imports the overlay as a module.
  writeFileSync(join(root, "package.json"), '{ "private": true, "type": "module" }\n');
  writeFileSync(join(dir, "cluster.ts"), `// Test overlay for the emulator tests.\nexport default ${JSON.stringify(input, null, 2)};\n`);
  const config = checkCluster(input, "clusters/emulated/cluster.ts");
  const bundle = buildIamDocuments(config);
  // Whatever inline policies the policies package renders, the test also needs one it knows, so the
  // inline-policy path is exercised even before the controller permissions are filled in.
  // Whatever the policies package renders, the test also adds one inline and one customer managed policy
  // it knows, so both paths are exercised whichever way the controller permissions are packed.
  const document = { Version: "2012-10-17" as const, Statement: [{ Sid: "Describe", Effect: "Allow" as const, Action: ["ec2:DescribeSubnets", "ec2:DescribeInstances"], Resource: "*" }] };
  const roles = bundle.roles.map((r) =>
    r.name === config.controllerRole.name
      ? {
          ...r,
          inlinePolicies: [...r.inlinePolicies, { name: `TestControllerPolicy-${CLUSTER}`, document }],
          customerManagedPolicies: [...r.customerManagedPolicies, { name: TEST_MANAGED_POLICY, arn: `arn:aws:iam::${input.account}:policy/${TEST_MANAGED_POLICY}`, document }],
        }
      : r,
  );
  for (const [name, doc] of iamFiles({ ...bundle, roles })) writeFileSync(join(dir, "rendered", "iam", name), `${JSON.stringify(doc, null, 2)}\n`);
  return root;
}

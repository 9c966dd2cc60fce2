// Discovery: read-only calls that find what exists today (account, cluster, node groups, subnets, roles, ...).
import { DescribeSecurityGroupsCommand, DescribeSubnetsCommand, type Filter } from "@aws-sdk/client-ec2";
import {
  DescribeAccessEntryCommand,
  DescribeAddonCommand,
  DescribePodIdentityAssociationCommand,
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  ListAddonsCommand,
  ListNodegroupsCommand,
  ListPodIdentityAssociationsCommand,
  ResourceNotFoundException,
} from "@aws-sdk/client-eks";
import { DescribeRuleCommand, ListTagsForResourceCommand, ListTargetsByRuleCommand } from "@aws-sdk/client-eventbridge";
import {
  GetOpenIDConnectProviderCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  ListPolicyTagsCommand,
  ListPolicyVersionsCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  ListAttachedRolePoliciesCommand,
  ListInstanceProfilesForRoleCommand,
  ListRolePoliciesCommand,
  ListRoleTagsCommand,
} from "@aws-sdk/client-iam";
import { GetQueueAttributesCommand, GetQueueUrlCommand, ListQueueTagsCommand } from "@aws-sdk/client-sqs";
import { GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import { DISCOVERY_TAG, type ClusterConfig } from "@eks-gitops/config";
import { AwsCallError, type AwsClients, type CallerRef } from "./aws.ts";
import type { Desired } from "./desired.ts";
import { parsePolicyText } from "./policy-json.ts";
import { tagRecord } from "./tags.ts";
import { compareText } from "@eks-gitops/config/order";

export type AuthenticationMode = "API" | "API_AND_CONFIG_MAP" | "CONFIG_MAP";

export interface TaggedResource {
  readonly id: string;
  readonly kind: "subnet" | "security-group";
  readonly vpcId: string;
  readonly tags: Readonly<Record<string, string>>;
}

export interface ActualRole {
  readonly arn: string;
  readonly description: string;
  readonly trustPolicy: unknown;
  readonly tags: Readonly<Record<string, string>>;
  readonly managedPolicyArns: readonly string[];
  readonly inlinePolicies: Readonly<Record<string, unknown>>;
  readonly instanceProfiles: readonly string[];
}

export interface ActualRule {
  readonly pattern: string | undefined;
  readonly tags: Readonly<Record<string, string>>;
  readonly targets: readonly { readonly id: string; readonly arn: string }[];
}

export interface Actual {
  readonly caller: { readonly account: string; readonly arn: string };
  readonly cluster: {
    readonly name: string;
    readonly arn: string;
    readonly endpoint: string | undefined;
    readonly oidcIssuer: string | undefined;
    readonly vpcId: string | undefined;
    readonly securityGroupId: string | undefined;
    /** undefined when EKS did not report one (older emulators). */
    readonly authenticationMode: AuthenticationMode | undefined;
  };
  readonly nodegroups: readonly { readonly name: string; readonly subnets: readonly string[] }[];
  /** Subnets of the node groups, and the cluster security group. */
  readonly discoveryTargets: readonly TaggedResource[];
  /** Every subnet and security group carrying this cluster's discovery tag (any VPC). */
  readonly discoveryTagged: readonly TaggedResource[];
  readonly oidcProviderExists: boolean;
  readonly roles: Readonly<Record<string, ActualRole | undefined>>;
  readonly addons: Readonly<Record<string, { readonly status: string; readonly tags: Readonly<Record<string, string>> } | undefined>>;
  /** The node role's access entry (undefined: none). Not looked up when the mode is CONFIG_MAP. */
  readonly accessEntry: { readonly type: string; readonly tags: Readonly<Record<string, string>> } | undefined;
  readonly podIdentityAssociations: readonly { readonly id: string; readonly roleArn: string | undefined; readonly tags: Readonly<Record<string, string>> }[];
  readonly queue: { readonly url: string; readonly attributes: Readonly<Record<string, string>>; readonly policy: unknown; readonly tags: Readonly<Record<string, string>> } | undefined;
  readonly rules: Readonly<Record<string, ActualRule | undefined>>;
  /** Customer managed policies rendered/iam lists, by ARN. */
  readonly customerPolicies: Readonly<Record<string, ActualCustomerPolicy | undefined>>;
}

export interface ActualCustomerPolicy {
  readonly document: unknown;
  readonly tags: Readonly<Record<string, string>>;
  /** Versions other than the default, oldest first (IAM keeps at most five in all). */
  readonly otherVersions: readonly string[];
}

/** The overlay does not match what the credentials and region reach; nothing is changed. */
export class DiscoveryRefusal extends Error {
  override name = "DiscoveryRefusal";
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
  }
}

const notFound = (err: unknown, ...codes: string[]) =>
  err instanceof ResourceNotFoundException || (err instanceof AwsCallError && ["NoSuchEntity", "ResourceNotFoundException", "NotFoundException", ...codes].includes(err.code));

async function orUndefined<T>(p: Promise<T>, ...codes: string[]): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (notFound(err, ...codes)) return undefined;
    throw err;
  }
}

/** The effective authentication mode: what EKS reports, else the overlay's (said so in the plan notes). */
export function effectiveAuthMode(config: ClusterConfig, actual: Actual): AuthenticationMode {
  return actual.cluster.authenticationMode ?? config.authenticationMode;
}

/** Whether node identity goes through an EKS access entry (auth mode allows it) or aws-auth. */
export function usesAccessEntry(mode: AuthenticationMode): boolean {
  return mode !== "CONFIG_MAP";
}

/** Reads everything the plan compares. Only Describe/Get/List calls. Throws DiscoveryRefusal on a mismatch. */
/** How far discovery has come: `done` of `total` reads, `step` the one that just finished. */
export interface DiscoveryProgress {
  readonly step: string;
  readonly done: number;
  readonly total: number;
}

/** The reads discovery makes, in the order they are reported (the last nine run concurrently). */
export const DISCOVERY_STEPS = [
  "caller identity",
  "cluster",
  "node groups",
  "discovery tags",
  "OIDC provider",
  "IAM roles",
  "add-ons",
  "access entry",
  "pod identity",
  "interruption queue",
  "customer-managed policies",
] as const;

export async function discover(
  clients: AwsClients,
  desired: Desired,
  caller: CallerRef,
  env: NodeJS.ProcessEnv = process.env,
  onProgress?: (progress: DiscoveryProgress) => void,
): Promise<Actual> {
  const { config } = desired;
  const problems: string[] = [];
  let done = 0;
  // discovery is dozens of calls, seconds against a real account: say which read finished
  const step = <T>(name: (typeof DISCOVERY_STEPS)[number], p: Promise<T>): Promise<T> =>
    p.then((v) => {
      onProgress?.({ step: name, done: ++done, total: DISCOVERY_STEPS.length });
      return v;
    });

  const envRegion = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (envRegion && envRegion !== config.region) {
    problems.push(`region: AWS_REGION is '${envRegion}' but ${config.sourceFile} says '${config.region}'; unset it or use the overlay of that region`);
  }
  const id = await step("caller identity", clients.sts.send(new GetCallerIdentityCommand({})));
  caller.arn = id.Arn;
  const callerInfo = { account: id.Account ?? "", arn: id.Arn ?? "" };
  if (callerInfo.account !== config.account) {
    problems.push(`account: the credentials are for account ${callerInfo.account} (${callerInfo.arn}) but ${config.sourceFile} says ${config.account}; use credentials for ${config.account}`);
  }
  if (problems.length > 0) throw new DiscoveryRefusal(problems);

  const described = await step("cluster", orUndefined(clients.eks.send(new DescribeClusterCommand({ name: config.name }))));
  const c = described?.cluster;
  if (!c) throw new DiscoveryRefusal([`cluster: no EKS cluster '${config.name}' in account ${config.account} region ${config.region}`]);
  const expectedArn = `arn:${config.partition}:eks:${config.region}:${config.account}:cluster/${config.name}`;
  if (c.arn !== expectedArn) problems.push(`cluster: EKS reports ARN ${c.arn} but the overlay implies ${expectedArn}`);
  const vpcId = c.resourcesVpcConfig?.vpcId;
  if (config.vpcId && vpcId && config.vpcId !== vpcId) {
    problems.push(`vpcId: cluster ${config.name} is in ${vpcId} but ${config.sourceFile} says ${config.vpcId}; fix the overlay`);
  }
  const issuer = c.identity?.oidc?.issuer;
  if (issuer && issuer.replace(/\/$/, "") !== config.oidcIssuer.replace(/\/$/, "")) {
    problems.push(`oidcIssuer: cluster ${config.name} has issuer ${issuer} but ${config.sourceFile} says ${config.oidcIssuer}; fix the overlay and run \`pnpm synth --cluster ${config.name}\``);
  }
  if (!vpcId) problems.push(`cluster: EKS did not report the VPC of ${config.name}`);
  if (problems.length > 0) throw new DiscoveryRefusal(problems);

  // Independent reads run concurrently: discovery is latency-bound.
  const authenticationMode = c.accessConfig?.authenticationMode as AuthenticationMode | undefined;
  const mode = authenticationMode ?? config.authenticationMode;
  const sgId = c.resourcesVpcConfig?.clusterSecurityGroupId;
  const tagFilter: Filter[] = [{ Name: `tag:${DISCOVERY_TAG}`, Values: [config.name] }];
  const [nodegroupsAndTargets, discoveryTagged, oidcProviderExists, roles, addons, accessEntry, podIdentityAssociations, queueAndRules, customerPolicies] = await Promise.all([
    step("node groups", (async () => {
      const nodegroups = await readNodegroups(clients, config.name);
      const subnetIds = [...new Set(nodegroups.flatMap((n) => n.subnets))].sort();
      const [subnets, groups] = await Promise.all([
        subnetIds.length ? describeSubnets(clients, [{ Name: "subnet-id", Values: subnetIds }]) : Promise.resolve([]),
        sgId ? describeGroups(clients, [{ Name: "group-id", Values: [sgId] }]) : Promise.resolve([]),
      ]);
      return { nodegroups, discoveryTargets: [...subnets, ...groups] };
    })()),
    step("discovery tags", Promise.all([describeSubnets(clients, tagFilter), describeGroups(clients, tagFilter)]).then(([a, b]) => [...a, ...b])),
    step(
      "OIDC provider",
      config.karpenter.identity !== "irsa"
        ? Promise.resolve(true)
        : orUndefined(clients.iam.send(new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: config.oidcProviderArn }))).then((r) => r !== undefined),
    ),
    step("IAM roles", Promise.all(desired.roles.map(async (want) => [want.name, await readRole(clients, want.name)] as const)).then((e) => Object.fromEntries(e))),
    step("add-ons", readAddons(clients, config)),
    step(
      "access entry",
      usesAccessEntry(mode)
        ? orUndefined(clients.eks.send(new DescribeAccessEntryCommand({ clusterName: config.name, principalArn: config.nodeRole.arn }))).then((e) =>
            e?.accessEntry ? { type: e.accessEntry.type ?? "", tags: { ...(e.accessEntry.tags ?? {}) } } : undefined,
          )
        : Promise.resolve(undefined),
    ),
    step("pod identity", config.karpenter.identity === "pod-identity" ? readPodIdentity(clients, config) : Promise.resolve([])),
    step("interruption queue", readQueue(clients, desired)),
    step(
      "customer-managed policies",
      Promise.all(
        desired.roles.flatMap((r) => r.customerManagedPolicies).map(async (p) => [p.arn, await readCustomerPolicy(clients, p.arn)] as const),
      ).then((e) => Object.fromEntries(e)),
    ),
  ]);
  const { nodegroups, discoveryTargets } = nodegroupsAndTargets;
  const { queue, rules } = queueAndRules;

  return {
    caller: callerInfo,
    cluster: {
      name: config.name,
      arn: c.arn ?? expectedArn,
      endpoint: c.endpoint,
      oidcIssuer: issuer,
      vpcId,
      securityGroupId: sgId,
      authenticationMode,
    },
    nodegroups,
    discoveryTargets,
    discoveryTagged,
    oidcProviderExists,
    roles,
    addons,
    accessEntry,
    podIdentityAssociations,
    queue,
    rules,
    customerPolicies,
  };
}

async function readCustomerPolicy(clients: AwsClients, arn: string): Promise<ActualCustomerPolicy | undefined> {
  const policy = (await orUndefined(clients.iam.send(new GetPolicyCommand({ PolicyArn: arn }))))?.Policy;
  if (!policy) return undefined;
  const [version, versions, tags] = await Promise.all([
    clients.iam.send(new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: policy.DefaultVersionId })),
    clients.iam.send(new ListPolicyVersionsCommand({ PolicyArn: arn })),
    clients.iam.send(new ListPolicyTagsCommand({ PolicyArn: arn })),
  ]);
  const others = (versions.Versions ?? [])
    .filter((v) => !v.IsDefaultVersion && v.VersionId)
    .sort((a, b) => (a.CreateDate?.getTime() ?? 0) - (b.CreateDate?.getTime() ?? 0))
    .map((v) => v.VersionId!);
  return { document: parsePolicyText(version.PolicyVersion?.Document), tags: tagRecord(tags.Tags), otherVersions: others };
}

async function readNodegroups(clients: AwsClients, cluster: string): Promise<{ name: string; subnets: string[] }[]> {
  const names: string[] = [];
  for (let token: string | undefined, first = true; first || token; first = false) {
    const page = await clients.eks.send(new ListNodegroupsCommand({ clusterName: cluster, nextToken: token }));
    names.push(...(page.nodegroups ?? []));
    token = page.nextToken;
  }
  const groups = await Promise.all(
    names.map(async (name) => {
      const ng = await clients.eks.send(new DescribeNodegroupCommand({ clusterName: cluster, nodegroupName: name }));
      return { name, subnets: [...(ng.nodegroup?.subnets ?? [])] };
    }),
  );
  return groups.sort((a, b) => compareText(a.name, b.name));
}

async function readAddons(clients: AwsClients, config: ClusterConfig): Promise<Actual["addons"]> {
  if (config.addons.length === 0) return {};
  const listed = new Set<string>();
  for (let token: string | undefined, first = true; first || token; first = false) {
    const page = await clients.eks.send(new ListAddonsCommand({ clusterName: config.name, nextToken: token }));
    for (const a of page.addons ?? []) listed.add(a);
    token = page.nextToken;
  }
  const entries = await Promise.all(
    config.addons.map(async (name) => {
      if (!listed.has(name)) return [name, undefined] as const;
      const a = (await clients.eks.send(new DescribeAddonCommand({ clusterName: config.name, addonName: name }))).addon;
      return [name, { status: a?.status ?? "UNKNOWN", tags: { ...(a?.tags ?? {}) } }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

async function readPodIdentity(clients: AwsClients, config: ClusterConfig): Promise<Actual["podIdentityAssociations"]> {
  const res = await clients.eks.send(
    new ListPodIdentityAssociationsCommand({ clusterName: config.name, namespace: config.karpenter.namespace, serviceAccount: config.karpenter.serviceAccount }),
  );
  const out: { id: string; roleArn: string | undefined; tags: Record<string, string> }[] = [];
  for (const a of res.associations ?? []) {
    if (!a.associationId) continue;
    const d = await clients.eks.send(new DescribePodIdentityAssociationCommand({ clusterName: config.name, associationId: a.associationId }));
    out.push({ id: a.associationId, roleArn: d.association?.roleArn, tags: { ...(d.association?.tags ?? {}) } });
  }
  return out;
}

async function readQueue(clients: AwsClients, desired: Desired): Promise<{ queue: Actual["queue"]; rules: Record<string, ActualRule | undefined> }> {
  if (!desired.queue) return { queue: undefined, rules: {} };
  const q = desired.queue;
  const [queue, ruleEntries] = await Promise.all([
    (async (): Promise<Actual["queue"]> => {
      const url = (await orUndefined(clients.sqs.send(new GetQueueUrlCommand({ QueueName: q.name })), "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue"))?.QueueUrl;
      if (!url) return undefined;
      const [attrs, tags] = await Promise.all([
        clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] })).then((r) => r.Attributes ?? {}),
        clients.sqs.send(new ListQueueTagsCommand({ QueueUrl: url })).then((r) => r.Tags ?? {}),
      ]);
      return { url, attributes: attrs, policy: parsePolicyText(attrs.Policy), tags };
    })(),
    Promise.all(q.rules.map(async (r) => [r.name, await readRule(clients, r.name)] as const)),
  ]);
  return { queue, rules: Object.fromEntries(ruleEntries) };
}

async function describeSubnets(clients: AwsClients, filters: Filter[]): Promise<TaggedResource[]> {
  const out: TaggedResource[] = [];
  for (let token: string | undefined, first = true; first || token; first = false) {
    const page = await clients.ec2.send(new DescribeSubnetsCommand({ Filters: filters, NextToken: token }));
    for (const s of page.Subnets ?? []) out.push({ id: s.SubnetId ?? "", kind: "subnet", vpcId: s.VpcId ?? "", tags: tagRecord(s.Tags) });
    token = page.NextToken;
  }
  return out.sort((a, b) => compareText(a.id, b.id));
}

async function describeGroups(clients: AwsClients, filters: Filter[]): Promise<TaggedResource[]> {
  const out: TaggedResource[] = [];
  for (let token: string | undefined, first = true; first || token; first = false) {
    const page = await clients.ec2.send(new DescribeSecurityGroupsCommand({ Filters: filters, NextToken: token }));
    for (const g of page.SecurityGroups ?? []) out.push({ id: g.GroupId ?? "", kind: "security-group", vpcId: g.VpcId ?? "", tags: tagRecord(g.Tags) });
    token = page.NextToken;
  }
  return out.sort((a, b) => compareText(a.id, b.id));
}

async function readRole(clients: AwsClients, name: string): Promise<ActualRole | undefined> {
  const role = (await orUndefined(clients.iam.send(new GetRoleCommand({ RoleName: name }))))?.Role;
  if (!role) return undefined;
  const [managed, inline, tags, profiles] = await Promise.all([
    (async () => {
      const out: string[] = [];
      for (let marker: string | undefined, first = true; first || marker; first = false) {
        const page = await clients.iam.send(new ListAttachedRolePoliciesCommand({ RoleName: name, Marker: marker }));
        for (const p of page.AttachedPolicies ?? []) if (p.PolicyArn) out.push(p.PolicyArn);
        marker = page.IsTruncated ? page.Marker : undefined;
      }
      return out.sort();
    })(),
    (async () => {
      const names: string[] = [];
      for (let marker: string | undefined, first = true; first || marker; first = false) {
        const page = await clients.iam.send(new ListRolePoliciesCommand({ RoleName: name, Marker: marker }));
        names.push(...(page.PolicyNames ?? []));
        marker = page.IsTruncated ? page.Marker : undefined;
      }
      const docs = await Promise.all(names.map((p) => clients.iam.send(new GetRolePolicyCommand({ RoleName: name, PolicyName: p }))));
      return Object.fromEntries(names.map((p, i) => [p, parsePolicyText(docs[i]!.PolicyDocument)]));
    })(),
    clients.iam.send(new ListRoleTagsCommand({ RoleName: name })).then((r) => tagRecord(r.Tags)),
    clients.iam.send(new ListInstanceProfilesForRoleCommand({ RoleName: name })).then((r) => r.InstanceProfiles ?? []),
  ]);
  return {
    arn: role.Arn ?? "",
    description: role.Description ?? "",
    trustPolicy: parsePolicyText(role.AssumeRolePolicyDocument),
    tags,
    managedPolicyArns: managed,
    inlinePolicies: inline,
    instanceProfiles: profiles.map((p) => p.InstanceProfileName ?? "").sort(),
  };
}

async function readRule(clients: AwsClients, name: string): Promise<ActualRule | undefined> {
  const rule = await orUndefined(clients.events.send(new DescribeRuleCommand({ Name: name })));
  if (!rule?.Arn) return undefined;
  const tags = tagRecord((await clients.events.send(new ListTagsForResourceCommand({ ResourceARN: rule.Arn }))).Tags);
  const targets = (await clients.events.send(new ListTargetsByRuleCommand({ Rule: name }))).Targets ?? [];
  return { pattern: rule.EventPattern, tags, targets: targets.map((t) => ({ id: t.Id ?? "", arn: t.Arn ?? "" })) };
}

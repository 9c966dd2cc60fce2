// Test helper: the emulator's state that the bootstrap owns, read back for assertions (read-only calls).
import { DescribeSecurityGroupsCommand, DescribeSubnetsCommand } from "@aws-sdk/client-ec2";
import { ListRulesCommand, ListTargetsByRuleCommand, ListTagsForResourceCommand } from "@aws-sdk/client-eventbridge";
import {
  GetPolicyVersionCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  ListAttachedRolePoliciesCommand,
  ListPoliciesCommand,
  ListPolicyTagsCommand,
  ListPolicyVersionsCommand,
  ListRolePoliciesCommand,
  ListRolesCommand,
  ListRoleTagsCommand,
} from "@aws-sdk/client-iam";
import { GetQueueAttributesCommand, ListQueuesCommand, ListQueueTagsCommand } from "@aws-sdk/client-sqs";
import type { AwsClients } from "../aws.ts";
import { normalizePolicy, parsePolicyText } from "../policy-json.ts";
import { tagRecord } from "../tags.ts";
import type { FakeApiServer } from "./fake-apiserver.ts";
import type { FakeEksState } from "./sdk-hooks.ts";

export async function readState(clients: AwsClients, o: { vpcIds: readonly string[]; eks: FakeEksState; kube?: FakeApiServer }) {
  const roles: Record<string, unknown> = {};
  const names = ((await clients.iam.send(new ListRolesCommand({}))).Roles ?? []).map((r) => r.RoleName!).filter((n) => n.startsWith("Karpenter")).sort();
  for (const name of names) {
    const role = (await clients.iam.send(new GetRoleCommand({ RoleName: name }))).Role!;
    const attached = ((await clients.iam.send(new ListAttachedRolePoliciesCommand({ RoleName: name }))).AttachedPolicies ?? []).map((p) => p.PolicyArn!).sort();
    const inline: Record<string, unknown> = {};
    for (const p of (await clients.iam.send(new ListRolePoliciesCommand({ RoleName: name }))).PolicyNames ?? []) {
      inline[p] = normalizePolicy(parsePolicyText((await clients.iam.send(new GetRolePolicyCommand({ RoleName: name, PolicyName: p }))).PolicyDocument));
    }
    const tags = tagRecord((await clients.iam.send(new ListRoleTagsCommand({ RoleName: name }))).Tags);
    roles[name] = { trust: normalizePolicy(parsePolicyText(role.AssumeRolePolicyDocument)), description: role.Description, attached, inline, tags };
  }
  const policies: Record<string, unknown> = {};
  for (const p of (await clients.iam.send(new ListPoliciesCommand({ Scope: "Local" }))).Policies ?? []) {
    const v = await clients.iam.send(new GetPolicyVersionCommand({ PolicyArn: p.Arn!, VersionId: p.DefaultVersionId! }));
    const versions = (await clients.iam.send(new ListPolicyVersionsCommand({ PolicyArn: p.Arn! }))).Versions ?? [];
    const tags = tagRecord((await clients.iam.send(new ListPolicyTagsCommand({ PolicyArn: p.Arn! }))).Tags);
    policies[p.PolicyName!] = { document: normalizePolicy(parsePolicyText(v.PolicyVersion?.Document)), versions: versions.length, tags };
  }
  const ec2Tags: Record<string, Record<string, string>> = {};
  const filters = [{ Name: "vpc-id", Values: [...o.vpcIds] }];
  for (const s of (await clients.ec2.send(new DescribeSubnetsCommand({ Filters: filters }))).Subnets ?? []) ec2Tags[s.SubnetId!] = tagRecord(s.Tags);
  for (const g of (await clients.ec2.send(new DescribeSecurityGroupsCommand({ Filters: filters }))).SecurityGroups ?? []) {
    if (g.GroupName !== "default") ec2Tags[g.GroupId!] = tagRecord(g.Tags);
  }
  const queues: Record<string, unknown> = {};
  for (const url of (await clients.sqs.send(new ListQueuesCommand({}))).QueueUrls ?? []) {
    const a = (await clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }))).Attributes ?? {};
    const tags = (await clients.sqs.send(new ListQueueTagsCommand({ QueueUrl: url }))).Tags ?? {};
    queues[url.split("/").pop()!] = { MessageRetentionPeriod: a.MessageRetentionPeriod, SqsManagedSseEnabled: a.SqsManagedSseEnabled, Policy: normalizePolicy(parsePolicyText(a.Policy)), tags };
  }
  const rules: Record<string, unknown> = {};
  for (const r of (await clients.events.send(new ListRulesCommand({}))).Rules ?? []) {
    const targets = ((await clients.events.send(new ListTargetsByRuleCommand({ Rule: r.Name! }))).Targets ?? []).map((t) => `${t.Id} -> ${t.Arn}`);
    const tags = tagRecord((await clients.events.send(new ListTagsForResourceCommand({ ResourceARN: r.Arn! }))).Tags);
    rules[r.Name!] = { pattern: JSON.parse(r.EventPattern ?? "null"), state: r.State, targets, tags };
  }
  return {
    roles,
    policies,
    ec2Tags,
    queues,
    rules,
    addons: Object.fromEntries(o.eks.addons),
    accessEntries: Object.fromEntries(o.eks.accessEntries),
    podIdentity: [...o.eks.podIdentity.values()],
    awsAuth: o.kube?.configMaps.get("kube-system/aws-auth")?.data,
  };
}

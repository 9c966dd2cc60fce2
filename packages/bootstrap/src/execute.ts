// Runs a plan's operations in order, one AWS (or Kubernetes) write each; stops at the first failure.
import { CreateTagsCommand, DeleteTagsCommand } from "@aws-sdk/client-ec2";
import {
  CreateAccessEntryCommand,
  CreateAddonCommand,
  CreatePodIdentityAssociationCommand,
  DeleteAccessEntryCommand,
  DeleteAddonCommand,
  DeletePodIdentityAssociationCommand,
  UpdatePodIdentityAssociationCommand,
} from "@aws-sdk/client-eks";
import { DeleteRuleCommand, PutRuleCommand, PutTargetsCommand, RemoveTargetsCommand } from "@aws-sdk/client-eventbridge";
import {
  AttachRolePolicyCommand,
  CreatePolicyCommand,
  CreatePolicyVersionCommand,
  CreateRoleCommand,
  DeletePolicyCommand,
  DeletePolicyVersionCommand,
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  DetachRolePolicyCommand,
  PutRolePolicyCommand,
  UpdateAssumeRolePolicyCommand,
  UpdateRoleCommand,
} from "@aws-sdk/client-iam";
import { CreateQueueCommand, DeleteQueueCommand, SetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { addNodeRole, removeRole } from "./aws-auth.ts";
import type { AwsClients } from "./aws.ts";
import type { KubeAccess } from "./kube.ts";
import type { Change, Operation, Plan } from "./plan.ts";
import { tagList } from "./tags.ts";

export interface StepResult {
  readonly change: Change;
  readonly ok: boolean;
  readonly message?: string;
}

export interface ExecuteContext {
  readonly clients: AwsClients;
  readonly cluster: string;
  /** Needed only by aws-auth operations. */
  readonly kube?: KubeAccess;
  /** Called after each step (progress lines). */
  readonly onStep?: (r: StepResult) => void;
}

/** Runs every change of the plan in order; the first failure stops the run (a re-run picks up from discovery). */
export async function executePlan(plan: Plan, ctx: ExecuteContext): Promise<{ results: StepResult[]; error?: Error }> {
  const results: StepResult[] = [];
  for (const change of plan.changes) {
    try {
      const message = await runOperation(change.op, ctx);
      const r: StepResult = { change, ok: true, ...(message ? { message } : {}) };
      results.push(r);
      ctx.onStep?.(r);
    } catch (err) {
      const r: StepResult = { change, ok: false, message: (err as Error).message };
      results.push(r);
      ctx.onStep?.(r);
      return { results, error: err as Error };
    }
  }
  return { results };
}

const json = (v: unknown) => JSON.stringify(v);

async function runOperation(op: Operation, ctx: ExecuteContext): Promise<string | undefined> {
  const { iam, ec2, eks, sqs, events } = ctx.clients;
  const clusterName = ctx.cluster;
  switch (op.type) {
    case "createRole":
      await iam.send(new CreateRoleCommand({ RoleName: op.role, AssumeRolePolicyDocument: json(op.trustPolicy), Description: op.description, Tags: tagList(op.tags) }));
      return;
    case "updateTrust":
      await iam.send(new UpdateAssumeRolePolicyCommand({ RoleName: op.role, PolicyDocument: json(op.trustPolicy) }));
      return;
    case "updateDescription":
      await iam.send(new UpdateRoleCommand({ RoleName: op.role, Description: op.description }));
      return;
    case "attachPolicy":
      await iam.send(new AttachRolePolicyCommand({ RoleName: op.role, PolicyArn: op.policyArn }));
      return;
    case "detachPolicy":
      await iam.send(new DetachRolePolicyCommand({ RoleName: op.role, PolicyArn: op.policyArn }));
      return;
    case "putInlinePolicy":
      await iam.send(new PutRolePolicyCommand({ RoleName: op.role, PolicyName: op.name, PolicyDocument: json(op.document) }));
      return;
    case "deleteInlinePolicy":
      await iam.send(new DeleteRolePolicyCommand({ RoleName: op.role, PolicyName: op.name }));
      return;
    case "deleteRole":
      await iam.send(new DeleteRoleCommand({ RoleName: op.role }));
      return;
    case "createPolicy":
      await iam.send(new CreatePolicyCommand({ PolicyName: op.name, PolicyDocument: json(op.document), Tags: tagList(op.tags) }));
      return;
    case "createPolicyVersion":
      if (op.deleteVersion) await iam.send(new DeletePolicyVersionCommand({ PolicyArn: op.arn, VersionId: op.deleteVersion }));
      await iam.send(new CreatePolicyVersionCommand({ PolicyArn: op.arn, PolicyDocument: json(op.document), SetAsDefault: true }));
      return;
    case "deletePolicy":
      for (const v of op.otherVersions) await iam.send(new DeletePolicyVersionCommand({ PolicyArn: op.arn, VersionId: v }));
      await iam.send(new DeletePolicyCommand({ PolicyArn: op.arn }));
      return;
    case "tagResource":
      await ec2.send(new CreateTagsCommand({ Resources: [op.id], Tags: tagList(op.tags) }));
      return;
    case "untagResource":
      await ec2.send(new DeleteTagsCommand({ Resources: [op.id], Tags: op.keys.map((Key) => ({ Key })) }));
      return;
    case "createAccessEntry":
      await eks.send(new CreateAccessEntryCommand({ clusterName, principalArn: op.principalArn, type: "EC2_LINUX", tags: { ...op.tags } }));
      return;
    case "deleteAccessEntry":
      await eks.send(new DeleteAccessEntryCommand({ clusterName, principalArn: op.principalArn }));
      return;
    case "awsAuthAddRole":
    case "awsAuthRemoveRole": {
      if (!ctx.kube) throw new Error("aws-auth: no Kubernetes access configured");
      const edit = op.type === "awsAuthAddRole" ? addNodeRole : removeRole;
      const r = await ctx.kube.updateAwsAuth((data) => edit(data, op.roleArn));
      return [r.backupFile ? `previous aws-auth saved to ${r.backupFile}` : undefined, r.warning].filter(Boolean).join("; ") || undefined;
    }
    case "createPodIdentityAssociation":
      await eks.send(
        new CreatePodIdentityAssociationCommand({ clusterName, namespace: op.namespace, serviceAccount: op.serviceAccount, roleArn: op.roleArn, tags: { ...op.tags } }),
      );
      return;
    case "updatePodIdentityAssociation":
      await eks.send(new UpdatePodIdentityAssociationCommand({ clusterName, associationId: op.associationId, roleArn: op.roleArn }));
      return;
    case "deletePodIdentityAssociation":
      await eks.send(new DeletePodIdentityAssociationCommand({ clusterName, associationId: op.associationId }));
      return;
    case "createAddon":
      await eks.send(new CreateAddonCommand({ clusterName, addonName: op.name, tags: { ...op.tags } }));
      return;
    case "deleteAddon":
      await eks.send(new DeleteAddonCommand({ clusterName, addonName: op.name }));
      return;
    case "createQueue":
      await sqs.send(new CreateQueueCommand({ QueueName: op.name, Attributes: { ...op.attributes }, tags: { ...op.tags } }));
      return;
    case "setQueueAttributes":
      await sqs.send(new SetQueueAttributesCommand({ QueueUrl: op.url, Attributes: { ...op.attributes } }));
      return;
    case "deleteQueue":
      await sqs.send(new DeleteQueueCommand({ QueueUrl: op.url }));
      return;
    case "putRule":
      await events.send(new PutRuleCommand({ Name: op.name, EventPattern: op.pattern, Description: op.description, State: "ENABLED", Tags: tagList(op.tags) }));
      return;
    case "putTarget":
    {
      const r = await events.send(new PutTargetsCommand({ Rule: op.rule, Targets: [{ Id: op.id, Arn: op.arn }] }));
      // PutTargets reports per-target failures in the response, not as an error.
      const failed = r.FailedEntries?.[0];
      if ((r.FailedEntryCount ?? 0) > 0) throw new Error(`events PutTargets on rule ${op.rule}: ${failed?.ErrorCode ?? "failed"}: ${failed?.ErrorMessage ?? ""}`);
      return;
    }
    case "removeTarget":
      await events.send(new RemoveTargetsCommand({ Rule: op.rule, Ids: [op.id] }));
      return;
    case "deleteRule":
      await events.send(new DeleteRuleCommand({ Name: op.name }));
      return;
  }
}

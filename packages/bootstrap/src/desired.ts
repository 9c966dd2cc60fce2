// What the overlay wants in AWS: the rendered IAM documents (read from rendered/iam, never rebuilt) and the queue.
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { CLUSTERS_DIR, COMPONENTS, RENDERED_DIR, SYNTH_COMMAND, type ClusterConfig } from "@eks-gitops/config";
import { IAM_INDEX_FILE, type IamIndex } from "@eks-gitops/policies";

export interface DesiredRole {
  readonly name: string;
  readonly arn: string;
  readonly description: string;
  readonly trustPolicy: unknown;
  readonly managedPolicyArns: readonly string[];
  readonly inlinePolicies: readonly { readonly name: string; readonly document: unknown; readonly file: string }[];
  /** Policies created in the account (CreatePolicy) and attached; rendered when the inline size limit is passed. */
  readonly customerManagedPolicies: readonly { readonly name: string; readonly arn: string; readonly document: unknown; readonly file: string }[];
}

export interface DesiredQueue {
  readonly name: string;
  readonly arn: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** The queue's resource policy, from rendered/iam. */
  readonly policy: unknown;
  readonly policySource: string;
  readonly rules: readonly { readonly name: string; readonly description: string; readonly pattern: string }[];
}

export interface Desired {
  readonly config: ClusterConfig;
  readonly roles: readonly DesiredRole[];
  readonly queue: DesiredQueue | undefined;
}

/** A problem with rendered/iam; names the file and the field. */
export class RenderedIamError extends Error {
  override name = "RenderedIamError";
}

/** Target id every interruption rule uses for the queue. */
export const QUEUE_TARGET_ID = "KarpenterInterruptionQueueTarget";

/** Reads clusters/<name>/rendered/iam/index.json and the documents it lists. */
export function readDesired(root: string, config: ClusterConfig): Desired {
  const dir = join(root, CLUSTERS_DIR, config.name, RENDERED_DIR, COMPONENTS.iam);
  const shown = (f: string) => relative(root, join(dir, f));
  const indexPath = join(dir, IAM_INDEX_FILE);
  if (!existsSync(indexPath)) {
    throw new RenderedIamError(`${shown(IAM_INDEX_FILE)}: missing; run \`${SYNTH_COMMAND} --cluster ${config.name}\` first`);
  }
  const readJson = (file: string, from: string): unknown => {
    const p = join(dir, file);
    if (file.includes("/") || file.includes("\\") || !existsSync(p)) {
      throw new RenderedIamError(`${shown(IAM_INDEX_FILE)}: ${from}: file '${file}' is not in ${relative(root, dir)}; run \`${SYNTH_COMMAND} --cluster ${config.name}\``);
    }
    try {
      return JSON.parse(readFileSync(p, "utf8"));
    } catch (err) {
      throw new RenderedIamError(`${shown(file)}: not valid JSON: ${(err as Error).message}`);
    }
  };
  const index = readJson(IAM_INDEX_FILE, "(root)") as IamIndex;
  if (!Array.isArray(index.roles)) throw new RenderedIamError(`${shown(IAM_INDEX_FILE)}: roles: must be a list`);

  const roles = index.roles.map((r, i): DesiredRole => {
    const at = `roles[${i}]`;
    for (const key of ["name", "arn", "trustPolicyFile"] as const) {
      if (typeof r[key] !== "string") throw new RenderedIamError(`${shown(IAM_INDEX_FILE)}: ${at}.${key}: must be a string`);
    }
    return {
      name: r.name,
      arn: r.arn,
      description: r.description ?? "",
      trustPolicy: readJson(r.trustPolicyFile, `${at}.trustPolicyFile`),
      managedPolicyArns: [...(r.managedPolicyArns ?? [])],
      inlinePolicies: (r.inlinePolicies ?? []).map((p: { name: string; file: string }, j: number) => ({
        name: p.name,
        file: p.file,
        document: readJson(p.file, `${at}.inlinePolicies[${j}].file`),
      })),
      customerManagedPolicies: (r.customerManagedPolicies ?? []).map((p: { name: string; arn: string; file: string }, j: number) => ({
        name: p.name,
        arn: p.arn,
        file: p.file,
        document: readJson(p.file, `${at}.customerManagedPolicies[${j}].file`),
      })),
    };
  });
  for (const want of [config.nodeRole, config.controllerRole]) {
    const role = roles.find((r) => r.name === want.name);
    if (!role) throw new RenderedIamError(`${shown(IAM_INDEX_FILE)}: roles: no role '${want.name}'; run \`${SYNTH_COMMAND} --cluster ${config.name}\``);
    if (role.arn !== want.arn) throw new RenderedIamError(`${shown(IAM_INDEX_FILE)}: role ${want.name}: arn is '${role.arn}' but the overlay says '${want.arn}'; the rendered output is stale, run \`${SYNTH_COMMAND} --cluster ${config.name}\``);
  }

  const q = index.queue;
  const queueName = config.karpenter.interruptionQueue;
  if (queueName && !q) {
    throw new RenderedIamError(`${shown(IAM_INDEX_FILE)}: queue: missing, but the overlay enables the interruption queue '${queueName}'; run \`${SYNTH_COMMAND} --cluster ${config.name}\``);
  }
  if (q && q.name !== queueName) {
    throw new RenderedIamError(`${shown(IAM_INDEX_FILE)}: queue.name: is '${q.name}' but the overlay says ${queueName ? `'${queueName}'` : "no queue"}; run \`${SYNTH_COMMAND} --cluster ${config.name}\``);
  }
  const queue: DesiredQueue | undefined = q && {
    name: q.name,
    arn: q.arn,
    attributes: { ...q.attributes },
    policy: readJson(q.policyFile, "queue.policyFile"),
    policySource: shown(q.policyFile),
    rules: q.rules.map((r) => ({ name: r.name, description: r.description, pattern: JSON.stringify(r.eventPattern) })),
  };
  return { config, roles, queue };
}

// Pure planning: desired state vs discovered state -> an ordered list of changes ([+] [~] [-]) and notes.
import { DISCOVERY_TAG } from "@eks-gitops/config";
import type { Desired } from "./desired.ts";
import { QUEUE_TARGET_ID } from "./desired.ts";
import { type Actual, type ActualRole, effectiveAuthMode, usesAccessEntry } from "./discover.ts";
import { samePolicy } from "./policy-json.ts";
import { isManaged, managedTags, TAG_ADDED_DISCOVERY } from "./tags.ts";

export type Marker = "+" | "~" | "-";
export type Group = "iam" | "discovery-tags" | "node-identity" | "addons" | "interruption-queue";

/** One mutating step; `apply` runs exactly these, in order. */
export type Operation =
  | { readonly type: "createRole"; readonly role: string; readonly trustPolicy: unknown; readonly description: string; readonly tags: Readonly<Record<string, string>> }
  | { readonly type: "updateTrust"; readonly role: string; readonly trustPolicy: unknown }
  | { readonly type: "updateDescription"; readonly role: string; readonly description: string }
  | { readonly type: "attachPolicy" | "detachPolicy"; readonly role: string; readonly policyArn: string }
  | { readonly type: "putInlinePolicy"; readonly role: string; readonly name: string; readonly document: unknown }
  | { readonly type: "deleteInlinePolicy"; readonly role: string; readonly name: string }
  | { readonly type: "deleteRole"; readonly role: string }
  | { readonly type: "createPolicy"; readonly name: string; readonly document: unknown; readonly tags: Readonly<Record<string, string>> }
  | { readonly type: "createPolicyVersion"; readonly arn: string; readonly document: unknown; readonly deleteVersion: string | undefined }
  | { readonly type: "deletePolicy"; readonly arn: string; readonly otherVersions: readonly string[] }
  | { readonly type: "tagResource"; readonly id: string; readonly tags: Readonly<Record<string, string>> }
  | { readonly type: "untagResource"; readonly id: string; readonly keys: readonly string[] }
  | { readonly type: "createAccessEntry"; readonly principalArn: string; readonly tags: Readonly<Record<string, string>> }
  | { readonly type: "deleteAccessEntry"; readonly principalArn: string }
  | { readonly type: "awsAuthAddRole" | "awsAuthRemoveRole"; readonly roleArn: string }
  | { readonly type: "createPodIdentityAssociation"; readonly namespace: string; readonly serviceAccount: string; readonly roleArn: string; readonly tags: Readonly<Record<string, string>> }
  | { readonly type: "updatePodIdentityAssociation"; readonly associationId: string; readonly roleArn: string }
  | { readonly type: "deletePodIdentityAssociation"; readonly associationId: string }
  | { readonly type: "createAddon"; readonly name: string; readonly tags: Readonly<Record<string, string>> }
  | { readonly type: "deleteAddon"; readonly name: string }
  | { readonly type: "createQueue"; readonly name: string; readonly attributes: Readonly<Record<string, string>>; readonly tags: Readonly<Record<string, string>> }
  | { readonly type: "setQueueAttributes"; readonly url: string; readonly attributes: Readonly<Record<string, string>> }
  | { readonly type: "deleteQueue"; readonly url: string }
  | { readonly type: "putRule"; readonly name: string; readonly pattern: string; readonly description: string; readonly tags: Readonly<Record<string, string>> }
  | { readonly type: "putTarget"; readonly rule: string; readonly id: string; readonly arn: string }
  | { readonly type: "removeTarget"; readonly rule: string; readonly id: string }
  | { readonly type: "deleteRule"; readonly name: string };

export interface Change {
  readonly marker: Marker;
  readonly group: Group;
  /** What is changed, e.g. `iam role KarpenterNodeRole-eksworkshop`. */
  readonly resource: string;
  /** How, in a few words. */
  readonly detail: string;
  readonly op: Operation;
}

export interface Plan {
  readonly action: "apply" | "destroy";
  readonly cluster: string;
  readonly account: string;
  readonly region: string;
  readonly changes: readonly Change[];
  /** Things a person should know; they do not stop the run. */
  readonly notes: readonly string[];
  /** Reasons the run must not proceed; apply/destroy refuse while any is present. */
  readonly blockers: readonly string[];
}

/** What Kubernetes said (only read when the plan needs it). */
export interface KubeFacts {
  readonly server?: string;
  /** aws-auth ConfigMap: whether it maps the node role (undefined: not read). */
  readonly awsAuthHasNodeRole?: boolean;
  readonly nodeClaims?: number;
  /** Set when the API server could not be reached or read. */
  readonly error?: string;
}

export interface PlanOptions {
  /** Remove stray discovery tags on subnets/security groups outside the cluster VPC. */
  readonly fix?: boolean;
  /** Destroy even while NodeClaims exist. */
  readonly force?: boolean;
}

const roleRes = (name: string) => `iam role ${name}`;

/** Changes that make AWS match the overlay. Pure. */
export function planApply(desired: Desired, actual: Actual, kube: KubeFacts, options: PlanOptions = {}): Plan {
  const { config } = desired;
  const tags = managedTags(config);
  const changes: Change[] = [];
  const notes: string[] = [];
  const blockers: string[] = [];
  const add = (marker: Marker, group: Group, resource: string, detail: string, op: Operation) => changes.push({ marker, group, resource, detail, op });

  // IAM first: everything else refers to the roles.
  for (const want of desired.roles) {
    const have = actual.roles[want.name];
    const res = roleRes(want.name);
    if (!have) {
      add("+", "iam", res, `create with trust ${summarizeTrust(want.trustPolicy)}`, { type: "createRole", role: want.name, trustPolicy: want.trustPolicy, description: want.description, tags });
    } else {
      const ours = isManaged(have.tags, config.name);
      if (!ours) notes.push(`${res} exists and was not created by eks-gitops: apply keeps it up to date, destroy leaves it in place`);
      if (!samePolicy(have.trustPolicy, want.trustPolicy)) add("~", "iam", res, `update trust policy to ${summarizeTrust(want.trustPolicy)}`, { type: "updateTrust", role: want.name, trustPolicy: want.trustPolicy });
      if (have.description !== want.description) add("~", "iam", res, `set description '${want.description}'`, { type: "updateDescription", role: want.name, description: want.description });
    }
    // Customer managed policies exist before they are attached.
    for (const p of want.customerManagedPolicies) {
      const current = actual.customerPolicies[p.arn];
      const pres = `iam policy ${p.name}`;
      if (!current) add("+", "iam", pres, `create (${p.file})`, { type: "createPolicy", name: p.name, document: p.document, tags });
      else if (!samePolicy(current.document, p.document)) {
        // IAM keeps five versions at most: drop the oldest non-default one first when full.
        const deleteVersion = current.otherVersions.length >= 4 ? current.otherVersions[0] : undefined;
        add("~", "iam", pres, `new default version (${p.file})${deleteVersion ? `, deleting old version ${deleteVersion}` : ""}`, { type: "createPolicyVersion", arn: p.arn, document: p.document, deleteVersion });
      }
    }
    const attached = new Set(have?.managedPolicyArns ?? []);
    for (const arn of [...want.managedPolicyArns, ...want.customerManagedPolicies.map((p) => p.arn)]) {
      if (!attached.has(arn)) add("+", "iam", res, `attach ${arn}`, { type: "attachPolicy", role: want.name, policyArn: arn });
    }
    for (const p of want.inlinePolicies) {
      const current = have?.inlinePolicies[p.name];
      if (current === undefined) add("+", "iam", res, `put inline policy ${p.name} (${p.file})`, { type: "putInlinePolicy", role: want.name, name: p.name, document: p.document });
      else if (!samePolicy(current, p.document)) add("~", "iam", res, `update inline policy ${p.name} (${p.file})`, { type: "putInlinePolicy", role: want.name, name: p.name, document: p.document });
    }
    if (have) {
      const managed = [...want.managedPolicyArns, ...want.customerManagedPolicies.map((p) => p.arn)];
      removeExtras(have, want.name, managed, want.inlinePolicies.map((p) => p.name), isManaged(have.tags, config.name), add, notes);
    }
  }

  // Controller identity: IRSA needs the cluster's OIDC provider in IAM; Pod Identity needs an association.
  if (config.karpenter.identity === "irsa" && !actual.oidcProviderExists) {
    blockers.push(
      `iam oidc provider ${config.oidcProviderArn}: not found; the controller role's trust refers to it. Create it with \`eksctl utils associate-iam-oidc-provider --cluster ${config.name} --region ${config.region} --approve\``,
    );
  }
  if (config.karpenter.identity === "pod-identity") {
    const sa = `${config.karpenter.namespace}/${config.karpenter.serviceAccount}`;
    const res = `eks pod identity association ${sa}`;
    const current = actual.podIdentityAssociations[0];
    if (!current) {
      add("+", "iam", res, `associate with ${config.controllerRole.arn}`, {
        type: "createPodIdentityAssociation",
        namespace: config.karpenter.namespace,
        serviceAccount: config.karpenter.serviceAccount,
        roleArn: config.controllerRole.arn,
        tags,
      });
    } else if (current.roleArn !== config.controllerRole.arn) {
      add("~", "iam", res, `role ${current.roleArn} -> ${config.controllerRole.arn}`, { type: "updatePodIdentityAssociation", associationId: current.id, roleArn: config.controllerRole.arn });
    }
    if (!config.addons.includes("eks-pod-identity-agent")) notes.push("pod-identity: the eks-pod-identity-agent add-on must run in the cluster; add it to the overlay's addons unless it is installed another way");
  }

  // Discovery tags: only inside the cluster VPC; stray ones elsewhere are reported (and removed with --fix).
  const vpc = actual.cluster.vpcId;
  for (const r of actual.discoveryTargets) {
    const res = `ec2 ${r.kind} ${r.id}`;
    if (r.vpcId !== vpc) {
      notes.push(`${res} is in ${r.vpcId}, not the cluster VPC ${vpc}: not tagged`);
      continue;
    }
    const value = r.tags[DISCOVERY_TAG];
    if (value === config.name) continue;
    if (value !== undefined) {
      notes.push(`${res} has ${DISCOVERY_TAG}=${value} (another cluster); left unchanged, so Karpenter of ${config.name} will not use it`);
      continue;
    }
    add("+", "discovery-tags", res, `tag ${DISCOVERY_TAG}=${config.name}`, { type: "tagResource", id: r.id, tags: { [DISCOVERY_TAG]: config.name, [TAG_ADDED_DISCOVERY]: config.name } });
  }
  for (const r of actual.discoveryTagged) {
    if (r.vpcId === vpc) continue;
    const res = `ec2 ${r.kind} ${r.id}`;
    if (options.fix) {
      add("-", "discovery-tags", res, `remove stray ${DISCOVERY_TAG}=${config.name} (in ${r.vpcId}, outside the cluster VPC ${vpc})`, {
        type: "untagResource",
        id: r.id,
        keys: [DISCOVERY_TAG, ...(r.tags[TAG_ADDED_DISCOVERY] !== undefined ? [TAG_ADDED_DISCOVERY] : [])],
      });
    } else {
      notes.push(`stray tag: ${res} in ${r.vpcId} (outside the cluster VPC ${vpc}) has ${DISCOVERY_TAG}=${config.name}; Karpenter may launch nodes there. Run again with --fix to remove it`);
    }
  }

  // Node identity: an access entry when the authentication mode allows one, else aws-auth.
  const mode = effectiveAuthMode(config, actual);
  if (actual.cluster.authenticationMode === undefined) notes.push(`EKS did not report the cluster's authentication mode; using the overlay's ${config.authenticationMode}`);
  else if (actual.cluster.authenticationMode !== config.authenticationMode) {
    notes.push(`the cluster's authentication mode is ${actual.cluster.authenticationMode} but ${config.sourceFile} says ${config.authenticationMode}; using ${actual.cluster.authenticationMode}`);
  }
  if (usesAccessEntry(mode)) {
    const res = `eks access entry ${config.nodeRole.arn}`;
    if (!actual.accessEntry) add("+", "node-identity", res, "create, type EC2_LINUX", { type: "createAccessEntry", principalArn: config.nodeRole.arn, tags });
    else if (actual.accessEntry.type !== "EC2_LINUX") {
      blockers.push(`${res}: exists with type ${actual.accessEntry.type}, nodes need EC2_LINUX; delete it (aws eks delete-access-entry) and run again`);
    }
  } else if (kube.error !== undefined) {
    blockers.push(`aws-auth: authentication mode ${mode} maps nodes through the aws-auth ConfigMap, but ${kube.error}`);
  } else if (kube.awsAuthHasNodeRole === false) {
    add("+", "node-identity", "configmap kube-system/aws-auth", `add mapRoles entry for ${config.nodeRole.arn} (groups system:bootstrappers, system:nodes)`, {
      type: "awsAuthAddRole",
      roleArn: config.nodeRole.arn,
    });
  }

  for (const name of config.addons) {
    const a = actual.addons[name];
    if (!a) add("+", "addons", `eks add-on ${name}`, "create", { type: "createAddon", name, tags });
    else if (a.status !== "ACTIVE" && a.status !== "CREATING" && a.status !== "UPDATING") notes.push(`eks add-on ${name} is ${a.status}; check it with \`aws eks describe-addon --cluster-name ${config.name} --addon-name ${name}\``);
  }

  const q = desired.queue;
  if (q) {
    const res = `sqs queue ${q.name}`;
    const attributes = { ...q.attributes, Policy: JSON.stringify(q.policy) };
    if (!actual.queue) add("+", "interruption-queue", res, `create (policy: ${q.policySource})`, { type: "createQueue", name: q.name, attributes, tags });
    else {
      const differ = Object.keys(q.attributes).filter((k) => actual.queue!.attributes[k] !== q.attributes[k]);
      const policyDiffers = !samePolicy(actual.queue.policy, q.policy);
      if (differ.length > 0 || policyDiffers) {
        add("~", "interruption-queue", res, `set ${[...differ, ...(policyDiffers ? ["Policy"] : [])].join(", ")}`, { type: "setQueueAttributes", url: actual.queue.url, attributes });
      }
    }
    for (const rule of q.rules) {
      const have = actual.rules[rule.name];
      const res2 = `eventbridge rule ${rule.name}`;
      if (!have) add("+", "interruption-queue", res2, `create for ${JSON.parse(rule.pattern)["detail-type"][0]}`, { type: "putRule", name: rule.name, pattern: rule.pattern, description: rule.description, tags });
      else if (!samePattern(have.pattern, rule.pattern)) add("~", "interruption-queue", res2, "update event pattern", { type: "putRule", name: rule.name, pattern: rule.pattern, description: rule.description, tags });
      if (!have?.targets.some((t) => t.id === QUEUE_TARGET_ID && t.arn === q.arn)) {
        add("+", "interruption-queue", res2, `target ${q.arn}`, { type: "putTarget", rule: rule.name, id: QUEUE_TARGET_ID, arn: q.arn });
      }
    }
  }

  return { action: "apply", cluster: config.name, account: config.account, region: config.region, changes, notes, blockers };
}

/** The lab's cleanup in its safe order, limited to what the bootstrap created (by tag). Pure. */
export function planDestroy(desired: Desired, actual: Actual, kube: KubeFacts, options: PlanOptions = {}): Plan {
  const { config } = desired;
  const changes: Change[] = [];
  const notes: string[] = [];
  const blockers: string[] = [];
  const add = (marker: Marker, group: Group, resource: string, detail: string, op: Operation) => changes.push({ marker, group, resource, detail, op });
  const ours = (t: Readonly<Record<string, string>> | undefined) => isManaged(t, config.name);

  if (kube.error !== undefined) {
    if (!options.force) blockers.push(`cannot check for Karpenter NodeClaims: ${kube.error}; fix the kubeconfig or pass --force`);
    else notes.push(`NodeClaims not checked (${kube.error}); --force given`);
  } else if ((kube.nodeClaims ?? 0) > 0) {
    const msg = `${kube.nodeClaims} Karpenter NodeClaim(s) still exist in ${kube.server ?? "the cluster"}; delete the NodePools and EC2NodeClasses first and wait until \`kubectl get nodeclaims\` is empty`;
    if (options.force) notes.push(`${msg} (--force: destroying anyway)`);
    else blockers.push(`${msg}, or pass --force`);
  }

  // 1. Interruption handling: rules stop sending before the queue goes.
  if (desired.queue) {
    for (const rule of desired.queue.rules) {
      const have = actual.rules[rule.name];
      if (!have) continue;
      const res = `eventbridge rule ${rule.name}`;
      if (!ours(have.tags)) {
        notes.push(`${res} was not created by eks-gitops: left in place`);
        continue;
      }
      for (const t of have.targets) add("-", "interruption-queue", res, `remove target ${t.id}`, { type: "removeTarget", rule: rule.name, id: t.id });
      add("-", "interruption-queue", res, "delete", { type: "deleteRule", name: rule.name });
    }
    if (actual.queue) {
      if (ours(actual.queue.tags)) add("-", "interruption-queue", `sqs queue ${desired.queue.name}`, "delete", { type: "deleteQueue", url: actual.queue.url });
      else notes.push(`sqs queue ${desired.queue.name} was not created by eks-gitops: left in place`);
    }
  }

  // 2. Node identity mapping, before the node role disappears.
  const nodeRole = actual.roles[config.nodeRole.name];
  if (actual.accessEntry) {
    if (ours(actual.accessEntry.tags)) add("-", "node-identity", `eks access entry ${config.nodeRole.arn}`, "delete", { type: "deleteAccessEntry", principalArn: config.nodeRole.arn });
    else notes.push(`eks access entry ${config.nodeRole.arn} was not created by eks-gitops: left in place`);
  }
  if (kube.awsAuthHasNodeRole) {
    if (nodeRole && ours(nodeRole.tags)) {
      add("-", "node-identity", "configmap kube-system/aws-auth", `remove mapRoles entry for ${config.nodeRole.arn}`, { type: "awsAuthRemoveRole", roleArn: config.nodeRole.arn });
    } else notes.push(`aws-auth maps ${config.nodeRole.arn}, a role eks-gitops did not create: entry left in place`);
  }
  for (const a of actual.podIdentityAssociations) {
    if (ours(a.tags)) add("-", "iam", `eks pod identity association ${config.karpenter.namespace}/${config.karpenter.serviceAccount}`, "delete", { type: "deletePodIdentityAssociation", associationId: a.id });
  }

  // 3. Roles: the node role, then the controller role; policies off before the role goes.
  for (const name of [config.nodeRole.name, config.controllerRole.name]) {
    const have = actual.roles[name];
    if (!have) continue;
    const res = roleRes(name);
    if (!ours(have.tags)) {
      notes.push(`${res} was not created by eks-gitops: left in place`);
      continue;
    }
    if (have.instanceProfiles.length > 0) {
      blockers.push(`${res} is still in instance profile(s) ${have.instanceProfiles.join(", ")}; Karpenter removes them when the EC2NodeClasses are deleted`);
      continue;
    }
    for (const arn of have.managedPolicyArns) add("-", "iam", res, `detach ${arn}`, { type: "detachPolicy", role: name, policyArn: arn });
    for (const p of Object.keys(have.inlinePolicies).sort()) add("-", "iam", res, `delete inline policy ${p}`, { type: "deleteInlinePolicy", role: name, name: p });
    add("-", "iam", res, "delete", { type: "deleteRole", role: name });
  }

  // Customer managed policies, once no role of ours holds them.
  for (const p of desired.roles.flatMap((r) => r.customerManagedPolicies)) {
    const have = actual.customerPolicies[p.arn];
    if (!have) continue;
    if (ours(have.tags)) add("-", "iam", `iam policy ${p.name}`, "delete", { type: "deletePolicy", arn: p.arn, otherVersions: have.otherVersions });
    else notes.push(`iam policy ${p.name} was not created by eks-gitops: left in place`);
  }

  // 4. Discovery tags this project added (marked), on any VPC.
  const seen = new Set<string>();
  for (const r of [...actual.discoveryTargets, ...actual.discoveryTagged]) {
    if (seen.has(r.id) || r.tags[TAG_ADDED_DISCOVERY] !== config.name) continue;
    seen.add(r.id);
    add("-", "discovery-tags", `ec2 ${r.kind} ${r.id}`, `remove ${DISCOVERY_TAG}`, { type: "untagResource", id: r.id, keys: [DISCOVERY_TAG, TAG_ADDED_DISCOVERY] });
  }

  // 5. Add-ons it created.
  for (const name of config.addons) {
    const a = actual.addons[name];
    if (a && ours(a.tags)) add("-", "addons", `eks add-on ${name}`, "delete", { type: "deleteAddon", name });
    else if (a) notes.push(`eks add-on ${name} was not created by eks-gitops: left in place`);
  }

  return { action: "destroy", cluster: config.name, account: config.account, region: config.region, changes, notes, blockers };
}

function removeExtras(
  have: ActualRole,
  role: string,
  managed: readonly string[],
  inline: readonly string[],
  ours: boolean,
  add: (m: Marker, g: Group, r: string, d: string, op: Operation) => void,
  notes: string[],
): void {
  const res = roleRes(role);
  for (const arn of have.managedPolicyArns) {
    if (managed.includes(arn)) continue;
    if (ours) add("-", "iam", res, `detach ${arn} (not in rendered/iam)`, { type: "detachPolicy", role, policyArn: arn });
    else notes.push(`${res} also has ${arn} attached; left as it is (role not created by eks-gitops)`);
  }
  for (const name of Object.keys(have.inlinePolicies).sort()) {
    if (inline.includes(name)) continue;
    if (ours) add("-", "iam", res, `delete inline policy ${name} (not in rendered/iam)`, { type: "deleteInlinePolicy", role, name });
    else notes.push(`${res} also has inline policy ${name}; left as it is (role not created by eks-gitops)`);
  }
}

function samePattern(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  try {
    return samePolicy(JSON.parse(a), JSON.parse(b));
  } catch {
    return false;
  }
}

/** `Service ec2.amazonaws.com` / `Federated arn:...:oidc-provider/...` for the plan line. */
function summarizeTrust(doc: unknown): string {
  const st = (doc as { Statement?: { Principal?: Record<string, unknown> }[] }).Statement ?? [];
  const principals = st.flatMap((s) => Object.entries(s.Principal ?? {}).map(([k, v]) => `${k} ${[v].flat().join(",")}`));
  return principals.join("; ") || "(no principal)";
}

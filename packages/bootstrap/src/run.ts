// bootstrap(): load overlay and rendered IAM -> discover -> plan -> (confirm) -> execute, for plan|apply|destroy.
import { createInterface } from "node:readline/promises";
import { join } from "node:path";
import { loadCluster } from "@eks-gitops/config";
import { hasRole } from "./aws-auth.ts";
import { type AwsClients, type CallerRef, createAwsClients } from "./aws.ts";
import { type Desired, readDesired } from "./desired.ts";
import { type Actual, type DiscoveryProgress, discover, effectiveAuthMode } from "./discover.ts";
import { executePlan, type StepResult } from "./execute.ts";
import { type KubeAccess, kubeAccess } from "./kube.ts";
import { type KubeFacts, type Plan, planApply, planDestroy } from "./plan.ts";
import { ANSI, type Colors, formatPlan, formatStep, NO_COLOR, planJson } from "./report.ts";

export type Action = "plan" | "apply" | "destroy";

/**
 * ok: done (or nothing to do); blocked: the plan has blockers; declined: the person said no or no --yes
 * without a terminal; failed: a step failed (earlier steps stay done; a re-run continues).
 */
export type BootstrapStatus = "ok" | "blocked" | "declined" | "failed";

export interface BootstrapOptions {
  readonly root: string;
  readonly cluster: string;
  readonly action: Action;
  readonly yes?: boolean;
  readonly fix?: boolean;
  readonly force?: boolean;
  readonly output?: "text" | "json";
  /** Clients to use instead of the default ones (tests point them at an emulator). */
  readonly clients?: AwsClients;
  /** Kubernetes access instead of the kubeconfig's (tests). */
  readonly kube?: KubeAccess;
  readonly kubeconfig?: string;
  readonly context?: string;
  /** Where aws-auth backups go. @default `<root>/.cache/bootstrap/<cluster>` */
  readonly backupDir?: string;
  /** Asks the person; resolves true to go on. @default a prompt on the terminal */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** Whether stdin is a terminal. @default process.stdin.isTTY */
  readonly interactive?: boolean;
  readonly out?: (line: string) => void;
  readonly color?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** Called as discovery's reads finish (the CLI shows it on a terminal). */
  readonly onDiscoveryProgress?: (progress: DiscoveryProgress) => void;
}

export interface BootstrapResult {
  readonly status: BootstrapStatus;
  readonly plan: Plan;
  readonly results: readonly StepResult[];
  readonly error?: Error;
}

export async function bootstrap(options: BootstrapOptions): Promise<BootstrapResult> {
  const out = options.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const json = options.output === "json";
  const colors: Colors = options.color ? ANSI : NO_COLOR;
  const config = await loadCluster(options.root, options.cluster);
  const desired = readDesired(options.root, config);
  const caller: CallerRef = { arn: undefined };
  const clients = options.clients ?? createAwsClients({ region: config.region }, caller);
  const actual = await discover(clients, desired, caller, options.env ?? process.env, options.onDiscoveryProgress);

  let kube = options.kube;
  const needKube = options.action === "destroy" || effectiveAuthMode(config, actual) === "CONFIG_MAP";
  const facts: KubeFacts = needKube ? await kubeFacts(options, desired, actual, () => {
        kube ??= makeKube(options, config.name);
        return kube;
      }) : {};

  const plan = options.action === "destroy" ? planDestroy(desired, actual, facts, options) : planApply(desired, actual, facts, options);
  const finish = (status: BootstrapStatus, results: StepResult[] = [], error?: Error): BootstrapResult => {
    if (json) out(JSON.stringify(planJson(plan, options.action === "plan" ? undefined : results, status), null, 2));
    return { status, plan, results, ...(error ? { error } : {}) };
  };

  if (!json) for (const l of formatPlan(plan, colors)) out(l);
  if (plan.blockers.length > 0) return finish("blocked");
  if (options.action === "plan" || plan.changes.length === 0) return finish("ok");

  if (!options.yes) {
    const interactive = options.interactive ?? Boolean(process.stdin.isTTY);
    if (!interactive) {
      if (!json) out(`Refusing to ${options.action} without --yes: stdin is not a terminal, so nobody can confirm.`);
      return finish("declined");
    }
    const ask = options.confirm ?? promptYesNo;
    const ok = await ask(`${options.action === "destroy" ? "Destroy" : "Apply"} ${plan.changes.length} change(s) to cluster ${config.name} in account ${config.account}? [y/N] `);
    if (!ok) {
      if (!json) out("Nothing changed.");
      return finish("declined");
    }
  }

  if (!kube && needKube) kube = makeKube(options, config.name);
  const { results, error } = await executePlan(plan, {
    clients,
    cluster: config.name,
    ...(kube ? { kube } : {}),
    onStep: json ? undefined : (r) => out(formatStep(r, colors)),
  });
  if (error) {
    if (!json) out(`Stopped after ${results.length - 1} of ${plan.changes.length} change(s). Fix the cause and run \`pnpm bootstrap ${options.action} --cluster ${config.name}\` again; it continues from what exists.`);
    return finish("failed", results, error);
  }
  if (!json) out(`${options.action === "destroy" ? "Destroyed" : "Applied"}: ${results.length} change(s).`);
  return finish("ok", results);
}

function makeKube(options: BootstrapOptions, cluster: string): KubeAccess {
  return kubeAccess({
    backupDir: options.backupDir ?? join(options.root, ".cache", "bootstrap", cluster),
    ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}),
    ...(options.context ? { context: options.context } : {}),
  });
}

async function kubeFacts(options: BootstrapOptions, desired: Desired, actual: Actual, get: () => KubeAccess): Promise<KubeFacts> {
  let server: string | undefined;
  try {
    const kube = get();
    server = kube.server;
    const mode = effectiveAuthMode(desired.config, actual);
    const cm = mode === "API" ? undefined : await kube.readAwsAuth();
    const awsAuthHasNodeRole = mode === "API" ? undefined : hasRole(cm?.data, desired.config.nodeRole.arn);
    const nodeClaims = options.action === "destroy" ? await kube.countNodeClaims() : undefined;
    return { server, ...(awsAuthHasNodeRole !== undefined ? { awsAuthHasNodeRole } : {}), ...(nodeClaims !== undefined ? { nodeClaims } : {}) };
  } catch (err) {
    return { ...(server ? { server } : {}), error: (err as Error).message.split("\n")[0] };
  }
}

async function promptYesNo(question: string): Promise<boolean> {

  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

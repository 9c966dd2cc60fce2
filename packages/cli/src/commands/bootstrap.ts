// `eks-gitops bootstrap plan|apply|destroy --cluster NAME`: the AWS-only parts of the lab (see @eks-gitops/bootstrap).
import { AwsAuthFormatError, AwsCallError, bootstrap, DiscoveryRefusal, KubeCallError, KubeconfigError, RenderedIamError, type Action } from "@eks-gitops/bootstrap";
import { parseCommandArgs, pickSubcommand } from "../args.ts";
import { colorEnabled } from "../color.ts";
import { EXIT, exitCodeHelp, UsageError } from "../exit-codes.ts";
import { discoveryProgress, progressLine } from "../progress.ts";
import { findRepoRoot } from "../repo.ts";

export const bootstrapUsage = `Usage: eks-gitops bootstrap plan|apply|destroy --cluster NAME [options]

  plan      show what would change ([+] add, [~] change, [-] remove); makes no change
  apply     create or update the roles, tags, node identity, add-ons and interruption queue
  destroy   remove what apply created, in the lab's safe order

  --cluster NAME      the overlay (clusters/NAME/cluster.ts) and its rendered/iam
  --yes               do not ask for confirmation (required when stdin is not a terminal)
  --fix               also remove stray discovery tags on subnets/security groups outside the cluster VPC
  --force             destroy even while Karpenter NodeClaims exist
  -o, --output text|json
                      output format (default text)
  --kubeconfig FILE   kubeconfig for aws-auth and NodeClaims (default KUBECONFIG or ~/.kube/config)
  --context NAME      kubeconfig context
  --root DIR          repository root (default: found from the current directory)

AWS credentials come from the standard provider chain; endpoints from AWS_ENDPOINT_URL and
AWS_ENDPOINT_URL_<SERVICE>.

${exitCodeHelp("bootstrap")}`;

const ACTIONS: readonly Action[] = ["plan", "apply", "destroy"];

export async function bootstrapCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs("bootstrap", argv, {
    options: {
      cluster: { type: "string" },
      yes: { type: "boolean", default: false },
      fix: { type: "boolean", default: false },
      force: { type: "boolean", default: false },
      output: { type: "string", short: "o", default: "text" },
      kubeconfig: { type: "string" },
      context: { type: "string" },
      root: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(`${bootstrapUsage}\n`);
    return EXIT.ok;
  }
  const action = pickSubcommand("bootstrap", positionals[0], ACTIONS, bootstrapUsage);
  if (positionals.length > 1) throw new UsageError(`bootstrap ${positionals.slice(1).join(" ")}: unexpected argument; bootstrap takes one of ${ACTIONS.join(", ")}, e.g. \`pnpm bootstrap plan --cluster eksworkshop\``);
  if (!values.cluster) throw new UsageError(`bootstrap ${action} needs --cluster NAME, e.g. \`pnpm bootstrap ${action} --cluster eksworkshop\``);
  if (values.output !== "text" && values.output !== "json") throw new UsageError(`--output must be text or json, not '${values.output}'`);
  if (values.force && action !== "destroy") throw new UsageError("--force only applies to destroy");

  const discovery = discoveryProgress(progressLine());
  try {
    const result = await bootstrap({
      root: values.root ?? findRepoRoot(),
      cluster: values.cluster,
      action,
      yes: values.yes,
      fix: values.fix,
      force: values.force,
      output: values.output,
      color: values.output === "text" && colorEnabled(),
      ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}),
      ...(values.context ? { context: values.context } : {}),
      onDiscoveryProgress: discovery.onProgress,
    }).finally(discovery.finish);
    if (result.status === "failed") {
      process.stderr.write(`eks-gitops bootstrap: ${result.error?.message ?? "a step failed"}\n`);
      return exitCodeOf(result.error);
    }
    return result.status === "ok" ? EXIT.ok : EXIT.invalid;
  } catch (err) {
    if (err instanceof DiscoveryRefusal) {
      if (values.output === "json") process.stdout.write(`${JSON.stringify({ action, cluster: values.cluster, status: "refused", problems: err.problems }, null, 2)}\n`);
      process.stderr.write(`${err.problems.map((p) => `eks-gitops bootstrap: refusing: ${p}`).join("\n")}\nnothing was changed.\n`);
      return EXIT.usage;
    }
    if (err instanceof RenderedIamError) {
      process.stderr.write(`eks-gitops bootstrap: ${err.message}\n`);
      return EXIT.usage;
    }
    const code = exitCodeOf(err);
    if (code === EXIT.internal) throw err;
    process.stderr.write(`eks-gitops bootstrap: ${(err as Error).message}\n`);
    return code;
  }
}

/**
 * The exit code of a failed call. The rule (../exit-codes.ts): what the user sets up (credentials,
 * permissions, kubeconfig, endpoints) is 2; an AWS or Kubernetes API that fails or cannot be reached is 4
 * (not our fault, nothing to set: run again); an aws-auth ConfigMap we refuse to edit is 1; anything else 3.
 */
export function exitCodeOf(err: unknown): number {
  if (err instanceof AwsCallError) return err.setup || err.accessDenied ? EXIT.usage : EXIT.external;
  if (err instanceof KubeCallError) return err.setup ? EXIT.usage : EXIT.external;
  if (err instanceof KubeconfigError) return EXIT.usage;
  if (err instanceof AwsAuthFormatError) return EXIT.invalid;
  return EXIT.internal;
}

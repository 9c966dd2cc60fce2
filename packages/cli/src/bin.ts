// Entry point of the eks-gitops command: dispatches to a subcommand and maps errors to exit codes.
// the errors module alone: importing the package index would load the overlay checks (zod) on every start
import { ConfigError } from "@eks-gitops/config/errors";
import { closestName } from "./args.ts";
import { colorEnabled } from "./color.ts";
import { EXIT, UsageError } from "./exit-codes.ts";
import { startReadAhead, takeLauncherReadAhead } from "./read-ahead.ts";
import cliPackage from "../package.json" with { type: "json" };

type Command = (argv: readonly string[]) => Promise<number>;

// Commands load on first use: cdk8s, the schema engine and the AWS SDK are each slow to import,
// and a command should only pay for what it uses.
const COMMANDS: Record<string, { run: Command; summary: string }> = {
  synth: { run: async (argv) => (await import("./commands/synth.ts")).synthCommand(argv), summary: "render overlays into clusters/<name>/rendered (--check to compare)" },
  validate: {
    // the read-ahead worker starts first: it loads on the other CPU while the validator loads here
    run: async (argv) => {
      // started by the launcher already, before this bundle loaded (bin/bundle.js), unless it could not
      return (await import("./commands/validate.ts")).validateCommand(argv, takeLauncherReadAhead() ?? startReadAhead(argv));
    },
    summary: "validate rendered output (or any YAML/JSON) as the API server would, plus cross-object checks",
  },
  diff: { run: async (argv) => (await import("./commands/diff.ts")).diffCommand(argv), summary: "rendered-output diff between two revisions (--base REF, --output text|markdown|json)" },
  capacity: { run: async (argv) => (await import("./commands/capacity.ts")).capacityCommand(argv), summary: "refresh: write a region's instance-type snapshot (clusters/<name>/capacity) from EC2" },
  simulate: { run: async (argv) => (await import("./commands/simulate.ts")).simulateCommand(argv), summary: "what HPA and Karpenter will do: nodes, NodeClaims and Pending pods, offline" },
  bootstrap: { run: async (argv) => (await import("./commands/bootstrap.ts")).bootstrapCommand(argv), summary: "plan|apply|destroy the AWS-only parts (IAM roles, tags, node identity, add-ons)" },
};

const usage = () =>
  `Usage: eks-gitops <command> [options]\n\nCommands:\n${Object.entries(COMMANDS)
    .map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`)
    .join("\n")}\n  ${"help".padEnd(10)} this list; 'help <command>' shows a command's options and exit codes\n\nOptions: -h, --help; -V, --version\nRun 'eks-gitops help <command>' (or 'eks-gitops <command> --help') for a command's options.\nExit codes of every command: 0 ok, 1 invalid or stale, 2 bad usage or configuration, 3 internal fault,\n4 an external service (AWS, Kubernetes API) failed: each command's help says what they mean there.`;

/** `valdiate` -> `validate`, `--verison` -> `--version`: the closest command or top-level option, if near. */
function closestCommand(typed: string): string | undefined {
  if (typed.startsWith("-")) {
    const near = closestName(typed.replace(/^-+/, ""), ["help", "version"]);
    return near && `--${near}`;
  }
  return closestName(typed, [...Object.keys(COMMANDS), "help"]);
}

function unknownCommand(name: string): number {
  const near = closestCommand(name);
  process.stderr.write(`eks-gitops: unknown ${name.startsWith("-") ? "option" : "command"} '${name}'${near ? `; did you mean '${near}'?` : ""}\n${usage()}\n`);
  return EXIT.usage;
}

/** `eks-gitops help [command]`: the list of commands, or the command's own --help. */
async function help(args: readonly string[]): Promise<number> {
  const [name] = args;
  if (name === undefined || name === "help") {
    process.stdout.write(`${usage()}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) return unknownCommand(name);
  return command.run(["--help"]);
}

/**
 * The AWS SDK prints a 7-line NodeVersionSupportWarning on Node < 22 when its first client is made (capacity refresh,
 * bootstrap). Node 20 is supported here (engines >=20.19), so users have nothing to act on: the SDK's own switch,
 * read when a client is constructed, turns it off. A value the user set is kept.
 */
export function quietDependencyBanners(env: NodeJS.ProcessEnv = process.env): void {
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
}

/** Runs one command line; returns the exit code. Never throws. */
export async function main(argv: readonly string[]): Promise<number> {
  quietDependencyBanners();
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-V") {
    process.stdout.write(`eks-gitops ${cliPackage.version}\n`);
    return EXIT.ok;
  }
  const command = name === "help" ? { run: help } : COMMANDS[name];
  if (!command) return unknownCommand(name);
  try {
    return await command.run(rest);
  } catch (err) {
    return await reportError(err, name);
  }
}

async function reportError(err: unknown, command: string): Promise<number> {
  if (err instanceof ConfigError) {
    // commands with --output (synth, validate) report a bad overlay in their own format; the rest as text. Only
    // synth writes files from an overlay; the others stop before they act (simulate, diff, bootstrap, ...)
    const { formatConfigError } = await import("./overlay-report.ts");
    const outcome = command === "synth" ? "nothing was written" : "nothing was done";
    const { stdout, stderr } = await formatConfigError(err, "text", colorEnabled(process.stderr), outcome);
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    return EXIT.usage;
  }
  // Matched by name so that reporting an error does not import the packages that define them.
  if (err instanceof Error && (err.name === "SynthValidationError" || err.name === "PolicySizeError")) {
    process.stderr.write(`${err.message}\nnothing was written.\n`);
    return EXIT.usage;
  }
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    process.stderr.write(`eks-gitops: ${(err as Error).message}\n`);
    return EXIT.usage;
  }
  process.stderr.write(`eks-gitops: internal error: ${(err as Error).stack ?? String(err)}\n`);
  return EXIT.internal;
}

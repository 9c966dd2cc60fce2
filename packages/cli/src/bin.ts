// Entry point of the eks-gitops command: dispatches to a subcommand and maps errors to exit codes.
import { ConfigError } from "@eks-gitops/config";
import { SynthValidationError } from "@eks-gitops/manifests";
import { PolicySizeError } from "@eks-gitops/policies";
import { bootstrapCommand } from "./commands/bootstrap.ts";
import { diffCommand } from "./commands/diff.ts";
import { synthCommand } from "./commands/synth.ts";
import { validateCommand } from "./commands/validate.ts";
import { EXIT, UsageError } from "./exit-codes.ts";

type Command = (argv: readonly string[]) => Promise<number>;

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  synth: { run: synthCommand, summary: "render overlays into clusters/<name>/rendered (--check to compare)" },
  validate: { run: validateCommand, summary: "validate rendered output (or any YAML/JSON) as the API server would, plus cross-object checks" },
  diff: { run: diffCommand, summary: "rendered-output diff between two revisions (--base REF, --output text|markdown|json)" },
  bootstrap: { run: bootstrapCommand, summary: "plan|apply|destroy the AWS-only parts (IAM roles, tags, node identity, add-ons)" },
};

const usage = () =>
  `Usage: eks-gitops <command> [options]\n\nCommands:\n${Object.entries(COMMANDS)
    .map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`)
    .join("\n")}\n\nRun 'eks-gitops <command> --help' for a command's options.`;

/** Runs one command line; returns the exit code. Never throws. */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`eks-gitops: unknown command '${name}'\n${usage()}\n`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    return reportError(err);
  }
}

function reportError(err: unknown): number {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n${err.problems.length} problem(s) in ${err.file}; nothing was written.\n`);
    return EXIT.usage;
  }
  if (err instanceof SynthValidationError || err instanceof PolicySizeError) {
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

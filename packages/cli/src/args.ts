// Command-line parsing for every command: node:util's parseArgs, with its errors rewritten as ours (exit 2),
// naming the command, suggesting the closest option ("did you mean --check?") and where the help is.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { distance } from "fastest-levenshtein";
import { UsageError } from "./exit-codes.ts";

/** The name among `names` closest to `typed` (`valdiate` -> `validate`), when it is close enough to be a typo. */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of [...names].sort()) {
    const d = distance(typed, name);
    if (!best || d < best.d) best = { name, d };
  }
  // a typo: one edit in a short name, else two (a swapped pair counts two) or a third of the letters;
  // `--bsae` is `--base`, `--outptu` is `--output`, `--x` is not `--root`
  const limit = typed.length <= 3 ? 1 : Math.max(2, Math.floor(typed.length / 3));
  return best && best.d <= limit ? best.name : undefined;
}

/** The known option closest to `typed` (`--chek` -> `--check`), when it is close enough to be a typo. */
export function closestOption(typed: string, options: Readonly<Record<string, unknown>>): string | undefined {
  const near = closestName(typed.replace(/^-+/, "").split("=")[0] ?? "", Object.keys(options));
  return near === undefined ? undefined : `--${near}`;
}

/**
 * The subcommand `typed` of `command` (`capacity refresh`, `bootstrap plan`): a UsageError with the
 * list of subcommands when it is missing, and a did-you-mean when it is unknown.
 */
export function pickSubcommand<T extends string>(command: string, typed: string | undefined, subcommands: readonly T[], usage: string): T {
  if (typed !== undefined && (subcommands as readonly string[]).includes(typed)) return typed as T;
  const list = subcommands.map((s) => `'${s}'`).join(", ");
  if (typed === undefined || typed.startsWith("-")) throw new UsageError(`${command} needs a subcommand: ${list}\n${usage}`);
  const near = closestName(typed, subcommands);
  throw new UsageError(`${command} ${typed}: unknown subcommand${near ? `; did you mean '${near}'?` : ""} (expected ${list}; eks-gitops help ${command} lists them)`);
}

/** The option named in a parseArgs error message (`Unknown option '--chek'`). */
const quoted = (message: string) => /'(-[^']*)'/.exec(message)?.[1] ?? "";

/**
 * parseArgs for `eks-gitops <command>`: strict, and every mistake a UsageError such as
 * `synth --chek: unknown option; did you mean --check? (eks-gitops synth --help lists the options)`.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(command: string, argv: readonly string[], config: T): ReturnType<typeof parseArgs<T>> {
  const help = `eks-gitops ${command} --help lists the options`;
  try {
    return parseArgs<T>({ ...config, args: [...argv], strict: true });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const message = (err as Error).message;
    const options = config.options ?? {};
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const typed = quoted(message);
      const near = closestOption(typed, options);
      throw new UsageError(`${command} ${typed}: unknown option${near ? `; did you mean ${near}?` : ""} (${help})`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      // "Option '--cluster <value>' argument missing" or "Option '--check' does not take an argument"
      const typed = /'(--?[\w-]+)/.exec(message)?.[1] ?? "";
      const takesValue = options[typed.replace(/^-+/, "")]?.type === "string" || Object.values(options).some((o) => `-${o.short}` === typed && o.type === "string");
      throw new UsageError(`${command} ${typed}: ${takesValue ? "needs a value" : "takes no value"} (${help})`);
    }
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      throw new UsageError(`${command} ${/'([^']*)'/.exec(message)?.[1] ?? ""}: unexpected argument; ${command} takes options only (${help})`);
    }
    throw err;
  }
}

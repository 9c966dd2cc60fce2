// Exit codes of every eks-gitops command: one table, printed by each command's --help and by the README.
export const EXIT = {
  ok: 0,
  /** Something is invalid or stale (validation findings, --check differences, diff --exit-code differences). */
  invalid: 1,
  /** Bad command line or configuration: overlay, kubeconfig, AWS credentials, permissions, an endpoint that is not the service. */
  usage: 2,
  /** A fault of eks-gitops itself (a bug): never the environment's. */
  internal: 3,
  /**
   * An external service (an AWS API, the Kubernetes API) failed or could not be reached after retries.
   * Not ours (so not 3) and nothing in the command line or configuration to fix (so not 2): run it again later.
   */
  external: 4,
} as const;

/** What each code means for every command (each command's --help says what it means there); the README's table. */
export const EXIT_SUMMARY: Readonly<Record<keyof typeof EXIT, string>> = {
  ok: "ok",
  invalid: "findings or stale: invalid output, `--check` differences, `diff --exit-code` differences, a refused bootstrap plan",
  usage: "bad usage or configuration: options, overlay, kubeconfig, AWS credentials or permissions, an endpoint that is not the service",
  internal: "internal fault of eks-gitops (a bug: please report it); never the environment's",
  external: "an AWS or Kubernetes API call failed or timed out (not a setting to fix: run again later)",
};

/** The README's exit-code table (checked against it by exit-codes.test.ts). */
export function exitCodeTable(): string {
  const rows = (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((k) => `| \`${EXIT[k]}\` | ${EXIT_SUMMARY[k]} |`);
  return ["| code | meaning |", "|---|---|", ...rows].join("\n");
}

/** A bad command line; the message says what to type instead. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** What each exit code means for one command; codes a command never returns are absent. */
export type ExitMeanings = Readonly<Partial<Record<keyof typeof EXIT, string>>>;

const USAGE = "bad usage or configuration";
const INTERNAL = "internal fault of eks-gitops (a bug: please report it)";
const EXTERNAL = "an AWS or Kubernetes API call failed or timed out (not a setting to fix: run again later)";

/** The table: for each command, what each code it can return means there. */
export const EXIT_CODES: Readonly<Record<string, ExitMeanings>> = {
  synth: {
    ok: "written, or up to date",
    invalid: "the render is invalid (nothing written), or --check: the committed output is stale",
    usage: `${USAGE}: a bad overlay, missing schemas, the output folder locked by a live synth or not writable`,
    internal: INTERNAL,
  },
  validate: {
    ok: "every resource valid",
    invalid: "something invalid or unreadable",
    usage: `${USAGE}: a bad option, a catalog file missing or not matching its SHA-256 pin, a --from-cluster kubeconfig that cannot be used or whose credentials are refused`,
    internal: INTERNAL,
    external: `--from-cluster: ${EXTERNAL}`,
  },
  diff: {
    ok: "compared (with --exit-code: no differences)",
    invalid: "with --exit-code: the rendered output differs",
    usage: `${USAGE}: an unknown revision, not a git repository`,
    internal: INTERNAL,
  },
  "capacity refresh": {
    ok: "written, or unchanged",
    invalid: "--check: a committed snapshot differs from EC2's answer",
    usage: `${USAGE}: no or refused AWS credentials, a missing permission, an endpoint that is not EC2`,
    internal: INTERNAL,
    external: `${EXTERNAL}, or EC2 answered no offerings for the region`,
  },
  simulate: {
    ok: "every pod can run",
    invalid: "a pod can never run (too big, nothing matches)",
    usage: `${USAGE}: a bad overlay, a missing snapshot, --from-cluster without a usable kubeconfig`,
    internal: INTERNAL,
    external: `--from-cluster: ${EXTERNAL}`,
  },
  bootstrap: {
    ok: "done (or plan: shown)",
    invalid: "refused (the plan's [x] reasons) or not confirmed",
    usage: `${USAGE}: the overlay does not match the account/region/cluster, no credentials or kubeconfig, a missing permission, an endpoint that is not AWS or Kubernetes`,
    internal: INTERNAL,
    external: EXTERNAL,
  },
};

/** The "Exit codes:" block of a command's --help. */
export function exitCodeHelp(command: string): string {
  const meanings = EXIT_CODES[command];
  if (!meanings) throw new Error(`no exit-code table for ${command}`);
  const lines = (Object.keys(EXIT) as (keyof typeof EXIT)[]).flatMap((k) => (meanings[k] ? [`  ${EXIT[k]}  ${meanings[k]}`] : []));
  return `Exit codes:\n${lines.join("\n")}`;
}

// Exit codes of every eks-gitops command.
export const EXIT = {
  ok: 0,
  /** Something is invalid or stale (validation findings, --check differences). */
  invalid: 1,
  /** Bad command line or bad overlay. */
  usage: 2,
  /** A bug or an environment failure. */
  internal: 3,
} as const;

/** A bad command line; the message says what to type instead. */
export class UsageError extends Error {
  override name = "UsageError";
}

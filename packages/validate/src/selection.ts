// Choosing what runs: which checks (schema, cel, native, cross-object, iam), which kinds are skipped or
// rejected (kubeconform's -skip/-reject), which files are not read, and whether a missing schema is an error.
import { shownPath } from "./shown-path.ts";
import type { Finding, ParsedResource } from "./types.ts";

/** Every check stage, in pipeline order. `native` is the API server's hand-written validation of built-in kinds. */
export const CHECKS = ["schema", "cel", "native", "cross-object", "iam"] as const;
export type Check = (typeof CHECKS)[number];

export interface Selection {
  /** Kinds to skip: `KIND`, `GROUP/KIND` or `GROUP/VERSION/KIND` (core: `v1/Pod`). Skipped = status `skipped`. */
  readonly skip?: readonly string[];
  /** Kinds that must not appear (same forms): such a document is an `error`. */
  readonly reject?: readonly string[];
  /** A document whose kind has no schema is `skipped` (with a warning) instead of an `error`. @default false */
  readonly ignoreMissingSchemas?: boolean;
  /** Regular expressions; files whose path (relative to the working folder, `/`-separated) matches one are not read. */
  readonly ignoreFilenamePatterns?: readonly string[];
  /** The checks to run. @default all of CHECKS */
  readonly checks?: readonly Check[];
}

/** A usage problem in a selection (bad pattern, unknown check); the CLI exits 2. */
export class SelectionError extends Error {
  override name = "SelectionError";
}

/** Parses `schema,cel` (or a list) into checks; an unknown name is a SelectionError with a suggestion. */
export function parseChecks(values: readonly string[], source = "--checks"): Check[] {
  const out: Check[] = [];
  for (const raw of values.flatMap((v) => v.split(","))) {
    const name = raw.trim();
    if (name === "") continue;
    if (!(CHECKS as readonly string[]).includes(name)) throw new SelectionError(`${source}: unknown check '${name}' (checks: ${CHECKS.join(", ")})`);
    if (!out.includes(name as Check)) out.push(name as Check);
  }
  return out;
}

/** Splits repeatable, comma-separated kind lists (`--skip A,B --skip C`). */
export const splitList = (values: readonly string[] | undefined): string[] => (values ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");

/**
 * A kind pattern as kubeconform takes them (`Kind`, or `apiVersion/Kind`) plus `group/Kind` (any version):
 * `NodePool`, `karpenter.sh/NodePool`, `karpenter.sh/v1/NodePool`, `v1/ConfigMap`, `apps/Deployment`.
 */
function kindPattern(pattern: string): (apiVersion: string, kind: string) => boolean {
  const parts = pattern.split("/");
  const kind = parts.at(-1) ?? "";
  if (parts.length === 1) return (_, k) => k === kind;
  const prefix = parts.slice(0, -1).join("/");
  if (parts.length === 3) return (a, k) => k === kind && a === prefix;
  // one prefix segment: a group (`apps`, `karpenter.sh`) or a core version (`v1`)
  return (a, k) => k === kind && (a === prefix || a.startsWith(`${prefix}/`));
}

/** The first pattern of `patterns` matching a document's apiVersion and kind, or undefined. */
export function kindMatcher(patterns: readonly string[]): (apiVersion: string, kind: string) => string | undefined {
  const compiled = patterns.map((p) => {
    if (p.split("/").length > 3 || p.endsWith("/")) throw new SelectionError(`kind pattern '${p}': use KIND, GROUP/KIND or GROUP/VERSION/KIND`);
    return { p, test: kindPattern(p) };
  });
  return (apiVersion, kind) => compiled.find((c) => c.test(apiVersion, kind))?.p;
}

/** A filter for file paths; an invalid regular expression is a SelectionError naming it. */
export function fileFilter(patterns: readonly string[], cwd: string): (path: string) => boolean {
  const regexes = patterns.map((p) => {
    try {
      return new RegExp(p);
    } catch (err) {
      throw new SelectionError(`--ignore-filename-pattern ${p}: not a regular expression (${(err as Error).message})`);
    }
  });
  if (regexes.length === 0) return () => true;
  return (path) => {
    if (path === "-") return true;
    // the path as reports show it (shown-path.ts: node:path only when the path is not normalised)
    const shown = shownPath(cwd, path);
    return !regexes.some((r) => r.test(shown));
  };
}

/** What happens to one document before any schema is looked up. */
export type Verdict = { readonly status: "skipped"; readonly findings: Finding[] } | { readonly status: "error"; readonly findings: Finding[] } | undefined;

/** The compiled selection the pipeline applies to each document. */
export interface CompiledSelection {
  readonly checks: ReadonlySet<Check>;
  readonly ignoreMissingSchemas: boolean;
  /** skipped / rejected before validation, or undefined to validate. */
  readonly verdict: (r: Pick<ParsedResource, "apiVersion" | "kind">) => Verdict;
}

export function compileSelection(selection: Selection = {}): CompiledSelection {
  const skip = kindMatcher(selection.skip ?? []);
  const reject = kindMatcher(selection.reject ?? []);
  return {
    checks: new Set(selection.checks ?? CHECKS),
    ignoreMissingSchemas: selection.ignoreMissingSchemas === true,
    verdict: (r) => {
      const rejected = reject(r.apiVersion, r.kind);
      if (rejected !== undefined) {
        return { status: "error", findings: [{ severity: "error", path: "/kind", message: `${r.apiVersion} ${r.kind} is rejected by --reject ${rejected}`, rule: `reject:${rejected}` }] };
      }
      if (skip(r.apiVersion, r.kind) !== undefined) return { status: "skipped", findings: [] };
      return undefined;
    },
  };
}

// `eks-gitops validate`: check rendered output (or any Kubernetes YAML/JSON) as the API server would, plus cross-object checks.
import { existsSync, readdirSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { ReadAheadStart } from "../read-ahead.ts";
import { CLUSTERS_DIR, RENDERED_DIR } from "@eks-gitops/config/layout";
import { ConfigError } from "@eks-gitops/config/errors";
import { reportConfigError } from "../overlay-report.ts";
import {
  CatalogError,
  CHECKS,
  type Check,
  ClusterSchemaError,
  CONFIG_FILE,
  loadValidateDefaults,
  mergeSelection,
  MIRROR_ENV,
  OUTPUT_FORMATS,
  type OutputFormat,
  parseChecks,
  RunUsageError,
  runValidation,
  SelectionError,
  splitList,
  writeReport,
} from "@eks-gitops/validate";
import { parseCommandArgs } from "../args.ts";
import { codeCacheCheckpoint } from "../code-cache.ts";
import { colorEnabled } from "../color.ts";
import { EXIT, exitCodeHelp, UsageError } from "../exit-codes.ts";
import { progressLine, schemaDownloadProgress } from "../progress.ts";
import { findRepoRoot } from "../repo.ts";
import { lockRenderedWaiting } from "../swap.ts";
import { VALIDATE_OPTIONS } from "./validate-options.ts";

export const validateUsage = `Usage: eks-gitops validate [paths...] [options]

Validates Kubernetes YAML/JSON as the API server does on create (OpenAPI schema, defaults, unknown
fields, CEL rules) and runs the cross-object checks. Paths are files, folders (recursive) or '-' for
stdin; with none, every clusters/<name>/rendered/ folder.

Schemas, first match wins:
  --crd FILE|DIR       CRD YAML/JSON or JSON Schema files (repeatable)
  (CRDs among the validated documents)
  --from-cluster       CRDs and /openapi/v3 of the current kubeconfig context
  (the pinned catalog: Kubernetes, Karpenter and Argo CD versions of each overlay)
  --mirror DIR|URL     read catalog files from a mirror of the upstream URLs (env ${MIRROR_ENV})
  --cache-dir DIR      catalog cache (default: $XDG_CACHE_HOME/eks-gitops/schemas or ~/.cache/eks-gitops/schemas)
  --kubernetes-version V, --karpenter-version V
                       catalog versions for files outside an overlay (default: newest pinned)

Choosing what runs:
  --checks LIST        comma-separated checks to run (default: all): ${CHECKS.join(", ")}
                       e.g. --checks schema,cel,native for API-server verdicts only on loose files
  --no-schema, --no-cel, --no-native, --no-cross-object, --no-iam
                       drop one check from the list
  --skip KINDS         skip these kinds (status skipped): KIND, GROUP/KIND or GROUP/VERSION/KIND,
                       comma-separated or repeated (e.g. --skip Secret,apps/Deployment)
  --reject KINDS       these kinds must not appear (status error); same forms as --skip
  --ignore-missing-schemas
                       a kind without a schema is skipped (with a warning) instead of an error
  --ignore-filename-pattern REGEX
                       do not read files whose path matches (repeatable), e.g. 'kustomization\\.yaml$'
  --strict             warnings are errors (cross-object opinions, IAM warnings...); info and
                       acknowledged findings are not
  Defaults for these can live in ${CONFIG_FILE} at the repository root (or the "validate" key of
  its package.json): {skip, reject, ignoreMissingSchemas, ignoreFilenamePattern, checks, strict,
  acknowledge}; flags win. acknowledge: a list of {rule, reason, file?, path?} accepted findings.

Options:
  -o, --output FORMAT  text (default), json, junit, sarif, github
  --base GIT_REF       evaluate oldSelf (transition) rules against the object committed at GIT_REF
  -v, --verbose        text output: also list valid resources
  --timings            print the wall time of each phase to stderr
  --max-file-bytes N   larger files (and stdin) are an error, unread (default 16777216)
  --root DIR           repository root (default: found from the current directory)

${exitCodeHelp("validate")}`;

/**
 * Takes `<dir>.lock` of every clusters/<name>/rendered folder the paths reach (all of them without paths), in
 * name order, waiting while a synth swaps one. Where the lock cannot be written (a read-only checkout) nobody
 * can swap the folder either, so it is read without one.
 */
async function lockRenderedFolders(root: string, paths: readonly string[]): Promise<() => void> {
  const clusters = join(root, CLUSTERS_DIR);
  const dirs = existsSync(clusters)
    ? readdirSync(clusters, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => join(clusters, d.name, RENDERED_DIR))
        .sort()
    : [];
  const wanted = paths.filter((p) => p !== "-").map((p) => resolve(p));
  const reached = (dir: string) => paths.length === 0 || wanted.some((p) => p === dir || p.startsWith(`${dir}${sep}`) || dir.startsWith(`${p}${sep}`));
  const releases: (() => void)[] = [];
  const releaseAll = () => {
    for (const release of releases.splice(0).reverse()) release();
  };
  try {
    for (const dir of dirs.filter(reached)) {
      try {
        releases.push(await lockRenderedWaiting(dir, { command: "validate", onWait: (m) => process.stderr.write(`eks-gitops validate: ${m}\n`) }));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS") throw err;
      }
    }
  } catch (err) {
    releaseAll();
    throw err;
  }
  return releaseAll;
}

/**
 * Milliseconds on the monotonic clock. Not `performance.now()`: its first use loads node:perf_hooks, ~3 ms of every
 * run's start-up.
 */
const clockMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * `start.worker`: the worker the launcher or the CLI started first thing (read-ahead.ts), handed the files to parse
 * ahead; `start.without`: why none was started (said by --timings, with when and by whom one was).
 */
export async function validateCommand(argv: readonly string[], start: ReadAheadStart = {}): Promise<number> {
  const { worker: readAheadWorker, without: withoutWorker } = start;
  const { values, positionals } = parseCommandArgs("validate", argv, { options: VALIDATE_OPTIONS, strict: true, allowPositionals: true });
  if (values.help) {
    process.stdout.write(`${validateUsage}\n`);
    return EXIT.ok;
  }
  const output = values.output as OutputFormat;
  if (!OUTPUT_FORMATS.includes(output)) throw new UsageError(`--output ${values.output}: must be one of ${OUTPUT_FORMATS.join(", ")}`);
  const maxFileBytes = values["max-file-bytes"] === undefined ? undefined : Number(values["max-file-bytes"]);
  if (maxFileBytes !== undefined && !(Number.isSafeInteger(maxFileBytes) && maxFileBytes > 0)) {
    throw new UsageError(`--max-file-bytes ${values["max-file-bytes"]}: must be a positive whole number of bytes`);
  }
  const root = values.root ?? findRepoRoot();
  let selection: ReturnType<typeof mergeSelection>;
  let defaults: ReturnType<typeof loadValidateDefaults>;
  try {
    defaults = loadValidateDefaults(root);
    const merged = mergeSelection(defaults?.selection, {
      checks: values.checks ? parseChecks(values.checks) : undefined,
      skip: values.skip ? splitList(values.skip) : undefined,
      reject: values.reject ? splitList(values.reject) : undefined,
      ignoreMissingSchemas: values["ignore-missing-schemas"],
      ignoreFilenamePatterns: values["ignore-filename-pattern"],
    });
    const dropped = new Set(CHECKS.filter((c) => values[`no-${c}`] === true));
    selection = { ...merged, checks: (merged.checks ?? CHECKS).filter((c: Check) => !dropped.has(c)) };
  } catch (err) {
    if (err instanceof SelectionError) throw new UsageError(err.message);
    throw err;
  }
  // the rendered folders it reads, under synth's lock: a synth swapping one waits, so this run judges one whole tree
  const unlock = await lockRenderedFolders(root, positionals);
  const download = schemaDownloadProgress(progressLine());
  try {
    const { report, timings, readAhead } = await runValidation({
      root,
      paths: positionals,
      crd: values.crd,
      fromCluster: values["from-cluster"],
      mirror: values.mirror,
      cacheDir: values["cache-dir"],
      versions: { kubernetes: values["kubernetes-version"], karpenter: values["karpenter-version"] },
      base: values.base,
      selection,
      strict: values.strict ?? defaults?.levels.strict ?? false,
      ...(defaults?.levels.acknowledge ? { acknowledge: defaults.levels.acknowledge } : {}),
      // paths as typed: relative to the folder the command was typed in (a terminal opens them from there);
      // GitHub annotations and SARIF need them relative to the repository root
      read: { cwd: output === "github" || output === "sarif" ? root : process.cwd(), ...(maxFileBytes ? { maxFileBytes } : {}) },
      onProgress: download.onProgress,
      ...(readAheadWorker ? { readAheadWorker } : {}),
      onWarm: codeCacheCheckpoint,
    }).finally(() => {
      download.finish();
      unlock();
    });
    const started = clockMs();
    // written in chunks: a large report is never one large string
    writeReport(report, output, { color: colorEnabled(), verbose: values.verbose }, (chunk) => process.stdout.write(chunk));
    if (values.timings) {
      const all = [...timings, { phase: "output", ms: clockMs() - started }];
      const worker = readAheadWorker
        ? `files read ahead in a worker${start.startedAt !== undefined ? ` started ${start.startedAt.toFixed(2)} s after the process${start.early ? " by the launcher" : ""}` : ""}: ${readAhead.fromWorker} of ${readAhead.files}, native checks made there: ${readAhead.nativeAhead} objects`
        : `no read-ahead worker${withoutWorker ? ` (${withoutWorker})` : ""}: ${readAhead.files} files read on the main thread`;
      process.stderr.write(`timings: ${all.map((t) => `${t.phase} ${t.ms.toFixed(0)} ms`).join(", ")}; ${worker}; process ${process.uptime().toFixed(2)} s since start\n`);
    }
    return report.summary.invalid + report.summary.error > 0 ? EXIT.invalid : EXIT.ok;
  } catch (err) {
    if (err instanceof RunUsageError) throw new UsageError(err.message);
    if (err instanceof CatalogError || err instanceof ClusterSchemaError) {
      process.stderr.write(`eks-gitops validate: ${err.message}\n`);
      // an API that failed or could not be reached is neither a bad setting (2) nor our fault (3)
      return err instanceof ClusterSchemaError && err.external ? EXIT.external : EXIT.usage;
    }
    if (err instanceof ConfigError) return reportConfigError(err, output, colorEnabled(output === "text" ? process.stderr : process.stdout), "nothing was validated");
    throw err;
  }
}

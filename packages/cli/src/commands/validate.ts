// `eks-gitops validate`: check rendered output (or any Kubernetes YAML/JSON) as the API server would, plus cross-object checks.
import { ConfigError } from "@eks-gitops/config/errors";
import {
  CatalogError,
  ClusterSchemaError,
  formatReport,
  MIRROR_ENV,
  OUTPUT_FORMATS,
  type OutputFormat,
  RunUsageError,
  runValidation,
} from "@eks-gitops/validate";
import { parseCommandArgs } from "../args.ts";
import { colorEnabled } from "../color.ts";
import { EXIT, UsageError } from "../exit-codes.ts";
import { progressLine, schemaDownloadProgress } from "../progress.ts";
import { findRepoRoot } from "../repo.ts";

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

Options:
  -o, --output FORMAT  text (default), json, junit, sarif, github
  --base GIT_REF       evaluate oldSelf (transition) rules against the object committed at GIT_REF
  -v, --verbose        text output: also list valid resources
  --timings            print the wall time of each phase to stderr
  --max-file-bytes N   larger files (and stdin) are an error, unread (default 16777216)
  --root DIR           repository root (default: found from the current directory)

Exit codes: 0 all valid, 1 something invalid or unreadable, 2 usage, 3 internal error.`;

export async function validateCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs("validate", argv, {
    options: {
      output: { type: "string", short: "o", default: "text" },
      crd: { type: "string", multiple: true },
      "from-cluster": { type: "boolean", default: false },
      mirror: { type: "string" },
      "cache-dir": { type: "string" },
      "kubernetes-version": { type: "string" },
      "karpenter-version": { type: "string" },
      base: { type: "string" },
      verbose: { type: "boolean", short: "v", default: false },
      timings: { type: "boolean", default: false },
      "max-file-bytes": { type: "string" },
      root: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: true,
  });
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
  const download = schemaDownloadProgress(progressLine());
  try {
    const { report, timings } = await runValidation({
      root,
      paths: positionals,
      crd: values.crd,
      fromCluster: values["from-cluster"],
      mirror: values.mirror,
      cacheDir: values["cache-dir"],
      versions: { kubernetes: values["kubernetes-version"], karpenter: values["karpenter-version"] },
      base: values.base,
      ...(maxFileBytes ? { read: { maxFileBytes } } : {}),
      onProgress: download.onProgress,
    }).finally(download.finish);
    const started = performance.now();
    process.stdout.write(formatReport(report, output, { color: colorEnabled(), verbose: values.verbose }));
    if (values.timings) {
      const all = [...timings, { phase: "output", ms: performance.now() - started }];
      process.stderr.write(`timings: ${all.map((t) => `${t.phase} ${t.ms.toFixed(0)} ms`).join(", ")}; process ${(performance.now() / 1000).toFixed(2)} s since start\n`);
    }
    return report.summary.invalid + report.summary.error > 0 ? EXIT.invalid : EXIT.ok;
  } catch (err) {
    if (err instanceof RunUsageError) throw new UsageError(err.message);
    if (err instanceof CatalogError || err instanceof ClusterSchemaError) {
      process.stderr.write(`eks-gitops validate: ${err.message}\n`);
      return EXIT.usage;
    }
    if (err instanceof ConfigError) throw err;
    throw err;
  }
}

// `eks-gitops diff`: what a change does to the rendered output, per cluster and component, IAM first.
import { existsSync, } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CLUSTERS_DIR } from "@eks-gitops/config/layout";
import { diffRendered } from "../diff/changes.ts";
import type { CapacitySide } from "../diff/capacity.ts";
import { analyzeDrift, drivingNodePools, type DriftReport, paceOf } from "../drift/drift.ts";
import { formatDriftMarkdown, formatDriftText } from "../drift/format.ts";
import { formatJson, formatMarkdown, formatText, GITHUB_COMMENT_LIMIT, type DiffLabels } from "../diff/format.ts";
import { checkRepository, defaultBase, readRenderedAtRef, readRenderedWorkingTree, resolveCommit } from "../diff/git.ts";
import { parseCommandArgs } from "../args.ts";
import { colorEnabled } from "../color.ts";
import { EXIT, exitCodeHelp, UsageError } from "../exit-codes.ts";
import { findRepoRoot } from "../repo.ts";
import { writeFileAtomically } from "../write-file.ts";

export const diffUsage = `Usage: eks-gitops diff [--base REF] [--head REF] [-o|--output text|markdown|json] [--exit-code] [--full FILE] [--url URL] [--cluster NAME]...

Compares the committed rendered output (clusters/*/rendered) of two revisions, and says for every NodePool and
EC2NodeClass that changed whether Karpenter replaces existing nodes (drift) and at what pace (disruption budgets).
  --base REF      old side (default: the merge base of HEAD with main)
  --head REF      new side (default: the working tree)
  -o, --output FMT
                  text (default), markdown (a pull-request comment, cut at ${GITHUB_COMMENT_LIMIT} characters, led by
                  "Node replacement (drift)", with a "Capacity at HPA max" section per cluster: \`eks-gitops
                  simulate\` of base and head) or json (with \`drift\`)
  --exit-code     exit 1 when the rendered output differs (as \`git diff --exit-code\`), 0 when it does not
  --full FILE     also write the complete, uncut output to FILE (the CI artifact)
  --url URL       link to the full diff, shown when the Markdown is cut
  --limit N       Markdown character limit (default ${GITHUB_COMMENT_LIMIT})
  --cluster NAME  only this overlay (repeatable)
  --root DIR      repository root (default: found from the current directory)

${exitCodeHelp("diff")}`;

const OUTPUTS = ["text", "markdown", "json"] as const;
type Output = (typeof OUTPUTS)[number];

export interface DiffOptions {
  readonly root: string;
  readonly base?: string;
  readonly head?: string;
  readonly output?: Output;
  readonly clusters?: readonly string[];
  readonly full?: string;
  readonly url?: string;
  readonly limit?: number;
  /** Markdown only: add the "Capacity at HPA max" section (capacity simulation of base and head). @default true */
  readonly capacity?: boolean;
  /** Exit 1 when the rendered output differs (as `git diff --exit-code`). @default false: exit 0 whenever it could compare */
  readonly exitCode?: boolean;
  /** ANSI colours in text output. @default stdout is a TTY and NO_COLOR is unset */
  readonly color?: boolean;
  readonly out?: (text: string) => void;
  /** Notes (leftovers of interrupted runs swept). @default stderr */
  readonly err?: (text: string) => void;
}

/** Exits 0 when it could compare (a diff informs, the checks decide); with `exitCode`, 1 when anything differs. */
export async function diff(options: DiffOptions): Promise<number> {
  const out = options.out ?? ((t: string) => process.stdout.write(t));
  checkRepository(options.root);
  const baseCommit = options.base !== undefined ? resolveRef(options.root, options.base) : defaultBase(options.root);
  const short = (c: string) => c.slice(0, 12);
  const labels: DiffLabels = {
    base: options.base !== undefined ? `${options.base} (${short(baseCommit)})` : `merge base with main (${short(baseCommit)})`,
    head: options.head !== undefined ? `${options.head} (${short(resolveRef(options.root, options.head))})` : "working tree",
  };
  const only = (m: Map<string, string>) =>
    options.clusters && options.clusters.length > 0 ? new Map([...m].filter(([p]) => options.clusters?.includes(p.split("/")[1] ?? ""))) : m;
  const before = only(readRenderedAtRef(options.root, baseCommit));
  const after = only(options.head !== undefined ? readRenderedAtRef(options.root, options.head) : readRenderedWorkingTree(options.root));
  const d = diffRendered(before, after);
  const headCommit = options.head !== undefined ? resolveRef(options.root, options.head) : undefined;
  const drift = await driftReport(options.root, { rendered: before, commit: baseCommit }, { rendered: after, commit: headCommit });
  const capacityModule = options.output === "markdown" && options.capacity !== false ? await import("../diff/capacity.ts") : undefined;
  if (capacityModule) {
    const { sweepTempFolders } = await import("../temp-folder.ts");
    for (const note of sweepTempFolders(join(options.root, CLUSTERS_DIR), capacityModule.CAPACITY_TEMP_PREFIX)) (options.err ?? ((t: string) => process.stderr.write(t)))(`eks-gitops diff: ${note}\n`);
  }
  const capacitySection = await capacityModule?.capacitySection(
    options.root,
    { rendered: before, commit: baseCommit },
    { rendered: after, commit: headCommit },
  );
  // at most half of a cut comment; all of it in the uncut one
  const capacity = (limit: number) => (capacitySection && capacityModule ? capacityModule.renderCapacitySection(capacitySection, limit === Number.POSITIVE_INFINITY ? limit : Math.floor(limit / 2)) : "");

  // The PR comment leads with what reviewers fear most: will this replace nodes?
  const driftMd = d.changes.length > 0 ? `\n${formatDriftMarkdown(drift)}` : "";
  const leadWithDrift = (md: string) => {
    const nl = md.indexOf("\n");
    return `${md.slice(0, nl + 1)}${driftMd}\n${md.slice(nl + 1)}`;
  };
  const render = (limit: number) =>
    options.output === "markdown"
      ? leadWithDrift(formatMarkdown(d, labels, { limit, reserve: capacity(limit).length + driftMd.length + 1, fullDiffUrl: options.url })) + capacity(limit)
      : options.output === "json"
        ? formatJson(d, labels, { drift })
        : formatText(d, labels, { color: options.color ?? (options.out === undefined && colorEnabled()), ...(drift.findings.length > 0 ? { extra: formatDriftText(drift) } : {}) });
  if (options.full !== undefined) writeAtomically(options.full, render(Number.POSITIVE_INFINITY));
  out(render(options.limit ?? GITHUB_COMMENT_LIMIT));
  return options.exitCode === true && d.changes.length > 0 ? EXIT.invalid : EXIT.ok;
}

/** Drift findings, and for each NodePool that drifts its budgets and simulated NodeClaims (base side: the nodes that exist). */
async function driftReport(root: string, base: CapacitySide, head: CapacitySide): Promise<DriftReport> {
  const findings = analyzeDrift(base.rendered, head.rendered);
  const driving = drivingNodePools(findings);
  if (driving.size === 0) return { findings, pace: [] };
  const { nodeClaimsPerPool } = await import("../diff/capacity.ts");
  const points = ["min", "current", "max"] as const;
  const perCluster = new Map<string, Awaited<ReturnType<typeof nodeClaimsPerPool>>>();
  for (const cluster of driving.keys()) perCluster.set(cluster, await nodeClaimsPerPool(root, cluster, base, [head, base], points));
  const pace = paceOf(findings, head.rendered, (cluster, nodePool) => {
    const r = perCluster.get(cluster);
    if (!r || "problem" in r) return [];
    return points.map((at) => ({ at: at === "min" ? "HPA minimum" : at === "current" ? "current replicas" : "HPA maximum", count: r.counts.get(at)?.get(nodePool) ?? 0 }));
  });
  return { findings, pace };
}

function resolveRef(root: string, ref: string): string {
  try {
    return resolveCommit(root, ref);
  } catch {
    throw new UsageError(`unknown git revision '${ref}' in ${root} (fetch it first, e.g. \`git fetch origin ${ref}\`)`);
  }
}

function writeAtomically(file: string, content: string): void {
  if (!existsSync(dirname(resolve(file)))) throw new UsageError(`--full ${file}: cannot write it: the folder ${dirname(file)} does not exist; create it first`);
  try {
    writeFileAtomically(file, content);
  } catch (err) {
    // a folder in the way, no permission, a full disk: the user's to fix, not an internal error
    throw new UsageError(`--full ${file}: cannot write it: ${(err as Error).message}`);
  }
}

export async function diffCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs("diff", argv, {
    options: {
      base: { type: "string" },
      head: { type: "string" },
      output: { type: "string", short: "o", default: "text" },
      "exit-code": { type: "boolean", default: false },
      full: { type: "string" },
      url: { type: "string" },
      limit: { type: "string" },
      cluster: { type: "string", multiple: true },
      root: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${diffUsage}\n`);
    return EXIT.ok;
  }
  if (!OUTPUTS.includes(values.output as Output)) {
    throw new UsageError(`--output must be one of ${OUTPUTS.join(", ")}, not '${values.output}'`);
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new UsageError(`--limit must be a positive integer, not '${values.limit}'`);
  return diff({
    root: values.root ?? findRepoRoot(),
    base: values.base,
    head: values.head,
    output: values.output as Output,
    clusters: values.cluster,
    full: values.full,
    url: values.url,
    limit,
    exitCode: values["exit-code"],
  });
}

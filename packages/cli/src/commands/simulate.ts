// `eks-gitops simulate`: what HPA and Karpenter will do with an overlay, offline: nodes, NodeClaims, Pending pods.
import { existsSync, readFileSync, } from "node:fs";
import { extname, join, relative, resolve } from "node:path";
import type { InstanceTypeSnapshot, SimulationResult, SweepResult } from "@eks-gitops/capacity";
import { CAPACITY_DIR, CAPACITY_REFRESH_COMMAND, CLUSTERS_DIR, type ClusterConfig, instanceTypesFile, listClusters, loadCluster } from "@eks-gitops/config";
import type { LiveCapacity } from "../capacity/from-cluster.ts";
import { buildSimulationInput, type ReplicaPoint, type Scenario } from "../capacity/input.ts";
import { parseCommandArgs } from "../args.ts";
import { EXIT, exitCodeHelp, UsageError } from "../exit-codes.ts";
import { renderCluster } from "../render.ts";
import { findRepoRoot } from "../repo.ts";
import { writeFileAtomically } from "../write-file.ts";

export const simulateUsage = `Usage: eks-gitops simulate [--cluster NAME]... [--replicas NAMESPACE/NAME=N]... [--at min|max|current] [-o|--output text|json|markdown] [--svg FILE] [--from-cluster [--kubeconfig FILE] [--context NAME]] [--root DIR]

Simulates, offline, where the pods of an overlay run: first on the node groups Karpenter does not
manage (as kube-scheduler would), then on the NodeClaims Karpenter would create, with Karpenter's own
arithmetic over the committed instance-type snapshot (clusters/<name>/capacity/instance-types.<region>.json).
  --cluster NAME               this overlay (repeatable; default: every overlay that has a snapshot)
  --replicas NAMESPACE/NAME=N  run this workload at N replicas (repeatable; wins over --at)
  --at min|max|current         every HPA target at its minReplicas, maxReplicas or rendered spec.replicas (an HPA
                               target renders none: its minReplicas, where the HPA takes it) (default: max)
  -o, --output FMT             text (default), json (one --cluster: its SimulationResult; else an array, one per cluster) or markdown
  --svg FILE                   also write the chart (nodes and Pending pods per replica count) as SVG
  --from-cluster               read the existing nodes (all but Karpenter's) and DaemonSets from the cluster
                               instead of the overlay's nodeGroups and daemonSets (read-only: list nodes, daemonsets)
  --kubeconfig FILE            with --from-cluster (default: KUBECONFIG or ~/.kube/config); --context NAME
  --root DIR                   repository root (default: found from the current directory)

${exitCodeHelp("simulate")}`;

const OUTPUTS = ["text", "json", "markdown"] as const;
type Output = (typeof OUTPUTS)[number];
const POINTS = ["min", "max", "current"] as const;

export interface SimulateOptions {
  readonly root: string;
  readonly clusters?: readonly string[];
  readonly replicas?: ReadonlyMap<string, number>;
  readonly at?: ReplicaPoint;
  readonly output?: Output;
  readonly svg?: string;
  /** Read existing nodes and DaemonSets from this cluster instead of the overlay's `nodeGroups` and `daemonSets`. @default unset: the overlay's */
  readonly fromCluster?: { readonly kubeconfig?: string; readonly context?: string };
  readonly out?: (text: string) => void;
  readonly err?: (text: string) => void;
}

/** A snapshot that is missing, unreadable or of another region, or an overlay the simulation cannot use: exit 2. */
export class CapacityInputError extends Error {
  override name = "CapacityInputError";
  constructor(
    message: string,
    /** The snapshot file does not exist (an overlay that was never refreshed). */
    readonly missing = false,
  ) {
    super(message);
  }
}

/** The committed snapshot of an overlay's region, checked; a CapacityInputError naming the file otherwise. */
export async function readSnapshot(root: string, config: ClusterConfig): Promise<InstanceTypeSnapshot> {
  const file = join(root, CLUSTERS_DIR, config.name, CAPACITY_DIR, instanceTypesFile(config.region));
  const shown = relative(root, file);
  if (!existsSync(file))
    throw new CapacityInputError(
      `${shown}: missing: no instance-type data for region ${config.region}; run \`${CAPACITY_REFRESH_COMMAND} --cluster ${config.name}\` (read-only EC2 calls) and commit the file`,
      true,
    );
  const { parseSnapshot } = await import("@eks-gitops/capacity");
  let snapshot: InstanceTypeSnapshot;
  try {
    snapshot = parseSnapshot(readFileSync(file, "utf8"), shown);
  } catch (err) {
    throw new CapacityInputError((err as Error).message);
  }
  if (snapshot.region !== config.region)
    throw new CapacityInputError(`${shown}: region: is '${snapshot.region}' but ${config.sourceFile} is in region '${config.region}'; run \`${CAPACITY_REFRESH_COMMAND} --cluster ${config.name}\``);
  return snapshot;
}

/** The input of one overlay: its rendered objects in memory, plus its node groups and DaemonSets; NodePools in overlay order. */
export function overlayInput(config: ClusterConfig, scenario: Scenario, live?: LiveCapacity) {
  return buildSimulationInput(
    {
      name: config.name,
      region: config.region,
      nodeGroups: config.nodeGroups,
      daemonSets: config.daemonSets,
      nodePoolOrder: config.nodePools.map((p) => p.name),
      nodeClassOrder: config.nodeClasses.map((n) => n.name),
      ...(live ? { live } : {}),
    },
    renderCluster(config),
    scenario,
  );
}

/** The workload the chart sweeps: the first `--replicas` workload an HPA targets, else the first HPA target. */
export function sweptWorkload(autoscaled: readonly string[], replicas: ReadonlyMap<string, number> | undefined): string | undefined {
  return [...(replicas?.keys() ?? [])].find((id) => autoscaled.includes(id)) ?? autoscaled[0];
}

interface ClusterRun {
  readonly config: ClusterConfig;
  readonly result: SimulationResult;
  readonly sweep: SweepResult | undefined;
  readonly text: string;
}

export async function simulateClusters(options: SimulateOptions): Promise<number> {
  const out = options.out ?? ((t: string) => process.stdout.write(t));
  const err = options.err ?? ((t: string) => process.stderr.write(t));
  const explicit = options.clusters !== undefined && options.clusters.length > 0;
  const names = explicit ? [...(options.clusters ?? [])] : listClusters(options.root);
  if (names.length === 0) throw new UsageError(`no overlays found under ${join(options.root, CLUSTERS_DIR)}`);
  const output = options.output ?? "text";
  const capacity = await import("@eks-gitops/capacity");

  const runs: ClusterRun[] = [];
  let cannot = 0;
  for (const name of names) {
    const config = await loadCluster(options.root, name);
    let snapshot: InstanceTypeSnapshot;
    try {
      snapshot = await readSnapshot(options.root, config);
    } catch (e) {
      // Every overlay by default: one without data is skipped with the fix, not a failure of the others.
      if (!explicit && e instanceof CapacityInputError && e.missing) {
        err(`skipped ${name}: ${e.message}\n`);
        continue;
      }
      throw e;
    }
    const scenario: Scenario = { at: options.at ?? "max", ...(options.replicas ? { replicas: options.replicas } : {}) };
    let live: LiveCapacity | undefined;
    if (options.fromCluster) {
      const { readLiveCapacity } = await import("../capacity/from-cluster.ts");
      live = await readLiveCapacity(options.fromCluster);
      err(
        `${name}: existing capacity read from ${live.server}: ${live.nodeGroups.map((g) => `${g.count} x ${g.instanceType} (${g.name})`).join(", ") || "no nodes"}${live.skippedNodes > 0 ? ` (${live.skippedNodes} Karpenter or deleting node(s) left out)` : ""}; ${live.daemonSets.length} DaemonSet(s)\n`,
      );
    }
    const { input, autoscaled } = overlayInput(config, scenario, live);
    let result: SimulationResult;
    try {
      result = capacity.simulate(input, snapshot);
    } catch (e) {
      if (e instanceof capacity.SimulationError) throw new CapacityInputError(`${config.sourceFile}: ${e.message}`);
      throw e;
    }
    const target = sweptWorkload(autoscaled, options.replicas);
    const sweep = target ? capacity.sweep(input, snapshot, { workload: target }) : undefined;
    const scenarioReplicas = target ? input.workloads.find((w) => `${w.namespace}/${w.name}` === target)?.replicas : undefined;
    const hpaMax = target ? input.workloads.find((w) => `${w.namespace}/${w.name}` === target)?.hpa?.maxReplicas : undefined;
    const consolidation =
      target && scenarioReplicas !== undefined && hpaMax !== undefined && scenarioReplicas < hpaMax
        ? capacity.scaleDown(input, snapshot, { workload: target, from: hpaMax, to: scenarioReplicas })
        : undefined;
    const report = capacity.formatSimulation(result, output, { ...(sweep ? { sweep } : {}), ...(consolidation ? { consolidation } : {}) });
    const text = output === "json" ? report : withScenario(report, output, scenarioLines(scenario, [...(options.replicas?.keys() ?? [])].map((id) => capacity.summarizeWorkload(result, id))));
    runs.push({ config, result, sweep, text });
    for (const p of capacity.cannotRun(result)) {
      cannot++;
      const index = config.workloads.findIndex((w) => `${w.namespace}/${w.name}` === p.workload);
      const field = index >= 0 ? `workloads[${index}]` : p.workload === `${config.karpenter.namespace}/karpenter` ? "karpenter.controllerResources" : p.workload;
      err(`${config.sourceFile}: ${field}: ${p.pod} can never run: ${p.message}\n`);
    }
  }
  if (runs.length === 0) throw new UsageError(`no overlay has an instance-type snapshot; run \`${CAPACITY_REFRESH_COMMAND} --cluster NAME\``);

  if (output === "json") {
    // One --cluster: the SimulationResult itself (as the capacity README promises); several overlays: one entry each.
    const docs = runs.map((r) => JSON.parse(r.text));
    out(`${JSON.stringify(options.clusters?.length === 1 ? docs[0] : docs, null, 2)}\n`);
  } else out(runs.map((r) => r.text).join("\n"));

  if (options.svg !== undefined) {
    for (const r of runs) {
      if (!r.sweep) continue;
      const file = runs.length === 1 ? resolve(options.svg) : resolve(options.svg.replace(/(\.[^./]*)?$/, `.${r.config.name}${extname(options.svg) || ".svg"}`));
      writeFileAtomically(file, capacity.chartSvg(r.sweep), { createFolder: true });
      const shown = relative(process.cwd(), file);
      err(`wrote ${shown.startsWith("..") || shown === "" ? file : shown}\n`);
    }
  }
  return cannot > 0 ? EXIT.invalid : EXIT.ok;
}

/** What was simulated, in words, and one line per `--replicas` workload (Running on existing nodes, Pending). */
function scenarioLines(scenario: Scenario, summaries: readonly string[]): string[] {
  const at = { min: "minReplicas", max: "maxReplicas", current: "rendered replicas" }[scenario.at];
  const named = [...(scenario.replicas ?? [])].map(([id, n]) => `${id}=${n}`);
  return [`Scenario: every HPA target at its ${at}${named.length > 0 ? `; ${named.join(", ")}` : ""}`, ...summaries];
}

/** The scenario below the report's title line. */
function withScenario(report: string, output: "text" | "markdown", lines: readonly string[]): string {
  const eol = report.indexOf("\n");
  if (eol < 0) return report;
  const block = output === "markdown" ? `\n${lines.map((l, i) => (i === 0 ? `**${l}**` : `- ${l}`)).join("\n")}\n` : `\n${lines.map((l, i) => (i === 0 ? l : `  ${l}`)).join("\n")}\n`;
  return `${report.slice(0, eol + 1)}${block}${report.slice(eol + 1)}`;
}

/** The largest `spec.replicas` (and HPA maxReplicas) the API server accepts: int32. */
export const MAX_REPLICAS = 2_147_483_647;

/** `NAMESPACE/NAME=N` entries as a map, N in 0..2147483647; a usage error naming the bad entry. */
export function parseReplicas(entries: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of entries) {
    const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)=(\d+)$/.exec(e);
    if (!m) throw new UsageError(`--replicas must be NAMESPACE/NAME=N with N a whole number, e.g. nlb-app-karpenter/nginx-deployment=12; got '${e}'`);
    // spec.replicas is an int32: the API server refuses anything above 2147483647.
    const n = m[5]!.length > 10 ? Number.POSITIVE_INFINITY : Number(m[5]);
    if (n > MAX_REPLICAS) throw new UsageError(`--replicas ${m[1]}/${m[3]}: ${m[5]} is above ${MAX_REPLICAS}, the most replicas a Deployment can have (int32)`);
    out.set(`${m[1]}/${m[3]}`, n);
  }
  return out;
}

export async function simulateCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs("simulate", argv, {
    options: {
      cluster: { type: "string", multiple: true },
      replicas: { type: "string", multiple: true },
      at: { type: "string", default: "max" },
      output: { type: "string", short: "o", default: "text" },
      svg: { type: "string" },
      "from-cluster": { type: "boolean", default: false },
      kubeconfig: { type: "string" },
      context: { type: "string" },
      root: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${simulateUsage}\n`);
    return EXIT.ok;
  }
  if (!OUTPUTS.includes(values.output as Output)) throw new UsageError(`--output must be one of ${OUTPUTS.join(", ")}, not '${values.output}'`);
  if (!values["from-cluster"] && (values.kubeconfig !== undefined || values.context !== undefined)) throw new UsageError("--kubeconfig and --context go with --from-cluster");
  if (values["from-cluster"] && values.cluster?.length !== 1) throw new UsageError("--from-cluster reads one live cluster: give exactly one --cluster NAME");
  if (!POINTS.includes(values.at as ReplicaPoint)) throw new UsageError(`--at must be one of ${POINTS.join(", ")}, not '${values.at}'`);
  try {
    return await simulateClusters({
      root: values.root ?? findRepoRoot(),
      clusters: values.cluster,
      replicas: parseReplicas(values.replicas ?? []),
      at: values.at as ReplicaPoint,
      output: values.output as Output,
      svg: values.svg,
      ...(values["from-cluster"] ? { fromCluster: { ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}), ...(values.context ? { context: values.context } : {}) } } : {}),
    });
  } catch (e) {
    if (e instanceof CapacityInputError || (e instanceof Error && e.name === "LiveClusterError")) {
      process.stderr.write(`${e.message}\nnothing was simulated.\n`);
      return (e as { external?: boolean }).external === true ? EXIT.external : EXIT.usage;
    }
    throw e;
  }
}

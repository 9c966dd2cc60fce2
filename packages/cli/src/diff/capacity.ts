// The "Capacity at HPA max" section of the pull-request comment: the capacity simulation of base and head, compared.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { InstanceTypeSnapshot, SimulationResult, SweepResult } from "@eks-gitops/capacity";
import { CAPACITY_DIR, CLUSTER_FILE, CLUSTERS_DIR, type ClusterConfig, instanceTypesFile, loadCluster, RENDERED_DIR } from "@eks-gitops/config";
import { buildSimulationInput, type ReplicaPoint } from "../capacity/input.ts";
import { makeTempFolder } from "../temp-folder.ts";
import { type CostAtMinMax, costTable } from "./cost.ts";

/** Name start of the folders an overlay of another commit is loaded from: `clusters/.capacity-<commit>-<pid>/`. */
export const CAPACITY_TEMP_PREFIX = ".capacity-";

export interface CapacitySide {
  /** `clusters/<name>/rendered/...` -> content, as the diff read it. */
  readonly rendered: ReadonlyMap<string, string>;
  /** The commit to read overlays and snapshots from; undefined: the working tree. */
  readonly commit: string | undefined;
}

interface Simulated {
  readonly result?: SimulationResult;
  readonly sweep?: SweepResult;
  /** What the nodes cost at HPA min and max. */
  readonly cost?: CostAtMinMax;
  /** Why this side could not be simulated. */
  readonly problem?: string;
}

function show(root: string, commit: string, path: string): string | undefined {
  try {
    return execFileSync("git", ["show", `${commit}:${path}`], { cwd: root, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 }).toString("utf8");
  } catch {
    return undefined;
  }
}

/**
 * Loads an overlay at a commit: its cluster.ts is written under a temporary folder inside clusters/ (so its
 * `@eks-gitops/config` import resolves as in the working tree) and removed again.
 */
async function loadOverlayAt(root: string, side: CapacitySide, name: string, atCommit: ReadonlySet<string>): Promise<ClusterConfig | undefined> {
  const path = `${CLUSTERS_DIR}/${name}/${CLUSTER_FILE}`;
  if (side.commit === undefined) return existsSync(join(root, path)) ? loadCluster(root, name) : undefined;
  if (!atCommit.has(path)) return undefined;
  const text = show(root, side.commit, path);
  if (text === undefined) return undefined;
  // removed on SIGINT/SIGTERM too; what a killed run left is swept by the next diff (../temp-folder.ts)
  const tmp = await makeTempFolder(join(root, CLUSTERS_DIR), `${CAPACITY_TEMP_PREFIX}${side.commit.slice(0, 12)}`, "diff");
  try {
    mkdirSync(join(tmp.path, CLUSTERS_DIR, name), { recursive: true });
    writeFileSync(join(tmp.path, path), text);
    return await loadCluster(tmp.path, name);
  } finally {
    tmp.remove();
  }
}

function readSnapshotText(root: string, side: CapacitySide, path: string): string | undefined {
  if (side.commit !== undefined) return show(root, side.commit, path);
  return existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined;
}

/** One side of one cluster at HPA max; never throws: a side that cannot be simulated says why. */
/** The overlay files (`clusters/<name>/cluster.ts`) of a commit, in one git call however many clusters there are. */
function overlaysAt(root: string, commit: string | undefined): ReadonlySet<string> {
  if (commit === undefined) return new Set();
  try {
    const out = execFileSync("git", ["ls-tree", "-r", "--name-only", commit, "--", `${CLUSTERS_DIR}/`], { cwd: root, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 }).toString();
    return new Set(out.split("\n").filter((p) => p.endsWith(`/${CLUSTER_FILE}`) && p.split("/").length === 3));
  } catch {
    return new Set();
  }
}

async function simulateSide(
  root: string,
  name: string,
  side: CapacitySide,
  snapshotFrom: readonly CapacitySide[],
  atCommit: ReadonlySet<string>,
  at: ReplicaPoint = "max",
): Promise<Simulated> {
  const prefix = `${CLUSTERS_DIR}/${name}/${RENDERED_DIR}/`;
  const files = new Map([...side.rendered].filter(([p]) => p.startsWith(prefix)).map(([p, c]) => [p.slice(prefix.length), c] as const));
  if (files.size === 0) return {};
  try {
    const config = await loadOverlayAt(root, side, name, atCommit);
    // rendered output without an overlay (hand-made fixtures, a removed overlay): nothing to simulate
    if (!config) return {};
    const capacity = await import("@eks-gitops/capacity");
    // The head's instance-type data for both sides, so the comparison shows the change, not a data refresh.
    const snapshotPath = `${CLUSTERS_DIR}/${name}/${CAPACITY_DIR}/${instanceTypesFile(config.region)}`;
    const text = snapshotFrom.map((s) => readSnapshotText(root, s, snapshotPath)).find((t) => t !== undefined);
    if (text === undefined) return { problem: `no instance-type snapshot ${snapshotPath}` };
    const snapshot: InstanceTypeSnapshot = capacity.parseSnapshot(text, snapshotPath);
    const overlay = { name, region: config.region, nodeGroups: config.nodeGroups, daemonSets: config.daemonSets, nodePoolOrder: config.nodePools.map((p) => p.name), nodeClassOrder: config.nodeClasses.map((n) => n.name) };
    const { input, autoscaled } = buildSimulationInput(overlay, files, { at });
    const result = capacity.simulate(input, snapshot);
    // The cost rows of the comment (HPA min and max), with the max-side simulation only.
    const cost =
      at === "max" ? { min: capacity.costOf(capacity.simulate(buildSimulationInput(overlay, files, { at: "min" }).input, snapshot), snapshot), max: capacity.costOf(result, snapshot) } : undefined;
    const target = autoscaled[0];
    return { result, ...(cost ? { cost } : {}), ...(target && at === "max" ? { sweep: capacity.sweep(input, snapshot, { workload: target }) } : {}) };
  } catch (err) {
    return { problem: (err as Error).message.split("\n")[0] ?? String(err) };
  }
}

/** The section's parts: one Markdown block per cluster, so a comment near its size limit can leave whole clusters out. */
export interface CapacitySection {
  readonly clusters: readonly string[];
}

/**
 * One block per cluster present on either side: base and head simulated with every HPA target at
 * maxReplicas (nodes Karpenter would add, NodePool limit headroom, Pending pods) and the head's chart.
 */
export async function capacitySection(root: string, base: CapacitySide, head: CapacitySide): Promise<CapacitySection> {
  const names = new Set<string>();
  for (const m of [base.rendered, head.rendered]) for (const p of m.keys()) names.add(p.split("/")[1] ?? "");
  names.delete("");
  if (names.size === 0) return { clusters: [] };
  const capacity = await import("@eks-gitops/capacity");
  const [baseOverlays, headOverlays] = [overlaysAt(root, base.commit), overlaysAt(root, head.commit)];
  const clusters: string[] = [];
  for (const name of [...names].sort()) {
    const [b, h] = [await simulateSide(root, name, base, [head, base], baseOverlays), await simulateSide(root, name, head, [head, base], headOverlays)];
    if (!b.result && !h.result && !b.problem && !h.problem) continue;
    if (b.problem || h.problem) {
      // a side that could not be simulated would read as an added or removed cluster: say why instead
      const lines = [`### ${name}`, ""];
      if (b.problem === h.problem) lines.push(`> base and head: not simulated: ${h.problem}`);
      else for (const [label, s] of [["base", b], ["head", h]] as const) if (s.problem) lines.push(`> ${label}: not simulated: ${s.problem}`, "");
      clusters.push(`${lines.join("\n").trimEnd()}\n`);
      continue;
    }
    // compareSimulations starts with the cluster's own `### <name>` heading; undefined on a side = no such cluster there
    const compared = capacity.compareSimulations(b.result, h.result, { ...(h.sweep ? { headSweep: h.sweep } : {}), cluster: name }).trimEnd();
    clusters.push(`${compared}\n${h.cost ? `\n${costTable(b.cost, h.cost)}` : ""}`);
  }
  return { clusters };
}

/**
 * The section as Markdown within `budget` characters: whole clusters, in name order, and a notice naming how
 * many were left out and where to see them. Empty when no cluster has an overlay.
 */
export function renderCapacitySection(section: CapacitySection, budget: number): string {
  if (section.clusters.length === 0) return "";
  const head = "\n## Capacity at HPA max\n";
  const notice = (shown: number) =>
    `\n> [!NOTE]\n> ${section.clusters.length - shown} of ${section.clusters.length} clusters left out to fit one comment: see the full diff artifact, or run \`pnpm simulate --at max --output markdown\`.\n`;
  let out = head;
  let shown = 0;
  for (const [i, c] of section.clusters.entries()) {
    const next = `${out}\n${c}`;
    // room for the notice unless this is the last cluster
    const reserve = i === section.clusters.length - 1 ? 0 : notice(i + 1).length;
    if (next.length + reserve + 1 > budget) break;
    out = next;
    shown++;
  }
  return `${out}${shown < section.clusters.length ? notice(shown) : ""}\n`;
}

/**
 * NodeClaims per NodePool of one side of one cluster, simulated with every HPA target at each of `points` (for the
 * drift report: how many existing NodeClaims a drifting NodePool has). `problem` when the side cannot be simulated.
 */
export async function nodeClaimsPerPool(
  root: string,
  name: string,
  side: CapacitySide,
  snapshotFrom: readonly CapacitySide[],
  points: readonly ReplicaPoint[],
): Promise<{ counts: Map<ReplicaPoint, Map<string, number>> } | { problem: string }> {
  const overlays = overlaysAt(root, side.commit);
  const counts = new Map<ReplicaPoint, Map<string, number>>();
  for (const at of points) {
    const s = await simulateSide(root, name, side, snapshotFrom, overlays, at);
    if (s.problem) return { problem: s.problem };
    if (!s.result) return { problem: "no overlay on this side" };
    const perPool = new Map<string, number>();
    for (const c of s.result.nodeClaims) perPool.set(c.nodePool, (perPool.get(c.nodePool) ?? 0) + (c.count ?? 1));
    counts.set(at, perPool);
  }
  return { counts };
}

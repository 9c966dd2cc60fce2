// The shapes section of `pnpm bench` (issue 19): the world-like corpus (world.ts) in every input shape, at each size,
// validated by us (default checks) and kubeconform -strict in interleaved rounds; one table row per shape and size
// with both medians, the ratio and peak memory. The real-world corpus (corpus/real-world, committed by its own
// change) is one more shape when the folder exists.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findTool, howToBuild, REPO_ROOT } from "../testing/test-tools.ts";
import { writeKubeconformSchemas } from "./kubeconform-schemas.ts";
import { countKubeconform, countOurs, type Measurement, measure, median, medianRoundRatio, ourCommand } from "./measure.ts";
import { BENCH_CRDS, benchCrd, describeShape, type Shape, SHAPES, shapeFiles } from "./world.ts";

export const REAL_WORLD_DIR = join(REPO_ROOT, "packages/validate/corpus/real-world");

export interface ShapesOptions {
  readonly shapes: readonly (Shape | "real-world")[];
  readonly sizes: readonly number[];
  readonly rounds: number;
  /** A scratch folder (removed by the caller). */
  readonly work: string;
  readonly seed: number;
  /** Every run on these CPUs only (`taskset -c`, see checkCpuList). @default the machine's */
  readonly cpus?: string;
  /** Our CLI's entry point (see ourCommand). @default packages/cli/bin/eks-gitops.sh, as `pnpm validate` runs it */
  readonly cli?: string;
}

interface Row {
  readonly shape: string;
  readonly objects: number;
  readonly ours: Measurement;
  readonly theirs: Measurement | undefined;
  /** See medianRoundRatio. */
  readonly roundRatio: number | undefined;
  readonly expectedInvalid: number | undefined;
}

/** Writes one shape's corpus under `dir`; returns what it holds. */
function writeShape(shape: Shape, count: number, dir: string, seed: number): { objects: number; invalid: number; dangling: number } {
  for (const [name, text] of shapeFiles(shape, count, seed)) {
    const file = join(dir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return describeShape(shape, count, seed);
}

function printRows(rows: readonly Row[]): void {
  const header = ["shape", "objects", "ours s", "kubeconform s", "ours/kc", "by round", "CPU s ours", "CPU s kc", "CPU ours/kc", "ours MB", "kc MB", "invalid ours/kc/made"];
  const cells = rows.map((r) => [
    r.shape,
    String(r.objects),
    r.ours.wallSeconds.toFixed(2),
    r.theirs ? r.theirs.wallSeconds.toFixed(2) : "-",
    r.theirs ? (r.ours.wallSeconds / r.theirs.wallSeconds).toFixed(2) : "-",
    r.roundRatio !== undefined ? r.roundRatio.toFixed(2) : "-",
    r.ours.cpuSeconds.toFixed(2),
    r.theirs ? r.theirs.cpuSeconds.toFixed(2) : "-",
    r.theirs ? (r.ours.cpuSeconds / r.theirs.cpuSeconds).toFixed(2) : "-",
    r.ours.peakRssMb.toFixed(0),
    r.theirs ? r.theirs.peakRssMb.toFixed(0) : "-",
    `${r.ours.invalid}/${r.theirs?.invalid ?? "-"}/${r.expectedInvalid ?? "?"}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: readonly string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i] as number) : x.padStart(widths[i] as number))).join("  ");
  console.log(line(header));
  for (const c of cells) console.log(line(c));
}

/** Runs the shapes section and prints its table; returns the rows (for the targets line). */
export async function benchShapes(options: ShapesOptions): Promise<void> {
  const kubeconform = findTool("kubeconform");
  let location: string | undefined;
  if (kubeconform) {
    const schemas = join(options.work, "kubeconform-shapes-schemas");
    // every catalog kind (the real-world corpus has many) plus the CRD-heavy shape's own CRDs
    await writeKubeconformSchemas(schemas, undefined, { extraCrds: Array.from({ length: BENCH_CRDS }, (_, n) => benchCrd(n)) });
    location = `${schemas}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
  } else console.log(`kubeconform: skipped, ${howToBuild("kubeconform")}`);
  const cli = ourCommand(REPO_ROOT, options.cli);
  const ours = (dir: string) => [...cli, "validate", dir, "--output", "json", "--root", REPO_ROOT];
  const theirs = (dir: string) => (kubeconform && location ? [kubeconform, "-strict", "-summary", "-output", "json", "-schema-location", location, dir] : undefined);
  const rows: Row[] = [];
  const run = (shape: string, dir: string, objects: number, expectedInvalid: number | undefined) => {
    const o: Measurement[] = [];
    const t: Measurement[] = [];
    const kc = theirs(dir);
    const runOurs = () => o.push(measure("@eks-gitops/validate", ours(dir), options.work, countOurs, options.cpus));
    const runTheirs = () => kc && t.push(measure("kubeconform -strict", kc, options.work, countKubeconform, options.cpus));
    // each tool first in every other round: neither always runs on the other's page cache and warmed CPU
    for (let round = 0; round < options.rounds; round++) for (const turn of round % 2 === 0 ? [runOurs, runTheirs] : [runTheirs, runOurs]) turn();
    const row: Row = { shape, objects, ours: median(o), theirs: t.length > 0 ? median(t) : undefined, roundRatio: medianRoundRatio(o, t), expectedInvalid };
    // peak memory is the highest of the rounds, not the median's
    rows.push({ ...row, ours: { ...row.ours, peakRssMb: Math.max(...o.map((m) => m.peakRssMb)) } });
    const runs = (ms: Measurement[]) => ms.map((m) => `${m.wallSeconds.toFixed(2)} (CPU ${m.cpuSeconds.toFixed(2)})`).join(" ");
    console.log(`  ${shape} ${objects}: ours ${runs(o)}${t.length > 0 ? `; kubeconform ${runs(t)}` : ""}`);
  };
  for (const size of options.sizes) {
    for (const shape of options.shapes) {
      if (shape === "real-world") continue;
      const dir = join(options.work, `shape-${shape}-${size}`);
      const made = writeShape(shape, size, dir, options.seed);
      run(shape, dir, size, made.invalid);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (options.shapes.includes("real-world")) {
    if (existsSync(REAL_WORLD_DIR)) run("real-world", REAL_WORLD_DIR, 0, undefined);
    else console.log(`real-world: skipped, no ${REAL_WORLD_DIR}`);
  }
  console.log(
    `\nshapes (seed ${options.seed}${options.cpus === undefined ? "" : `; every run on CPUs ${options.cpus} only, taskset -c`}; medians of ${options.rounds} interleaved rounds by wall time, with that run's CPU time; ours/kc: the ratio of the two medians; by round: the median of each round's own ratio, steadier on a host whose speed drifts; peak MB the highest round; invalid: objects ours / kubeconform / made invalid, cross-object findings apart):`,
  );
  printRows(rows.map((r) => (r.shape === "real-world" ? { ...r, objects: r.ours.objects } : r)));
  const worst = rows.filter((r) => r.theirs).map((r) => r.ours.wallSeconds / (r.theirs as Measurement).wallSeconds);
  // judged on the ratio of the medians, as before; the worst round-by-round ratio is given beside it
  const worstByRound = Math.max(...rows.flatMap((r) => (r.roundRatio === undefined ? [] : [r.roundRatio])));
  const largest = Math.max(...options.sizes);
  const sized = rows.filter((r) => r.shape !== "real-world" && r.objects === largest);
  const peak = Math.max(0, ...sized.map((r) => r.ours.peakRssMb));
  console.log(
    `targets: <= 0.8x kubeconform on every shape (${worst.length === 0 ? "n/a" : worst.every((w) => w <= 0.8) ? "met" : `NOT met: worst ${Math.max(...worst).toFixed(2)}x`}${worst.length === 0 ? "" : `; worst by round ${worstByRound.toFixed(2)}x`}), ` +
      `< 250 MB at ${largest} objects (${sized.length === 0 ? "n/a" : `${peak < 250 ? "met" : "NOT met"}: ${peak.toFixed(0)} MB`})`,
  );
}

export const ALL_SHAPES: readonly (Shape | "real-world")[] = [...SHAPES, "real-world"];


import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeKubectlValidateSchemas } from "../testing/kube-schemas.ts";
import { findTool, howToBuild, REPO_ROOT } from "../testing/test-tools.ts";
import { buildCorpus, CORPUS_KINDS, corpusFiles } from "./corpus.ts";
import { writeKubeconformSchemas } from "./kubeconform-schemas.ts";
import { checkCpuList, countKubeconform, countOurs, type Measurement, measure, median, ourCommand, TIME } from "./measure.ts";
import { ALL_SHAPES, benchShapes, type ShapesOptions } from "./shapes.ts";
import type { Shape } from "./world.ts";

function countKubectlValidate(stdout: string) {
  const results = Object.values(JSON.parse(stdout) as Record<string, { status?: string }[]>).flat();
  return { objects: results.length, invalid: results.filter((r) => r.status !== "Success").length };
}

/** The results as an aligned table, with each tool's time relative to ours (the first row). */
function printTable(results: readonly Measurement[]): void {
  const ours = results[0]!;
  const rows = results.map((r) => [
    r.tool,
    r.wallSeconds.toFixed(2),
    Math.round(r.objects / r.wallSeconds).toString(),
    r.peakRssMb.toFixed(0),
    `${r.invalid}/${r.objects}`,
    r === ours ? "1.00" : (r.wallSeconds / ours.wallSeconds).toFixed(2),
  ]);
  const header = ["tool", "wall s", "objects/s", "peak RSS MB", "invalid/objects", "time vs ours"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

/** The shapes section's options, as benchShapes takes them but for the scratch folder and the CPUs. */
type ShapeOptions = Omit<ShapesOptions, "work" | "cpus">;

async function runShapes(options: ShapeOptions, work: string, cpus: string | undefined): Promise<void> {
  if (options.shapes.length === 0) return;
  console.log(`\nshapes: ${options.shapes.join(", ")} at ${options.sizes.join(",")} objects`);
  await benchShapes({ ...options, work, ...(cpus === undefined ? {} : { cpus }) });
}

/** A whole-number option, at least `min`; anything else is a usage error naming it (Number() would take "", "1e3" or "0x10"). */
function whole(name: string, value: string | undefined, min: number): number {
  if (!isWhole(value, min)) throw new OptionError(`--${name} ${value ?? ""}: a whole number, at least ${min}`);
  return Number(value);
}

const isWhole = (value: string | undefined, min: number): value is string => value !== undefined && /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) && Number(value) >= min;

/** --sizes: a comma list of object counts. */
function sizeList(value: string | undefined): number[] {
  const sizes = String(value).split(",").map((s) => s.trim());
  if (!sizes.every((s) => isWhole(s, 1))) throw new OptionError(`--sizes ${value}: a comma list of whole numbers of objects, each at least 1`);
  return sizes.map(Number);
}

/** --shapes: a comma list of ALL_SHAPES, or "none" (no shapes section). */
function shapeList(value: string | undefined): (Shape | "real-world")[] {
  if (value === undefined || value === "none") return [];
  const shapes = value.split(",").map((s) => s.trim()) as (Shape | "real-world")[];
  for (const s of shapes) if (!ALL_SHAPES.includes(s)) throw new OptionError(`--shapes: unknown shape ${s}; one of ${ALL_SHAPES.join(", ")}`);
  return shapes;
}

/** The bench's options (strict: an unknown option or a stray word throws). */
function parseOptions(args: string[]) {
  return parseArgs({
    args,
    options: {
      count: { type: "string", default: "5000" },
      "per-file": { type: "string", default: "100" },
      keep: { type: "boolean", default: false },
      rounds: { type: "string", default: "5" },
      // the streaming-memory corpus (issue 11): 0 skips it
      large: { type: "string", default: "50000" },
      "large-rounds": { type: "string", default: "3" },
      // the shapes section (issue 19): every input shape at each size, side by side with kubeconform; "none" skips it
      shapes: { type: "string", default: ALL_SHAPES.join(",") },
      sizes: { type: "string", default: "5000,50000" },
      "shape-rounds": { type: "string", default: "3" },
      seed: { type: "string", default: "19" },
      // our CLI entry for the shapes section (e.g. a runner of a frozen bundle of an earlier commit)
      cli: { type: "string" },
      // every tool on these CPUs only (taskset -c LIST): figures of a machine with fewer CPUs, e.g. --cpus 0 for one
      cpus: { type: "string" },
      // only the shapes section (the older single-shape sections are skipped)
      "shapes-only": { type: "boolean", default: false },
    },
  });
}

async function main(): Promise<void> {
  // `pnpm bench -- --count 1000` (typed in this package) passes the `--` through, and parseArgs would take every
  // option after it for a word of no meaning: the options follow it
  const args = process.argv.slice(2);
  if (args[0] === "--") args.shift();
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(args);
  } catch (err) {
    // an unknown option or a stray word is a usage error (exit 2), in parseArgs' own words
    if (String((err as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS")) throw new OptionError((err as Error).message);
    throw err;
  }
  const { values } = parsed;
  // a bad option is said before anything about the machine, and before anything runs
  const rounds = whole("rounds", values.rounds, 1);
  const count = whole("count", values.count, 1);
  const perFile = whole("per-file", values["per-file"], 1);
  const large = whole("large", values.large, 0);
  const largeRounds = whole("large-rounds", values["large-rounds"], 1);
  const shapeOptions: ShapeOptions = {
    shapes: shapeList(values.shapes),
    sizes: sizeList(values.sizes),
    rounds: whole("shape-rounds", values["shape-rounds"], 1),
    seed: whole("seed", values.seed, 0),
    ...(values.cli ? { cli: values.cli } : {}),
  };
  let cpus: string | undefined;
  try {
    cpus = checkCpuList(values.cpus);
  } catch (err) {
    throw new OptionError((err as Error).message);
  }
  if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed to measure peak RSS of each process`);
  const machine = () => `machine: ${availableParallelism()} CPUs${cpus === undefined ? "" : ` (every run on CPUs ${cpus} only: taskset -c ${cpus})`}, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`;
  const work = mkdtempSync(join(tmpdir(), "eks-gitops-bench-"));
  try {
    if (values["shapes-only"]) {
      console.log(machine());
      await runShapes(shapeOptions, work, cpus);
      return;
    }
    const corpus = buildCorpus(count);
    const corpusDir = join(work, "corpus");
    mkdirSync(corpusDir);
    for (const [name, text] of corpusFiles(corpus, perFile)) writeFileSync(join(corpusDir, name), text);
    const invalid = corpus.filter((c) => c.defect).length;
    const celOnly = corpus.filter((c) => c.celOnly).length;
    // Shared machines skew absolute figures; the ratios come from one run on the same machine.
    console.log(machine());
    console.log(`corpus: ${count} objects (${CORPUS_KINDS.join(", ")}) in ${Math.ceil(count / perFile)} files; ${invalid} invalid, ${celOnly} of them visible only to CEL`);

    // Ours and kubeconform run `rounds` times, interleaved, and the median run of each is reported: on a
    // shared machine one run of either can land on a busy moment. kubectl-validate (a minute a run) runs once.
    const ourArgv = [...ourCommand(REPO_ROOT), "validate", corpusDir, "--output", "json", "--root", REPO_ROOT];
    // a first, unmeasured run builds the CLI bundle and the validator code caches if they are missing
    measure("@eks-gitops/validate", ourArgv, work, countOurs, cpus);
    const kubeconform = findTool("kubeconform");
    let kubeconformArgv: string[] | undefined;
    if (kubeconform) {
      const schemas = join(work, "kubeconform-schemas");
      await writeKubeconformSchemas(schemas, new Set(CORPUS_KINDS));
      const location = `${schemas}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
      kubeconformArgv = [kubeconform, "-strict", "-summary", "-output", "json", "-schema-location", location, corpusDir];
    } else console.log(`kubeconform: skipped, ${howToBuild("kubeconform")}`);
    const ours: Measurement[] = [];
    const theirs: Measurement[] = [];
    for (let round = 0; round < rounds; round++) {
      ours.push(measure("@eks-gitops/validate", ourArgv, work, countOurs, cpus));
      if (kubeconformArgv) theirs.push(measure("kubeconform -strict", kubeconformArgv, work, countKubeconform, cpus));
    }
    const results: Measurement[] = [median(ours)];
    if (theirs.length > 0) results.push(median(theirs));
    console.log(
      `rounds: ${rounds}; wall s of each run: ours ${ours.map((m) => m.wallSeconds.toFixed(2)).join(" ")}` +
        (theirs.length > 0 ? `, kubeconform ${theirs.map((m) => m.wallSeconds.toFixed(2)).join(" ")}` : ""),
    );

    const kubectlValidate = findTool("kubectl-validate");
    if (kubectlValidate) {
      const dirs = await writeKubectlValidateSchemas(join(work, "kubectl-validate"), (p) => !p.endsWith("applicationset-crd.yaml"));
      results.push(
        measure("kubectl-validate", [kubectlValidate, "--local-crds", dirs.crds, "--local-schemas", dirs.schemas, "--version", "1.35", "--output", "json", corpusDir], work, countKubectlValidate, cpus),
      );
    } else console.log(`kubectl-validate: skipped, ${howToBuild("kubectl-validate")}`);

    const oursMedian = results[0]!;
    printTable(results);
    console.log(
      `targets: >= kubeconform speed while running CEL (${results[1] ? (results[1].wallSeconds >= oursMedian.wallSeconds ? "met" : "NOT met") : "n/a"}), ` +
        `>= 10x faster than kubectl-validate (${results[2] ? (results[2].wallSeconds / oursMedian.wallSeconds >= 10 ? "met" : "NOT met") : "n/a"}), ` +
        `< 400 MB (${Math.max(...ours.map((m) => m.peakRssMb)) < 400 ? "met" : "NOT met"})`,
    );
    if (oursMedian.invalid !== invalid) console.log(`warning: @eks-gitops/validate found ${oursMedian.invalid} invalid objects, the corpus has ${invalid}`);

    // Streaming memory: ten times the objects must not mean ten times the memory (issue 11: < 250 MB at 50,000).
    if (large > 0) {
      const largeCorpus = buildCorpus(large);
      const largeDir = join(work, "corpus-large");
      mkdirSync(largeDir);
      for (const [name, text] of corpusFiles(largeCorpus, perFile)) writeFileSync(join(largeDir, name), text);
      const largeInvalid = largeCorpus.filter((c) => c.defect).length;
      console.log(`\nlarge corpus: ${large} objects in ${Math.ceil(large / perFile)} files; ${largeInvalid} invalid; ${largeRounds} rounds, median`);
      const oursLarge: Measurement[] = [];
      const theirsLarge: Measurement[] = [];
      for (let round = 0; round < largeRounds; round++) {
        oursLarge.push(measure("@eks-gitops/validate", [...ourArgv.slice(0, 3), largeDir, ...ourArgv.slice(4)], work, countOurs, cpus));
        if (kubeconformArgv) theirsLarge.push(measure("kubeconform -strict", [...kubeconformArgv.slice(0, -1), largeDir], work, countKubeconform, cpus));
      }
      const largeResults = [median(oursLarge), ...(theirsLarge.length > 0 ? [median(theirsLarge)] : [])];
      printTable(largeResults);
      const peak = Math.max(...oursLarge.map((m) => m.peakRssMb));
      const small = Math.max(...ours.map((m) => m.peakRssMb));
      console.log(
        `targets: < 250 MB at ${large} objects (${peak < 250 ? "met" : "NOT met"}: highest of ${largeRounds} runs ${peak.toFixed(0)} MB, ` +
          `${(peak / small).toFixed(2)}x the ${count}-object run for ${(large / count).toFixed(0)}x the objects)`,
      );
      if (largeResults[0]!.invalid !== largeInvalid) console.log(`warning: @eks-gitops/validate found ${largeResults[0]!.invalid} invalid objects, the corpus has ${largeInvalid}`);
    }
    await runShapes(shapeOptions, work, cpus);
  } finally {
    if (values.keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** A bad option (its message names it): said in one line, exit code 2; anything else is a fault, with its stack. */
class OptionError extends Error {}

try {
  await main();
} catch (err) {
  if (!(err instanceof OptionError)) throw err;
  process.stderr.write(`bench: ${err.message}\n`);
  process.exitCode = 2;
}

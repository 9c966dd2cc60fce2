// The read-ahead worker of `validate` (packages/validate/src/read-ahead.ts), started before the validator loads: by
// the launcher, before the CLI's bundle loads (bin/bundle.js runs this module bundled alone, read-ahead-start.cjs),
// or by the command when the launcher could not. Nothing here may load more than the decision needs.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Worker } from "node:worker_threads";
import { CLUSTERS_DIR, RENDERED_DIR } from "@eks-gitops/config/layout";
import { startReadAheadWorker, worthReadingAhead } from "@eks-gitops/validate/read-ahead-start";
import { VALIDATE_OPTIONS } from "./commands/validate-options.ts";
import { type CpuBudget, cpuBudget, LOADAVG_AT_START } from "./cpu-budget.ts";
import { findRepoRoot } from "./repo.ts";

/**
 * The paths `validate` will read, as typed (or, with none, every clusters/<name>/rendered of the root), for a
 * first look at how much there is; undefined when the arguments cannot be read (the command reports why).
 */
function typedPaths(argv: readonly string[]): string[] | undefined {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: VALIDATE_OPTIONS, strict: false, allowPositionals: true });
    // --help reads nothing
    if (values.help === true) return [];
    if (positionals.length > 0) return positionals;
    // validate's own defaultPaths() would load the validator (and listClusters the overlay checks) before the
    // worker starts: the folders are listed here, a folder too many only making the worker start
    const root = typeof values.root === "string" ? values.root : findRepoRoot();
    const clusters = join(root, CLUSTERS_DIR);
    if (!existsSync(clusters)) return [];
    return readdirSync(clusters)
      .map((name) => join(clusters, name, RENDERED_DIR))
      .filter((p) => existsSync(p));
  } catch {
    return undefined;
  }
}

/**
 * CPUs' worth of time the read-ahead worker needs to pay. It costs CPU of its own (its start, its own copy of the
 * code warming up, each file's documents copied to this thread): block 5,000 takes ~1.4 CPU s with it against
 * ~1.1 s on this thread alone. On one CPU the two threads only take turns, and that is all loss; with a cgroup
 * quota of 1.5 CPUs it still is. `validate DIR -o json`, medians of 4-5 interleaved runs (2026-12-04), block 5,000:
 * one CPU (taskset -c 0) 1.60 s with the worker against 1.21 s without (every shape 19-33% less time without, see
 * the validate README); 1.5 CPUs of quota 1.21 against 1.04 s; two CPUs 0.87 against 0.96 s (7-15% faster with it on
 * every shape but crd-heavy, 0.40 against 0.38 s); two CPUs beside another program's busy thread 1.31 against 1.07 s
 * (json 5,000 1.27 against 1.05 s, 7 rounds), so the CPUs other programs keep busy are left out of the count.
 */
export const READ_AHEAD_MIN_CPUS = 2;

/** The read-ahead worker started, or why none was. */
export interface ReadAheadStart {
  readonly worker?: Worker;
  /** Seconds after the process started that the worker was (said by `validate --timings`). */
  readonly startedAt?: number;
  /** Why no worker was started (said by `validate --timings`). */
  readonly without?: string;
  /** Started by the launcher, before the CLI's bundle loaded (bin/bundle.js, runBundle), not by the command. */
  readonly early?: boolean;
}

/** The global bin/bundle.js sets to the folder of the bundle it runs (BUNDLE_DIR_GLOBAL there): the worker's file is there. */
export const BUNDLE_DIR = Symbol.for("eks-gitops.bundle-dir");

/** The global the launcher leaves what it started in (bin/bundle.js, READ_AHEAD_STARTED there), for `validate`. */
export const READ_AHEAD_STARTED = Symbol.for("eks-gitops.read-ahead-started");

/**
 * What the launcher started for `validate` before the CLI's bundle loaded (bin/bundle.js runs startReadAhead from
 * read-ahead-start.cjs), taken once: the global is gone after, so nothing else sees the worker. Undefined when the
 * launcher did not decide (run from the sources, another command, no read-ahead-start.cjs): the command decides.
 */
export function takeLauncherReadAhead(): ReadAheadStart | undefined {
  const global = globalThis as Record<symbol, unknown>;
  const started = global[READ_AHEAD_STARTED] as ReadAheadStart | undefined;
  delete global[READ_AHEAD_STARTED];
  return started;
}

/**
 * bin/bundle.js builds the worker beside bin.cjs and names the folder; run from the sources
 * (EKS_GITOPS_FROM_SOURCE=1), or with EKS_GITOPS_READ_AHEAD=0, every file is read on the main thread, with the
 * same results. So are they for inputs too small for a worker to pay (READ_AHEAD_MIN_BYTES), and with fewer than
 * READ_AHEAD_MIN_CPUS CPUs to run on (cpu-budget.ts: the process's affinity and its cgroups' CPU quota, less the
 * machine's CPUs other programs' running threads take), unless
 * EKS_GITOPS_READ_AHEAD=1 asks for the worker whatever the machine and the input (tests compare both ways).
 */
export function startReadAhead(
  argv: readonly string[],
  budget: () => CpuBudget = () => cpuBudget("/", undefined, (globalThis as Record<symbol, unknown>)[LOADAVG_AT_START] as string | undefined),
  /** Given by the launcher when it sets V8's flags after the worker starts (see startReadAheadWorker). */
  flagsGate?: Int32Array,
): ReadAheadStart {
  const dir = (globalThis as Record<symbol, unknown>)[BUNDLE_DIR];
  const wanted = process.env.EKS_GITOPS_READ_AHEAD;
  if (typeof dir !== "string") return { without: "run from the TypeScript sources" };
  if (wanted === "0") return { without: "EKS_GITOPS_READ_AHEAD=0" };
  if (wanted !== "1") {
    // the input first: the overlays users validate most are too small anyway, and counting CPUs reads /proc and the
    // cgroup files (~0.7 ms)
    const paths = typedPaths(argv);
    if (paths !== undefined && !worthReadingAhead(paths)) return { without: "input too small to pay for it" };
    let counted: CpuBudget | undefined;
    try {
      counted = budget();
    } catch {
      // whatever could not be read: the worker is started, as before the CPUs were counted
    }
    if (counted && counted.cpus < READ_AHEAD_MIN_CPUS) {
      if (counted.by === "busy" && counted.busy) {
        const { others, machineCpus } = counted.busy;
        return { without: `${others} other thread${others === 1 ? "" : "s"} running on the machine's ${machineCpus} CPU${machineCpus === 1 ? "" : "s"}` };
      }
      // rounded down: a quota of 1.999 CPUs is never shown as the 2 a worker needs
      const shown = Math.floor(counted.cpus * 100) / 100;
      return { without: `${shown} CPU${shown === 1 ? "" : "s"} ${counted.by === "affinity" ? "to run on" : "of cgroup quota"}` };
    }
  }
  const worker = startReadAheadWorker(join(dir, "read-ahead-worker.cjs"), flagsGate);
  return worker ? { worker, startedAt: process.uptime() } : { worker };
}

// A fuzz campaign: N seeded inputs in batches (deterministic: batch b uses seed+b, so a run can resume at any input).
import fc from "fast-check";
import { ObjectValidator } from "../validate.ts";
import { type FuzzCase, fuzzCases, loadSeeds } from "./cases.ts";
import { createEnv, disposeEnv, runCase } from "./harness.ts";

const BATCH = 50;
/** Compiled validators of the cases' CRDs accumulate: a fresh validator every so many inputs keeps memory flat. */
const FRESH_VALIDATOR_EVERY = 1_000;

export interface FuzzFailure {
  readonly index: number;
  readonly label: string;
  readonly exitCode: number;
  readonly problems: readonly string[];
}

export interface FuzzStats {
  tried: number;
  internalErrors: number;
  failures: FuzzFailure[];
  exitCodes: Record<number, number>;
  slowest: { ms: number; label: string; index: number };
}

export interface CampaignOptions {
  readonly runs: number;
  readonly seed: number;
  /** Start at this input (after a hang, the watchdog resumes past it). @default 0 */
  readonly from?: number;
  /** Shrinks the large generated inputs (see fuzzCases). @default 1 */
  readonly sizeScale?: number;
  readonly mirror?: string;
  readonly cacheDir: string;
  readonly onStart?: (index: number, label: string) => void;
  readonly onDone?: (index: number, label: string, ms: number, failure: FuzzFailure | undefined) => void;
}

/** The inputs of batch `b` (each batch is its own seeded sample). */
export function batch(arb: fc.Arbitrary<FuzzCase>, seed: number, b: number, size = BATCH): FuzzCase[] {
  return fc.sample(arb, { seed: seed + b, numRuns: size });
}

export async function runCampaign(options: CampaignOptions): Promise<FuzzStats> {
  const arb = fuzzCases(loadSeeds(), options.sizeScale ?? 1);
  const env = await createEnv({ mirror: options.mirror, cacheDir: options.cacheDir });
  const stats: FuzzStats = { tried: 0, internalErrors: 0, failures: [], exitCodes: {}, slowest: { ms: 0, label: "", index: -1 } };
  try {
    const from = options.from ?? 0;
    for (let b = Math.floor(from / BATCH); b * BATCH < options.runs; b++) {
      const cases = batch(arb, options.seed, b);
      for (const [k, c] of cases.entries()) {
        const index = b * BATCH + k;
        if (index < from || index >= options.runs) continue;
        if (index % FRESH_VALIDATOR_EVERY === 0) env.validator = new ObjectValidator();
        options.onStart?.(index, c.label);
        const r = await runCase(c, env);
        stats.tried++;
        stats.exitCodes[r.exitCode] = (stats.exitCodes[r.exitCode] ?? 0) + 1;
        if (r.exitCode === 3) stats.internalErrors++;
        const failure = r.problems.length > 0 ? { index, label: c.label, exitCode: r.exitCode, problems: r.problems } : undefined;
        if (failure) stats.failures.push(failure);
        if (r.ms > stats.slowest.ms) stats.slowest = { ms: r.ms, label: c.label, index };
        options.onDone?.(index, c.label, r.ms, failure);
      }
    }
  } finally {
    disposeEnv(env);
  }
  return stats;
}

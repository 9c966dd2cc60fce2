// Ties that Karpenter breaks by Go map iteration order, which is random per run: the zone among tied topology
// domains (topologygroup.go nextDomainTopologySpread ranges over the map t.domains, or the set of the NodeClaim's
// zones) and the order of the DaemonSet overhead groups (scheduler.go buildDaemonOverheadGroups: lo.Values of a map;
// nodeclaim.go addDaemonRequests folds them in that order). `simulate` reports one deterministic answer (FIRST_TIE:
// the first option in the documented order); `simulateOutcomes` walks every combination of choices, so a test can
// ask whether Karpenter's outcome is one of the possible ones (README "Ties"). A pod that drew a tied zone where it
// fails is tried again after the others with a new draw, as Karpenter's queue retries it (scheduler.ts `redraw`).
import type { SimulationResult } from "./types.ts";

/** Picks one of `n` >= 2 tied options, by index in the model's documented order. */
export interface TieBreaker {
  pick(n: number): number;
  /** Enumerating: the caller offers only the options that can lead to different results (costs extra checks). */
  readonly enumerating: boolean;
}

/** The product's rule: always the first option (the lowest zone name; DaemonSet groups in insertion order). */
export const FIRST_TIE: TieBreaker = { pick: () => 0, enumerating: false };

/** Follows a script of choices, then takes the first option; records how many options each tie had. */
class ScriptedTies implements TieBreaker {
  readonly seen: number[] = [];
  readonly enumerating = true;
  constructor(private readonly script: readonly number[]) {}
  pick(n: number): number {
    const i = this.seen.length;
    this.seen.push(n);
    return this.script[i] ?? 0;
  }
}

export interface Outcomes {
  /** The distinct results, the product's (every tie at its first option) first. */
  results: SimulationResult[];
  /** Every combination of tie choices was run (false: a bound was hit and `results` is a subset). */
  complete: boolean;
  /** Simulation runs made. */
  runs: number;
  /** The result `until` accepted (the walk stopped there). */
  found?: SimulationResult;
}

/**
 * Every distinct result over all the ways the ties can break: a depth-first walk over the choices, one simulation run
 * per combination, each run re-made from the start with the choices of the previous one up to the last tie that has
 * options left. Bounded: stops once `maxOutcomes` distinct results or `maxRuns` runs are reached (`complete` false).
 * Results are told apart by `key` (default: the NodeClaims, pending pods and workloads in full; a test may pass a
 * coarser key, e.g. without NodeClaim names and zones). `until`: stop at the first distinct result it accepts (a test
 * asking whether an outcome is possible needs no more; `found` holds it).
 */
export function enumerateOutcomes(
  run: (ties: TieBreaker) => SimulationResult,
  bounds: { maxOutcomes?: number; maxRuns?: number; key?: (r: SimulationResult) => string; until?: (r: SimulationResult) => boolean } = {},
): Outcomes {
  const maxOutcomes = bounds.maxOutcomes ?? 256;
  const maxRuns = bounds.maxRuns ?? 2048;
  const keyOf = bounds.key ?? ((r: SimulationResult) => JSON.stringify([r.nodeClaims, r.pending, r.workloads]));
  const distinct = new Map<string, SimulationResult>();
  let script: number[] = [];
  let runs = 0;
  for (;;) {
    const ties = new ScriptedTies(script);
    const result = run(ties);
    runs++;
    const key = keyOf(result);
    if (!distinct.has(key)) {
      distinct.set(key, result);
      if (bounds.until?.(result)) return { results: [...distinct.values()], complete: false, runs, found: result };
    }
    const choices = ties.seen.map((_, i) => script[i] ?? 0);
    let i = choices.length - 1;
    while (i >= 0 && choices[i]! + 1 >= ties.seen[i]!) i--;
    if (i < 0) return { results: [...distinct.values()], complete: true, runs };
    if (distinct.size >= maxOutcomes || runs >= maxRuns) return { results: [...distinct.values()], complete: false, runs };
    script = [...choices.slice(0, i), choices[i]! + 1];
  }
}

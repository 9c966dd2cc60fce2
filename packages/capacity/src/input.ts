// The simulation input, checked and expanded: one shape per workload, one pod per replica, DaemonSet requests.
import { type Amounts, parseAmounts } from "./instance-types.ts";
import { QuantityError } from "./quantity.ts";
import { Requirements } from "./requirements.ts";
import type { DaemonSetInput, InstanceTypeInfo, InstanceTypeSnapshot, NodeSelectorTerm, SimulationInput, Toleration, WorkloadInput } from "./types.ts";

/** A fault in the simulation input (exit code 2): `path` names the field, e.g. `nodePools[0].nodeClass`. */
export class SimulationError extends Error {
  override readonly name = "SimulationError";
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Pods

export interface PodShape {
  readonly id: number;
  readonly workload: string;
  readonly requests: Amounts; // includes pods: 1
  /** `requests` over the simulation's resource space (see ResourceSpace). */
  vec: Float64Array;
  /** One Requirements per required node affinity term (each with the node selector); tried in order like Karpenter's relaxation. */
  readonly terms: readonly Requirements[];
  readonly selector: Readonly<Record<string, string>>;
  readonly affinity?: readonly NodeSelectorTerm[];
  readonly tolerations: readonly Toleration[];
  readonly onePerNode: boolean;
  /** maxSkew of a DoNotSchedule zone spread over the workload's pods. */
  readonly zoneSpread?: number;
  /** maxSkew of a DoNotSchedule hostname spread over the workload's pods. */
  readonly hostnameSpread?: number;
}

export interface Pod {
  readonly name: string;
  readonly shape: PodShape;
  readonly order: number;
}

export function podTerms(selector: Readonly<Record<string, string>>, affinity: readonly NodeSelectorTerm[] | undefined, path: string): Requirements[] {
  const base = Requirements.fromLabels(selector);
  if (!affinity || affinity.length === 0) return [base];
  return affinity.map((term, i) => {
    try {
      return base.copy().addAll(Requirements.fromSelectors(term.matchExpressions ?? []));
    } catch (e) {
      throw new SimulationError(`${path}.requiredNodeAffinity[${i}]`, (e as Error).message);
    }
  });
}

export function amounts(quantities: WorkloadInput["requests"] | undefined, path: string): Amounts {
  try {
    return parseAmounts(quantities);
  } catch (e) {
    if (e instanceof QuantityError) throw new SimulationError(path, e.message);
    throw e;
  }
}

export interface DaemonSetPods {
  readonly input: DaemonSetInput;
  readonly requests: Amounts;
  readonly terms: readonly Requirements[];
}

export interface Prepared {
  readonly pods: Pod[];
  readonly shapes: PodShape[];
  readonly daemonSets: DaemonSetPods[];
  readonly types: Map<string, InstanceTypeInfo>;
}

export function prepare(input: SimulationInput, snapshot: InstanceTypeSnapshot): Prepared {
  if (input.region !== undefined && input.region !== snapshot.region) {
    throw new SimulationError("region", `the cluster is in ${input.region} but the instance-type snapshot is for ${snapshot.region}`);
  }
  const types = new Map(snapshot.instanceTypes.map((t) => [t.name, t]));
  const daemonSets = input.daemonSets.map((ds, i) => ({
    input: ds,
    requests: { ...amounts(ds.requests, `daemonSets[${i}].requests`), pods: 1 },
    terms: podTerms(ds.nodeSelector ?? {}, ds.requiredNodeAffinity, `daemonSets[${i}]`),
  }));
  const shapes: PodShape[] = [];
  const pods: Pod[] = [];
  const seen = new Set<string>();
  input.workloads.forEach((w, i) => {
    const id = `${w.namespace}/${w.name}`;
    if (seen.has(id)) throw new SimulationError(`workloads[${i}]`, `${id} is declared twice`);
    seen.add(id);
  });
  const ordered = input.workloads.map((w, i) => ({ w, i })).sort((a, b) => (b.w.priority ?? 0) - (a.w.priority ?? 0) || a.i - b.i);
  for (const { w, i } of ordered) {
    const path = `workloads[${i}]`;
    if (!Number.isInteger(w.replicas) || w.replicas < 0) throw new SimulationError(`${path}.replicas`, `must be a non-negative integer (got ${w.replicas})`);
    const workload = `${w.namespace}/${w.name}`;
    if (w.zoneSpread && !(Number.isInteger(w.zoneSpread.maxSkew) && w.zoneSpread.maxSkew >= 1)) {
      throw new SimulationError(`${path}.zoneSpread.maxSkew`, `must be a whole number of at least 1 (got ${w.zoneSpread.maxSkew})`);
    }
    if (w.hostnameSpread && !(Number.isInteger(w.hostnameSpread.maxSkew) && w.hostnameSpread.maxSkew >= 1)) {
      throw new SimulationError(`${path}.hostnameSpread.maxSkew`, `must be a whole number of at least 1 (got ${w.hostnameSpread.maxSkew})`);
    }
    const shape: PodShape = {
      id: shapes.length,
      workload,
      requests: { ...amounts(w.requests, `${path}.requests`), pods: 1 },
      vec: new Float64Array(0),
      terms: podTerms(w.nodeSelector ?? {}, w.requiredNodeAffinity, path),
      selector: w.nodeSelector ?? {},
      ...(w.requiredNodeAffinity ? { affinity: w.requiredNodeAffinity } : {}),
      tolerations: w.tolerations ?? [],
      onePerNode: w.onePerNode === true,
      ...(w.zoneSpread ? { zoneSpread: w.zoneSpread.maxSkew } : {}),
      ...(w.hostnameSpread ? { hostnameSpread: w.hostnameSpread.maxSkew } : {}),
    };
    shapes.push(shape);
    for (let r = 0; r < w.replicas; r++) pods.push({ name: `${workload}-${r + 1}`, shape, order: pods.length });
  }
  return { pods, shapes, daemonSets, types };
}


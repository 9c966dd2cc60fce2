// Public entry points of the simulation; the scheduler itself is laid out as Karpenter's files are:
// scheduler.ts (scheduler.go), nodeclaim.ts (nodeclaim.go), nodeclaimtemplate.ts (nodeclaimtemplate.go),
// topology.ts (topology.go, topologygroup.go), existingnode.ts (existingnode.go), instance-types.ts (the AWS
// provider's instancetype/types.go) and kube-scheduler.ts (placement onto node-group nodes).
import { SimulationError } from "./input.ts";
import type { PendingPod, SimulationResult } from "./types.ts";

export { MAX_INSTANCE_TYPES } from "./nodeclaim.ts";
export { type SimulateOptions, simulate } from "./scheduler.ts";
export { SimulationError };

/** Pods that no node, node group or NodePool can ever run (too big, nothing matches): the CLI's exit 1. Pods waiting for limits or a reservation are not among them. */
export function cannotRun(result: SimulationResult): PendingPod[] {
  return result.pending.filter((p) => p.reason !== "limit-reached" && p.reason !== "reservation-exhausted");
}

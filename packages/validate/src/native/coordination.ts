// Lease (coordination.k8s.io/v1) as the API server validates it on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/coordination/validation/validation.go (ValidateLease, ValidateLeaseSpec).
// `strategy` and `preferredHolder` belong to the CoordinatedLeaderElection feature, off by default in 1.36: the server
// drops them before validating, so they are not checked here.
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import type { Reporter } from "./report.ts";
import { type Obj, asNum, asObj } from "./values.ts";

const CHECK = "coordination/lease";

function validateLease(lease: Obj, r: Reporter): void {
  const spec = asObj(lease.spec) ?? {};
  const duration = asNum(spec.leaseDurationSeconds);
  if (duration !== undefined && duration <= 0) r.invalid(FieldPath.of("spec", "leaseDurationSeconds"), duration, "must be greater than 0", CHECK);
  const transitions = asNum(spec.leaseTransitions);
  if (transitions !== undefined && transitions < 0) r.invalid(FieldPath.of("spec", "leaseTransitions"), transitions, "must be greater than or equal to 0", CHECK);
}

export const COORDINATION: NativeGroup = { group: "coordination.k8s.io", kinds: { Lease: validateLease } };

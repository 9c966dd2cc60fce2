// Capacity reservations counted across one scheduling batch, and the reserved offerings a NodeClaim holds.
// Rewritten from kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/reservationmanager.go
// (ReservationManager) and nodeclaim.go (offeringsToReserve, releaseReservedOfferings, FinalizeScheduling's reserved
// part), with the provisioner's strict mode (provisioner.go passes scheduler.DisableReservedCapacityFallback).
import type { TemplateType } from "./nodeclaimtemplate.ts";
import { offeringCompatible } from "./nodeclaimtemplate.ts";
import { Requirement, type Requirements } from "./requirements.ts";
import type { Offering } from "./types.ts";

/** Why a NodeClaim refused a pod for reserved capacity (nodeclaim.go ReservedOfferingError). */
export interface ReservedOfferingError {
  readonly kind: "reserved";
  readonly message: string;
}

/**
 * Remaining instances per reservation over one batch; a NodeClaim (the key: Karpenter's hostname) holds one instance of
 * every reservation it could launch into, pessimistically, until a tighter requirement drops it.
 */
export class ReservationManager {
  private readonly capacity = new Map<string, number>();
  private readonly held = new Map<object, Offering[]>();

  /**
   * `types`: every NodePool's instance types. The same reservation under several EC2NodeClasses counts once, at its
   * smallest count (NewReservationManager). `launched`: instances earlier batches took from each reservation (the
   * provider's MarkLaunched lowers the count it reads from EC2).
   */
  constructor(types: Iterable<TemplateType>, launched: ReadonlyMap<string, number> = new Map()) {
    for (const t of types) {
      for (const o of t.offerings) {
        if (!o.reservation) continue;
        const count = Math.max(0, o.reservation.availableInstanceCount - (launched.get(o.reservation.id) ?? 0));
        const current = this.capacity.get(o.reservation.id);
        if (current === undefined || count < current) this.capacity.set(o.reservation.id, count);
      }
    }
    // A reservation that earlier batches filled is an unavailable offering (reserved_capacity_resolver.go: count 0).
    for (const [id, n] of this.capacity) if (n === 0) this.unavailable.add(id);
  }

  private readonly unavailable = new Set<string>();

  /** Reservations earlier batches filled. */
  get filled(): ReadonlySet<string> {
    return this.unavailable;
  }

  /** Any reservation at all: without one the scheduler skips every step here. */
  get any(): boolean {
    return this.capacity.size > 0;
  }

  /** The reserved offerings a NodeClaim holds. */
  heldBy(claim: object): readonly Offering[] {
    return this.held.get(claim) ?? [];
  }

  private canReserve(claim: object, o: Offering): boolean {
    if (this.heldBy(claim).some((h) => h.reservation!.id === o.reservation!.id)) return true;
    return (this.capacity.get(o.reservation!.id) ?? 0) > 0;
  }

  /**
   * The reserved offerings the NodeClaim would hold with these types and requirements (nodeclaim.go offeringsToReserve,
   * strict mode): an error when compatible reservations exist but every one is taken, or when the NodeClaim held some
   * and the pod's requirements would leave none.
   */
  offeringsToReserve(claim: object, types: readonly TemplateType[], reqs: Requirements): Offering[] | ReservedOfferingError {
    let compatible = false;
    const out: Offering[] = [];
    for (const t of types) {
      for (const o of t.offerings) {
        if (!o.reservation || !offeringCompatible(o, reqs)) continue;
        if (this.unavailable.has(o.reservation.id)) continue;
        compatible = true;
        if (this.canReserve(claim, o)) out.push(o);
      }
    }
    if (compatible && out.length === 0) {
      return { kind: "reserved", message: "one or more instance types with compatible reserved offerings are available, but could not be reserved" };
    }
    if (this.heldBy(claim).length > 0 && out.length === 0) {
      return { kind: "reserved", message: "satisfying updated nodeclaim constraints would remove all compatible reserved offering options" };
    }
    return out;
  }

  /** Reserve the new offerings and release those no longer held (nodeclaim.go Add: Reserve, releaseReservedOfferings). */
  commit(claim: object, offerings: readonly Offering[]): void {
    const before = this.heldBy(claim);
    const had = new Set(before.map((o) => o.reservation!.id));
    const now = new Set(offerings.map((o) => o.reservation!.id));
    for (const id of now) if (!had.has(id)) this.capacity.set(id, this.capacity.get(id)! - 1);
    for (const id of had) if (!now.has(id)) this.capacity.set(id, this.capacity.get(id)! + 1);
    this.held.set(claim, [...offerings]);
  }

}

/**
 * FinalizeScheduling (nodeclaim.go): a NodeClaim holding reserved offerings launches only into them: capacity type
 * `reserved` and the held reservation IDs. One that holds none launches into no reservation an earlier batch filled
 * (Karpenter no longer offers those: `filled`, a later round only).
 */
export function reservedRequirements(reqs: Requirements, held: readonly Offering[], filled: ReadonlySet<string> = new Set()): Requirements {
  if (held.length === 0) {
    if (filled.size === 0) return reqs;
    return reqs.copy().add(Requirement.of("karpenter.k8s.aws/capacity-reservation-id", "NotIn", [...filled]));
  }
  const out = reqs.copy();
  out.byKey.set("karpenter.sh/capacity-type", Requirement.of("karpenter.sh/capacity-type", "In", ["reserved"]));
  out.add(Requirement.of("karpenter.k8s.aws/capacity-reservation-id", "In", [...new Set(held.map((o) => o.reservation!.id))]));
  return out;
}

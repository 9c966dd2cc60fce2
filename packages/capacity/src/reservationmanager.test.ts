import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatSimulation } from "./report.ts";
import { SimulationError, simulate } from "./simulate.ts";
import { parseSnapshot } from "./snapshot.ts";
import type { CapacityReservationInput, NodePoolInput, SimulationInput, WorkloadInput } from "./types.ts";

// The committed snapshot (moto 5.2.5's ap-southeast-1 data, no prices): reserved offerings then cost 0.
const FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "clusters", "eksworkshop", "capacity", "instance-types.ap-southeast-1.json");
const snapshot = parseSnapshot(readFileSync(FILE, "utf8"), FILE);

const m5: CapacityReservationInput = { id: "cr-0a1b2c3d", instanceType: "m5.large", zone: "ap-southeast-1a", availableInstanceCount: 2 };
// One pod per NodeClaim, and only 2-vCPU types: m5.large is a candidate of every NodeClaim.
const web: WorkloadInput = { namespace: "a", name: "web", replicas: 3, requests: { cpu: "1", memory: "1Gi" }, onePerNode: true };
const twoCpu = { key: "karpenter.k8s.aws/instance-cpu", operator: "In" as const, values: ["2"] };
const reservedPool: NodePoolInput = {
  name: "reserved",
  nodeClass: "nc",
  weight: 10,
  requirements: [twoCpu, { key: "karpenter.sh/capacity-type", operator: "In", values: ["reserved", "on-demand"] }],
};

function cluster(nodePools: NodePoolInput[], reservations: CapacityReservationInput[] = [m5], workloads: WorkloadInput[] = [web]): SimulationInput {
  return { nodeGroups: [], daemonSets: [], workloads, nodePools, nodeClasses: [{ name: "nc", capacityReservations: reservations }] };
}

describe("capacity reservations (reserved offerings, Karpenter's ReservationManager)", () => {
  it("a NodeClaim that can use a reservation launches only into it: capacity type reserved, the reservation's zone", () => {
    const r = simulate(cluster([reservedPool]), snapshot, { singleBatch: true });
    const reserved = r.nodeClaims.filter((c) => c.capacityTypes.includes("reserved"));
    expect(reserved).toHaveLength(2);
    for (const c of reserved) {
      expect(c.capacityTypes).toEqual(["reserved"]);
      expect(c.zones).toEqual(["ap-southeast-1a"]);
      expect(c.cheapest).toMatchObject({ instanceType: "m5.large", zone: "ap-southeast-1a", capacityType: "reserved" });
    }
  });

  it("counts the reservation across the batch: the third pod waits for the next batch instead of falling back", () => {
    const light: NodePoolInput = { name: "light", nodeClass: "nc", requirements: [twoCpu] };
    const r = simulate(cluster([reservedPool, light]), snapshot, { singleBatch: true });
    expect(r.nodeClaims.map((c) => c.nodePool)).toEqual(["reserved", "reserved"]);
    expect(r.pending).toEqual([expect.objectContaining({ pod: "a/web-3", reason: "reservation-exhausted" })]);
    expect(r.pending[0]!.message).toContain("NodePool reserved: one or more instance types with compatible reserved offerings are available, but could not be reserved");
  });

  it("in the next batch the filled reservation is no offering any more, and the pod launches on demand", () => {
    const r = simulate(cluster([reservedPool]), snapshot);
    expect(r.pending).toEqual([]);
    expect(r.nodeClaims.map((c) => c.capacityTypes)).toEqual([["reserved"], ["reserved"], ["on-demand"]]);
  });

  it("a NodeClaim holds every reservation it could launch into (pessimistic), so two reservations of 1 serve one NodeClaim", () => {
    const c5: CapacityReservationInput = { id: "cr-0c5", instanceType: "c5.large", zone: "ap-southeast-1b", availableInstanceCount: 1 };
    const r = simulate(cluster([reservedPool], [{ ...m5, availableInstanceCount: 1 }, c5]), snapshot, { singleBatch: true });
    expect(r.nodeClaims).toHaveLength(1);
    expect(r.nodeClaims[0]!.capacityTypes).toEqual(["reserved"]);
    expect(r.nodeClaims[0]!.zones).toEqual(["ap-southeast-1a", "ap-southeast-1b"]);
    expect(r.pending.map((p) => p.reason)).toEqual(["reservation-exhausted", "reservation-exhausted"]);
  });

  it("a NodePool whose capacity types leave out reserved ignores the reservations", () => {
    const onDemand: NodePoolInput = { ...reservedPool, requirements: [twoCpu, { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] }] };
    const r = simulate(cluster([onDemand]), snapshot, { singleBatch: true });
    expect(r.nodeClaims.map((c) => c.capacityTypes)).toEqual([["on-demand"], ["on-demand"], ["on-demand"]]);
  });

  it("no reserved offering from an empty, expiring or misplaced reservation", () => {
    const reservedOnly: NodePoolInput = { ...reservedPool, requirements: [twoCpu, { key: "karpenter.sh/capacity-type", operator: "In", values: ["reserved"] }] };
    for (const bad of [
      { ...m5, availableInstanceCount: 0 },
      { ...m5, reservationType: "capacity-block" as const, state: "expiring" as const },
      { ...m5, instanceType: "m5.large", zone: "ap-southeast-1c" },
    ]) {
      // ap-southeast-1c: the EC2NodeClass has no subnet there
      const input: SimulationInput = { ...cluster([reservedOnly], [bad]), nodeClasses: [{ name: "nc", zones: ["ap-southeast-1a", "ap-southeast-1b"], capacityReservations: [bad] }] };
      const r = simulate(input, snapshot, { singleBatch: true });
      expect(r.nodeClaims).toEqual([]);
      expect(r.pending.map((p) => p.reason)).toEqual(["nothing-matches", "nothing-matches", "nothing-matches"]);
    }
  });

  it("a pod can ask for one reservation by its label", () => {
    const other: CapacityReservationInput = { id: "cr-0b", instanceType: "m5.large", zone: "ap-southeast-1b", availableInstanceCount: 5 };
    const pinned: WorkloadInput = { ...web, replicas: 1, nodeSelector: { "karpenter.k8s.aws/capacity-reservation-id": "cr-0b" } };
    const r = simulate(cluster([reservedPool], [m5, other], [pinned]), snapshot, { singleBatch: true });
    expect(r.nodeClaims.map((c) => [c.capacityTypes, c.zones, c.instanceTypes])).toEqual([[["reserved"], ["ap-southeast-1b"], ["m5.large"]]]);
  });

  it("lists what an EC2NodeClass asks for and the input does not carry, in the result and the report", () => {
    const input: SimulationInput = { ...cluster([reservedPool], []), nodeClasses: [{ name: "nc", unmodelled: ["spec.capacityReservationSelectorTerms: not known offline"] }] };
    const r = simulate(input, snapshot);
    expect(r.unmodelled).toEqual(["EC2NodeClass nc spec.capacityReservationSelectorTerms: not known offline"]);
    expect(formatSimulation(r, "text")).toContain("  not modelled: EC2NodeClass nc spec.capacityReservationSelectorTerms: not known offline\n");
  });

  it("rejects a reservation that Karpenter's CRD or the snapshot would not accept, naming the field", () => {
    const input = cluster([reservedPool], [{ ...m5, id: "reservation-1" }]);
    expect(() => simulate(input, snapshot)).toThrow(SimulationError);
    expect(() => simulate(input, snapshot)).toThrow("nodeClasses[0].capacityReservations[0].id: must match ^cr-[0-9a-z]+$ (got \"reservation-1\")");
    expect(() => simulate(cluster([reservedPool], [{ ...m5, instanceType: "m99.huge" }]), snapshot)).toThrow("nodeClasses[0].capacityReservations[0].instanceType: m99.huge is not in the ap-southeast-1 instance-type snapshot");
  });
});

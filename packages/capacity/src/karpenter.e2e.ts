// e2e differential: packages/capacity against Karpenter v1.14.1's own instance-type provider and scheduler
// (test-tools/kube/karpenter-sim). Seeded random clusters; the seed range is printed and fixed in CI.
//
//   pnpm --filter @eks-gitops/capacity e2e                       # the CI seed range
//   CAPACITY_DIFF_SEED=7000 CAPACITY_DIFF_COUNT=800 pnpm --filter @eks-gitops/capacity e2e
//   CAPACITY_DIFF_FEATURE=reserved CAPACITY_DIFF_COUNT=2000 pnpm --filter @eks-gitops/capacity e2e  # one feature only
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { renderAwsTables } from "./aws-tables.ts";
import { formatAmounts, instanceTypeLabels, resolveInstanceType } from "./instance-types.ts";
import { reservedOfferings } from "./nodeclaimtemplate.ts";
import { simulate } from "./simulate.ts";
import { parseSnapshot } from "./snapshot.ts";
import { compareOutcomes, type Outcome, ourOutcome, peerOutcome, podsOnly } from "./testing/differential.ts";
import { type PeerInstanceType, type PeerResult, PeerSession, peerBinary, peerScenario, runPeer, toEc2Info } from "./testing/karpenter-peer.ts";
import { randomScenario, withPrices } from "./testing/random-scenario.ts";
import type { EC2NodeClassInput, InstanceTypeSnapshot, SimulationInput, SimulationResult } from "./types.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const SNAPSHOT_FILE = join(HERE, "..", "..", "..", "clusters", "eksworkshop", "capacity", "instance-types.ap-southeast-1.json");
const FIXTURES = join(HERE, "testing", "karpenter-disagreements");
const SEED = Number(process.env.CAPACITY_DIFF_SEED ?? 22000);
// CI runs the full set: 520 seeds; the 99 % check is opt-in (CAPACITY_DIFF_STRICT=1), see STRICT_FLOOR.
const COUNT = Number(process.env.CAPACITY_DIFF_COUNT ?? 520);
/**
 * `CAPACITY_DIFF_STRICT=1`: every disagreement committed with its cause, and at least STRICT_FLOOR agreement. By
 * default (CI) the run holds AGREEMENT_FLOOR and prints every disagreement: outcomes that hang on Go's map order are
 * drawn anew each run, so the strict check is not yet deterministic (see STRICT_FLOOR), and CI must not pass or
 * fail by chance.
 */
const STRICT = process.env.CAPACITY_DIFF_STRICT === "1";
/** `CAPACITY_DIFF_FEATURE=reserved`: only the seeds of the window whose scenario has that feature (while developing one). */
const ONLY_FEATURE = process.env.CAPACITY_DIFF_FEATURE;
const AGREEMENT_FLOOR = 0.97;
/**
 * The target: 99 %. Three seeds of 22000..22519 disagree deterministically (99.4 %, all committed); with twelve
 * runs for a seed that depends on Go's map order, one 2026-12-03 run drew an agreeing outcome for every such seed, and
 * the next one (CI on a fresh clone) missed three (98.8 %); with six runs, two earlier runs missed 3-5 of them. Until
 * tied outcomes are compared as a set of possible results, 99 % is a figure, not a guarantee.
 */
const STRICT_FLOOR = 0.99;
/**
 * Karpenter iterates Go maps where the order matters: tied topology domains (topologygroup.go nextDomainTopologySpread)
 * and DaemonSet overhead groups (nodeclaim.go addDaemonRequests, over lo.Values of a map). Such a scenario runs this
 * often and any of Karpenter's results counts as agreement.
 */
const MAP_ORDER_RUNS = 12;

let binary: string;
let snapshot: InstanceTypeSnapshot;
let ec2: object[];

beforeAll(() => {
  binary = peerBinary();
  snapshot = withPrices(parseSnapshot(readFileSync(SNAPSHOT_FILE, "utf8"), SNAPSHOT_FILE));
  ec2 = snapshot.instanceTypes.map(toEc2Info);
});

// ---------------------------------------------------------------------------------------------------------------
// Instance types: every field of every type, per AMI family

const NODE_CLASSES: EC2NodeClassInput[] = [
  { name: "al2023", amiFamily: "AL2023" },
  { name: "al2", amiFamily: "AL2" },
  { name: "bottlerocket", amiFamily: "Bottlerocket" },
  { name: "windows2019", amiFamily: "Windows2019" },
  { name: "windows2022", amiFamily: "Windows2022" },
  { name: "windows2025", amiFamily: "Windows2025" },
  { name: "custom", amiFamily: "Custom" },
  { name: "custom-root", amiFamily: "Custom", rootVolumeSize: "64Gi", kubelet: { maxPods: 58 } },
  { name: "al2023-tuned", amiFamily: "AL2023", kubelet: { maxPods: 40, podsPerCore: 4, systemReserved: { cpu: "200m", memory: "300Mi" }, evictionHard: { "memory.available": "5%" } }, rootVolumeSize: "80Gi" },
  { name: "windows-tuned", amiFamily: "Windows2022", kubelet: { maxPods: 20, kubeReserved: { cpu: "500m" } }, rootVolumeSize: "100Gi" },
  { name: "bottlerocket-raid", amiFamily: "Bottlerocket", instanceStorePolicy: "RAID0", kubelet: { podsPerCore: 2 } },
  { name: "a1-reserved", amiFamily: "AL2", kubelet: { systemReserved: { memory: "8Gi" } } },
  // Capacity reservations: the reservation labels and the reserved offerings (one full, one expiring, one in a zone the
  // type is not offered in, two of one type).
  {
    name: "al2023-reservations",
    amiFamily: "AL2023",
    capacityReservations: [
      { id: "cr-0a1", instanceType: "m5.large", zone: "ap-southeast-1a", availableInstanceCount: 3 },
      { id: "cr-0a2", instanceType: "m5.large", zone: "ap-southeast-1b", availableInstanceCount: 1, reservationType: "capacity-block", interruptible: true },
      { id: "cr-0a3", instanceType: "c6g.xlarge", zone: "ap-southeast-1c", availableInstanceCount: 0 },
      { id: "cr-0a4", instanceType: "p4d.24xlarge", zone: "ap-southeast-1c", availableInstanceCount: 2, reservationType: "capacity-block", state: "expiring" },
      { id: "cr-0a5", instanceType: "t3.micro", zone: "ap-southeast-1a", availableInstanceCount: 5 },
    ],
  },
];

function ours(list: Readonly<Record<string, number>>): Record<string, string> {
  return Object.fromEntries(Object.entries(formatAmounts(list)).filter(([, v]) => v !== "0"));
}

function theirs(list: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(list)
      .filter(([, v]) => v !== "0" && v !== "0m")
      .map(([k, v]) => [k, k === "cpu" ? formatAmounts({ cpu: Number(v.slice(0, -1)) }).cpu! : v])
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );
}

/** Field-by-field differences of one type (empty: identical). */
function typeDiffs(t: InstanceTypeSnapshot["instanceTypes"][number], nodeClass: EC2NodeClassInput, peer: PeerInstanceType): string[] {
  const diffs: string[] = [];
  const r = resolveInstanceType(t, nodeClass);
  for (const [field, a, b] of [
    ["capacity", ours(r.capacity), theirs(peer.capacity)],
    ["kubeReserved", ours(r.kubeReserved), theirs(peer.kubeReserved)],
    ["systemReserved", ours(r.systemReserved), theirs(peer.systemReserved)],
    ["evictionThreshold", ours(r.evictionThreshold), theirs(peer.evictionThreshold)],
    ["allocatable", ours(r.allocatable), theirs(peer.allocatable)],
  ] as const) {
    if (JSON.stringify(Object.entries(a).sort()) !== JSON.stringify(Object.entries(b).sort())) diffs.push(`${field}: ours ${JSON.stringify(a)}, Karpenter ${JSON.stringify(b)}`);
  }
  const labels = instanceTypeLabels(t, snapshot.region, nodeClass.amiFamily);
  const reservations = nodeClass.capacityReservations ?? [];
  const mine = reservations.filter((x) => x.instanceType === t.name);
  if (mine.length > 0) {
    // A type with reservations has every one's values on the three labels (types.go computeRequirements).
    labels.set("karpenter.k8s.aws/capacity-reservation-id", mine.map((x) => x.id).sort().join(","));
    labels.set("karpenter.k8s.aws/capacity-reservation-type", [...new Set(mine.map((x) => x.reservationType ?? "default"))].sort().join(","));
    labels.set("karpenter.k8s.aws/capacity-reservation-interruptible", [...new Set(mine.map((x) => String(x.interruptible ?? false)))].sort().join(","));
  }
  // The available reserved offerings: zone and price (no prices here, so 0).
  const zones = new Set(t.offerings.map((o) => o.zone));
  const ourReserved = reservedOfferings(t.name, zones, undefined, reservations).map((o) => `${o.zone} ${o.price}`);
  const theirReserved = (peer.offerings ?? []).filter((o) => o.capacityType === "reserved" && o.available).map((o) => `${o.zone} ${o.price}`);
  if (JSON.stringify(ourReserved.sort()) !== JSON.stringify(theirReserved.sort())) diffs.push(`reserved offerings: ours ${ourReserved.join("; ")}, Karpenter ${theirReserved.join("; ")}`);
  for (const [key, req] of Object.entries(peer.requirements)) {
    if (["topology.kubernetes.io/zone", "karpenter.sh/capacity-type", "karpenter.k8s.aws/instance-tenancy", "topology.k8s.aws/zone-id", "kubernetes.io/os"].includes(key)) continue;
    const mine = labels.has(key) ? (labels.get(key) === undefined ? "DoesNotExist" : `In ${labels.get(key)}`) : "absent";
    const theirsText = req.operator === "DoesNotExist" ? "DoesNotExist" : `${req.operator} ${(req.values ?? []).join(",")}`;
    if (mine !== theirsText) diffs.push(`label ${key}: ours ${mine}, Karpenter ${theirsText}`);
  }
  for (const key of labels.keys()) if (!(key in peer.requirements)) diffs.push(`label ${key}: ours ${labels.get(key) ?? "DoesNotExist"}, Karpenter absent`);
  const os = peer.requirements["kubernetes.io/os"];
  const myOs = labels.get("kubernetes.io/os");
  if ((os?.values ?? []).join(",") !== (myOs ?? "")) diffs.push(`label kubernetes.io/os: ours ${myOs}, Karpenter ${(os?.values ?? []).join(",")}`);
  return diffs;
}

describe("the provider's generated tables (aws-tables.generated.ts)", () => {
  it("are still what karpenter-sim --tables prints (UPDATE_AWS_TABLES=1 rewrites the file)", () => {
    const file = join(HERE, "aws-tables.generated.ts");
    const expected = renderAwsTables(JSON.parse(execFileSync(binary, ["--tables"], { encoding: "utf8", maxBuffer: 64 << 20 })));
    if (process.env.UPDATE_AWS_TABLES === "1") writeFileSync(file, expected);
    expect(readFileSync(file, "utf8")).toBe(expected);
  });
});

describe("instance types agree with the AWS provider's resolver (all types of the committed snapshot)", () => {
  it("capacity, overhead, allocatable and labels, for every AMI family", async () => {
    const [result] = await runPeer(binary, [
      {
        id: "instance-types",
        instanceTypesOnly: true,
        region: snapshot.region,
        zones: snapshot.zones,
        instanceTypes: ec2,
        offerings: Object.fromEntries(snapshot.instanceTypes.map((t) => [t.name, [...new Set(t.offerings.map((o) => o.zone))]])),
        onDemandPrices: {},
        spotPrices: {},
        nodeClasses: NODE_CLASSES.map((c) => ({
          nodeClass: {
            apiVersion: "karpenter.k8s.aws/v1",
            kind: "EC2NodeClass",
            metadata: { name: c.name },
            spec: {
              amiFamily: c.amiFamily,
              ...(c.kubelet ? { kubelet: c.kubelet } : {}),
              ...(c.rootVolumeSize ? { blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: c.rootVolumeSize } }] } : {}),
              ...(c.instanceStorePolicy ? { instanceStorePolicy: c.instanceStorePolicy } : {}),
            },
            ...(c.capacityReservations
              ? {
                  status: {
                    capacityReservations: c.capacityReservations.map((x) => ({
                      id: x.id,
                      instanceType: x.instanceType,
                      availabilityZone: x.zone,
                      instanceMatchCriteria: "targeted",
                      ownerID: "123456789012",
                      reservationType: x.reservationType ?? "default",
                      interruptible: x.interruptible ?? false,
                      state: x.state ?? "active",
                    })),
                  },
                }
              : {}),
          },
          zones: [],
          ...(c.capacityReservations ? { reservationCounts: Object.fromEntries(c.capacityReservations.map((x) => [x.id, x.availableInstanceCount])) } : {}),
        })),
        nodePools: [],
        daemonSetPods: [],
        nodes: [],
        pods: [],
      },
    ]);
    expect(result!.error).toBeUndefined();
    const lines: string[] = [];
    let fields = 0;
    let agreeing = 0;
    for (const nc of NODE_CLASSES) {
      const peer = new Map(result!.instanceTypes![nc.name]!.map((t) => [t.name, t]));
      let bad = 0;
      for (const t of snapshot.instanceTypes) {
        const diffs = typeDiffs(t, nc, peer.get(t.name)!);
        fields++;
        if (diffs.length === 0) agreeing++;
        else {
          bad++;
          if (lines.length < 40) lines.push(`${nc.name} ${t.name}: ${diffs.join("; ")}`);
        }
      }
      console.log(`instance types ${nc.name}: ${snapshot.instanceTypes.length - bad}/${snapshot.instanceTypes.length} identical`);
    }
    console.log(`instance types: ${agreeing}/${fields} (type x EC2NodeClass) identical in every field`);
    expect(lines).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Scheduling: random clusters

interface Row {
  seed: number;
  features: string[];
  ours: Outcome | { error: string };
  theirs: Outcome[];
  agree: ReturnType<typeof compareOutcomes>;
}

describe(`the scheduler agrees with Karpenter's on random clusters (seeds ${SEED}..${SEED + COUNT - 1})`, () => {
  it("NodeClaim count, pods, requests, candidate sets and capacity types per NodeClaim, and pending pods", async () => {
    console.log(`differential seeds ${SEED}..${SEED + COUNT - 1} (CAPACITY_DIFF_SEED / CAPACITY_DIFF_COUNT)`);
    const rows = await differential(SEED, COUNT);
    report(rows);
    const known = knownDisagreements();
    const unexplained = rows.filter((r) => !r.agree.all && !known.has(r.seed));
    if (unexplained.length > 0) writeCandidates(unexplained);
    const agreeing = rows.filter((r) => r.agree.all).length;
    if (STRICT) {
      expect(agreeing / rows.length).toBeGreaterThanOrEqual(STRICT_FLOOR);
      expect(unexplained.map((r) => `seed ${r.seed}: ${r.agree.reason}`)).toEqual([]);
    } else {
      console.log(`${unexplained.length} disagreement(s) without a committed cause (the strict default fails on them)`);
      expect(agreeing / rows.length).toBeGreaterThanOrEqual(AGREEMENT_FLOOR);
    }
  });
});

interface Case {
  seed: number;
  features: string[];
  mapOrder: boolean;
  input: SimulationInput;
  ours: SimulationResult | { error: string };
  base: SimulationResult;
  theirs: Promise<PeerResult>[];
  /** Pods refused for limits in the first batch: `simulate`'s later rounds against Karpenter's Solve run again. */
  rounds?: { ours: SimulationResult; theirs: Promise<PeerResult>[] };
}

/**
 * Runs the seeds through both sides. One peer process takes every scenario on its stdin while this process builds the
 * next ones and runs its own simulation, so the two overlap; the instance-type data travels once. A scenario whose
 * result depends on Go's map order runs again (up to MAP_ORDER_RUNS in all) only when its first run disagrees.
 */
async function differential(first: number, count: number): Promise<Row[]> {
  const session = new PeerSession(binary);
  const started = Date.now();
  const cpu = process.cpuUsage();
  let sent = 0;
  const send = (id: string, input: SimulationInput, base: SimulationResult, options: { rounds?: boolean } = {}): Promise<PeerResult> => {
    const scenario = peerScenario(id, input, snapshot, base, ec2, options) as Record<string, unknown>;
    // The instance-type data travels with the first scenario only (the peer reuses it).
    return session.send(sent++ === 0 ? scenario : { ...scenario, instanceTypes: [], offerings: {}, onDemandPrices: {}, spotPrices: {}, zones: [] });
  };
  const cases: Case[] = [];
  try {
    for (let seed = first; seed < first + count; seed++) {
      const { input, features } = randomScenario(seed, snapshot);
      if (ONLY_FEATURE && !features[ONLY_FEATURE as keyof typeof features]) continue;
      let ours: SimulationResult | { error: string };
      try {
        // One Solve on Karpenter's side: our extra rounds for limits (later provisioning batches) are not compared.
        ours = simulate(input, snapshot, { singleBatch: true });
      } catch (e) {
        ours = { error: (e as Error).message };
      }
      const base = "error" in ours ? simulate({ ...input, workloads: [] }, snapshot) : ours;
      const mapOrder = features.zoneSpread || features.daemonSetSelectors;
      const c: Case = { seed, features: [], mapOrder, input, ours, base, theirs: [send(`${seed}/0`, input, base)] };
      if (!("error" in ours) && ours.nodeClaims.length > 0 && ours.pending.some((p) => p.reason === "limit-reached")) {
        features.limitRounds = true;
        const all = simulate(input, snapshot);
        c.rounds = { ours: all, theirs: [send(`${seed}/rounds/0`, input, all, { rounds: true })] };
      }
      c.features = Object.entries(features).filter(([, v]) => v).map(([k]) => k);
      cases.push(c);
      // let the peer's answers in while we keep producing scenarios
      if (seed % 8 === 0) await new Promise((r) => setImmediate(r));
    }
    const oursCpu = process.cpuUsage(cpu);
    let rows = await Promise.all(cases.map(rowOf));
    const rerun = rows.filter((r, i) => !r.agree.all && cases[i]!.mapOrder).map((r) => cases.find((c) => c.seed === r.seed)!);
    for (const c of rerun) {
      for (let i = 1; i < MAP_ORDER_RUNS; i++) {
        c.theirs.push(send(`${c.seed}/${i}`, c.input, c.base));
        if (c.rounds) c.rounds.theirs.push(send(`${c.seed}/rounds/${i}`, c.input, c.rounds.ours, { rounds: true }));
      }
    }
    if (rerun.length > 0) {
      const again = new Map(await Promise.all(rerun.map(async (c) => [c.seed, await rowOf(c)] as const)));
      rows = rows.map((r) => again.get(r.seed) ?? r);
    }
    console.log(
      `differential: ${sent} peer runs (${rerun.length} seed(s) re-run for Go map order) in ${((Date.now() - started) / 1000).toFixed(0)} s wall; ` +
        `this process ${((oursCpu.user + oursCpu.system) / 1e6).toFixed(1)} s CPU building ${cases.length} scenarios and simulating them (load average ${loadavg().map((x) => x.toFixed(1)).join(" ")})`,
    );
    return rows;
  } finally {
    await session.close();
  }
}

async function rowOf(c: Case): Promise<Row> {
  const theirs = await Promise.all(c.theirs);
  const peerError = theirs.find((t) => t.error)?.error;
  const none = { count: false, pods: false, requests: false, candidates: false, capacityTypes: false, pending: false, existing: false, all: false };
  if (peerError) return { seed: c.seed, features: c.features, ours: "error" in c.ours ? c.ours : ourOutcome(c.ours), theirs: [], agree: { ...none, reason: `peer error: ${peerError}` } };
  const outcomes = theirs.map((t) => peerOutcome(t));
  if ("error" in c.ours) return { seed: c.seed, features: c.features, ours: c.ours, theirs: outcomes, agree: { ...none, reason: `ours threw: ${c.ours.error}` } };
  const mine = ourOutcome(c.ours);
  const comparisons = outcomes.map((o) => compareOutcomes(mine, o));
  const row: Row = { seed: c.seed, features: c.features, ours: mine, theirs: outcomes, agree: comparisons.find((a) => a.all) ?? comparisons[0]! };
  if (!c.rounds || !row.agree.all) return row;
  // Later rounds: which pods each NodeClaim ends up with (its own batch's and those a later Solve put on the node it
  // was launched as), how many NodeClaims and which pods stay Pending. Requests and launch lists are the first batch's
  // and were compared above.
  const later = await Promise.all(c.rounds.theirs);
  const laterError = later.find((t) => t.error)?.error;
  if (laterError) return { ...row, agree: { ...none, reason: `peer error (rounds): ${laterError}` } };
  const laterOutcomes = later.map((t) => peerOutcome(t, { rounds: true }));
  const agreements = laterOutcomes.map((o) => compareOutcomes(podsOnly(ourOutcome(c.rounds!.ours)), podsOnly(o)));
  const agree = agreements.find((a) => a.all) ?? agreements[0]!;
  return { ...row, ours: ourOutcome(c.rounds.ours), theirs: laterOutcomes, agree: { ...agree, ...(agree.reason ? { reason: `after later rounds: ${agree.reason}` } : {}) } };
}

function report(rows: Row[]): void {
  const pct = (n: number) => `${n}/${rows.length} (${((100 * n) / rows.length).toFixed(1)} %)`;
  const count = (f: (r: Row) => boolean) => rows.filter(f).length;
  console.log(`agreement over ${rows.length} scenarios:`);
  console.log(`  all fields         ${pct(count((r) => r.agree.all))}`);
  console.log(`  NodeClaim count    ${pct(count((r) => r.agree.count))}`);
  console.log(`  pods per NodeClaim ${pct(count((r) => r.agree.pods))}`);
  console.log(`  requests           ${pct(count((r) => r.agree.requests))}`);
  console.log(`  candidate sets     ${pct(count((r) => r.agree.candidates))}`);
  console.log(`  capacity types     ${pct(count((r) => r.agree.capacityTypes))}`);
  console.log(`  pending pods       ${pct(count((r) => r.agree.pending))}`);
  const features = [...new Set(rows.flatMap((r) => r.features))].sort();
  for (const f of features) {
    const mine = rows.filter((r) => r.features.includes(f));
    console.log(`  with ${f.padEnd(18)} ${mine.filter((r) => r.agree.all).length}/${mine.length}`);
  }
  for (const r of rows.filter((x) => !x.agree.all).slice(0, 30)) console.log(`  seed ${r.seed} [${r.features.join(",")}]: ${r.agree.reason}`);
}

/**
 * Seeds whose disagreement is committed as a fixture with its reason (testing/karpenter-disagreements/<seed>.json). A
 * fixture counts only while its input is still what the generator makes of the seed: a stale one explains nothing.
 */
function knownDisagreements(): Set<number> {
  if (!existsSync(FIXTURES)) return new Set();
  const seeds = new Set<number>();
  for (const f of readdirSync(FIXTURES)) {
    if (!f.endsWith(".json")) continue;
    const fixture = JSON.parse(readFileSync(join(FIXTURES, f), "utf8")) as { seed: number; reason?: string; input?: unknown };
    const current = JSON.stringify(randomScenario(fixture.seed, snapshot).input);
    if (JSON.stringify(fixture.input) !== current) {
      console.log(`  ${f}: stale (its input is no longer what seed ${fixture.seed} generates); it explains nothing`);
      continue;
    }
    if (typeof fixture.reason === "string" && fixture.reason.length > 20) seeds.add(fixture.seed);
  }
  return seeds;
}

function writeCandidates(rows: Row[]): void {
  const dir = join(process.env.TMPDIR ?? "/tmp", "karpenter-disagreements");
  mkdirSync(dir, { recursive: true });
  for (const r of rows) {
    const { input } = randomScenario(r.seed, snapshot);
    writeFileSync(join(dir, `${r.seed}.json`), `${JSON.stringify({ seed: r.seed, difference: r.agree.reason, reason: "", input, ours: r.ours, karpenter: r.theirs[0] }, null, 2)}\n`);
  }
  console.log(`wrote ${rows.length} unexplained disagreement(s) to ${dir}: fix them, or commit one under ${FIXTURES} with its reason`);
}

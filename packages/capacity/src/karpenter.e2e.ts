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
import { kubeSchedulerBindings, simulateOutcomes } from "./scheduler.ts";
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
// CI runs the full set: 520 seeds, strict (see STRICT).
const COUNT = Number(process.env.CAPACITY_DIFF_COUNT ?? 520);
/**
 * Strict by default (CI): at least STRICT_FLOOR agreement and every disagreement committed as a fixture with its
 * cause. `CAPACITY_DIFF_STRICT=0` relaxes it to AGREEMENT_FLOOR and prints the unexplained disagreements (while
 * exploring a new seed range, say).
 */
const STRICT = process.env.CAPACITY_DIFF_STRICT !== "0";
/** `CAPACITY_DIFF_FEATURE=reserved`: only the seeds of the window whose scenario has that feature (while developing one). */
const ONLY_FEATURE = process.env.CAPACITY_DIFF_FEATURE;
const AGREEMENT_FLOOR = 0.97;
/** The target: 99 %. */
const STRICT_FLOOR = 0.99;
/**
 * Karpenter breaks some ties by Go map order, random per run: tied topology domains (topologygroup.go
 * nextDomainTopologySpread) and the order of DaemonSet overhead groups (nodeclaim.go addDaemonRequests over lo.Values
 * of a map). Our side can enumerate every way they can break (scheduler.ts simulateOutcomes, here up to TIE_OUTCOMES
 * distinct outcomes and TIE_RUNS runs) and Karpenter's single run agrees when its outcome is one of them:
 * deterministic (possibleMatch). Only when a bound is hit (the set is partial) does a disagreeing seed run again on
 * Karpenter's side, up to MAP_ORDER_RUNS in all, and the run prints how often that happened.
 */
const TIE_OUTCOMES = 256;
const TIE_RUNS = 4096;
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
  /** Our outcome that matched Karpenter's, else our first (the one `simulate` reports). */
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
    // A fixture whose seed now agrees explains nothing any more: remove it.
    const fixed = rows.filter((r) => r.agree.all && known.has(r.seed) && !intermittent.has(r.seed)).map((r) => `${r.seed}.json: seed ${r.seed} agrees now; remove the fixture`);
    for (const f of fixed) console.log(`  ${f}`);
    if (STRICT) {
      expect(agreeing / rows.length).toBeGreaterThanOrEqual(STRICT_FLOOR);
      expect(unexplained.map((r) => `seed ${r.seed}: ${r.agree.reason}`)).toEqual([]);
      expect(fixed).toEqual([]);
    } else {
      console.log(`${unexplained.length} disagreement(s) without a committed cause (the strict default fails on them)`);
      expect(agreeing / rows.length).toBeGreaterThanOrEqual(AGREEMENT_FLOOR);
    }
  });
});

interface Case {
  seed: number;
  features: string[];
  input: SimulationInput;
  /** What `simulate` reports (every tie at its first option), or the error it threw. */
  ours: SimulationResult | { error: string };
  base: SimulationResult;
  /**
   * kube-scheduler's step-1 bindings (scheduler.ts kubeSchedulerBindings): the only pods the peer gets bound to the
   * existing nodes. The pods our batch puts there later (and which ones depends on the tie branch) Karpenter's own
   * addToExistingNode places, and Outcome.onExisting compares them per workload.
   */
  bound: Map<string, string[]>;
  theirs: Promise<PeerResult>[];
  /** Pods refused for limits in the first batch: `simulate`'s later rounds against Karpenter's Solve run again. */
  rounds?: { ours: SimulationResult; theirs: Promise<PeerResult>[] };
  /** Set by rowOf: the walk over the ties hit its bound without meeting Karpenter's outcome. */
  partial?: boolean;
}

/** What the walks over the ties cost (printed). */
const tieStats = { walked: 0, runs: 0, found: 0 };

/**
 * Runs the seeds through both sides. One peer process takes every scenario on its stdin while this process builds the
 * next ones and runs its own simulation, so the two overlap; the instance-type data travels once. A scenario runs once
 * on Karpenter's side; only one whose walk over the ties hit its bound (possibleMatch) without meeting Karpenter's
 * outcome runs again (up to MAP_ORDER_RUNS in all).
 */
async function differential(first: number, count: number): Promise<Row[]> {
  const session = new PeerSession(binary);
  const started = Date.now();
  const cpu = process.cpuUsage();
  let sent = 0;
  const send = (id: string, input: SimulationInput, base: SimulationResult, bound: Map<string, string[]>, options: { rounds?: boolean } = {}): Promise<PeerResult> => {
    const scenario = peerScenario(id, input, snapshot, base, ec2, { ...options, bound }) as Record<string, unknown>;
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
      const bound = "error" in ours ? new Map<string, string[]>() : kubeSchedulerBindings(input, snapshot);
      const c: Case = { seed, features: [], input, ours, base, bound, theirs: [send(`${seed}/0`, input, base, bound)] };
      if (!("error" in ours) && ours.nodeClaims.length > 0 && ours.pending.some((p) => p.reason === "limit-reached")) {
        features.limitRounds = true;
        const all = simulate(input, snapshot);
        c.rounds = { ours: all, theirs: [send(`${seed}/rounds/0`, input, all, bound, { rounds: true })] };
      }
      c.features = Object.entries(features).filter(([, v]) => v).map(([k]) => k);
      cases.push(c);
      // let the peer's answers in while we keep producing scenarios
      if (seed % 8 === 0) await new Promise((r) => setImmediate(r));
    }
    let rows: Row[] = [];
    for (const c of cases) rows.push(await rowOf(c));
    const oursCpu = process.cpuUsage(cpu);
    const rerun = cases.filter((c, i) => !rows[i]!.agree.all && c.partial);
    for (const c of rerun) {
      for (let i = 1; i < MAP_ORDER_RUNS; i++) {
        c.theirs.push(send(`${c.seed}/${i}`, c.input, c.base, c.bound));
        if (c.rounds) c.rounds.theirs.push(send(`${c.seed}/rounds/${i}`, c.input, c.rounds.ours, c.bound, { rounds: true }));
      }
    }
    if (rerun.length > 0) {
      const again = new Map<number, Row>();
      for (const c of rerun) again.set(c.seed, await rowOf(c));
      rows = rows.map((r) => again.get(r.seed) ?? r);
    }
    console.log(
      `ties: ${tieStats.walked} disagreeing first answer(s) walked over the ties (${tieStats.runs} simulation runs), ${tieStats.found} of them met Karpenter's outcome; ` +
        `${rerun.length} walk(s) hit the bound (${TIE_OUTCOMES} outcomes / ${TIE_RUNS} runs) and fell back to up to ${MAP_ORDER_RUNS} Karpenter runs`,
    );
    console.log(
      `differential: ${sent} peer runs (${rerun.length} seed(s) re-run for Go map order) in ${((Date.now() - started) / 1000).toFixed(0)} s wall; ` +
        `this process ${((oursCpu.user + oursCpu.system) / 1e6).toFixed(1)} s CPU building ${cases.length} scenarios, simulating them and walking the ties (load average ${loadavg().map((x) => x.toFixed(1)).join(" ")})`,
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
  if (peerError) return { seed: c.seed, features: c.features, ours: "error" in c.ours ? c.ours : ourOutcome(c.ours, c.bound), theirs: [], agree: { ...none, reason: `peer error: ${peerError}` } };
  const outcomes = theirs.map((t) => peerOutcome(t));
  if ("error" in c.ours) return { seed: c.seed, features: c.features, ours: c.ours, theirs: outcomes, agree: { ...none, reason: `ours threw: ${c.ours.error}` } };
  c.partial = false;
  const firstBatch = possibleMatch(c, { singleBatch: true }, c.ours, (r) => ourOutcome(r, c.bound), outcomes);
  const row: Row = { seed: c.seed, features: c.features, ours: firstBatch.mine, theirs: outcomes, agree: firstBatch.agree };
  if (!c.rounds || !row.agree.all) return row;
  // Later rounds: which pods each NodeClaim ends up with (its own batch's and those a later Solve put on the node it
  // was launched as), how many NodeClaims and which pods stay Pending. Requests and launch lists are the first batch's
  // and were compared above.
  const later = await Promise.all(c.rounds.theirs);
  const laterError = later.find((t) => t.error)?.error;
  if (laterError) return { ...row, agree: { ...none, reason: `peer error (rounds): ${laterError}` } };
  const laterOutcomes = later.map((t) => podsOnly(peerOutcome(t, { rounds: true })));
  const rounds = possibleMatch(c, {}, c.rounds.ours, (r) => podsOnly(ourOutcome(r, c.bound)), laterOutcomes);
  const agree = rounds.agree;
  return { ...row, ours: rounds.mine, theirs: laterOutcomes, agree: { ...agree, ...(agree.reason ? { reason: `after later rounds: ${agree.reason}` } : {}) } };
}

/**
 * Karpenter's outcome agrees when it is one of ours: the possible results over the ways Karpenter's map-order ties
 * can break (scheduler.ts simulateOutcomes). `simulate`'s own answer first; if no Karpenter run matches it, a walk over
 * the ties that stops at the first result matching one (deterministic: the same answer as enumerating the whole set).
 * A walk that hits its bound marks the case partial (the set is incomplete).
 */
function possibleMatch(
  c: Case,
  options: { singleBatch?: boolean },
  first: SimulationResult,
  project: (r: SimulationResult) => Outcome,
  theirs: Outcome[],
): { mine: Outcome; agree: ReturnType<typeof compareOutcomes> } {
  const mine = project(first);
  for (const t of theirs) {
    const a = compareOutcomes(mine, t);
    if (a.all) return { mine, agree: a };
  }
  let match: { mine: Outcome; agree: ReturnType<typeof compareOutcomes> } | undefined;
  const walk = simulateOutcomes(c.input, snapshot, {
    ...options,
    maxOutcomes: TIE_OUTCOMES,
    maxRuns: TIE_RUNS,
    key: (r) => JSON.stringify(project(r)),
    until: (r) => {
      const p = project(r);
      for (const t of theirs) {
        const a = compareOutcomes(p, t);
        if (a.all) match = { mine: p, agree: a };
      }
      return match !== undefined;
    },
  });
  tieStats.walked++;
  tieStats.runs += walk.runs;
  if (match) {
    tieStats.found++;
    return match;
  }
  if (!walk.complete) c.partial = true;
  const agree = compareOutcomes(mine, theirs[0]!);
  const size = walk.results.length;
  return { mine, agree: size === 1 && walk.complete ? agree : { ...agree, reason: `${agree.reason} (Karpenter's outcome is none of our ${size}${walk.complete ? "" : "+, bound hit,"} possible ones over the ties; our first shown)` } };
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
  intermittent.clear();
  if (!existsSync(FIXTURES)) return new Set();
  const seeds = new Set<number>();
  for (const f of readdirSync(FIXTURES)) {
    if (!f.endsWith(".json")) continue;
    const fixture = JSON.parse(readFileSync(join(FIXTURES, f), "utf8")) as { seed: number; reason?: string; input?: unknown; intermittent?: boolean };
    const current = JSON.stringify(randomScenario(fixture.seed, snapshot).input);
    if (JSON.stringify(fixture.input) !== current) {
      console.log(`  ${f}: stale (its input is no longer what seed ${fixture.seed} generates); it explains nothing`);
      continue;
    }
    if (typeof fixture.reason === "string" && fixture.reason.length > 20) seeds.add(fixture.seed);
    if (fixture.intermittent === true) intermittent.add(fixture.seed);
  }
  return seeds;
}

/**
 * Fixtures marked `"intermittent": true`: Karpenter's outcome is outside our set of possible results in some runs only
 * (a tie the walk does not enumerate yet, its reason says what is known), so their agreeing is no sign of a stale
 * fixture. Filled by knownDisagreements.
 */
const intermittent = new Set<number>();

function writeCandidates(rows: Row[]): void {
  // not the run's own temporary folder (vitest.tmpdir.ts removes it at the end): the machine's
  const dir = join(process.env.EKS_GITOPS_TEST_REPORT_DIR ?? process.env.TMPDIR ?? "/tmp", "karpenter-disagreements");
  mkdirSync(dir, { recursive: true });
  for (const r of rows) {
    const { input } = randomScenario(r.seed, snapshot);
    writeFileSync(join(dir, `${r.seed}.json`), `${JSON.stringify({ seed: r.seed, difference: r.agree.reason, reason: "", input, ours: r.ours, karpenter: r.theirs[0] }, null, 2)}\n`);
  }
  console.log(`wrote ${rows.length} unexplained disagreement(s) to ${dir}: fix them, or commit one under ${FIXTURES} with its reason`);
}

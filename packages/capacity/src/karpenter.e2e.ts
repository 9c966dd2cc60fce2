// e2e differential: packages/capacity against Karpenter v1.14.1's own instance-type provider and scheduler
// (test-tools/kube/karpenter-sim). Seeded random clusters; the seed range is printed and fixed in CI.
//
//   pnpm --filter @eks-gitops/capacity e2e                       # the CI seed range
//   CAPACITY_DIFF_SEED=7000 CAPACITY_DIFF_COUNT=800 pnpm --filter @eks-gitops/capacity e2e
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { renderAwsTables } from "./aws-tables.ts";
import { formatAmounts, instanceTypeLabels, resolveInstanceType } from "./instance-types.ts";
import { simulate } from "./simulate.ts";
import { parseSnapshot } from "./snapshot.ts";
import { compareOutcomes, type Outcome, ourOutcome, peerOutcome } from "./testing/differential.ts";
import { type PeerInstanceType, peerBinary, peerScenario, runPeer, toEc2Info } from "./testing/karpenter-peer.ts";
import { randomScenario, withPrices } from "./testing/random-scenario.ts";
import type { EC2NodeClassInput, InstanceTypeSnapshot, SimulationResult } from "./types.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const SNAPSHOT_FILE = join(HERE, "..", "..", "..", "clusters", "eksworkshop", "capacity", "instance-types.ap-southeast-1.json");
const FIXTURES = join(HERE, "testing", "karpenter-disagreements");
const SEED = Number(process.env.CAPACITY_DIFF_SEED ?? 22000);
// CI runs the 100 seeds whose figure is recorded (99/100); CAPACITY_DIFF_COUNT=520 is the full set
const COUNT = Number(process.env.CAPACITY_DIFF_COUNT ?? 100);
/** `CAPACITY_DIFF_STRICT=1`: the target (99 %, no disagreement without a cause); otherwise the measured floor. */
const STRICT = process.env.CAPACITY_DIFF_STRICT === "1";
const AGREEMENT_FLOOR = 0.97;
/**
 * Karpenter iterates Go maps where the order matters: tied topology domains (topologygroup.go nextDomainTopologySpread)
 * and DaemonSet overhead groups (nodeclaim.go addDaemonRequests, over lo.Values of a map). Such a scenario runs this
 * often and any of Karpenter's results counts as agreement.
 */
const MAP_ORDER_RUNS = 6;

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
  { name: "windows2022", amiFamily: "Windows2022" },
  { name: "al2023-tuned", amiFamily: "AL2023", kubelet: { maxPods: 40, podsPerCore: 4, systemReserved: { cpu: "200m", memory: "300Mi" }, evictionHard: { "memory.available": "5%" } }, rootVolumeSize: "80Gi" },
  { name: "windows-tuned", amiFamily: "Windows2022", kubelet: { maxPods: 20, kubeReserved: { cpu: "500m" } }, rootVolumeSize: "100Gi" },
  { name: "bottlerocket-raid", amiFamily: "Bottlerocket", instanceStorePolicy: "RAID0", kubelet: { podsPerCore: 2 } },
  { name: "a1-reserved", amiFamily: "AL2", kubelet: { systemReserved: { memory: "8Gi" } } },
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
          },
          zones: [],
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
  it("NodeClaim count, pods and requests per NodeClaim, candidate sets and pending pods", async () => {
    console.log(`differential seeds ${SEED}..${SEED + COUNT - 1} (CAPACITY_DIFF_SEED / CAPACITY_DIFF_COUNT)`);
    const cases: { seed: number; features: string[]; ours: SimulationResult | { error: string }; scenarios: object[] }[] = [];
    for (let seed = SEED; seed < SEED + COUNT; seed++) {
      const { input, features } = randomScenario(seed, snapshot);
      let result: SimulationResult | { error: string };
      try {
        // One Solve on Karpenter's side: our extra rounds for limits (later provisioning batches) are not compared.
        result = simulate(input, snapshot, { singleBatch: true });
      } catch (e) {
        result = { error: (e as Error).message };
      }
      const runs = features.zoneSpread || features.daemonSetSelectors ? MAP_ORDER_RUNS : 1;
      const scenarios: object[] = [];
      const base = "error" in result ? simulate({ ...input, workloads: [] }, snapshot) : result;
      for (let i = 0; i < runs; i++) scenarios.push(peerScenario(`${seed}/${i}`, input, snapshot, base, ec2));
      cases.push({ seed, features: Object.entries(features).filter(([, v]) => v).map(([k]) => k), ours: result, scenarios });
    }
    // The instance-type data travels with the first scenario only (the peer reuses it).
    const all = cases.flatMap((c) => c.scenarios) as Record<string, unknown>[];
    const peerResults = await runPeer(
      binary,
      all.map((s, i) => (i === 0 ? s : { ...s, instanceTypes: [], offerings: {}, onDemandPrices: {}, spotPrices: {}, zones: [] })),
    );
    const byId = new Map(peerResults.map((r) => [r.id, r]));
    const rows: Row[] = cases.map((c) => {
      const theirs = c.scenarios.map((_, i) => byId.get(`${c.seed}/${i}`)!);
      const peerError = theirs.find((t) => t.error)?.error;
      if (peerError) {
        return { seed: c.seed, features: c.features, ours: "error" in c.ours ? c.ours : ourOutcome(c.ours), theirs: [], agree: { count: false, pods: false, requests: false, candidates: false, pending: false, existing: false, all: false, reason: `peer error: ${peerError}` } };
      }
      const outcomes = theirs.map(peerOutcome);
      if ("error" in c.ours) {
        return { seed: c.seed, features: c.features, ours: c.ours, theirs: outcomes, agree: { count: false, pods: false, requests: false, candidates: false, pending: false, existing: false, all: false, reason: `ours threw: ${c.ours.error}` } };
      }
      const mine = ourOutcome(c.ours);
      const comparisons = outcomes.map((o) => compareOutcomes(mine, o));
      const agree = comparisons.find((a) => a.all) ?? comparisons[0]!;
      return { seed: c.seed, features: c.features, ours: mine, theirs: outcomes, agree };
    });
    report(rows);
    const known = knownDisagreements();
    const unexplained = rows.filter((r) => !r.agree.all && !known.has(r.seed));
    if (unexplained.length > 0) writeCandidates(unexplained);
    const agreeing = rows.filter((r) => r.agree.all).length;
    if (STRICT) {
      // the target of issue 22: 99 % agreement and every disagreement committed with its cause
      expect(agreeing / rows.length).toBeGreaterThanOrEqual(0.99);
      expect(unexplained.map((r) => `seed ${r.seed}: ${r.agree.reason}`)).toEqual([]);
    } else {
      // CI holds a floor below the measured 99/100 on seeds 22000..22099 (the two committed disagreements are Go map
      // order and pdqsort, so a run may draw 98/100): a regression of more seeds fails; the seeds are printed above.
      console.log(`${unexplained.length} disagreement(s) without a committed cause (CAPACITY_DIFF_STRICT=1 fails on them)`);
      expect(agreeing / rows.length).toBeGreaterThanOrEqual(AGREEMENT_FLOOR);
    }
  });
});

function report(rows: Row[]): void {
  const pct = (n: number) => `${n}/${rows.length} (${((100 * n) / rows.length).toFixed(1)} %)`;
  const count = (f: (r: Row) => boolean) => rows.filter(f).length;
  console.log(`agreement over ${rows.length} scenarios:`);
  console.log(`  all fields         ${pct(count((r) => r.agree.all))}`);
  console.log(`  NodeClaim count    ${pct(count((r) => r.agree.count))}`);
  console.log(`  pods per NodeClaim ${pct(count((r) => r.agree.pods))}`);
  console.log(`  requests           ${pct(count((r) => r.agree.requests))}`);
  console.log(`  candidate sets     ${pct(count((r) => r.agree.candidates))}`);
  console.log(`  pending pods       ${pct(count((r) => r.agree.pending))}`);
  const features = [...new Set(rows.flatMap((r) => r.features))].sort();
  for (const f of features) {
    const mine = rows.filter((r) => r.features.includes(f));
    console.log(`  with ${f.padEnd(18)} ${mine.filter((r) => r.agree.all).length}/${mine.length}`);
  }
  for (const r of rows.filter((x) => !x.agree.all).slice(0, 30)) console.log(`  seed ${r.seed} [${r.features.join(",")}]: ${r.agree.reason}`);
}

/** Seeds whose disagreement is committed as a fixture with its reason (testing/karpenter-disagreements/<seed>.json). */
function knownDisagreements(): Set<number> {
  if (!existsSync(FIXTURES)) return new Set();
  const seeds = new Set<number>();
  for (const f of readdirSync(FIXTURES)) {
    if (!f.endsWith(".json")) continue;
    const fixture = JSON.parse(readFileSync(join(FIXTURES, f), "utf8")) as { seed: number; reason?: string };
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

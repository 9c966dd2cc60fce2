// The hash differential (pnpm e2e): our NodePool.Hash() / EC2NodeClass.Hash() against Karpenter v1.14.1's own Go code
// (test-tools/kube/karpenter-hash) on generated objects, the committed fixture and the committed rendered objects.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readRenderedWorkingTree } from "../diff/git.ts";
import { karpenterObjects } from "./drift.ts";
import { ec2NodeClassHash, nodePoolHash } from "./karpenter-hash.ts";
import { generateEC2NodeClass, generateNodePool, Random } from "./testing/generate.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..", "..", "..");
const FIXTURE = join(HERE, "testing", "hash-fixture.json");
const OBJECTS = 1200;

interface Case {
  readonly kind: "NodePool" | "EC2NodeClass";
  readonly object: unknown;
  readonly caBundle?: string;
}

function peer(): string {
  // Builds once per machine (cached in ~/.cache/eks-gitops/test-tools), then reused.
  return execFileSync("bash", [join(ROOT, "test-tools", "build.sh"), "karpenter-hash"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/** Karpenter's hashes, one per case ("error: ..." where Go refuses the object). */
function karpenterHashes(cases: readonly Case[]): string[] {
  const input = cases.map((c) => JSON.stringify(c)).join("\n");
  // metav1.Time converts to the Local zone: UTC, as in Karpenter's image.
  const out = execFileSync(peer(), { input: `${input}\n`, encoding: "utf8", env: { ...process.env, TZ: "UTC" }, maxBuffer: 1 << 28 });
  return out.trimEnd().split("\n");
}

function ours(c: Case): string {
  try {
    return c.kind === "NodePool" ? nodePoolHash(c.object) : ec2NodeClassHash(c.object, c.caBundle);
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

function generated(seed: number, n: number): Case[] {
  const r = new Random(seed);
  const cases: Case[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) cases.push({ kind: "NodePool", object: generateNodePool(r) });
    else {
      const ca = r.chance(0.3) ? r.pick(["", "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t"]) : undefined;
      cases.push({ kind: "EC2NodeClass", object: generateEC2NodeClass(r), ...(ca !== undefined ? { caBundle: ca } : {}) });
    }
  }
  return cases;
}

describe("NodePool.Hash() and EC2NodeClass.Hash() against Karpenter v1.14.1", () => {
  it(`agree on ${OBJECTS} generated objects`, () => {
    const cases = generated(20261203, OBJECTS);
    const theirs = karpenterHashes(cases);
    expect(theirs).toHaveLength(cases.length);
    const disagree = cases.map((c, i) => ({ i, c, ours: ours(c), theirs: theirs[i] })).filter((x) => !(x.ours === x.theirs || (x.ours.startsWith("error") && x.theirs?.startsWith("error"))));
    const hashed = theirs.filter((t) => !t.startsWith("error")).length;
    const np = cases.filter((c) => c.kind === "NodePool").length;
    console.log(`karpenter-hash differential: ${cases.length - disagree.length}/${cases.length} objects agree (${np} NodePools, ${cases.length - np} EC2NodeClasses; ${hashed} hashed, ${cases.length - hashed} refused by both)`);
    expect(disagree.slice(0, 3).map((d) => ({ i: d.i, object: JSON.stringify(d.c), ours: d.ours, theirs: d.theirs }))).toEqual([]);
    expect(hashed).toBeGreaterThanOrEqual(1000);
  });

  it("agree on every committed NodePool and EC2NodeClass", () => {
    const objects = [...karpenterObjects(readRenderedWorkingTree(ROOT)).entries()];
    expect(objects.length).toBeGreaterThan(0);
    const cases: Case[] = objects.map(([key, object]) => ({ kind: key.split("/")[1] as Case["kind"], object }));
    expect(cases.map(ours)).toEqual(karpenterHashes(cases));
  });

  it("the committed fixture (unit tests) is what Karpenter says", () => {
    const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as { cases: Case[]; hashes: string[] };
    const theirs = karpenterHashes(fixture.cases);
    if (process.env.UPDATE_HASH_FIXTURE === "1") {
      writeFileSync(FIXTURE, `${JSON.stringify({ ...fixture, hashes: theirs }, null, 1)}\n`);
      return;
    }
    expect(fixture.hashes).toEqual(theirs);
  });
});

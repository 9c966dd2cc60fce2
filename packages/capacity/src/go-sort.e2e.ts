// e2e: goSortSlice / goSortSliceStable (go-sort.ts) against Go's own sort.Slice / sort.SliceStable
// (test-tools/kube/go-sort, built with the Go toolchain by test-tools/build.sh). Generated arrays with many duplicate
// keys, lengths 0..200, in the shapes that take each branch of pdqsort (random, sorted, reversed, nearly sorted, all
// equal, and the scheduler's own: sorted by pod count with one element just incremented or appended).
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { goSortSlice, goSortSliceStable } from "./go-sort.ts";
import { rng } from "./testing/random-scenario.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const SEED = Number(process.env.GO_SORT_SEED ?? 4242);
const COUNT = Number(process.env.GO_SORT_COUNT ?? 4000);

function arrays(seed: number, count: number): { keys: number[]; stable: boolean; shape: string }[] {
  const r = rng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const out: { keys: number[]; stable: boolean; shape: string }[] = [];
  const shapes = ["random", "sorted", "reversed", "nearly-sorted", "equal", "scheduler-add", "scheduler-append"];
  for (let i = 0; i < count; i++) {
    // Lengths 0..200, half of them in 13..80 where pdqsort takes over from the insertion sort.
    const n = r() < 0.5 ? 13 + int(68) : int(201);
    const range = 1 + int(r() < 0.7 ? 6 : n + 1);
    const shape = shapes[int(shapes.length)]!;
    let keys = Array.from({ length: n }, () => int(range));
    if (shape === "sorted" || shape === "nearly-sorted" || shape.startsWith("scheduler")) keys.sort((a, b) => a - b);
    if (shape === "reversed") keys.sort((a, b) => b - a);
    if (shape === "equal") keys = keys.map(() => 3);
    if (shape === "nearly-sorted") for (let k = 0; k < 1 + int(6) && n > 1; k++) keys[int(n)] = int(range);
    if (shape === "scheduler-add" && n > 0) keys[int(n)]! += 1;
    if (shape === "scheduler-append") keys.push(1);
    out.push({ keys, stable: r() < 0.25, shape });
  }
  return out;
}

describe("goSortSlice agrees with Go's sort.Slice, goSortSliceStable with sort.SliceStable", () => {
  it(`the same permutation of every generated array (seed ${SEED}, ${COUNT} arrays)`, () => {
    const binary = execFileSync("bash", [join(REPO, "test-tools", "build.sh"), "go-sort"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n").pop()!;
    const goVersion = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
    const cases = arrays(SEED, COUNT);
    const lines = execFileSync(binary, [], { input: `${cases.map((c) => JSON.stringify({ keys: c.keys, stable: c.stable })).join("\n")}\n`, encoding: "utf8", maxBuffer: 256 << 20 })
      .trim()
      .split("\n");
    expect(lines.length).toBe(cases.length);
    const wrong: string[] = [];
    let differentFromStable = 0;
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      const perm = c.keys.map((_, j) => j);
      const less = (a: number, b: number) => c.keys[a]! < c.keys[b]!;
      (c.stable ? goSortSliceStable : goSortSlice)(perm, less);
      const theirs = lines[i]!;
      if (JSON.stringify(perm) !== theirs && wrong.length < 5) wrong.push(`case ${i} (${c.shape}, stable ${c.stable}, keys ${JSON.stringify(c.keys)}): ours ${JSON.stringify(perm)}, Go ${theirs}`);
      const stableOrder = c.keys.map((_, j) => j).sort((a, b) => c.keys[a]! - c.keys[b]! || a - b);
      if (JSON.stringify(stableOrder) !== theirs) differentFromStable++;
    }
    console.log(`go-sort: ${cases.length} arrays against ${goVersion}; ${differentFromStable} of them Go orders unlike a stable sort`);
    // The arrays must exercise pdqsort's reordering of ties, or the comparison proves little.
    expect(differentFromStable).toBeGreaterThan(cases.length / 10);
    expect(wrong).toEqual([]);
  });
});

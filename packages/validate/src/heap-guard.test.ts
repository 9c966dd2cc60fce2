// HeapGuard: a full collection once the heap has grown by the slack, none before.
import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { HeapGuard } from "./heap-guard.ts";

const used = () => getHeapStatistics().used_heap_size;
const MiB = 1024 * 1024;

describe("HeapGuard", () => {
  it("collects garbage once the heap has grown past the slack", () => {
    const guard = new HeapGuard(16 * MiB);
    guard.collectNow();
    const baseline = used();
    let junk: { i: number; s: string }[] | undefined = Array.from({ length: 600_000 }, (_, i) => ({ i, s: `item-${i}` }));
    expect(used() - baseline).toBeGreaterThan(16 * MiB);
    junk = undefined;
    guard.check();
    expect(junk).toBeUndefined();
    expect(used() - baseline).toBeLessThan(8 * MiB);
  });

  it("does nothing while the heap is within the slack", () => {
    const guard = new HeapGuard(512 * MiB);
    const junk = Array.from({ length: 100_000 }, (_, i) => `x${i}`);
    const before = used();
    guard.check();
    expect(used()).toBeGreaterThanOrEqual(before - MiB);
    expect(junk.length).toBe(100_000);
  });
});

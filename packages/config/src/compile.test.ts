// The compiled-overlay cache: a module per content of an overlay, pruned of what no load has used for a month.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { PRUNE_STAMP, UNUSED_DAYS } from "./cache-prune.ts";
import { compileOverlay } from "./compile.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(): { overlay: string; env: NodeJS.ProcessEnv; cache: string } {
  const root = mkdtempSync(join(tmpdir(), "overlay-cache-"));
  dirs.push(root);
  const overlay = join(root, "cluster.ts");
  const cache = join(root, "cache");
  return { overlay, cache, env: { EKS_GITOPS_OVERLAY_CACHE: cache } };
}

const age = (dir: string, name: string, days: number) => {
  const at = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  utimesSync(join(dir, name), at, at);
};
const modules = (dir: string) => readdirSync(dir).filter((f) => /^[0-9a-f]{32}-[0-9a-f]{16}\.mjs$/.test(f));

describe("compileOverlay's cache", () => {
  it("keeps the module a load uses and removes, at most once a day, the ones of older contents unused for a month", async () => {
    const { overlay, cache, env } = setup();
    writeFileSync(overlay, "export const replicas: number = 1;\n");
    const first = compileOverlay(overlay, ["defineCluster"], env);
    writeFileSync(overlay, "export const replicas: number = 2;\n");
    const second = compileOverlay(overlay, ["defineCluster"], env);
    expect(second).not.toBe(first);
    expect(modules(cache).sort()).toEqual([first, second].map((m) => m.slice(cache.length + 1)).sort());
    // everything a month and more old, the last pruning two days ago (the first load stamped the folder)
    expect(existsSync(join(cache, PRUNE_STAMP))).toBe(true);
    for (const f of readdirSync(cache)) age(cache, f, UNUSED_DAYS + 5);
    age(cache, PRUNE_STAMP, 2);
    const foreign = join(cache, "regions-notes.json");
    writeFileSync(foreign, "{}");
    age(cache, "regions-notes.json", 400);

    // a load of the overlay as it is now: its module is used (kept), the older content's is removed
    expect(compileOverlay(overlay, ["defineCluster"], env)).toBe(second);
    expect(existsSync(first)).toBe(false);
    expect(existsSync(second)).toBe(true);
    // its manifest is used with it, and kept; the shim esbuild read is never removed
    expect(readdirSync(cache).filter((f) => f.endsWith(".json") && f !== "regions-notes.json")).toHaveLength(1);
    expect(readdirSync(cache).filter((f) => f.startsWith("config-"))).toHaveLength(1);
    expect(existsSync(foreign)).toBe(true);
    expect(Date.now() - statSync(second).mtimeMs).toBeLessThan(60 * 60 * 1000);
    expect(((await import(pathToFileURL(second).href)) as { replicas: number }).replicas).toBe(2);
  });

  it("builds the module again when a pruning removed it before its manifest", async () => {
    const { overlay, cache, env } = setup();
    writeFileSync(overlay, "export const replicas: number = 3;\n");
    const built = compileOverlay(overlay, ["defineCluster"], env);
    rmSync(built);
    expect(compileOverlay(overlay, ["defineCluster"], env)).toBe(built);
    expect(existsSync(built)).toBe(true);
    expect(modules(cache)).toHaveLength(1);
    expect(((await import(pathToFileURL(built).href)) as { replicas: number }).replicas).toBe(3);
  });
});

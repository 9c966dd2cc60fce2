// loadCluster through the compiled-overlay cache when another process's pruning removes the module it just found.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("./compile.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("./compile.ts")>();
  return { ...real, compileOverlay: vi.fn(real.compileOverlay) };
});

const { compileOverlay } = await import("./compile.ts");
const { loadCluster } = await import("./load.ts");
const LAB = fileURLToPath(new URL("../../../clusters/eksworkshop/cluster.ts", import.meta.url));

const saved = process.env.EKS_GITOPS_OVERLAY_CACHE;
const dirs: string[] = [];
afterEach(() => {
  if (saved === undefined) delete process.env.EKS_GITOPS_OVERLAY_CACHE;
  else process.env.EKS_GITOPS_OVERLAY_CACHE = saved;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("loadCluster and the compiled-overlay cache", () => {
  it("builds the module again when it is removed between the lookup and the import", async () => {
    const root = mkdtempSync(join(tmpdir(), "overlay-load-"));
    dirs.push(root);
    mkdirSync(join(root, "clusters", "eksworkshop"), { recursive: true });
    copyFileSync(LAB, join(root, "clusters", "eksworkshop", "cluster.ts"));
    process.env.EKS_GITOPS_OVERLAY_CACHE = join(root, "cache");
    const compile = vi.mocked(compileOverlay);
    const real = compile.getMockImplementation() as typeof compileOverlay;
    let removed = "";
    // the lookup finds (here: builds) the module, then it is gone before the import, as another run's pruning may do
    compile.mockImplementationOnce((...args) => {
      removed = real(...args);
      rmSync(removed);
      return removed;
    });
    const config = await loadCluster(root, "eksworkshop");
    expect(config.name).toBe("eksworkshop");
    expect(compile).toHaveBeenCalledTimes(2);
    expect(existsSync(removed)).toBe(true);
  });
});

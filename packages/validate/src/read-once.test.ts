// Issue 19: a run reads each file once: the scan's read is the one the documents are parsed from, and findings
// are located in that same text (counted at the hardened read every file goes through).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runValidation } from "./run.ts";

const reads = vi.hoisted(() => new Map<string, number>());
vi.mock("./hostile/fs.ts", async (importOriginal) => {
  const fs = await importOriginal<typeof import("./hostile/fs.ts")>();
  return {
    ...fs,
    readRegularFile: (path: string, maxBytes: number) => {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      return fs.readRegularFile(path, maxBytes);
    },
  };
});

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "read-once-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a run", () => {
  it("reads each file once, and locates its findings in what it read", async () => {
    const files = ["a.yaml", "b.yaml", "c.json"].map((n) => join(dir, n));
    writeFileSync(files[0] as string, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n");
    writeFileSync(files[1] as string, "# no schema for this kind without the catalog: a finding to locate\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n");
    writeFileSync(files[2] as string, '{"apiVersion": "example.com/v1", "kind": "Gizmo", "metadata": {"name": "z"}}');
    reads.clear();
    const { report } = await runValidation({ root: REPO, paths: [dir], catalog: false, crossObjectChecks: false, iamLint: false, read: { cwd: dir } });
    expect(Object.fromEntries([...reads].map(([p, n]) => [p.slice(dir.length + 1), n]))).toEqual({ "a.yaml": 1, "b.yaml": 1, "c.json": 1 });
    const gadget = report.resources.find((r) => r.kind === "Gadget");
    expect(gadget?.findings.length).toBeGreaterThan(0);
    expect(gadget?.findings.every((f) => f.line === 2)).toBe(true);
  }, 60_000);
});

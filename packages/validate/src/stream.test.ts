// The streaming pipeline (runValidation) and the in-memory one (validateDocuments) agree on every fixture,
// and the streaming one adds positions; output formats are built from the same report.
import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadDocuments } from "./reader.ts";
import { runValidation } from "./run.ts";
import { WARM_FILES } from "./stream.ts";
import { catalogLayer, SchemaRegistry } from "./schema/registry.ts";
import type { ResourceResult } from "./types.ts";
import { validateDocuments } from "./validate-documents.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const REPO = fileURLToPath(new URL("../../../", import.meta.url));
// a run reports findings in line order (levels.ts), an in-memory batch has no lines: compared as sets
const key = (f: object) => JSON.stringify(f);
const withoutPositions = (rs: readonly ResourceResult[]) =>
  rs.map((r) => ({ ...r, findings: r.findings.map(({ line: _l, column: _c, ...f }) => f).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) }));

describe("validateFiles (streaming) against validateDocuments (in memory)", () => {
  it("gives the same results on the karpenter, structural and defaulting fixtures, with every finding located", async () => {
    const folders = ["karpenter", "structural", "defaulting"].map((f) => join(FIXTURES, f));
    const { report } = await runValidation({ root: REPO, paths: folders, read: { cwd: FIXTURES }, crossObjectChecks: false });
    const registry = new SchemaRegistry().with([await catalogLayer({}, {})]);
    const memory = await validateDocuments(loadDocuments(folders, { cwd: FIXTURES }), { registry });
    expect(report.resources.length).toBeGreaterThan(100);
    expect(withoutPositions(report.resources)).toEqual(withoutPositions(memory.resources));
    expect(report.summary).toEqual(memory.summary);
    const unlocated = report.resources.flatMap((r) => r.findings.filter((f) => f.line === undefined).map((f) => `${r.file} ${f.path}`));
    expect(unlocated).toEqual([]);
  }, 120_000);

  it("says once how many files were validated, up to WARM_FILES (the CLI decides with it whether to write its code cache)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stream-warm-"));
    const files = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const file = join(dir, `w${n}-${String(i).padStart(3, "0")}.yaml`);
        writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: w${i}\n`);
        return file;
      });
    for (const n of [3, WARM_FILES + 5]) {
      const calls: number[] = [];
      const { report } = await runValidation({ root: REPO, paths: files(n), read: { cwd: dir }, crossObjectChecks: false, onWarm: (done) => calls.push(done) });
      expect(calls).toEqual([Math.min(n, WARM_FILES)]);
      expect(report.resources.length).toBe(n);
    }
  }, 120_000);

  it("reads stdin once and still locates its findings", async () => {
    let reads = 0;
    const text = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80\n      protocl: TCP\n";
    const { report } = await runValidation({
      root: REPO,
      paths: ["-"],
      crossObjectChecks: false,
      read: {
        cwd: REPO,
        readStdin: () => {
          reads++;
          return text;
        },
      },
    });
    expect(reads).toBe(1);
    expect(report.resources[0]?.findings.map((f) => [f.path, f.rule, f.line, f.column])).toEqual([["/spec/ports/0/protocl", "schema:additionalProperties", 8, 7]]);
  }, 60_000);
});

describe("the streaming pipeline reads as warily as the reader (issue 14)", () => {
  it("a FIFO, a dangling link and a too-large file are one error each, never waited on, and the rest is validated", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stream-hostile-"));
    writeFileSync(join(dir, "ok.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n");
    writeFileSync(join(dir, "big.yaml"), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {a: ${"x".repeat(2000)}}\n`);
    execFileSync("mkfifo", [join(dir, "pipe.yaml")]);
    symlinkSync(join(dir, "missing.yaml"), join(dir, "dangling.yaml"));
    const { report } = await runValidation({ root: dir, paths: [dir], crossObjectChecks: false, read: { cwd: dir, maxFileBytes: 1000 } });
    expect(report.resources.map((r) => [r.file, r.status, r.findings.map((f) => f.rule)])).toEqual([
      ["big.yaml", "error", ["parse:too-large"]],
      ["dangling.yaml", "error", ["parse:dangling-link"]],
      ["ok.yaml", "valid", []],
      ["pipe.yaml", "error", ["parse:not-a-file"]],
    ]);
  }, 60_000);

  it("stdin over --max-file-bytes is an error, read once", async () => {
    let reads = 0;
    const { report } = await runValidation({
      root: REPO,
      paths: ["-"],
      crossObjectChecks: false,
      read: {
        cwd: REPO,
        maxFileBytes: 100,
        readStdin: () => {
          reads++;
          return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\ndata: {a: ${"x".repeat(200)}}\n`;
        },
      },
    });
    expect(reads).toBe(1);
    expect(report.resources.map((r) => [r.file, r.status, r.findings.map((f) => f.message)])).toEqual([
      ["-", "error", ["stdin is 263 bytes, over the 100-byte limit; split it or raise --max-file-bytes"]],
    ]);
  }, 60_000);
});

// Data-driven test of the cross-object checks: each folder of fixtures/cross-object is an overlay; every file carries its expected findings.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type ChartValuesIndex, loadChartValues } from "../catalog/charts.ts";
import { loadDocuments } from "../reader.ts";
import { compareFindings, readHeader } from "../testing/fixture-header.ts";
import { crossObjectChecks } from "./index.ts";
import type { OverlayFacts } from "./overlay.ts";

const ROOT = fileURLToPath(new URL("../../fixtures/cross-object/", import.meta.url));
const cases = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** `overlay-facts.txt`: `key: value` lines standing in for the overlay's cluster.ts. */
function readFacts(dir: string): OverlayFacts | undefined {
  const file = join(dir, "overlay-facts.txt");
  if (!existsSync(file)) return undefined;
  const facts: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^(clusterName|kubernetesVersion|karpenterVersion):\s*(\S+)\s*$/.exec(line);
    if (m) facts[m[1]!] = m[2]!;
  }
  return facts;
}

describe("cross-object fixtures", () => {
  // the pinned chart values, through the product's own path (cache, else the mirror in EKS_GITOPS_MIRROR, else upstream)
  let chartValues: Map<string, ChartValuesIndex>;
  beforeAll(async () => {
    chartValues = await loadChartValues({});
  });

  it("has a folder for every check code", async () => {
    const { CHECK_CODES } = await import("./codes.ts");
    const used = new Set<string>();
    for (const c of cases) {
      const docs = loadDocuments([join(ROOT, c)], { cwd: ROOT });
      for (const file of [...docs.resources.map((r) => r.file), ...docs.iam.map((d) => d.file)]) {
        const headerFile = file.endsWith(".json") ? `${file}.expect` : file;
        if (!existsSync(join(ROOT, headerFile))) continue;
        for (const f of readHeader(join(ROOT, headerFile)).findings) if (f.rule) used.add(f.rule);
      }
    }
    expect([...Object.keys(CHECK_CODES)].filter((code) => !used.has(code))).toEqual([]);
  });

  for (const c of cases) {
    it(c, () => {
      const docs = loadDocuments([join(ROOT, c)], { cwd: ROOT });
      expect(docs.unreadable).toEqual([]);
      const facts = readFacts(join(ROOT, c));
      // each folder is a whole overlay (what is missing from it is missing from the overlay)
      const findings = crossObjectChecks(docs.resources, { iam: docs.iam, chartValues, overlayOf: () => c, ...(facts ? { overlays: { [c]: facts } } : {}) });
      const files = [...docs.resources.map((r) => ({ file: r.file, index: r.index })), ...docs.iam.map((d) => ({ file: d.file, index: d.index }))];
      const problems: string[] = [];
      for (const { file, index } of files) {
        const headerFile = join(ROOT, file.endsWith(".json") ? `${file}.expect` : file);
        // JSON files without a sidecar expect nothing.
        const header = existsSync(headerFile) ? readHeader(headerFile) : { description: "", expect: "valid" as const, findings: [], defaults: [] };
        const mine = findings.filter((f) => f.file === file && f.index === index);
        for (const p of compareFindings(header, mine)) problems.push(`${relative(ROOT, join(ROOT, file))}: ${p}`);
      }
      // Every finding must land on a file of the fixture (none lost to a wrong file/index).
      for (const f of findings) if (!files.some((x) => x.file === f.file && x.index === f.index)) problems.push(`finding on an unknown document: ${JSON.stringify(f)}`);
      expect(problems).toEqual([]);
      for (const f of findings) expect(f.hint, `${f.rule} has a fix hint`).toMatch(/\S/);
    });
  }
});

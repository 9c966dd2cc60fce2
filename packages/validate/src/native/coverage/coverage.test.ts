// The coverage table of the README is what entry-points.json (generated from the Go sources) and status.ts say, and
// no entry point status.ts ports has lost its row.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { coverageSection, README_FILE, readEntryPoints } from "./readme-table.ts";
import { COVERAGE, coverageOf, coverageTable } from "./status.ts";

const entries = readEntryPoints();
const keys = new Set(entries.map((e) => `${e.group}/${e.function}`));

describe("native coverage table", () => {
  it("lists every entry point once, from the generated file", () => {
    expect(entries.length).toBeGreaterThan(200);
    expect(keys.size).toBe(entries.length);
    expect(entries.every((e) => /^pkg\/apis\/[a-z]+\/validation\/[a-z_]+\.go$/.test(e.file) && e.function.startsWith("Validate") && e.line > 0)).toBe(true);
  });

  it("has a row for every entry point status.ts describes (a ported function never loses its row)", () => {
    const orphans = Object.keys(COVERAGE).filter((k) => !keys.has(k));
    expect(orphans).toEqual([]);
  });

  it("is in the README exactly as generated (pnpm --filter @eks-gitops/validate coverage-table rewrites it)", () => {
    expect(coverageSection(readFileSync(README_FILE, "utf8"))).toBe(coverageTable(entries));
  });

  it("says why an entry point is out of scope and what a partly ported one lacks", () => {
    for (const e of entries) {
      const c = coverageOf(e);
      if (c.status !== "not ported") expect(c.note, `${e.group}/${e.function}`).not.toBe("");
    }
    expect(coverageOf({ group: "rbac", function: "ValidateRoleBinding" }).status).toBe("ported");
    expect(coverageOf({ group: "core", function: "ValidateSecretUpdate" }).status).toBe("out of scope");
    expect(coverageOf({ group: "coordination", function: "ValidateCoordinatedLeaseStrategy" }).status).toBe("out of scope");
    expect(coverageOf({ group: "core", function: "ValidateNodeFieldSelectorRequirement" }).status).toBe("not ported");
  });
});

// The coverage section of the package README, rendered from entry-points.json and status.ts (write-readme.ts writes it,
// coverage.test.ts requires the README to hold exactly this).
import { readFileSync } from "node:fs";
import { coverageTable, type EntryPoint } from "./status.ts";

export const START = "<!-- coverage-table:start (generated: pnpm --filter @eks-gitops/validate coverage-table) -->";
export const END = "<!-- coverage-table:end -->";

export const ENTRY_POINTS_FILE = new URL("./entry-points.json", import.meta.url);
export const README_FILE = new URL("../../../README.md", import.meta.url);

export const readEntryPoints = (): EntryPoint[] => JSON.parse(readFileSync(ENTRY_POINTS_FILE, "utf8")) as EntryPoint[];

/** The README text with its coverage section replaced (or an error when the markers are missing). */
export function withCoverageTable(readme: string, entries: readonly EntryPoint[]): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no coverage section: add the lines ${START} and ${END}`);
  return `${readme.slice(0, start + START.length)}\n${coverageTable(entries)}\n${readme.slice(end)}`;
}

/** The coverage section as the README holds it now. */
export function coverageSection(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start < 0 || end < start ? "" : readme.slice(start + START.length, end).trim();
}

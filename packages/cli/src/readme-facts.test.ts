// README figures that come from code, derived from the code here: the pinned schema download (number and size of
// files, from the pin list), and "no Go, no Python" for `pnpm test` (the unit tests' import
// graph starts no python or go). A README that drifts from the code fails here.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { CATALOG, CHART_VALUES, fetchPinned } from "@eks-gitops/validate";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** Every file the catalog pins, once each: the schema cache is content-addressed, so one file per SHA-256. */
function pinnedFiles(): { path: string; sha256: string }[] {
  const bySha = new Map<string, { path: string; sha256: string }>();
  for (const f of [...CATALOG.flatMap((r) => r.files), ...CHART_VALUES.map((c) => c.file)]) if (!bySha.has(f.sha256)) bySha.set(f.sha256, f);
  return [...bySha.values()];
}

describe("README: the pinned schema download", { timeout: 120_000 }, () => {
  it("names the number of files and their total size the pin list gives", async () => {
    const files = pinnedFiles();
    // from the cache, else the mirror or upstream, SHA-256-checked: the same bytes a first run downloads
    const bytes = (await Promise.all(files.map((f) => fetchPinned(f)))).reduce((n, b) => n + b.byteLength, 0);
    const stated = /downloads the pinned [^(]*\((\d+) files, ([\d.]+) MB, /.exec(README);
    expect(stated, "README.md: the schema sentence `(<N> files, <X> MB, ...)`").not.toBeNull();
    expect({ files: Number(stated?.[1]), megabytes: stated?.[2] }).toEqual({ files: files.length, megabytes: (bytes / 1e6).toFixed(1) });
  });
});

// the exit-code table is checked against exit-codes.ts by exit-codes.test.ts ("the README's exit-code table")

/** Modules reachable from a file through relative and @eks-gitops/* imports (sources only). */
function importGraph(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...entries];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      const target = resolveImport(file, m[1] as string);
      if (target && !seen.has(target)) todo.push(target);
    }
  }
  return seen;
}

function resolveImport(from: string, spec: string): string | undefined {
  let path: string | undefined;
  if (spec.startsWith(".")) path = resolve(dirname(from), spec);
  else {
    const m = /^@eks-gitops\/([^/]+)(\/.*)?$/.exec(spec);
    if (!m) return undefined;
    const pkgDir = [join(ROOT, "packages", m[1] as string), join(ROOT, "apps", m[1] as string)].find((d) => isFile(join(d, "package.json")));
    if (!pkgDir) return undefined;
    const exports = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { exports?: Record<string, string> }).exports ?? {};
    const target = exports[`.${m[2] ?? ""}`];
    path = target ? join(pkgDir, target) : undefined;
  }
  if (!path) return undefined;
  return [path, `${path}.ts`, join(path, "index.ts")].find(isFile);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The unit test files `pnpm test` runs: every package's src/**\/*.test.ts but the emulator and peer suites (pnpm e2e). */
function unitTestFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".test.ts") && !e.name.endsWith(".emulator.test.ts") && !e.name.endsWith(".peer.test.ts")) out.push(p);
    }
  };
  for (const base of ["packages", "apps"]) for (const pkg of readdirSync(join(ROOT, base))) if (isFile(join(ROOT, base, pkg, "package.json"))) walk(join(ROOT, base, pkg, "src"));
  return out;
}

describe("README: `pnpm test` needs no Go and no Python", () => {
  it("says so", () => {
    expect(README).toContain("pnpm test                     # the whole test suite (unit and integration; no Go, no Python)");
  });

  it("no module the unit tests import starts python or go", () => {
    const tests = unitTestFiles();
    expect(tests.length).toBeGreaterThan(100);
    const starters = [...importGraph(tests)]
      .map((f) => relative(ROOT, f))
      .filter((f) => /\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*["'`](?:python3?|go|pip3?)\b/.test(readFileSync(join(ROOT, f), "utf8")) || /moto\.server|import (?:\w+, )*moto\b/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(starters).toEqual([]);
  });
});

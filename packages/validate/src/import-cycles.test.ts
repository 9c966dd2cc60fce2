// No import cycles in the package's runtime sources, not even between two files of one folder (STYLE.md): a shared
// helper moves down a floor. Type-only imports count too: a cycle of types is still a tangle to read.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL(".", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

/** The relative imports of each file (among `files`). */
function importsOf(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((f) => [
      relative(SRC, f),
      [...readFileSync(f, "utf8").matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gm)]
        .map((m) => join(dirname(f), m[1] as string))
        .filter((t) => known.has(t))
        .map((t) => relative(SRC, t)),
    ]),
  );
}

/** Every cycle met by a depth-first walk of the imports, as `a.ts -> b.ts -> a.ts`. */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, "open" | "done">();
  const found: string[] = [];
  const visit = (f: string, stack: string[]) => {
    state.set(f, "open");
    stack.push(f);
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === "open") found.push([...stack.slice(stack.indexOf(t)), t].join(" -> "));
      else if (!state.has(t)) visit(t, stack);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of edges.keys()) if (!state.has(f)) visit(f, []);
  return found;
}

describe("imports", () => {
  it("form no cycle (stream.ts and validate.ts used to import each other)", () => {
    const edges = importsOf(sources(SRC));
    expect(edges.size).toBeGreaterThan(50);
    expect(edges.get("validate-documents.ts")).toEqual(expect.arrayContaining(["stream.ts", "validate.ts"]));
    expect(cycles(edges)).toEqual([]);
  });

  it("would name a cycle, such as the one stream.ts and validate.ts had", () => {
    const edges = new Map([
      ["run.ts", ["stream.ts"]],
      ["stream.ts", ["validate.ts", "positions.ts"]],
      ["validate.ts", ["stream.ts"]],
      ["positions.ts", []],
    ]);
    expect(cycles(edges)).toEqual(["stream.ts -> validate.ts -> stream.ts"]);
  });
});

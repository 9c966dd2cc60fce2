// The native stage reads objects the schema stage may have refused: any JSON value in any place must give findings,
// never an exception (an exception would stop the whole run). Deterministic: a fixed seed walks every fixture.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { TypeSchema } from "../schema/model.ts";
import { catalogLayer, SchemaRegistry } from "../schema/registry.ts";
import { nativeFindings } from "./index.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/native/", import.meta.url));
const ODD_VALUES: readonly unknown[] = [null, true, 0, -1, 1.5, 2 ** 40, "", "x", "-1", [], [null], {}, { a: null }, [[]], "4GB", "..", "Always"];

/** xorshift32: the same sequence on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** Every path (list of keys) to a value inside the object. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) paths(v[i], [...prefix, i], out);
  }
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out);
  return out;
}

function replaced(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const key = path[0] as string | number;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[key as number] = replaced(copy[key as number], path.slice(1), value);
    return copy;
  }
  const copy = { ...(root as Record<string, unknown>) };
  copy[key] = replaced(copy[key], path.slice(1), value);
  return copy;
}

let registry: SchemaRegistry;
beforeAll(async () => {
  registry = new SchemaRegistry();
  registry.layers.push(await catalogLayer({}, {}));
}, 120_000);

describe("native stage robustness", () => {
  it("never throws, whatever value sits at whatever place of the native fixtures", () => {
    const next = rng(20261203);
    let runs = 0;
    for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith(".yaml")).sort()) {
      const object = parse(readFileSync(join(FIXTURES, file), "utf8")) as Record<string, unknown>;
      const type = registry.lookup(String(object.apiVersion), String(object.kind)) as TypeSchema | undefined;
      if (!type) continue;
      const all = paths(object);
      for (let i = 0; i < 12; i++) {
        const path = all[Math.floor(next() * all.length)] as (string | number)[];
        const value = ODD_VALUES[Math.floor(next() * ODD_VALUES.length)];
        const mutated = replaced(object, path, value);
        if (!mutated || typeof mutated !== "object" || Array.isArray(mutated)) continue;
        expect(() => nativeFindings(mutated as Record<string, unknown>, type), `${file} ${path.join(".")} = ${JSON.stringify(value)}`).not.toThrow();
        runs++;
      }
    }
    expect(runs).toBeGreaterThan(1000);
  }, 60_000);
});

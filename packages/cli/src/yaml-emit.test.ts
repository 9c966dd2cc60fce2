// emitYaml writes what the yaml library's stringify writes, byte for byte: on every committed render and on
// generated data full of strings YAML reads in other ways (YAML 1.1 words, numbers, dates, indicators, lines).
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { emitYaml, YAML_OPTIONS } from "./yaml-emit.ts";

const CLUSTERS = resolve(import.meta.dirname, "../../../clusters");

function committedObjects(): { file: string; value: unknown }[] {
  const out: { file: string; value: unknown }[] = [];
  for (const cluster of readdirSync(CLUSTERS, { withFileTypes: true })) {
    if (!cluster.isDirectory() || cluster.name === "node_modules") continue;
    const dir = join(CLUSTERS, cluster.name, "rendered");
    let files: string[];
    try {
      files = readdirSync(dir, { recursive: true, encoding: "utf8" });
    } catch {
      continue;
    }
    for (const f of files.filter((f) => f.endsWith(".yaml")).sort()) out.push({ file: `${cluster.name}/${f}`, value: parse(readFileSync(join(dir, f), "utf8"), { version: "1.1" }) });
  }
  return out;
}

/** A small deterministic generator (mulberry32), so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Strings each read specially by some YAML rule, and ordinary Kubernetes-looking ones. */
const TRICKY = [
  ...["y", "Y", "yes", "Yes", "YES", "n", "N", "no", "NO", "on", "On", "ON", "off", "OFF", "true", "False", "null", "Null", "NULL", "~", ""],
  ...["0", "12", "-3", "+4", "0x1F", "0o17", "017", "0b101", "1_000", "1:20", "190:20:30", "1.5", ".5", "1e3", "6.8523015e+5", ".inf", "-.Inf", ".NaN", "0.", "1__2"],
  ...["2024-01-02", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "<<", "=", "-", "?", "- a", "? b", "a: b", "a:b", "a #b", "a#b", "#c", "a:", " lead", "trail ", "&anchor", "*alias", "!tag", "|", ">", "'q'", '"q"', "%dir", "@at", "`tick"],
  ...["---", "--- x", "...", "a\nb", "a\n", "\n", "line\n\nnext", "tab\there", "ctl\u0001", "bell\u0007", "emoji \u{1F600}", "caf\u00e9", "lone \ud800", "x".repeat(1100), "[a]", "{b}", "a,b", "a, b", "Prune=false,Delete=false"],
  ...["nginx", "apps/v1", "karpenter.sh/discovery", "arn:aws:iam::133129065110:role/KarpenterControllerRole-eksworkshop", "https://kubernetes.default.svc", "public.ecr.aws/karpenter", "1.14.1", "al2023@latest", "kube-system", "m5.large", "_under", "a_b", "A.B-C/d"],
];

function generate(next: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const r = next();
  if (depth <= 0 || r < 0.45) {
    const s = next();
    if (s < 0.6) return pick(TRICKY);
    if (s < 0.7) return Math.floor((next() - 0.5) * 1e6);
    if (s < 0.75) return pick([true, false, null, 0.5, -0, 2 ** 60, 1e21]);
    return Array.from({ length: 1 + Math.floor(next() * 12) }, () => pick([..."abcXYZ019 :#-_./\n\t'\"{}[],&*!|>%@`?=~"])).join("");
  }
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => generate(next, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) o[next() < 0.7 ? pick(TRICKY) : `k${Math.floor(next() * 100)}`] = generate(next, depth - 1);
  return o;
}

describe("emitYaml", () => {
  it("writes every committed rendered object itself, exactly as the library does", () => {
    const objects = committedObjects();
    expect(objects.length).toBeGreaterThan(20);
    for (const { file, value } of objects) {
      const emitted = emitYaml(value);
      expect(emitted, `${file}: left to the library`).toBeDefined();
      expect(emitted, file).toBe(stringify(value, YAML_OPTIONS));
    }
  });

  it("writes what the library writes, or leaves the object to it, on 10,000 generated objects", () => {
    let emitted = 0;
    for (let seed = 1; seed <= 10_000; seed++) {
      const value = { apiVersion: "v1", kind: "ConfigMap", data: generate(random(seed), 4) };
      const fast = emitYaml(value);
      if (fast === undefined) continue;
      emitted++;
      expect(fast, `seed ${seed}`).toBe(stringify(value, YAML_OPTIONS));
    }
    // the generator makes many objects with a multi-line string or a float somewhere; most are still written here
    expect(emitted).toBeGreaterThan(6_000);
  });

  it("quotes what YAML 1.1 would read as another type, as the library does", () => {
    expect(emitYaml({ a: "on", b: "y", c: "0x1F", d: "1:20", e: "2024-01-02", f: "plain", g: "~", h: "" })).toBe(
      'a: "on"\nb: "y"\nc: "0x1F"\nd: "1:20"\ne: "2024-01-02"\nf: plain\ng: "~"\nh: ""\n',
    );
  });

  it("nests mappings and sequences as the library does, empty ones in flow style", () => {
    const value = { a: [{ b: 1, c: [[], {}, ["x", ["w"]]] }], d: {}, e: [] };
    expect(emitYaml(value)).toBe("a:\n  - b: 1\n    c:\n      - []\n      - {}\n      - - x\n        - - w\nd: {}\ne: []\n");
    expect(emitYaml(value)).toBe(stringify(value, YAML_OPTIONS));
  });

  it("leaves multi-line strings, floats and long keys to the library", () => {
    expect(emitYaml({ a: "two\nlines" })).toBeUndefined();
    expect(emitYaml({ a: 0.5 })).toBeUndefined();
    expect(emitYaml({ ["k".repeat(1100)]: 1 })).toBeUndefined();
    expect(emitYaml({ a: { "--- x": 1 } })).toBeUndefined(); // the library quotes it at the top level only
    expect(emitYaml({})).toBeUndefined();
  });
});

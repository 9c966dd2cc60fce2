// The JSON fast path against js-yaml (the reader's YAML path): whatever it reads must be exactly what js-yaml reads;
// whatever js-yaml reads otherwise, or refuses, it must leave to the YAML path.
import fc from "fast-check";
import { loadAll } from "js-yaml";
import { describe, expect, it } from "vitest";
import { readPlainJson } from "./json-fast.ts";
import { isFlowDocument } from "./positions-flow.ts";
import { documentSpans } from "./positions.ts";
import { parseText } from "./reader.ts";
import { YAML11_SCHEMA } from "./yaml11.ts";

/** The value as text that keeps key order and tells -0 from 0 (what the report would print differently). */
const exact = (v: unknown) => JSON.stringify(v, (_k, x) => (Object.is(x, -0) ? "minus zero" : x));

/** js-yaml's one document, or undefined when it refuses the text or reads other than one document. */
function viaYaml(text: string): string | undefined {
  try {
    const docs = loadAll(text, undefined, { schema: YAML11_SCHEMA });
    return docs.length === 1 ? exact(docs[0]) : undefined;
  } catch {
    return undefined;
  }
}

/** Whitespace JSON allows between tokens, placed at random: spaces, newlines, carriage returns, tabs. */
function respaced(text: string, gaps: readonly string[]): string {
  let out = "";
  let g = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    out += c;
    if (inString) {
      if (c === "\\") out += text[++i];
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if ("{}[],:".includes(c) || c === '"') out += gaps[g++ % gaps.length] ?? "";
  }
  return out;
}

const gap = fc.constantFrom("", " ", "  ", "\n", "\r\n", "\n  ", "\t", " \n ");

/** A JSON text built token by token, so that it can hold what JSON.stringify never writes: duplicate keys, -0, long integers. */
type Node = { readonly raw: string } | { readonly list: readonly Node[] } | { readonly pairs: readonly (readonly [string, Node])[] };
const text = (n: Node): string =>
  "raw" in n ? n.raw : "list" in n ? `[${n.list.map(text).join(",")}]` : `{${n.pairs.map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(",")}}`;
const anyString = fc.oneof(fc.string(), fc.string({ unit: "binary", maxLength: 6 }));
const scalar: fc.Arbitrary<Node> = fc
  .oneof(
    anyString.map((s) => JSON.stringify(s)),
    fc.constantFrom("yes", "no", "on", "0755", "1_000", "2024-01-02", "~", "null", "", "<<", "a: b", "- x", "#c", "&a", "*a", "]: x", "? y", "\u2028", "\u0085", "\ud800", "é", "\t").map((s) => JSON.stringify(s)),
    fc.constantFrom('"\\u0061"', '"\\ud83d\\ude00"', '"\\/"', '"x\\u2028"', '"\u2028"', '"\u0085"', '"\u00a0"', '"\\ud800"'),
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
    fc.constantFrom("0", "-0", "-0.0", "-0e1", "1e21", "9007199254740993", "-9223372036854775808", "18446744073709551615", "123456789012345678901234", "0.1", "1e-7", "1E+2", "-1.5e300"),
    fc.constantFrom("true", "false", "null"),
  )
  .map((raw) => ({ raw }));
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a", "b", "__proto__", "<<", "1", "a\u0000", "? x", "k".repeat(1030)));
const node = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.array(tie("node"), { maxLength: 4 }).map((list) => ({ list })),
    fc.array(fc.tuple(key, tie("node")), { maxLength: 4 }).map((pairs) => ({ pairs })),
  ),
})).node;
const top = fc.oneof(
  fc.array(fc.tuple(key, node), { maxLength: 5 }).map((pairs): Node => ({ pairs })),
  fc.array(node, { maxLength: 4 }).map((list): Node => ({ list })),
);

describe("readPlainJson", () => {
  it("reads only what js-yaml reads, to the same value", () => {
    const taken = { all: 0, left: 0 };
    fc.assert(
      fc.property(top, fc.array(gap, { minLength: 1, maxLength: 8 }), (n, gaps) => {
        const json = respaced(text(n), gaps);
        const fast = readPlainJson(json);
        if (fast !== undefined) expect(exact(fast)).toBe(viaYaml(json));
        else taken.left++;
        taken.all++;
      }),
      { numRuns: 3000 },
    );
    // both ways are exercised: most texts are read, a good share is left to the YAML path
    expect(taken.left).toBeGreaterThan(taken.all / 20);
    expect(taken.left).toBeLessThan(taken.all * 0.9);
  });

  it("reads only texts that are one flow document, as the locator then takes them without looking (LoadedDocuments.json)", () => {
    let read = 0;
    fc.assert(
      fc.property(top, fc.array(gap, { minLength: 1, maxLength: 8 }), fc.constantFrom("", "\n", "\r\n", " \t\n\n"), (n, gaps, around) => {
        const json = `${around}${respaced(text(n), gaps)}${around}`;
        if (readPlainJson(json) === undefined) return;
        read++;
        // one document span, and the flow scanner's own test of it agrees
        const spans = documentSpans(json);
        expect(spans).toHaveLength(1);
        const [span] = spans;
        expect(isFlowDocument(json, span?.start ?? 0, span?.end ?? 0)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(read).toBeGreaterThan(500);
  });

  it("reads ordinary Kubernetes JSON, in one line or indented", () => {
    const object = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", labels: { app: "web" } }, spec: { replicas: 3, template: { spec: { containers: [{ name: "c", image: "nginx:1.31", resources: { limits: { cpu: 0.5, memory: "1Gi" } } }] } } } };
    for (const text of [JSON.stringify(object), `${JSON.stringify(object, null, 2)}\n`, `\r\n${JSON.stringify(object, null, 4).replace(/\n/g, "\r\n")}`]) {
      expect(readPlainJson(text)).toEqual(object);
      expect(exact(readPlainJson(text))).toBe(viaYaml(text));
    }
  });

  it.each([
    ["a duplicate key (JSON.parse keeps the last one)", '{"a": 1, "b": {"c": 2, "c": 3}}'],
    ["a duplicate key spelt with an escape", '{"a": 1, "\\u0061": 2}'],
    ["-0 (go-yaml reads 0)", '{"a": -0}'],
    ["a byte order mark", '\ufeff{"a": 1}'],
    ["nesting deeper than the reader allows", `${"[".repeat(1001)}${"]".repeat(1001)}`],
    ["a scalar at the top", "12"],
    ["two documents", '{"a": 1}\n---\n{"b": 2}'],
    ["YAML", "a: 1\n"],
    ["flow-style YAML", "{apiVersion: v1, kind: ConfigMap}"],
    ["a trailing comma", '{"a": 1,}'],
  ])("leaves %s to the YAML path", (_what, text) => {
    expect(readPlainJson(text)).toBeUndefined();
  });

  it("reads -0.0 and exponents as js-yaml does", () => {
    for (const text of ['{"a": -0.0, "b": -0e1, "c": 1e3, "d": 1.5E-2, "e": 0}', '[-0.5, 10, 1e400]']) expect(exact(readPlainJson(text))).toBe(viaYaml(text));
  });

  it("leaves the reader's reports unchanged: a duplicate key in JSON text is reported with its line", () => {
    const { unreadable } = parseText({ file: "d.json", text: '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "kind": "Secret"\n}\n' });
    expect(unreadable[0]?.findings[0]?.rule).toBe("parse:duplicate-key");
    expect(unreadable[0]?.findings[0]?.message).toMatch(/^duplicate key \(line 4, column 3\)/);
  });
});

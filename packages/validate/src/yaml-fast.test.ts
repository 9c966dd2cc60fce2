// The block-YAML fast path against js-yaml (the reader's general path): whatever it reads must be exactly what
// js-yaml reads with the YAML 1.1 schema; whatever js-yaml refuses, it must leave to js-yaml.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { loadAll } from "js-yaml";
import { describe, expect, it } from "vitest";
import { SHAPES, shapeFiles } from "./bench/world.ts";
import { readBlockYaml } from "./yaml-fast.ts";
import { YAML11_SCHEMA } from "./yaml11.ts";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));

/** Documents as text that keeps key order and tells -0 from 0, NaN and infinities apart (what a report could show differently). */
const exact = (v: unknown) =>
  JSON.stringify(v, (_k, x) => (Object.is(x, -0) ? "minus zero" : typeof x === "number" && !Number.isFinite(x) ? `number ${x}` : x));

function viaJsYaml(text: string): string | undefined {
  try {
    return exact(loadAll(text, undefined, { schema: YAML11_SCHEMA }));
  } catch {
    return undefined;
  }
}

/** Undefined when the two agree (or the fast path stays out), else what differs. */
function disagreement(text: string): string | undefined {
  const fast = readBlockYaml(text);
  if (fast === undefined) return undefined;
  const reference = viaJsYaml(text);
  const mine = exact(fast);
  return mine === reference ? undefined : `fast path read ${mine}, js-yaml ${reference ?? "refused the text"}:\n${JSON.stringify(text)}`;
}

// ---- documents built token by token ----

type Scalar = { readonly scalar: string; readonly block?: true };
type Node = Scalar | { readonly list: readonly Node[] } | { readonly pairs: readonly (readonly [string, Node])[] };

const PLAIN = [
  "~", "null", "Null", "NULL", "true", "True", "false", "yes", "Yes", "no", "on", "off", "ON", "y", "n", "Y",
  "0", "-0", "+0", "-0.0", "+1", "-1", "0o17", "0O17", "0x1F", "0X1f", "0b101", "017", "0755", "08", "09.5", "012345678901",
  ".5", "-.5", "+.5", "1.", "1e3", "1E+3", "1e-3", "6.02e23", "1.0", "1_000", "1__0", "_1", "9223372036854775807",
  "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775809", "1e400",
  ".inf", "-.inf", "+.Inf", ".NaN", ".nan", ".NAN", "inf", "nan", "2024-01-02", "2024-02-30", "2024-1-2",
  "2024-01-02T03:04:05Z", "2024-01-02t03:04:05.120+01:00", "2001-12-14 21:59:43.10", "2001-12-14  21:59:43.10",
  "12:30", "1:20:30", "v1.2", "4Gi", "500m", "1.5Gi", "a b", "a  b", "a#b", "a :b", "a:b", "a:", "-a", "?a", ":a",
  "a,b", "a]", "a}", "a'b", 'a"b', "é", "日本語", "😀", "<<", "=", "- x", "-", "?", ":", "a: b", "a #c", "x".repeat(300),
  "!important", "&anchor", "*alias", "%x", "@x", "`x", "---", "...", "--- x", "[a, b]", "[]", "{}", "{a: 1}", "[a, [b, c]]",
  "['x', \"y\"]", "{a: 1, b: [c], 'd': \"e\"}", "[a,]", "[,]", "[a b]", "[a: b]", "{a}", "{a: }", "{a:1}", "{\"a\":1}",
  "[yes, 0755, ~]", "[a, #c]", "{<<: a}", "[", "]", "|", ">", "|-", ">+", "|2", "|+1", ">-3", "|0", "|--", "|1 # c", "|#c",
  // long strings, which go-yaml wraps over lines (see renderValue)
  "NGINX Ingress Controller load balancer", "/bin/cp /usr/local/bin/argocd /var/run/argocd && /bin/ln -sf x y", "1 2 3", "yes no", "a -b - c", "x 'y' \"z\" [w] {v}",
];
const ESCAPES = ["\\x41", "\\u00e9", "\\U0001F600", "\\e", "\\N", "\\_", "\\L", "\\P", "\\ ", "\\/", "\\0", "\\a", "\\t", "\\q", "\\uD800", "\\x4", "\\U00110000", '\\"', "\\\\"];

const BLOCK_LINES = ["text", "more  text", "", "", "   ", "# not a comment", "a: b", "- x", " lead", "  lead2", "trail  ", "'q'", "---", "x".repeat(90)];
const WILD_PLAIN = new Set(["a: b", "- x", "-", "?", ":", "!important", "&anchor", "*alias", "%x", "@x", "`x", "[,]", "[a b]", "[", "]", "|", ">", "|-", ">+", "|2", "|+1", ">-3", "|0", "|--", "|1 # c", "|#c", "[a, #c]", "{<<: a}", "{a}", "{a: }", "[a: b]"]);
const anyString = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 6 }), fc.string({ unit: "binary", maxLength: 4 }));
const word = fc.stringMatching(/^[a-zA-Z0-9\u00e9\u65e5][a-zA-Z0-9 ._/@=+\u00e9-]{0,14}[a-zA-Z0-9]$/);

/** Mapping entries: distinct keys, or (wild) any keys, duplicates too. */
const pairsOf = <T extends readonly [string, Node]>(pair: fc.Arbitrary<T>, minLength: number, wild: boolean) =>
  wild ? fc.array(pair, { minLength, maxLength: 4 }) : fc.uniqueArray(pair, { minLength, maxLength: 4, selector: ([k]) => k });

/** Documents of the subset (clean) or with anything a text may hold (wild: most of it left to js-yaml). */
function documentStream(wild: boolean) {
  const plain = wild
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PLAIN) }, { weight: 1, arbitrary: anyString })
    : fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PLAIN.filter((x) => !WILD_PLAIN.has(x))) }, { weight: 2, arbitrary: word });
  const text = wild ? anyString : word;
  const doubleQuoted = fc.oneof(
    text.map((x) => JSON.stringify(x)),
    fc.array(fc.oneof(fc.constantFrom(...(wild ? ESCAPES : ESCAPES.slice(0, 13))), fc.constantFrom("a", " ", "#", ": ", "'", "x y")), { maxLength: 5 }).map((parts) => `"${parts.join("")}"`),
  );
  const singleQuoted = fc.oneof(text, fc.constantFrom("it's", "a: b", " #x", "", "''")).map((x) => `'${x.replace(/'/g, "''")}'`);
  const blockScalar = fc
    .tuple(
      fc.constantFrom("|", ">"),
      wild ? fc.constantFrom("", "", "-", "+", "1", "2", "-2", "2+", "+-", "0") : fc.constantFrom("", "", "", "-", "+", "2", "-2", "2+"),
      wild ? fc.constantFrom("", "", " # header", "  ", "#x", " x") : fc.constantFrom("", "", " # header", "  "),
      fc.array(fc.constantFrom(...BLOCK_LINES), { maxLength: 6 }),
      fc.constantFrom(0, 0, 1, 2),
    )
    .map(([style, indicators, header, lines, extraIndent]) => ({ scalar: `${style}${indicators}${header}\n${JSON.stringify([lines, extraIndent])}`, block: true as const }));
  const scalar: fc.Arbitrary<Node> = fc.oneof(
    { weight: 4, arbitrary: plain.map((x) => ({ scalar: x })) },
    { weight: 2, arbitrary: doubleQuoted.map((x) => ({ scalar: x })) },
    { weight: 1, arbitrary: singleQuoted.map((x) => ({ scalar: x })) },
    { weight: 1, arbitrary: fc.constant({ scalar: "" }) },
    { weight: 2, arbitrary: blockScalar },
  );
  const cleanKeys = ["apiVersion", "kind", "name", "a", "b", "a b", "a:b", "a#b", "-k", "?k", "yes", "on", "1", "0x10", "1.0", "~", "null", "2024-01-02", ".inf", "-0", "toString", "é", "k".repeat(100), '"a: b"', '"#x"', "'q'", '"yes"', '""', "'<<'", '"\\u0061"', '"a"', "'b'"];
  const key = wild
    ? fc.oneof(fc.constantFrom(...cleanKeys), fc.constantFrom("<<", "__proto__", "[a]", "{a: 1}", "? a", "&x a", "!!str a", "*x"), anyString)
    : fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...cleanKeys) }, { weight: 1, arbitrary: word });
  const node = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      scalar,
      fc.array(tie("node"), { maxLength: 4 }).map((list) => ({ list })),
      pairsOf(fc.tuple(key, tie("node")), 0, wild).map((pairs) => ({ pairs })),
    ),
  })).node;
  return fc.tuple(
    fc.array(
      fc.oneof(
        { weight: 4, arbitrary: pairsOf(fc.tuple(key, node), 1, wild).map((pairs): Node => ({ pairs })) },
        { weight: 2, arbitrary: fc.array(node, { minLength: 1, maxLength: 4 }).map((list): Node => ({ list })) },
        { weight: wild ? 1 : 0, arbitrary: scalar },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
  );
}

/** Layout choices, drawn in turn: indentation steps, compact items, comments, trailing spaces. */
class Choices {
  private i = 0;
  constructor(private readonly values: readonly number[]) {}
  next(n: number): number {
    const v = this.values[this.i++ % this.values.length] ?? 0;
    return v % n;
  }
}

const COMMENTS = ["", "", "", " # c", "  #: x", " #"];
const pad = (n: number) => " ".repeat(Math.max(0, n));

function renderBlock(x: string, parentIndent: number, ch: Choices): string {
  const [head, body] = [x.slice(0, x.indexOf("\n")), x.slice(x.indexOf("\n") + 1)];
  const [lines, extra] = JSON.parse(body) as [string[], number];
  const base = parentIndent + 1 + ch.next(3) + extra;
  return `${head}\n${lines.map((l) => (l === "" ? "" : pad(base + (ch.next(5) === 0 ? ch.next(3) - 1 : 0)) + l)).join("\n")}${lines.length > 0 ? "\n" : ""}`;
}

/** `key:` or `-` followed by a value: on the same line, or on the lines below at a deeper (or, for a list under a key, the same) indentation. */
function renderValue(v: Node, indent: number, ch: Choices, underKey: boolean): string {
  if ("scalar" in v) {
    if (v.block) return ` ${renderBlock(v.scalar, indent, ch)}`;
    // a plain scalar wrapped over more indented lines (as go-yaml wraps long strings), blank lines among them at times
    const words = v.scalar.split(/ +/);
    if (words.length > 1 && !/^["']/.test(v.scalar) && ch.next(3) === 0) {
      const more = words.slice(1).map((w) => `\n${ch.next(5) === 0 ? "\n" : ""}${pad(indent + 1 + ch.next(3))}${w}${ch.next(6) === 0 ? "  " : ""}`);
      return ` ${words[0]}${more.join("")}${COMMENTS[ch.next(COMMENTS.length)]}\n`;
    }
    return `${v.scalar === "" ? "" : " ".repeat(1 + ch.next(2)) + v.scalar}${COMMENTS[ch.next(COMMENTS.length)]}${ch.next(6) === 0 ? "  " : ""}\n`;
  }
  if ("list" in v && v.list.length === 0) return ` []${COMMENTS[ch.next(COMMENTS.length)]}\n`;
  if ("pairs" in v && v.pairs.length === 0) return ` {}\n`;
  if (!underKey && ch.next(2) === 0) return ` ${renderNode(v, indent + 2 + ch.next(2), ch, true).trimStart()}`;
  const deeper = "list" in v && underKey && ch.next(2) === 0 ? indent : indent + 1 + ch.next(4);
  return `${COMMENTS[ch.next(COMMENTS.length)]}\n${ch.next(5) === 0 ? `${pad(ch.next(6))}# between\n` : ""}${renderNode(v, deeper, ch, false)}`;
}

function renderNode(v: Node, indent: number, ch: Choices, compact: boolean): string {
  if ("scalar" in v) return `${pad(indent)}${v.block ? renderBlock(v.scalar, indent - 1, ch) : `${v.scalar}\n`}`;
  if ("list" in v) {
    if (v.list.length === 0) return `${pad(indent)}[]\n`;
    return v.list.map((item, i) => `${i === 0 && compact ? "" : pad(indent)}-${renderValue(item, indent, ch, false)}`).join(ch.next(6) === 0 ? "\n" : "");
  }
  if (v.pairs.length === 0) return `${pad(indent)}{}\n`;
  return v.pairs.map(([k, x], i) => `${i === 0 && compact ? "" : pad(indent)}${k}${ch.next(8) === 0 ? " " : ""}:${renderValue(x, indent, ch, true)}`).join("");
}

/** What may come between a flow collection's tokens: spaces, and in a document that is one flow collection, line breaks and comments too. */
const FLOW_GAPS = ["", " ", "  ", "\n", "\n  ", " # c\n  ", "\n\n ", "#x\n", "\n# line\n", " \n   "];
/** After a key's `:`: a space or a line break first (`a:b` is one plain scalar). */
const FLOW_AFTER_COLON = [" ", "  ", "\n  ", " # c\n ", "\n\n"];

/** `v` as one flow collection (or scalar), its lines broken (`lines`) between tokens; block scalars are written quoted. */
function renderFlow(v: Node, ch: Choices, lines: boolean): string {
  const gap = () => (lines ? FLOW_GAPS[ch.next(FLOW_GAPS.length)] : ["", " "][ch.next(2)]);
  if ("scalar" in v) return v.block ? "'block'" : v.scalar;
  const trailing = () => (ch.next(5) === 0 ? `${gap()},` : "");
  if ("list" in v) return `[${gap()}${v.list.map((x) => renderFlow(x, ch, lines)).join(`${gap()},${gap()}`)}${v.list.length > 0 ? trailing() : ""}${gap()}]`;
  const colon = () => (lines ? FLOW_AFTER_COLON[ch.next(FLOW_AFTER_COLON.length)] : " ");
  return `{${gap()}${v.pairs.map(([k, x]) => `${k}${ch.next(10) === 0 ? " " : ""}:${colon()}${renderFlow(x, ch, lines)}`).join(`${gap()},${gap()}`)}${v.pairs.length > 0 ? trailing() : ""}${gap()}}`;
}

const SEPARATORS = ["---\n", "--- # doc\n", "---\n\n", "---\n---\n", "---   \n", "...\n---\n", "---x\n"];

function renderStream(docs: readonly Node[], ch: Choices, wild: boolean): string {
  let text = ch.next(4) === 0 ? "# leading comment\n" : "";
  docs.forEach((d, i) => {
    if (i > 0 || ch.next(3) === 0) text += SEPARATORS[ch.next(wild ? SEPARATORS.length : 5)];
    // a document that is one flow collection: on one line, or broken between its tokens
    if ("scalar" in d || ch.next(3) !== 0) text += renderNode(d, ch.next(5) === 0 ? 1 : 0, ch, false);
    else text += `${pad(ch.next(3))}${renderFlow(d, ch, ch.next(2) === 0)}${COMMENTS[ch.next(COMMENTS.length)]}\n`;
  });
  if (ch.next(5) === 0) text += "---\n";
  if (ch.next(4) === 0) text = text.replace(/\n/g, "\r\n");
  if (ch.next(6) === 0) text = `\ufeff${text}`;
  if (ch.next(5) === 0) text = text.replace(/\r?\n$/, "");
  return text;
}

/** Edits that make a document odd or invalid: js-yaml either reads it (then so may the fast path, to the same value) or refuses it. */
const edit = fc.tuple(fc.nat(), fc.constantFrom("delete", "insert", "indent", "dedent", "duplicate"), fc.constantFrom(" ", ":", "-", "#", "'", '"', "\n", "\t", "|", ">", "[", "]", "{", "&", "*", "!", "?", "\\", "\r"));
function applyEdit(text: string, [at, kind, c]: [number, string, string]): string {
  if (text.length === 0) return c;
  const i = at % text.length;
  if (kind === "delete") return text.slice(0, i) + text.slice(i + 1);
  if (kind === "insert") return text.slice(0, i) + c + text.slice(i);
  const lines = text.split("\n");
  const l = at % lines.length;
  if (kind === "indent") lines[l] = ` ${lines[l]}`;
  else if (kind === "dedent") lines[l] = (lines[l] ?? "").replace(/^ /, "");
  else lines.splice(l, 0, lines[l] ?? "");
  return lines.join("\n");
}

// YF_RUNS=60000 runs each generator longer, printing how many documents the fast path took (a deeper search)
describe("readBlockYaml", () => {
  it("reads generated documents to js-yaml's values, or leaves them to js-yaml", () => {
    const count = { all: 0, taken: 0 };
    fc.assert(
      fc.property(documentStream(false), ([docs, choices]) => {
        const text = renderStream(docs, new Choices(choices), false);
        count.all++;
        if (readBlockYaml(text) !== undefined) count.taken++;
        expect(disagreement(text)).toBeUndefined();
      }),
      { numRuns: Number(process.env.YF_RUNS ?? 3000) },
    );
    // not vacuous: most generated documents are in the subset
    if (process.env.YF_RUNS) console.log(count);
    expect(count.taken).toBeGreaterThan(count.all / 4);
  });

  it("reads documents that are one flow collection, on one line or broken between tokens, to js-yaml's values, or leaves them to js-yaml", () => {
    const count = { all: 0, taken: 0, broken: 0 };
    fc.assert(
      fc.property(documentStream(false), fc.boolean(), ([docs, choices], lines) => {
        const ch = new Choices(choices);
        const flows = docs.map((d) => ("scalar" in d ? "" : renderFlow(d, ch, lines)));
        const text = flows.map((f) => `${f}${COMMENTS[ch.next(COMMENTS.length)]}\n`).join("---\n");
        count.all++;
        if (readBlockYaml(text) !== undefined) {
          count.taken++;
          if (flows.some((f) => f.includes("\n"))) count.broken++;
        }
        expect(disagreement(text)).toBeUndefined();
      }),
      { numRuns: Number(process.env.YF_RUNS ?? 3000) },
    );
    if (process.env.YF_RUNS) console.log(count);
    // not vacuous: many of them are read here (~30%), collections broken over lines among them (~13%)
    expect(count.taken).toBeGreaterThan(count.all / 5);
    expect(count.broken).toBeGreaterThan(count.all / 15);
  });

  it("reads plain and quoted values wrapped over lines (go-yaml's long strings) to js-yaml's values, or leaves them to js-yaml", () => {
    const count = { all: 0, taken: 0 };
    const words = fc.array(fc.constantFrom("a", "b-c", "x/y", "1", "2.5", "yes", "&&", "-x", "'q'", "\"q\"", "[a]", "{b}", "a:b", "c#d", "#x", ":", "-", "~", "|", ">"), { minLength: 2, maxLength: 6 });
    // per word after the first: 0 the same line, 1-3 a line indented by that much more than the key, 4 as much as the
    // key (which ends a plain value, and goes on with a quoted one)
    const breaks = fc.array(fc.nat(4), { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(fc.tuple(words, breaks, fc.nat(3), fc.constantFrom("", "", "'", '"')), { minLength: 1, maxLength: 3 }), fc.nat(2), fc.boolean(), (entries, base, inList) => {
        const text = entries
          .map(([ws, bs, blanks, quote], i) => {
            const lead = inList ? `${pad(base)}- ` : pad(base);
            const col = inList ? base + 2 : base;
            // inside quotes: the words as the quotes write them, and at times an escaped line break (`\` at a line's end)
            const word = (w: string) => (quote === "'" ? w.replace(/'/g, "''") : quote === '"' ? w.replace(/\\|"/g, (m) => `\\${m}`) : w);
            const more = ws.slice(1).map((w, j) => {
              const b = bs[j] ?? 0;
              if (b === 0) return ` ${word(w)}`;
              const escaped = quote === '"' && blanks === 2 && j === 0 ? "\\" : "";
              return `${escaped}${blanks === j ? "\n" : ""}${blanks === j + 1 ? "\n   " : ""}\n${pad(b === 4 ? col : col + b)}${word(w)}${blanks === 3 ? "  " : ""}`;
            });
            return `${lead}k${i}: ${quote}${word(ws[0] as string)}${more.join("")}${quote}\n`;
          })
          .join("");
        count.all++;
        if (readBlockYaml(text) !== undefined) count.taken++;
        expect(disagreement(text)).toBeUndefined();
      }),
      { numRuns: Number(process.env.YF_RUNS ?? 3000) },
    );
    if (process.env.YF_RUNS) console.log(count);
    // not vacuous: ~40% are read here (the words include many that js-yaml must judge in a plain value: `#x`, `:`, `|`...)
    expect(count.taken).toBeGreaterThan(count.all / 5);
  });

  it("reads flow documents with anything in them, edited (often invalid), to js-yaml's values, or leaves them to js-yaml", () => {
    fc.assert(
      fc.property(documentStream(true), fc.boolean(), fc.array(edit, { maxLength: 3 }), ([docs, choices], lines, edits) => {
        const ch = new Choices(choices);
        const text = docs.map((d) => `${"scalar" in d ? (d as Scalar).scalar : renderFlow(d, ch, lines)}${COMMENTS[ch.next(COMMENTS.length)]}\n`).join(SEPARATORS[ch.next(SEPARATORS.length)]);
        expect(disagreement(edits.reduce(applyEdit, text))).toBeUndefined();
      }),
      { numRuns: Number(process.env.YF_RUNS ?? 3000) },
    );
  });

  it("reads documents with anything in them, edited (often invalid), to js-yaml's values, or leaves them to js-yaml", () => {
    fc.assert(
      fc.property(documentStream(true), fc.array(edit, { maxLength: 3 }), ([docs, choices], edits) => {
        const text = edits.reduce(applyEdit, renderStream(docs, new Choices(choices), true));
        expect(disagreement(text)).toBeUndefined();
      }),
      { numRuns: Number(process.env.YF_RUNS ?? 3000) },
    );
  });

  it.each([
    ["a: 1\n", '[{"a":1}]'],
    ["a: b\n  c\n", '[{"a":"b c"}]'],
    ["- a\n  'b\n  c'\n", `[["a 'b c'"]]`],
    ["a: 'b  \n  c''d\n\n\n  e '\nf: \"x \\\n    y\\n\n z\\\"\"\n", '[{"a":"b c\'d\\n\\ne ","f":"x y\\n z\\""}]'],
    ["- args:\n  - /bin/cp a b &&\n    /bin/ln -sf   \n\n      c  \n  x: 1 2\n   3\n", '[[{"args":["/bin/cp a b && /bin/ln -sf\\nc"],"x":"1 2 3"}]]'],
    ["", "[]"],
    ["   \n", "[]"],
    ["\n\n", "[null]"],
    ["# only a comment", "[null]"],
    ["a: 1\n---\n", '[{"a":1},null]'],
    ["---\n---\na: 1\n", '[null,{"a":1}]'],
    ["\ufeffa: 1", '[{"a":1}]'],
    ["a: 1\r\nb:\r\n- x\r\n", '[{"a":1,"b":["x"]}]'],
    ["k: |+\n  a\n\n\nz: >-\n  b\n  c\n\n  d\n", '[{"k":"a\\n\\n\\n","z":"b c\\nd"}]'],
    ["yes: on\n0x10: -0\n~: 1e3\n", '[{"16":0,"true":true,"null":1000}]'],
    ["- name: a\n  args: [x, 'y', \"z\"]\n- b\n", '[[{"name":"a","args":["x","y","z"]},"b"]]'],
    ["{ apiVersion: v1, kind: ConfigMap, data: { a.b/c: \"x\\ny\", on: 0755 } }\n", '[{"apiVersion":"v1","kind":"ConfigMap","data":{"a.b/c":"x\\ny","true":493}}]'],
    ["{\n  kind: Pod, # a comment\n  spec: {\n    containers: [\n      { name: a },\n    ],\n  },\n}\n", '[{"kind":"Pod","spec":{"containers":[{"name":"a"}]}}]'],
    ["[a,\n b #c\n ,c]\n---\n{x: 1} # end\n", '[["a","b","c"],{"x":1}]'],
    ["{a:\n  1,\r\n b: [\r\n]}", '[{"a":1,"b":[]}]'],
  ])("reads %j as js-yaml does", (text, expected) => {
    const fast = readBlockYaml(text);
    expect(fast).toBeDefined();
    expect(exact(fast)).toBe(expected);
    expect(viaJsYaml(text)).toBe(expected);
  });

  it.each([
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "<<: {a: 1}\n",
    "a: 1\na: 2\n",
    "a: b\n  c: d\n",
    "a: b\n  # c\n  d\n",
    "a: b\n  c #d\n",
    "a: '\n---\n'\n",
    "a: \"b\n...\nc\"\n",
    "'a\n  b': c\n",
    "- \"a\n  b\": c\n",
    "k: [\"a\n  b\"]\n",
    "a:\n\tb: 1\n",
    "? a\n: b\n",
    "%YAML 1.2\n---\na: 1\n",
    "a: 1\n...\n",
    "__proto__: 1\n",
    "a:\n  b\n",
    "{a: b\n  c}\n",
    "{a\n: b}\n",
    "[a\n: b]\n",
    "{a: 1}: b\n",
    "{a: 1}\n- b\n",
    "{a: 1\n",
    "{a: [1,\n---\n]}\n",
    "{a: 'b\n c'}\n",
    "{a: 1}#c\n",
    "key: {a: 1,\n  b: 2}\n",
  ])("leaves %j to js-yaml", (text) => {
    expect(readBlockYaml(text)).toBeUndefined();
  });

  it("agrees with js-yaml on every fixture, real-world manifest and YAML file of the package", () => {
    const texts = [...filesUnder(join(PACKAGE, "fixtures")), ...filesUnder(join(PACKAGE, "corpus")), ...filesUnder(join(PACKAGE, "src"))];
    let taken = 0;
    for (const file of texts) {
      const text = readFileSync(file, "utf8");
      expect(disagreement(text), file).toBeUndefined();
      if (readBlockYaml(text) !== undefined) taken++;
    }
    expect(taken).toBeGreaterThan(texts.length / 2);
    // manifests rendered by kustomize/go-yaml wrap long plain and double-quoted strings over lines: read here too
    const rendered = ["argo-cd/manifests/namespace-install.yaml", "argo-cd/manifests/ha/namespace-install.yaml", "ingress-nginx/deploy/static/provider/exoscale/deploy.yaml"];
    for (const file of rendered.map((f) => `corpus/real-world/${f}`)) {
      expect(readBlockYaml(readFileSync(join(PACKAGE, file), "utf8")), file).toBeDefined();
    }
  });

  it("agrees with js-yaml on the bench corpora of every shape", () => {
    for (const shape of SHAPES) {
      for (const [name, text] of shapeFiles(shape, 300)) expect(disagreement(text), `${shape} ${name}`).toBeUndefined();
    }
  });
});

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (/\.(ya?ml|json)$/i.test(entry)) out.push(path);
  }
  return out;
}

// Positions: a finding's JSON Pointer mapped back to the line and column of its YAML node.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shapeFiles } from "./bench/world.ts";
import { documentSpans, LineIndex, locateAll, locateFindings, positionAt } from "./positions.ts";
import type { Finding, ResourceResult } from "./types.ts";

const TEXT = [
  "# two node pools",
  "apiVersion: karpenter.sh/v1",
  "kind: NodePool",
  "metadata:",
  "  name: first",
  "spec: {}",
  "---",
  "apiVersion: karpenter.sh/v1",
  "kind: NodePool",
  "metadata:",
  "  name: second",
  "spec:",
  "  template:",
  "    spec:",
  "      requirements:",
  "        - key: kubernetes.io/arch",
  "          operator: In",
  "        - key: karpenter.sh/capacity-type",
  "          operator: Sometimes",
  "",
].join("\n");

const result = (index: number, name: string, findings: Finding[]): ResourceResult => ({
  file: "pools.yaml",
  index,
  apiVersion: "karpenter.sh/v1",
  kind: "NodePool",
  name,
  namespace: "",
  status: "invalid",
  findings,
});
const f = (path: string, rule = "schema:enum"): Finding => ({ severity: "error", path, message: "m", rule });

describe("documentSpans", () => {
  it("numbers documents as js-yaml does: content before the first marker is document 0, `...` ends one", () => {
    expect(documentSpans("a: 1\n---\nb: 2\n").map((s) => s.start)).toEqual([0, 5]);
    expect(documentSpans("# c\n---\na: 1\n---\nb: 2").map((s) => s.start)).toEqual([4, 13]);
    expect(documentSpans("a: |\n  x\n---\nb: 1\n...\n---\nc: 1").length).toBe(3);
  });

  it("cuts a plain JSON text into one document from its first character to its last (what locateFindings takes for one)", () => {
    // JSON.stringify's shapes, compact and indented, with blanks around; values of every kind, negative numbers too
    const texts = fc.tuple(fc.jsonValue(), fc.constantFrom(undefined, 1, 2, 4, "\t"), fc.constantFrom("", "\n", "\n\n", " \r\n"), fc.constantFrom("", "\n", " \n\n"));
    fc.assert(
      fc.property(texts, ([value, indent, before, after]) => {
        const text = `${before}${JSON.stringify(value, null, indent)}${after}`;
        expect(documentSpans(text)).toEqual([{ start: 0, end: text.length, line: 0 }]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("locateFindings", () => {
  it("points at the key of a field in a nested list item", () => {
    const [r] = locateFindings(TEXT, [result(1, "second", [f("/spec/template/spec/requirements/1/operator")])]);
    expect(r?.findings[0]).toMatchObject({ line: 19, column: 11 });
  });

  it("points at a list item itself", () => {
    const [r] = locateFindings(TEXT, [result(1, "second", [f("/spec/template/spec/requirements/1")])]);
    expect(r?.findings[0]).toMatchObject({ line: 18, column: 11 });
  });

  it("points a missing required field at its nearest existing parent", () => {
    const [r] = locateFindings(TEXT, [result(1, "second", [f("/spec/template/spec/nodeClassRef", "schema:required")])]);
    expect(r?.findings[0]).toMatchObject({ line: 14, column: 5 });
    const [first] = locateFindings(TEXT, [result(0, "first", [f("/spec/template", "schema:required")])]);
    expect(first?.findings[0]).toMatchObject({ line: 6, column: 1 });
  });

  it("points a whole-document finding at the document's first node", () => {
    const [r] = locateFindings(TEXT, [result(1, "second", [f("")])]);
    expect(r?.findings[0]).toMatchObject({ line: 8, column: 1 });
  });

  it("takes a parse error's position from its message", () => {
    const parse: Finding = { severity: "error", path: "", message: "YAML syntax error (line 3, column 7): bad", rule: "parse:syntax" };
    const [r] = locateFindings("a: 1\n", [{ ...result(0, "", [parse]), apiVersion: "", kind: "" }]);
    expect(r?.findings[0]).toMatchObject({ line: 3, column: 7 });
  });

  it("locates JSON pointers in JSON files (IAM policies) and escaped keys", () => {
    const json = '{\n  "Statement": [\n    {"Effect": "Allow", "Resource": "*"}\n  ],\n  "a/b": 1\n}\n';
    const iam = (path: string): ResourceResult => ({ file: "p.json", index: 0, apiVersion: "", kind: "IAM:policy", name: "p", namespace: "", status: "invalid", findings: [f(path, "iam:x")] });
    expect(locateFindings(json, [iam("/Statement/0/Resource")])[0]?.findings[0]).toMatchObject({ line: 3, column: 25 });
    expect(locateFindings(json, [iam("/a~1b")])[0]?.findings[0]).toMatchObject({ line: 5, column: 3 });
  });
});

describe("locateAll", () => {
  it("reads only files with findings", () => {
    const read: string[] = [];
    const valid = { ...result(0, "first", []), file: "other.yaml" };
    const out = locateAll([valid, result(1, "second", [f("/kind")])], (file) => {
      read.push(file);
      return TEXT;
    });
    expect(read).toEqual(["pools.yaml"]);
    expect(out[1]?.findings[0]).toMatchObject({ line: 9, column: 1 });
    expect(out[0]).toBe(valid);
  });
});

describe("LineIndex", () => {
  it("answers as positionAt does for any text, offset, start and line", () => {
    const text = fc.array(fc.constantFrom("a", "b", " ", "\n", "\r", "-"), { maxLength: 200 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.nat(5), (t, o, f, line) => {
        const offset = o % (t.length + 1);
        const from = f % (t.length + 1);
        const index = new LineIndex(t);
        expect(index.at(offset, from, line)).toEqual(positionAt(t, offset, from, line));
        expect(index.at(offset)).toEqual(positionAt(t, offset));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("locateFindings: lists", () => {
  it("locates every item's findings of large `kind: List` files as one item at a time does", () => {
    // items located together (the kept lines, items and line index) and one by one (each on its own) agree
    for (const [name, text] of [...shapeFiles("list", 400, 11)].slice(0, 2)) {
      const items = documentSpans(text).length === 1 ? (text.match(/^ {2}- apiVersion: /gm) ?? []).length : 0;
      expect(items, name).toBeGreaterThan(40);
      const results = Array.from({ length: items }, (_, i) => ({ ...result(0, "", [f(`/items/${i}/metadata/name`), f(`/items/${i}/spec`), f(`/items/${i}/no/such`)]), apiVersion: "v1", kind: "List" }));
      // an item's result carries its own name: the pointer's item is checked against it
      const named = results.map((r, i) => ({ ...r, name: /name: (\S+)/.exec(text.split(/^ {2}- apiVersion: /m)[i + 1] ?? "")?.[1] ?? "" }));
      const together = locateFindings(text, named);
      const alone = named.map((r) => locateFindings(` ${text}`.slice(1), [r])[0]);
      expect(together).toEqual(alone);
      expect(together.every((r) => r.findings.every((x) => typeof x.line === "number"))).toBe(true);
    }
  });
});

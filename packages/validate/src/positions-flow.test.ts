// The flow scanner must agree with `yaml` wherever it answers: every pointer (and missing children) of every
// document of the bench corpus in its JSON and flow shapes, of the fixtures turned into JSON and flow style, and of
// hand-written flow YAML with comments, quoting and odd keys; block documents with flow values go through the
// block scanner, which hands the flow part over.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { shapeFiles } from "./bench/world.ts";
import { fastOffset } from "./positions-fast.ts";
import { flowOffset, flowTopString, isFlowDocument } from "./positions-flow.ts";
import { locateFindings } from "./positions.ts";
import { parseText } from "./reader.ts";
import { compareWithYaml, pointers } from "./testing/scanner-agreement.ts";
import type { ResourceResult } from "./types.ts";
import { yamlLib } from "./yaml-lib.ts";

const PACKAGE = fileURLToPath(new URL("../", import.meta.url));


function filesUnder(dir: string, re: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name), re) : re.test(e.name) ? [join(dir, e.name)] : []));
}

describe("flowOffset", () => {
  it("agrees with yaml on every pointer of the bench corpus in flow and JSON shapes, and answers all of them", () => {
    for (const shape of ["flow", "json-in-yaml", "json"] as const) {
      let answered = 0;
      let total = 0;
      for (const [name, text] of shapeFiles(shape, 120)) {
        const r = compareWithYaml(text, flowOffset, "scanner", true);
        expect(r.mismatches, `${shape} ${name}`).toEqual([]);
        answered += r.answered;
        total += r.total;
      }
      expect(answered, shape).toBe(total);
    }
  }, 180_000);

  it("agrees with yaml on every pointer of the fixtures written as JSON and as flow YAML", () => {
    const lib = yamlLib();
    const files = filesUnder(join(PACKAGE, "fixtures"), /\.ya?ml$/);
    expect(files.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const file of files) {
      const docs = lib.parseAllDocuments(readFileSync(file, "utf8"));
      if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) continue;
      const values = docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown).filter((v) => v !== null && typeof v === "object");
      const json = values.map((v) => JSON.stringify(v, null, 2)).join("\n---\n");
      const flow = values.map((v) => lib.stringify(v, { collectionStyle: "flow" })).join("---\n");
      for (const text of [json, flow]) for (const m of compareWithYaml(text, flowOffset, "scanner", true).mismatches) problems.push(`${file}: ${m}`);
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it("reads comments, quoting, multi-line collections, empty values and a document marker as yaml does", () => {
    const texts = [
      '--- # a comment\n{"a": {"b c": [1, {"d": "x,y}"}]}, \'e\'\'f\': [ ], g: {h: i j, k: "l\\"m"}}\n',
      "{ a: [ x, # not the end ]\n  y ], b: {c: d},\n  url: http://example.com:8080/x, empty: , n: 80 }\n",
      '[{"apiVersion": "v1", "kind": "List"}, [1, 2, [3]], {}]\n',
      '{"a/b": {"~c": 1}, "": 2, "80": {"x": 3}}\n',
    ];
    for (const text of texts) {
      const r = compareWithYaml(text, flowOffset, "scanner", true);
      expect(r.mismatches, text).toEqual([]);
      expect(r.answered, text).toBeGreaterThan(r.total / 2);
    }
  });

  it("agrees with yaml on block documents with flow values, through the block scanner", () => {
    const text = "a:\n  b: {c: [1, {d: e}], 'f': 2}\n  g:\n  - {h: 1, i: [x, y]}\n  - [1, 2]\n  j: []\n";
    const r = compareWithYaml(text, fastOffset, "scanner", true);
    expect(r.mismatches).toEqual([]);
    expect(r.answered).toBe(r.total);
  });

  it("leaves what it is not sure of to yaml", () => {
    const none = (text: string, pointer: string) => flowOffset(text, 0, text.length, pointer);
    expect(none("{a: &x {b: 1}, c: *x}", "/c/b")).toBeUndefined();
    expect(none("{a: !!map {b: 1}}", "/a/b")).toBeUndefined();
    expect(none("{? [a]: 1, b: 2}", "/b")).toBeUndefined();
    expect(none("{a, b: 1}", "/b")).toBeUndefined();
    expect(none("[a: 1, b]", "/1")).toBeUndefined();
    expect(none('{"\\x41": 1}', "/A")).toBeUndefined();
    expect(none("{true: 1, 0x10: 2}", "/true")).toBeUndefined();
  });

  it("tells flow documents from block ones, and reads top-level strings", () => {
    const text = '{"apiVersion": "apps/v1", kind: Deployment}\n';
    expect(isFlowDocument(text, 0, text.length)).toBe(true);
    expect(isFlowDocument("a: {b: 1}\n", 0, 10)).toBe(false);
    expect(isFlowDocument("{a: 1}\nb: 2\n", 0, 12)).toBe(false);
    expect(flowTopString(text, 0, text.length, "apiVersion")).toBe("apps/v1");
    expect(flowTopString(text, 0, text.length, "kind")).toBe("Deployment");
  });
});

describe("locateFindings on JSON text", () => {
  it("locates a finding at the key of the JSON text", () => {
    const text = '{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "metadata": {"name": "web"},\n  "spec": {\n    "ports": [{"port": "http"}]\n  }\n}\n';
    const result: ResourceResult = {
      file: "svc.yaml",
      index: 0,
      apiVersion: "v1",
      kind: "Service",
      name: "web",
      namespace: "",
      status: "invalid",
      findings: [{ severity: "error", path: "/spec/ports/0/port", message: "must be integer", rule: "schema:type" }],
    };
    const [located] = locateFindings(text, [result]);
    expect(located?.findings[0]).toMatchObject({ line: 6, column: 16 });
  });
});

describe("locateFindings on a text the reader read as plain JSON (LoadedDocuments.json)", () => {
  /** The file's results, with a finding at every pointer of each object and one at a child that is not there. */
  function resultsOf(file: string, text: string): ResourceResult[] {
    const { resources, json } = parseText({ file, text });
    expect(json).toBe(true);
    return resources.map((r) => ({
      file,
      index: r.index,
      apiVersion: r.apiVersion,
      kind: r.kind,
      name: r.name,
      namespace: r.namespace,
      status: "invalid",
      findings: [...pointers(r.object), "/spec/notThere"].map((p) => ({ severity: "error", path: `${r.pointer ?? ""}${p}`, message: "m", rule: "schema:x" })),
    }));
  }

  it("places every finding where the scan of the whole text would, in the bench's JSON shapes and in Lists", () => {
    const list = JSON.stringify({ apiVersion: "v1", kind: "List", items: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { k: "v" } }, { apiVersion: "v1", kind: "Secret", metadata: { name: "b" } }] }, null, 2);
    const typed = JSON.stringify({ apiVersion: "v1", kind: "ConfigMapList", items: [{ metadata: { name: "c" }, data: { x: "1" } }] });
    const texts = [...shapeFiles("json", 60), ...shapeFiles("json-in-yaml", 60), ["list.json", list] as const, ["typed.json", typed] as const];
    let findings = 0;
    for (const [name, text] of texts) {
      const results = resultsOf(name, text);
      const told = locateFindings(text, results, true);
      expect(told).toEqual(locateFindings(text, results));
      findings += told.reduce((n, r) => n + r.findings.filter((f) => f.line !== undefined).length, 0);
    }
    expect(findings).toBeGreaterThan(1000);
  });
});

// Tests of the document reader: multi-document YAML/JSON and one error per malformed document.
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { aliasExpansion, iamKindOf, loadDocuments, loadFileText, parseText } from "./reader.ts";

const parse = (text: string) => parseText({ file: "in.yaml", text });

describe("parseText", () => {
  it("splits multi-document YAML and keeps index, name and namespace", () => {
    const { resources, unreadable } = parse("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n---\napiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: a}\n");
    expect(unreadable).toEqual([]);
    expect(resources.map((r) => [r.index, r.kind, r.name, r.namespace])).toEqual([
      [0, "Namespace", "a", ""],
      [2, "Service", "s", "a"],
    ]);
  });

  it("reports a syntax error for one document and still reads the next", () => {
    const { resources, unreadable } = parse("apiVersion: v1\nkind: [unclosed\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\n");
    expect(resources.map((r) => r.name)).toEqual(["ok"]);
    expect(unreadable).toHaveLength(1);
    expect(unreadable[0]?.index).toBe(0);
    expect(unreadable[0]?.findings[0]?.rule).toBe("parse:syntax");
    expect(unreadable[0]?.findings[0]?.message).toMatch(/^YAML syntax error \(line \d+, column \d+\)/);
  });

  it("rejects duplicate keys", () => {
    const { unreadable } = parse("apiVersion: v1\nkind: Namespace\nkind: Service\n");
    expect(unreadable[0]?.findings[0]?.rule).toBe("parse:duplicate-key");
    expect(unreadable[0]?.findings[0]?.message).toMatch(/^duplicate key \(line 3, column 1\)/);
  });

  it("stops an alias bomb without expanding it", () => {
    const rows = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++) rows.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(", ")}]`);
    const { unreadable, resources } = parse(`apiVersion: v1\nkind: ConfigMap\ndata:\n${rows.map((r) => `  ${r}`).join("\n")}\n`);
    expect(resources).toEqual([]);
    expect(unreadable[0]?.findings[0]?.rule).toBe("parse:alias-limit");
  });

  it("rejects documents that are not objects or lack apiVersion/kind", () => {
    const { unreadable } = parse("- a\n- b\n---\nplain\n---\nkind: Namespace\nmetadata: {name: x}\n");
    expect(unreadable.map((u) => [u.index, u.findings.map((f) => f.rule).join(",")])).toEqual([
      [0, "parse:not-an-object"],
      [1, "parse:not-an-object"],
      [2, "parse:missing-type"],
    ]);
    expect(unreadable[0]?.findings[0]?.message).toBe("document is a list, not a Kubernetes object");
    expect(unreadable[2]?.kind).toBe("Namespace");
    expect(unreadable[2]?.findings[0]?.path).toBe("/apiVersion");
  });

  it("reports a document nested beyond the parser's stack instead of crashing", () => {
    const { unreadable, resources } = parse(`apiVersion: v1\nkind: ConfigMap\ndata: ${"[".repeat(50_000)}${"]".repeat(50_000)}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: after}\n`);
    expect(unreadable[0]?.findings[0]?.rule).toBe("parse:too-deep");
    expect(unreadable[0]?.findings[0]?.message).toMatch(/^document is nested too deeply to read \(line 3, column \d+\)$/);
    expect(resources.map((r) => r.name)).toEqual(["after"]);
  });

  it("reads anchors and aliases like yaml does", () => {
    const text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nx: &base {k: [v, {w: 1}]}\ndata: *base\n---\napiVersion: v1\nkind: Basket\nitems: [&i {a: 1}, *i, *i]\n";
    const { resources, unreadable } = parse(text);
    expect(unreadable).toEqual([]);
    expect(resources.map((r) => r.object)).toEqual(parseAllDocuments(text).map((d) => d.toJS()));
  });

  it("rejects a document with an anchor used inside itself, and keeps the others", () => {
    const { resources, unreadable } = parse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: &a {self: *a}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n");
    expect(resources.map((r) => r.name)).toEqual(["ns"]);
    expect(unreadable).toEqual([
      { file: "in.yaml", index: 0, findings: [{ severity: "error", path: "", message: "an alias refers to the anchor it is inside: the document would be infinite", rule: "parse:alias-cycle" }] },
    ]);
  });

  it("bounds alias expansion by the size of the text", () => {
    const anchored = { a: [1, 2, { b: [3] }] };
    expect(aliasExpansion([[anchored, anchored, anchored], anchored], 100)).toEqual(["ok", "ok"]);
    // 2^40 expanded nodes from a chain of doubling aliases: refused after the budget, not expanded
    let chain: unknown = { leaf: true };
    for (let i = 0; i < 40; i++) chain = [chain, chain];
    expect(aliasExpansion([chain], 100)).toEqual(["too-large"]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { back: [cyclic] };
    expect(aliasExpansion([{ ok: 1 }, cyclic, { ok: 2 }], 100)).toEqual(["ok", "cyclic", "ok"]);
  });

  it("reads JSON documents", () => {
    const { resources } = parseText({ file: "x.json", text: '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"j"}}' });
    expect(resources[0]?.name).toBe("j");
  });
});

describe("loadDocuments", () => {
  it("walks folders recursively, separates IAM files, and refuses binary and huge files", () => {
    const dir = mkdtempSync(join(tmpdir(), "reader-"));
    mkdirSync(join(dir, "rendered", "iam"), { recursive: true });
    mkdirSync(join(dir, "rendered", "apps"), { recursive: true });
    writeFileSync(join(dir, "rendered", "apps", "ns.yaml"), "apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n");
    writeFileSync(join(dir, "rendered", "apps", "notes.txt"), "ignored");
    writeFileSync(join(dir, "rendered", "iam", "Role.trust-policy.json"), '{"Version":"2012-10-17","Statement":[]}');
    writeFileSync(join(dir, "rendered", "bin.yaml"), Buffer.from([0x61, 0x00, 0x62]));
    writeFileSync(join(dir, "rendered", "big.yaml"), "x".repeat(2000));
    const loaded = loadDocuments([dir], { cwd: dir, maxFileBytes: 1000 });
    expect(loaded.resources.map((r) => `${r.file}#${r.index}`)).toEqual(["rendered/apps/ns.yaml#0"]);
    expect(loaded.iam.map((d) => [d.file, d.iamKind])).toEqual([["rendered/iam/Role.trust-policy.json", "trust-policy"]]);
    expect(loaded.unreadable.map((u) => [u.file, u.findings[0]?.rule])).toEqual([
      ["rendered/big.yaml", "parse:too-large"],
      ["rendered/bin.yaml", "parse:binary"],
    ]);
  });

  it("reads '-' from stdin", () => {
    const loaded = loadDocuments(["-"], { readStdin: () => "apiVersion: v1\nkind: Namespace\nmetadata: {name: s}\n" });
    expect(loaded.resources.map((r) => [r.file, r.name])).toEqual([["-", "s"]]);
  });

  it("classifies IAM files by name", () => {
    expect(iamKindOf("clusters/a/rendered/iam/index.json")).toBe("index");
    expect(iamKindOf("clusters/a/rendered/iam/Node.json")).toBe("policy");
    expect(iamKindOf("clusters/a/rendered/argocd/x.json")).toBeUndefined();
  });
});

describe("loadFileText", () => {
  it("says when the file's whole text was read as plain JSON, and only then", () => {
    const dir = mkdtempSync(join(tmpdir(), "reader-json-"));
    const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } };
    const files: [string, string, boolean][] = [
      ["a.json", JSON.stringify(cm, null, 2), true],
      ["json-text.yaml", `${JSON.stringify({ apiVersion: "v1", kind: "List", items: [cm] })}\n`, true],
      ["flow.yaml", "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n", false],
      ["block.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", false],
      ["two.yaml", `${JSON.stringify(cm)}\n---\n${JSON.stringify(cm)}\n`, false],
      ["duplicate.json", '{"apiVersion": "v1", "kind": "ConfigMap", "kind": "Secret"}', false],
      // what looks like a complex key (`]: `, `}:`) inside a string does not keep JSON text from JSON.parse
      ["colons.json", '{"apiVersion": "v1", "kind": "ConfigMap", "data": {"k": "[a]: b {c}:d"}}', true],
    ];
    for (const [name, text, json] of files) {
      writeFileSync(join(dir, name), text);
      const { docs } = loadFileText(join(dir, name), { cwd: dir });
      expect([name, docs.json === true]).toEqual([name, json]);
    }
  });
});

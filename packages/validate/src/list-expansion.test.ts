// `kind: List` and typed lists (`RoleList`, `ConfigMapList`...) are expanded into their items, as kubectl does.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseText } from "./reader.ts";
import { runValidation } from "./run.ts";
import { MIRROR, TEST_CACHE } from "./testing.ts";

const parse = (text: string) => parseText({ file: "in.yaml", text });

const LISTS = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a, namespace: default}
  data: {x: "1"}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: b, namespace: default}
  data:
    "bad key!": "1"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleList
items:
- metadata: {name: reader, namespace: default}
  rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: Role
  metadata: {name: "a/b", namespace: default}
  rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
`;

describe("parseText: lists", () => {
  it("gives one resource per item, each with the document's index and its pointer", () => {
    const { resources, unreadable } = parse(LISTS);
    expect(unreadable).toEqual([]);
    expect(resources.map((r) => [r.index, r.pointer, r.apiVersion, r.kind, r.name])).toEqual([
      [0, "/items/0", "v1", "ConfigMap", "a"],
      [0, "/items/1", "v1", "ConfigMap", "b"],
      [1, "/items/0", "rbac.authorization.k8s.io/v1", "Role", "reader"],
      [1, "/items/1", "rbac.authorization.k8s.io/v1", "Role", "a/b"],
    ]);
  });

  it("gives an item of a typed list without apiVersion and kind the list's (RoleList: Role), not an item of `kind: List`", () => {
    const { resources, unreadable } = parse("apiVersion: v1\nkind: List\nitems:\n- metadata: {name: x}\n");
    expect(resources).toEqual([]);
    expect(unreadable[0]?.findings.map((f) => [f.path, f.rule])).toEqual([
      ["/items/0/apiVersion", "parse:missing-type"],
      ["/items/0/kind", "parse:missing-type"],
    ]);
  });

  it("expands a list inside a list, reports items that are not objects, and drops an empty list", () => {
    const { resources, unreadable } = parse(
      "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMapList\n  items:\n  - metadata: {name: inner}\n- 3\n---\napiVersion: v1\nkind: List\nitems: []\n",
    );
    expect(resources.map((r) => [r.pointer, r.kind, r.name])).toEqual([["/items/0/items/0", "ConfigMap", "inner"]]);
    expect(unreadable.map((u) => u.findings[0]?.path)).toEqual(["/items/1"]);
    expect(unreadable[0]?.findings[0]?.message).toBe("list item is a number, not a Kubernetes object");
  });

  it("leaves an object that only looks like a list (no items array, or a kind without `List`) as it is", () => {
    const { resources } = parse("apiVersion: v1\nkind: List\nitems: {a: 1}\n---\napiVersion: example.com/v1\nkind: Basket\nitems: [1]\n");
    expect(resources.map((r) => [r.kind, r.pointer])).toEqual([
      ["List", undefined],
      ["Basket", undefined],
    ]);
  });
});

describe("runValidation: lists", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lists-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("validates each item as the object it is, its findings at the item's line under /items/N", { timeout: 120_000 }, async () => {
    writeFileSync(join(dir, "lists.yaml"), LISTS);
    const { report } = await runValidation({ root: dir, paths: [dir], mirror: MIRROR, cacheDir: TEST_CACHE, crossObjectChecks: false, read: { cwd: dir } });
    expect(report.resources.map((r) => [r.index, r.kind, r.name, r.status])).toEqual([
      [0, "ConfigMap", "a", "valid"],
      [0, "ConfigMap", "b", "invalid"],
      [1, "Role", "reader", "valid"],
      [1, "Role", "a/b", "invalid"],
    ]);
    const bad = report.resources[1]?.findings[0];
    expect([bad?.path, bad?.line, bad?.rule]).toEqual(["/items/1/data/bad key!", 12, "native:core/configmap-key"]);
    const role = report.resources[3]?.findings[0];
    expect([role?.path, role?.line, role?.rule]).toEqual(["/items/1/metadata/name", 21, "native:meta/name"]);
  });

  // Cross-object findings are about one item: they go to that item's result, under its /items/N, not to the last
  // result of the document (which every item of a list shares a file and a document index with).
  it("gives a cross-object finding to the item it is about, in block and flow style", { timeout: 120_000 }, async () => {
    const pool = (name: string, policy: string) =>
      `{apiVersion: karpenter.sh/v1, kind: NodePool, metadata: {name: ${name}}, spec: {disruption: {consolidationPolicy: ${policy}, consolidateAfter: 1m}, template: {spec: {nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: x}, requirements: []}}}}`;
    const items = [pool("old", "WhenUnderutilized"), pool("new", "WhenEmpty"), "{apiVersion: v1, kind: ConfigMap, metadata: {name: last, namespace: default}}"];
    writeFileSync(join(dir, "block.yaml"), `apiVersion: v1\nkind: List\nitems:\n${items.map((i) => `- ${i}\n`).join("")}`);
    writeFileSync(join(dir, "flow.yaml"), `{apiVersion: v1, kind: List, items: [\n${items.join(",\n")}\n]}\n`);
    const { report } = await runValidation({ root: dir, paths: [dir], mirror: MIRROR, cacheDir: TEST_CACHE, read: { cwd: dir } });
    for (const file of ["block.yaml", "flow.yaml"]) {
      const of = report.resources.filter((r) => r.file.endsWith(file));
      const deprecated = of.flatMap((r) => r.findings.filter((f) => f.rule === "deprecated-api").map((f) => [r.name, f.path, f.line]));
      expect(deprecated, file).toEqual([["old", "/items/0/spec/disruption/consolidationPolicy", file === "block.yaml" ? 4 : 2]]);
      expect(of.find((r) => r.name === "last")?.findings, file).toEqual([]);
    }
  });
});

// The streaming pipeline keeps compacted resources for the cross-object checks: on every fixture folder, the
// rendered overlays and the bench corpus, the checks must find exactly what they find on whole objects.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCorpus } from "../bench/corpus.ts";
import { loadDocuments } from "../reader.ts";
import type { ParsedResource } from "../types.ts";
import { compactForCrossObject, compactObject, factExtra, packExtra, restoreFact, unpackExtra } from "./compact.ts";
import { crossObjectChecks } from "./index.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/cross-object/", import.meta.url));
const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const folders = readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(FIXTURES, d.name));

describe("compactForCrossObject", () => {
  it.each([...folders, join(REPO, "clusters")])("gives the same findings as whole objects: %s", (folder) => {
    const docs = loadDocuments([folder], { cwd: folder });
    const whole = crossObjectChecks(docs.resources, { iam: docs.iam });
    const compact = crossObjectChecks(docs.resources.map(compactForCrossObject), { iam: docs.iam });
    expect(compact).toEqual(whole);
  });

  it("gives the same (no) findings on the bench corpus: compaction adds none", () => {
    const resources: ParsedResource[] = buildCorpus(600).map((c, i) => {
      const meta = c.object.metadata as { name?: string; namespace?: string };
      return { file: `c${Math.floor(i / 100)}.yaml`, index: i % 100, apiVersion: String(c.object.apiVersion), kind: String(c.object.kind), name: meta.name ?? "", namespace: meta.namespace ?? "", object: c.object };
    });
    const whole = crossObjectChecks(resources, { iam: [] });
    expect(crossObjectChecks(resources.map(compactForCrossObject), { iam: [] })).toEqual(whole);
  });

  it("drops what no check reads", () => {
    const np = {
      apiVersion: "karpenter.sh/v1",
      kind: "NodePool",
      metadata: { name: "p", labels: { a: "b" } },
      spec: { limits: { cpu: "1" }, template: { spec: { nodeClassRef: { group: "g", kind: "k", name: "n" }, requirements: [] } }, disruption: { consolidationPolicy: "WhenEmpty", budgets: [] } },
    };
    expect(compactObject(np, "NodePool")).toEqual({
      apiVersion: "karpenter.sh/v1",
      kind: "NodePool",
      metadata: { name: "p" },
      spec: { template: { spec: { nodeClassRef: { group: "g", kind: "k", name: "n" } } }, disruption: { consolidationPolicy: "WhenEmpty" } },
    });
  });
});

/** What a streaming run keeps of `r` (its identity, in its result, and the packed extra) made a fact again. */
const viaStore = (r: ParsedResource) => {
  const extra = factExtra(r);
  const { file, index, pointer, apiVersion, kind, name, namespace } = r;
  return restoreFact({ file, index, pointer, apiVersion, kind, name, namespace }, extra === undefined ? undefined : unpackExtra(packExtra(extra)));
};

describe("factExtra and restoreFact", () => {
  it.each([...folders, join(REPO, "clusters")])("give back compactForCrossObject exactly: %s", (folder) => {
    const docs = loadDocuments([folder], { cwd: folder });
    for (const r of docs.resources) expect(viaStore(r)).toStrictEqual(compactForCrossObject(r));
  });

  it("keep nothing for an object whose spec no check reads", () => {
    const r: ParsedResource = { file: "f.yaml", index: 0, apiVersion: "v1", kind: "ConfigMap", name: "c", namespace: "n", object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "n" }, data: { a: "b" } } };
    expect(factExtra(r)).toBeUndefined();
    expect(viaStore(r)).toStrictEqual(compactForCrossObject(r));
  });

  it("keep the whole compact object when the identity differs from the object (a list item typed by its list, a name that is not a string)", () => {
    const item: ParsedResource = { file: "l.yaml", index: 0, pointer: "/items/0", apiVersion: "v1", kind: "ConfigMap", name: "c", namespace: "", object: { metadata: { name: "c" } } };
    expect(factExtra(item)?.whole).toBeDefined();
    expect(viaStore(item)).toStrictEqual(compactForCrossObject(item));
    const odd: ParsedResource = { file: "o.yaml", index: 0, apiVersion: "apps/v1", kind: "Deployment", name: "", namespace: "", object: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: 5, namespace: "" }, spec: { replicas: -0 } } };
    expect(factExtra(odd)?.whole).toBeDefined();
    expect(viaStore(odd)).toStrictEqual(compactForCrossObject(odd));
  });

  it("packs as JSON only what JSON gives back exactly", () => {
    expect(typeof packExtra({ spec: { replicas: 2, template: { spec: { containers: [{ name: "a" }] } } } })).toBe("string");
    for (const spec of [{ replicas: -0 }, { replicas: Number.NaN }, { replicas: Number.POSITIVE_INFINITY }, { replicas: undefined }, JSON.parse('{"__proto__": 1}'), Object.create(null), { when: new Date(0) }, { list: new Array(2) }]) {
      expect(typeof packExtra({ spec })).toBe("object");
    }
  });

  it("give back compactForCrossObject on arbitrary objects (property)", () => {
    const scalar = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant(-0));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("v"), { maxLength: 3 }), fc.dictionary(fc.constantFrom("name", "resources", "requests", "cpu", "x", "__proto__"), tie("v"), { maxKeys: 3 })),
    })).v;
    const kinds = ["HorizontalPodAutoscaler", "NodePool", "EC2NodeClass", "Application", "Deployment", "ConfigMap"];
    const resource = fc.record({
      kind: fc.constantFrom(...kinds),
      apiVersion: fc.constantFrom("v1", "apps/v1", "karpenter.sh/v1"),
      objectApiVersion: fc.option(fc.constantFrom("v1", "apps/v1"), { nil: undefined }),
      name: fc.constantFrom("", "a", "b"),
      namespace: fc.constantFrom("", "n"),
      metadata: fc.option(fc.dictionary(fc.constantFrom("name", "namespace", "labels"), value, { maxKeys: 3 }), { nil: undefined }),
      spec: fc.option(fc.dictionary(fc.constantFrom("replicas", "template", "role", "source", "scaleTargetRef", "disruption", "other"), value, { maxKeys: 4 }), { nil: undefined }),
      pointer: fc.option(fc.constant("/items/1"), { nil: undefined }),
    });
    fc.assert(
      fc.property(resource, (g) => {
        const object: Record<string, unknown> = { apiVersion: g.objectApiVersion ?? g.apiVersion, kind: g.kind };
        if (g.metadata !== undefined) object.metadata = g.metadata;
        if (g.spec !== undefined) object.spec = g.spec;
        const r: ParsedResource = { file: "p.yaml", index: 0, ...(g.pointer ? { pointer: g.pointer } : {}), apiVersion: g.apiVersion, kind: g.kind, name: g.name, namespace: g.namespace, object };
        expect(viaStore(r)).toStrictEqual(compactForCrossObject(r));
      }),
      { numRuns: 2000 },
    );
  });
});

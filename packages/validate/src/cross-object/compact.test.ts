// The streaming pipeline keeps compacted resources for the cross-object checks: on every fixture folder, the
// rendered overlays and the bench corpus, the checks must find exactly what they find on whole objects, and
// exactly that again when given only the resources crossObjectSubjects picks.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCorpus } from "../bench/corpus.ts";
import { loadDocuments } from "../reader.ts";
import type { CrossObjectRows, LoadedDocuments, ParsedResource } from "../types.ts";
import { compactForCrossObject, compactObject, factExtra, packExtra, restoreFact, unpackExtra } from "./compact.ts";
import { crossObjectChecks, crossObjectSubjects } from "./index.ts";

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
      // names and namespaces that match the identity's, or are "" where it has none, often (factExtra compares them in place)
      metadata: fc.option(fc.dictionary(fc.constantFrom("name", "namespace", "labels"), fc.oneof({ weight: 3, arbitrary: fc.constantFrom("", "a", "b", "n") }, { weight: 1, arbitrary: value }), { maxKeys: 3 }), { nil: undefined }),
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

/** The rows of `resources` as a run's store answers them. */
const rowsOf = (resources: readonly ParsedResource[]): CrossObjectRows => ({
  size: resources.length,
  apiVersion: (i) => (resources[i] as ParsedResource).apiVersion,
  kind: (i) => (resources[i] as ParsedResource).kind,
  name: (i) => (resources[i] as ParsedResource).name,
  namespace: (i) => (resources[i] as ParsedResource).namespace,
  resource: (i) => resources[i] as ParsedResource,
});

/** Findings and not-checked references of the checks given every resource, and given only the subjects. */
const bothWays = (resources: readonly ParsedResource[], iam: LoadedDocuments["iam"]) => {
  const run = (given: readonly ParsedResource[]) => {
    const notChecked: string[] = [];
    const findings = crossObjectChecks(given, { iam, notChecked: (w) => notChecked.push(w) });
    return { findings, notChecked };
  };
  const subjects = crossObjectSubjects(rowsOf(resources));
  return { all: run(resources), subjects: run(subjects.map((i) => resources[i] as ParsedResource)), picked: subjects.length };
};

describe("crossObjectSubjects", () => {
  it("is what crossObjectChecks says it needs", () => {
    expect(crossObjectChecks.subjects).toBe(crossObjectSubjects);
  });

  it.each([...folders, join(REPO, "clusters")])("gives the same findings as every resource: %s", (folder) => {
    const docs = loadDocuments([folder], { cwd: folder });
    const { all, subjects } = bothWays(docs.resources.map(compactForCrossObject), docs.iam);
    expect(subjects).toEqual(all);
  });

  it("leaves out what no check reads (ConfigMaps, Services, workloads no HPA scales)", () => {
    const r = (kind: string, name: string, apiVersion = "v1", spec?: unknown): ParsedResource => ({ file: `${kind}-${name}.yaml`, index: 0, apiVersion, kind, name, namespace: "shop", object: { apiVersion, kind, metadata: { name, namespace: "shop" }, ...(spec ? { spec } : {}) } });
    const resources = [
      r("ConfigMap", "web"),
      r("Deployment", "web", "apps/v1", { replicas: 2 }),
      r("Deployment", "api", "apps/v1", { replicas: 2 }),
      r("Deployment", "web", "apps/v1", { replicas: 3 }),
      r("HorizontalPodAutoscaler", "web", "autoscaling/v2", { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" } }),
      r("Ingress", "old", "extensions/v1beta1"),
    ];
    expect(crossObjectSubjects(rowsOf(resources))).toEqual([1, 3, 4, 5]);
  });

  it("gives the same findings on generated HPAs, their targets and Karpenter objects (property)", () => {
    const names = ["web", "api", "x"];
    const resource = fc.record({
      kind: fc.constantFrom("HorizontalPodAutoscaler", "Deployment", "StatefulSet", "ConfigMap", "NodePool", "EC2NodeClass", "Application", "Provisioner"),
      apiVersion: fc.constantFrom("v1", "apps/v1", "autoscaling/v2", "autoscaling/v2beta2", "karpenter.sh/v1", "karpenter.k8s.aws/v1", "argoproj.io/v1alpha1", "karpenter.sh/v1alpha5", "constructor"),
      name: fc.constantFrom(...names, ""),
      namespace: fc.constantFrom("", "default", "shop"),
      file: fc.constantFrom("a.yaml", "clusters/one/rendered/b.yaml", "clusters/two/rendered/c.yaml"),
      replicas: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      requests: fc.boolean(),
      target: fc.record({ apiVersion: fc.constantFrom("apps/v1", "v1", "autoscaling/v2"), kind: fc.constantFrom("Deployment", "StatefulSet", "ConfigMap", "HorizontalPodAutoscaler"), name: fc.constantFrom(...names) }),
      nodeClass: fc.constantFrom(...names),
    });
    fc.assert(
      fc.property(fc.array(resource, { maxLength: 25 }), (generated) => {
        const resources = generated.map((g, i): ParsedResource => {
          const spec: Record<string, unknown> = { scaleTargetRef: g.target, template: { spec: { nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: g.nodeClass }, containers: [{ name: "c", ...(g.requests ? { resources: { requests: { cpu: "1" } } } : {}) }] } } };
          if (g.replicas !== undefined) spec.replicas = g.replicas;
          const object = { apiVersion: g.apiVersion, kind: g.kind, metadata: { name: g.name, namespace: g.namespace }, spec };
          return compactForCrossObject({ file: g.file, index: i, apiVersion: g.apiVersion, kind: g.kind, name: g.name, namespace: g.namespace, object });
        });
        const { all, subjects } = bothWays(resources, []);
        expect(subjects).toEqual(all);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives the same findings on the bench corpus", () => {
    const resources: ParsedResource[] = buildCorpus(2000).map((c, i) => {
      const meta = c.object.metadata as { name?: string; namespace?: string };
      return compactForCrossObject({ file: `c${i}.yaml`, index: 0, apiVersion: String(c.object.apiVersion), kind: String(c.object.kind), name: meta.name ?? "", namespace: meta.namespace ?? "", object: c.object });
    });
    const { all, subjects } = bothWays(resources, []);
    expect(subjects).toEqual(all);
  });
});

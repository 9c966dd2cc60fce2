// The streaming pipeline keeps compacted resources for the cross-object checks: on every fixture folder, the
// rendered overlays and the bench corpus, the checks must find exactly what they find on whole objects.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildCorpus } from "../bench/corpus.ts";
import { loadDocuments } from "../reader.ts";
import type { ParsedResource } from "../types.ts";
import { compactForCrossObject, compactObject } from "./compact.ts";
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

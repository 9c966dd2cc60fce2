// The real-world corpus (corpus/real-world/: 1,068 objects from public repositories) against kube-apiserver's
// committed verdicts (corpus/real-world-labels.json): the default checks reject no object the server accepts.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runValidation } from "./run.ts";
import { type CorpusLabel, corpusLabels, labelKey, REAL_WORLD_CORPUS } from "./testing/corpus.ts";
import type { ResourceResult } from "./types.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** Each result's label: the object's own, or for a `...List` document those of its items. */
function labelsOf(r: ResourceResult, labels: ReadonlyMap<string, CorpusLabel>): CorpusLabel[] {
  const own = labels.get(labelKey(r));
  if (own) return [own];
  return [...labels.values()].filter((l) => l.file === r.file && r.kind.endsWith("List"));
}

/** Agreement of a run's verdicts with the server's: objects the server accepts that the run fails, and the reverse. */
async function compare(selection?: { checks: ("schema" | "cel" | "native" | "cross-object" | "iam")[] }) {
  const labels = corpusLabels();
  const { report } = await runValidation({ root: REPO, paths: [REAL_WORLD_CORPUS], read: { cwd: REAL_WORLD_CORPUS }, ...(selection ? { selection } : {}) });
  const falseRejections: string[] = [];
  let agreed = 0;
  let labelled = 0;
  for (const r of report.resources) {
    const mine = labelsOf(r, labels);
    if (mine.length === 0) continue;
    labelled++;
    const serverAccepts = mine.every((l) => l.accepted);
    const weAccept = r.status === "valid";
    if (serverAccepts === weAccept) agreed++;
    if (serverAccepts && !weAccept) falseRejections.push(`${labelKey(r)}: ${r.findings.filter((f) => f.severity === "error").map((f) => `${f.message} [${f.rule}]`).join("; ")}`);
  }
  return { report, falseRejections, agreed, labelled };
}

describe("real-world corpus", () => {
  it("has a label for every object, from kube-apiserver 1.36.5", () => {
    expect(corpusLabels().size).toBeGreaterThanOrEqual(1000);
  });

  it("default checks: no object the API server accepts is rejected", async () => {
    const { falseRejections, labelled, agreed } = await compare();
    expect(labelled).toBeGreaterThanOrEqual(1000);
    // a `kind: ...List` document is judged as one object until the reader expands Lists into their items
    // (kubectl creates the items; the labels are the items'): the three of kube-prometheus, named here
    const lists = falseRejections.filter((f) => /^\S+ \w+List /.test(f));
    expect(falseRejections.filter((f) => !lists.includes(f))).toEqual([]);
    expect(lists.map((f) => f.split(" ")[0])).toEqual(
      lists.length === 0 ? [] : ["kube-prometheus/manifests/grafana-dashboardDefinitions.yaml", "kube-prometheus/manifests/prometheus-roleBindingSpecificNamespaces.yaml", "kube-prometheus/manifests/prometheus-roleSpecificNamespaces.yaml"],
    );
    expect(agreed / labelled).toBeGreaterThan(0.95);
  }, 600_000);

  it("--strict turns the cross-object opinions on these objects into errors", async () => {
    const labels = corpusLabels();
    const { report } = await runValidation({ root: REPO, paths: [REAL_WORLD_CORPUS], read: { cwd: REAL_WORLD_CORPUS }, strict: true, selection: { checks: ["cross-object"] } });
    const strictRejections = report.resources.filter((r) => r.status === "invalid" && labelsOf(r, labels).every((l) => l.accepted));
    expect(strictRejections.flatMap((r) => r.findings.map((f) => f.rule)).sort()).toContain("hpa-target-sets-replicas");
  }, 600_000);
});

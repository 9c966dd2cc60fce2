// The real-world corpus's labels (packages/validate/corpus/real-world-labels.json) are what kube-apiserver 1.36.5
// answers: every object dry-run created, as `eks-gitops validate` judges it (create). UPDATE_CORPUS_LABELS=1 rewrites them.
import { readFileSync, writeFileSync } from "node:fs";
import { KubeConfig, type KubernetesObject, type V1CustomResourceDefinition } from "@kubernetes/client-node";
import { CORPUS_LABELS, type CorpusLabel, corpusObjects, labelKey } from "@eks-gitops/validate/corpus";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createVerdict, ensureNamespaces, RawObjectApi } from "./harness/apply.ts";
import { installCrds } from "./harness/crds.ts";

const objects = corpusObjects();
let api: RawObjectApi;
let kc: KubeConfig;

beforeAll(async () => {
  kc = new KubeConfig();
  kc.loadFromFile(inject("kubeconfigPath"));
  api = RawObjectApi.fromKubeConfig(kc);
  // the corpus's own CRDs (kube-prometheus's ServiceMonitor, PrometheusRule...) are installed, as a cluster using it has them
  const crds = objects.filter((o) => o.object.kind === "CustomResourceDefinition" && o.object.apiVersion === "apiextensions.k8s.io/v1").map((o) => o.object as unknown as V1CustomResourceDefinition);
  await installCrds(kc, crds, 120_000);
  // a namespaced object's namespace exists (with its default service account), as in a cluster it is deployed to
  await ensureNamespaces(api, ["default", ...objects.map((o) => o.object.metadata?.namespace).filter((n): n is string => typeof n === "string" && n !== "")]);
});

/** The server's verdict on one object: created with dryRun=All; AlreadyExists (a Namespace or CRD created above) passed validation. */
async function label(o: KubernetesObject): Promise<Omit<CorpusLabel, "file" | "kind" | "namespace" | "name">> {
  let v: Awaited<ReturnType<typeof createVerdict>>;
  try {
    v = await createVerdict(api, { ...o, metadata: { namespace: "default", ...o.metadata } }, { dryRun: true });
  } catch (err) {
    // the client looks the kind up in the server's discovery first: a kind the server does not serve is its 404
    const message = (err as Error).message ?? String(err);
    if (!/Unrecognized API version and kind/.test(message)) throw err;
    return { accepted: false, code: 404, reason: "NotFound", message: `the server could not find the requested resource (${message})` };
  }
  if (v.accepted || v.reason === "AlreadyExists") return { accepted: true };
  return { accepted: false, code: v.code, reason: v.reason, message: v.message.slice(0, 300) };
}

describe("real-world corpus labels", () => {
  it("match what kube-apiserver 1.36.5 answers for every object", async () => {
    const labels: CorpusLabel[] = [];
    for (const o of objects) labels.push({ file: o.file, kind: o.kind, namespace: o.namespace, name: o.name, ...(await label(o.object)) });
    labels.sort((a, b) => (labelKey(a) < labelKey(b) ? -1 : labelKey(a) > labelKey(b) ? 1 : 0));
    const file = CORPUS_LABELS;
    if (process.env.UPDATE_CORPUS_LABELS === "1") writeFileSync(file, `${JSON.stringify(labels, null, 1)}\n`);
    const committed = JSON.parse(readFileSync(file, "utf8")) as CorpusLabel[];
    const verdict = (l: CorpusLabel) => `${labelKey(l)} ${l.accepted ? "accepted" : `rejected ${l.code}`}`;
    expect(labels.map(verdict)).toEqual(committed.map(verdict));
    const accepted = labels.filter((l) => l.accepted).length;
    process.stdout.write(`real-world corpus: ${labels.length} objects, ${accepted} accepted by kube-apiserver, ${labels.length - accepted} rejected\n`);
  });
});


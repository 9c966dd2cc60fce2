// Every rendered object of every overlay, server-side applied with dryRun=All against the real API server: all accepted.
import { KubeConfig } from "@kubernetes/client-node";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { applyVerdict, ensureNamespaces, RawObjectApi } from "./harness/apply.ts";
import { loadRenderedObjects, objectRef } from "./rendered.ts";

const rendered = loadRenderedObjects();
let api: RawObjectApi;

beforeAll(async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(inject("kubeconfigPath"));
  api = RawObjectApi.fromKubeConfig(kc);
  // Namespaced objects need their namespace to exist: the rendered Namespace objects are applied for real,
  // and any other namespace an object names (argocd, kube-system) is created like a cluster would have it.
  const namespaces = new Set(rendered.map((r) => r.object.metadata?.namespace).filter((n): n is string => !!n));
  for (const r of rendered.filter((r) => r.object.kind === "Namespace")) {
    const verdict = await applyVerdict(api, r.object, { dryRun: false });
    expect(verdict, `${r.file}: ${objectRef(r.object)}`).toMatchObject({ accepted: true });
    namespaces.delete(r.object.metadata?.name ?? "");
  }
  await ensureNamespaces(api, namespaces);
});

describe("server-side dry-run apply of every rendered object", () => {
  it("finds rendered objects in every overlay, including NodePools, EC2NodeClasses and Applications", () => {
    const kinds = new Set(rendered.map((r) => r.object.kind));
    for (const kind of ["NodePool", "EC2NodeClass", "Deployment", "Service", "HorizontalPodAutoscaler", "Application"]) {
      expect(kinds, kind).toContain(kind);
    }
    expect(new Set(rendered.map((r) => r.cluster)).size).toBeGreaterThanOrEqual(2);
  });

  it.each(rendered.map((r) => [`${r.file} ${objectRef(r.object)}`, r] as const))("%s", async (_name, r) => {
    const verdict = await applyVerdict(api, r.object, { dryRun: true });
    if (!verdict.accepted) {
      expect.fail(`${r.file}: ${objectRef(r.object)} rejected (${verdict.code} ${verdict.reason}): ${verdict.message}`);
    }
    // The server answers with the object it would store: same identity, defaults applied, our field manager recorded.
    expect(verdict.object.kind).toBe(r.object.kind);
    expect(verdict.object.metadata?.name).toBe(r.object.metadata?.name);
    expect(verdict.object.metadata?.managedFields?.map((m) => m.manager)).toContain("eks-gitops-e2e");
  });
});

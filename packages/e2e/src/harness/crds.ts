// Installs the pinned upstream CRDs (Karpenter v1.14.1, Argo CD v3.5.1) and waits until they are Established.
// The files come from the validator's schema catalog: fetched from the mirror or upstream, SHA-256-checked, cached.
import { ApiextensionsV1Api, type KubeConfig, type V1CustomResourceDefinition } from "@kubernetes/client-node";
import { loadCatalog, selectReleases } from "@eks-gitops/validate";
import { parseAllDocuments } from "yaml";
import { RawObjectApi } from "./apply.ts";

/** Every CRD of the pinned Karpenter and Argo CD releases (the same bytes the validator uses). */
export async function pinnedCrds(): Promise<V1CustomResourceDefinition[]> {
  const releases = selectReleases().filter((r) => r.project === "karpenter" || r.project === "argocd");
  const files = await loadCatalog(releases);
  return files
    .filter((f) => f.file.format === "crd")
    .flatMap((f) =>
      parseAllDocuments(f.text).map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${f.file.path}: ${doc.errors[0]?.message}`);
        return doc.toJS() as V1CustomResourceDefinition | null;
      }),
    )
    .filter((crd): crd is V1CustomResourceDefinition => crd?.kind === "CustomResourceDefinition");
}

/** One pinned CRD by name, e.g. `nodepools.karpenter.sh`. */
export async function pinnedCrd(name: string): Promise<V1CustomResourceDefinition> {
  const crd = (await pinnedCrds()).find((c) => c.metadata?.name === name);
  if (!crd) throw new Error(`no pinned CRD ${name}`);
  return crd;
}

/**
 * Applies every CRD (concurrently), then waits until each is Established (its REST endpoints are served).
 * Not ApiextensionsV1Api.createCustomResourceDefinition: its model serializer expects camelCase
 * properties and silently drops `x-kubernetes-validations`, `default`, `$ref`... of a CRD read from YAML.
 */
export async function installCrds(kc: KubeConfig, crds: readonly V1CustomResourceDefinition[], timeoutMs = 60_000) {
  const api = kc.makeApiClient(ApiextensionsV1Api);
  const raw = RawObjectApi.fromKubeConfig(kc);
  const deadline = performance.now() + timeoutMs;
  await Promise.all(
    crds.map(async (crd) => {
      const name = crd.metadata?.name ?? "";
      await raw.serverSideApply({ ...crd, apiVersion: crd.apiVersion ?? "", kind: crd.kind ?? "" }, { dryRun: false });
      for (;;) {
        const live = await api.readCustomResourceDefinition({ name });
        if (live.status?.conditions?.some((c) => c.type === "Established" && c.status === "True")) return;
        if (performance.now() > deadline) throw new Error(`CRD ${name} not Established after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }),
  );
}

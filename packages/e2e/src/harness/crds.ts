// Installs the pinned upstream CRDs (Karpenter v1.14.1, Argo CD v3.5.1) from the schema mirror and waits until they are Established.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ApiextensionsV1Api, type KubeConfig, type V1CustomResourceDefinition } from "@kubernetes/client-node";
import { parseAllDocuments } from "yaml";
import { RawObjectApi } from "./apply.ts";
import { mirrorRoot } from "./repo.ts";

export const KARPENTER_VERSION = "v1.14.1";
export const ARGOCD_VERSION = "v3.5.1";

/** CRD files in the mirror, by upstream raw-URL path (read at test time; never copied into the repository). */
export function pinnedCrdFiles(mirror: string = mirrorRoot()): string[] {
  const karpenter = join(mirror, "aws/karpenter-provider-aws", KARPENTER_VERSION, "pkg/apis/crds");
  const argocd = join(mirror, "argoproj/argo-cd", ARGOCD_VERSION, "manifests/crds");
  return [
    ...readdirSync(karpenter)
      .filter((f) => f.endsWith(".yaml"))
      .sort()
      .map((f) => join(karpenter, f)),
    ...["application-crd.yaml", "applicationset-crd.yaml", "appproject-crd.yaml"].map((f) => join(argocd, f)),
  ];
}

export function readCrds(files: readonly string[]): V1CustomResourceDefinition[] {
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(file, "utf8"))
      .map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
        return doc.toJS() as V1CustomResourceDefinition | null;
      })
      .filter((crd): crd is V1CustomResourceDefinition => crd?.kind === "CustomResourceDefinition"),
  );
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

// The AppProject of a cluster: exactly its sources, its one destination server, and the namespaces and kinds its apps deploy.
import type { ClusterConfig } from "@eks-gitops/config";
import type { Component } from "@eks-gitops/manifests";
import type { AppPlan, ArgoObject } from "./applications.ts";
import { ARGOCD_API_VERSION, RESOURCES_FINALIZER, SYNC_WAVE_ANNOTATION, SYNC_WAVES } from "./constants.ts";
import { type GroupKind, groupOf, KARPENTER_CLUSTER_KINDS, KARPENTER_EXTRA_NAMESPACES, KARPENTER_NAMESPACED_KINDS } from "./karpenter-chart.ts";

/**
 * No wildcards anywhere: the allow-lists are computed from the rendered objects plus what the Karpenter
 * charts install, so a new kind in the overlay widens the project in the same reviewed pull request.
 */
export function buildAppProject(config: ClusterConfig, components: readonly Component[], plans: readonly AppPlan[]): ArgoObject {
  const objects = components.flatMap((c) => c.objects);
  const clusterKinds: GroupKind[] = [...KARPENTER_CLUSTER_KINDS];
  const namespacedKinds: GroupKind[] = [...KARPENTER_NAMESPACED_KINDS];
  for (const o of objects) (o.metadata.namespace ? namespacedKinds : clusterKinds).push({ group: groupOf(o.apiVersion), kind: o.kind });
  // Argo CD creates a namespace for CreateNamespace=true only if the project allows Namespaces.
  if (plans.some((p) => p.syncOptions.includes("CreateNamespace=true"))) clusterKinds.push({ group: "", kind: "Namespace" });

  const namespaces = new Set<string>([config.karpenter.namespace, ...KARPENTER_EXTRA_NAMESPACES, ...plans.map((p) => p.namespace)]);
  for (const o of objects) if (o.metadata.namespace) namespaces.add(o.metadata.namespace);

  return {
    apiVersion: ARGOCD_API_VERSION,
    kind: "AppProject",
    metadata: {
      name: config.name,
      namespace: config.argocd.namespace,
      annotations: { [SYNC_WAVE_ANNOTATION]: String(SYNC_WAVES.project) },
      // Argo CD keeps the project while any Application still uses it.
      finalizers: [RESOURCES_FINALIZER],
    },
    spec: {
      description: `Everything Argo CD syncs to EKS cluster ${config.name} (rendered from ${config.sourceFile})`,
      sourceRepos: [config.argocd.repoURL, config.karpenter.chartRepository],
      destinations: [...namespaces].sort().map((namespace) => ({ server: config.argocd.destinationServer, namespace })),
      clusterResourceWhitelist: uniqueSorted(clusterKinds),
      namespaceResourceWhitelist: uniqueSorted(namespacedKinds),
    },
  };
}

function uniqueSorted(kinds: readonly GroupKind[]): GroupKind[] {
  const byKey = new Map(kinds.map((k) => [`${k.group}/${k.kind}`, { group: k.group, kind: k.kind }]));
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

// The fleet variant: one ApplicationSet per overlay whose cluster generator stamps out the same Applications.
import { CLUSTER_SECRET_LABEL, type ClusterConfig } from "@eks-gitops/config";
import type { AppPlan, ArgoObject } from "./applications.ts";
import { ARGOCD_API_VERSION, RESOURCES_FINALIZER, SYNC_RETRY } from "./constants.ts";

/**
 * A matrix of the cluster generator (the Argo CD cluster Secret labelled `eks-gitops.io/cluster: <name>`)
 * and one list element per Application plan. What differs between plans travels in the element and is
 * merged in by `templatePatch`, so each generated Application equals the one rendered without the option,
 * except that its destination server is the registered cluster's (and the project still pins that server).
 * Sync waves do not order ApplicationSet-generated Applications; SkipDryRunOnMissingResource and the
 * sync retry carry the node pools over the moment before the CRDs exist.
 */
export function toApplicationSet(config: ClusterConfig, plans: readonly AppPlan[]): ArgoObject {
  return {
    apiVersion: ARGOCD_API_VERSION,
    kind: "ApplicationSet",
    metadata: { name: config.name, namespace: config.argocd.namespace },
    spec: {
      goTemplate: true,
      goTemplateOptions: ["missingkey=error"],
      generators: [
        {
          matrix: {
            generators: [
              { clusters: { selector: { matchLabels: { [CLUSTER_SECRET_LABEL]: config.name } } } },
              {
                list: {
                  elements: plans.map((p) => ({
                    component: p.component,
                    namespace: p.namespace,
                    patch: {
                      spec: {
                        source: p.source,
                        ...(p.syncOptions.length > 0 ? { syncPolicy: { syncOptions: [...p.syncOptions] } } : {}),
                        ...(p.ignoreDifferences.length > 0 ? { ignoreDifferences: [...p.ignoreDifferences] } : {}),
                      },
                    },
                  })),
                },
              },
            ],
          },
        },
      ],
      template: {
        metadata: { name: `${config.name}-{{ .component }}`, namespace: config.argocd.namespace, finalizers: [RESOURCES_FINALIZER] },
        spec: {
          project: config.name,
          destination: { server: "{{ .server }}", namespace: "{{ .namespace }}" },
          syncPolicy: { automated: { prune: true, selfHeal: true }, retry: SYNC_RETRY },
        },
      },
      templatePatch: "{{ toJson .patch }}",
      // Deleting the ApplicationSet (or un-labelling the cluster) must not delete what it deployed.
      syncPolicy: { preserveResourcesOnDeletion: true },
    },
  };
}

// The per-component Application plans of a cluster (chart apps and rendered folders) and their Application objects.
import { CHART_APPS, CLUSTERS_DIR, COMPONENTS, RENDERED_DIR, type ClusterConfig } from "@eks-gitops/config";
import { ARGOCD_SYNC_OPTIONS_ANNOTATION, KEEP_ON_PRUNE_AND_DELETE, type Component, type KubeObject } from "@eks-gitops/manifests";
import { ARGOCD_API_VERSION, PREEXISTING_NAMESPACES, RESOURCES_FINALIZER, SYNC_RETRY, SYNC_WAVE_ANNOTATION, SYNC_WAVES } from "./constants.ts";
import { groupOf } from "./karpenter-chart.ts";
import { karpenterChartValues } from "./karpenter-values.ts";

/** An Argo CD object as plain JSON. */
export interface ArgoObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [k: string]: unknown };
  readonly spec: Record<string, unknown>;
}

/** Everything that differs between two Applications of a cluster. */
export interface AppPlan {
  /** Suffix of the Application name `<cluster>-<component>`. */
  readonly component: string;
  readonly wave: number;
  /** Destination namespace; always one the AppProject permits. */
  readonly namespace: string;
  readonly source: Record<string, unknown>;
  readonly syncOptions: readonly string[];
  readonly ignoreDifferences: readonly Record<string, unknown>[];
}

/** API groups whose CRDs the karpenter-crd app installs: objects of these kinds cannot be dry-run before it has synced. */
export const KARPENTER_CRD_GROUPS: readonly string[] = ["autoscaling.x-k8s.io", "karpenter.k8s.aws", "karpenter.sh"];

/** Path of a component folder inside this repository. */
export function componentPath(config: ClusterConfig, component: string): string {
  return `${CLUSTERS_DIR}/${config.name}/${RENDERED_DIR}/${component}`;
}

/** The Karpenter chart apps, then one app per rendered component, in sync-wave order. */
export function planApplications(config: ClusterConfig, components: readonly Component[]): AppPlan[] {
  const k = config.karpenter;
  const chartSource = (chart: string, helm: Record<string, unknown>) => ({
    repoURL: k.chartRepository,
    chart,
    targetRevision: k.version,
    helm: { releaseName: chart, ...helm },
  });
  const createNamespace = PREEXISTING_NAMESPACES.includes(k.namespace) ? [] : ["CreateNamespace=true"];
  const plans: AppPlan[] = [
    {
      // CRD lifecycle: the karpenter-crd chart, not the main chart's crds/ folder. Its templates take
      // `additionalAnnotations`, so the CRDs carry Prune=false,Delete=false (deleting a CRD deletes every
      // NodePool and so every node); they upgrade with the chart; and removing the controller app
      // cannot take the CRDs with it.
      component: CHART_APPS.karpenterCrd,
      wave: SYNC_WAVES.karpenterCrd,
      namespace: k.namespace,
      source: chartSource("karpenter-crd", { valuesObject: { additionalAnnotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: KEEP_ON_PRUNE_AND_DELETE } } }),
      // Server-side apply: the EC2NodeClass CRD is too big for client-side apply's last-applied annotation margin.
      syncOptions: ["ServerSideApply=true", ...createNamespace],
      ignoreDifferences: [],
    },
    {
      component: CHART_APPS.karpenter,
      wave: SYNC_WAVES.karpenter,
      namespace: k.namespace,
      // skipCrds: the CRDs belong to the karpenter-crd app above; two owners would fight over them.
      source: chartSource("karpenter", { skipCrds: true, valuesObject: karpenterChartValues(config) }),
      syncOptions: ["ServerSideApply=true", ...createNamespace],
      ignoreDifferences: [],
    },
  ];
  for (const c of components) plans.push(planComponent(config, c));
  return plans;
}

function planComponent(config: ClusterConfig, c: Component): AppPlan {
  const namespaces = [...new Set(c.objects.flatMap((o) => (o.metadata.namespace ? [o.metadata.namespace] : [])))];
  const ownNamespace = c.objects.find((o) => o.kind === "Namespace" && o.apiVersion === "v1")?.metadata.name;
  // A component with only cluster-scoped objects (NodePools, EC2NodeClasses) still needs a destination
  // namespace the project permits: the controller's, which reconciles them.
  const namespace = ownNamespace ?? (namespaces.length === 1 ? namespaces[0] : undefined) ?? config.karpenter.namespace;
  const needsCreate = ownNamespace === undefined && !PREEXISTING_NAMESPACES.includes(namespace) && namespace !== config.karpenter.namespace;
  const needsCrds = c.objects.some((o) => KARPENTER_CRD_GROUPS.includes(groupOf(o.apiVersion)));
  const ignoreDifferences = hpaReplicaDifferences(c.objects);
  const syncOptions = [
    ...(c.name === COMPONENTS.nodePools ? ["ServerSideApply=true"] : []),
    ...(needsCrds ? ["SkipDryRunOnMissingResource=true"] : []),
    ...(needsCreate ? ["CreateNamespace=true"] : []),
    ...(ignoreDifferences.length > 0 ? ["RespectIgnoreDifferences=true"] : []),
  ];
  return {
    component: c.name,
    wave: c.name === COMPONENTS.nodePools ? SYNC_WAVES.nodePools : SYNC_WAVES.workloads,
    namespace,
    source: { repoURL: config.argocd.repoURL, targetRevision: config.argocd.targetRevision, path: componentPath(config, c.name) },
    syncOptions,
    ignoreDifferences,
  };
}

/**
 * An HPA owns its target's replica count. Rendered Deployments under an HPA carry no `spec.replicas`;
 * if one does anyway, Argo CD must neither show the HPA's scaling as drift nor reset it on sync.
 */
export function hpaReplicaDifferences(objects: readonly KubeObject[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const hpa of objects) {
    if (hpa.kind !== "HorizontalPodAutoscaler") continue;
    const ref = (hpa.spec as { scaleTargetRef?: { kind?: string; name?: string } } | undefined)?.scaleTargetRef;
    const target = objects.find(
      (o) => o.kind === ref?.kind && o.metadata.name === ref?.name && o.metadata.namespace === hpa.metadata.namespace,
    );
    const replicas = (target?.spec as { replicas?: unknown } | undefined)?.replicas;
    if (target === undefined || replicas === undefined) continue;
    out.push({
      group: groupOf(target.apiVersion),
      kind: target.kind,
      name: target.metadata.name,
      namespace: target.metadata.namespace,
      jsonPointers: ["/spec/replicas"],
    });
  }
  return out;
}

/** The Application of one plan: `<cluster>-<component>` in the cluster's project, auto-synced with prune and self-heal. */
export function toApplication(config: ClusterConfig, plan: AppPlan): ArgoObject {
  return {
    apiVersion: ARGOCD_API_VERSION,
    kind: "Application",
    metadata: {
      name: `${config.name}-${plan.component}`,
      namespace: config.argocd.namespace,
      annotations: { [SYNC_WAVE_ANNOTATION]: String(plan.wave) },
      finalizers: [RESOURCES_FINALIZER],
    },
    spec: {
      project: config.name,
      source: plan.source,
      destination: { server: config.argocd.destinationServer, namespace: plan.namespace },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        ...(plan.syncOptions.length > 0 ? { syncOptions: [...plan.syncOptions] } : {}),
        retry: SYNC_RETRY,
      },
      ...(plan.ignoreDifferences.length > 0 ? { ignoreDifferences: [...plan.ignoreDifferences] } : {}),
    },
  };
}

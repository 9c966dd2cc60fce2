// The Karpenter chart's Helm values for an overlay (settings.clusterName, IRSA annotation, controller resources).
import type { ClusterConfig } from "@eks-gitops/config";

/** Helm values for chart `karpenter` at the overlay's version. */
export function karpenterChartValues(config: ClusterConfig): Record<string, unknown> {
  const k = config.karpenter;
  return {
    replicas: k.replicas,
    settings: {
      clusterName: config.name,
      ...(k.interruptionQueue !== undefined ? { interruptionQueue: k.interruptionQueue } : {}),
    },
    serviceAccount: {
      name: k.serviceAccount,
      ...(k.identity === "irsa" ? { annotations: { "eks.amazonaws.com/role-arn": config.controllerRole.arn } } : {}),
    },
    controller: {
      resources: { requests: { ...k.controllerResources.requests }, limits: { ...k.controllerResources.limits } },
    },
  };
}

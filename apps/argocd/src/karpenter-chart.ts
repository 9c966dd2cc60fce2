// What the Karpenter charts (karpenter and karpenter-crd, v1.14) install, for the AppProject's allow-lists.

export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

/**
 * Cluster-scoped kinds the two charts create: the karpenter-crd chart's CustomResourceDefinitions
 * (NodePool, NodeClaim, EC2NodeClass, NodeOverlay, CapacityBuffer) and the controller's RBAC
 * (the `karpenter`, `karpenter-core` and aggregated `karpenter-admin` ClusterRoles and their bindings).
 * With the default values (webhook off, no ServiceMonitor) there is nothing else.
 */
export const KARPENTER_CLUSTER_KINDS: readonly GroupKind[] = [
  { group: "apiextensions.k8s.io", kind: "CustomResourceDefinition" },
  { group: "rbac.authorization.k8s.io", kind: "ClusterRole" },
  { group: "rbac.authorization.k8s.io", kind: "ClusterRoleBinding" },
];

/** Namespaced kinds the karpenter chart creates (ServiceAccount, Deployment, Service, PDB, Roles and bindings). */
export const KARPENTER_NAMESPACED_KINDS: readonly GroupKind[] = [
  { group: "", kind: "ServiceAccount" },
  { group: "", kind: "Service" },
  { group: "apps", kind: "Deployment" },
  { group: "policy", kind: "PodDisruptionBudget" },
  { group: "rbac.authorization.k8s.io", kind: "Role" },
  { group: "rbac.authorization.k8s.io", kind: "RoleBinding" },
];

/**
 * Namespaces the karpenter chart writes to besides its release namespace: a Role reading the kube-dns
 * Service lives in kube-system, and a Role deleting node leases lives in kube-node-lease.
 */
export const KARPENTER_EXTRA_NAMESPACES: readonly string[] = ["kube-node-lease", "kube-system"];

/** Group of an apiVersion (`apps/v1` -> `apps`, `v1` -> the core group ``). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash === -1 ? "" : apiVersion.slice(0, slash);
}

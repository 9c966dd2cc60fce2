// `simulate --from-cluster`: the existing nodes and DaemonSets read from a live cluster instead of the overlay's declaration.
import { ApiException, AppsV1Api, CoreV1Api, type KubeConfig, type V1DaemonSet, type V1Node } from "@kubernetes/client-node";
import { loadKubeConfig } from "@eks-gitops/bootstrap/kube";
import type { DaemonSetInput, NodeGroupInput, Taint } from "@eks-gitops/capacity";
import { podSchedulingOf } from "./input.ts";
import { compareText } from "@eks-gitops/config/order";

export interface LiveCapacityOptions {
  /** kubeconfig file; default: KUBECONFIG or ~/.kube/config. */
  readonly kubeconfig?: string;
  readonly context?: string;
}

export interface LiveCapacity {
  /** The API server the data came from. */
  readonly server: string;
  readonly nodeGroups: readonly NodeGroupInput[];
  readonly daemonSets: readonly DaemonSetInput[];
  /** Nodes left out: Karpenter's own (the simulation plans NodeClaims afresh) and nodes being deleted. */
  readonly skippedNodes: number;
}

/** The cluster could not be read: the message says which call failed where. Exit 2 (kubeconfig, credentials), or 4 when `external`. */
export class LiveClusterError extends Error {
  override name = "LiveClusterError";
  constructor(
    message: string,
    /** The API failed or could not be reached (not a setting to fix). */
    readonly external = false,
  ) {
    super(message);
  }
}

/** Labels that differ per node or that the simulation derives from the instance type and zone itself. */
const PER_NODE_LABELS = /^(kubernetes\.io\/hostname|topology\.kubernetes\.io\/zone|topology\.kubernetes\.io\/region|failure-domain\.beta\.kubernetes\.io\/.*|topology\.ebs\.csi\.aws\.com\/zone|topology\.k8s\.aws\/.*|k8s\.io\/cloud-provider-aws)$/;
/** Taints the node lifecycle controller sets and lifts on its own (not-ready, unreachable, pressure). */
const TRANSIENT_TAINT = /^node\.(kubernetes\.io|cloudprovider\.kubernetes\.io)\//;

/**
 * Groups nodes as EKS does: by `eks.amazonaws.com/nodegroup` (else `unmanaged`), split by instance type; a group's
 * labels and taints are the ones all its nodes share; its max pods is the nodes' `status.capacity.pods`.
 */
export function nodeGroupsOf(nodes: readonly V1Node[]): { nodeGroups: NodeGroupInput[]; skipped: number } {
  const groups = new Map<string, V1Node[]>();
  let skipped = 0;
  for (const n of nodes) {
    const labels = n.metadata?.labels ?? {};
    if (labels["karpenter.sh/nodepool"] !== undefined || n.metadata?.deletionTimestamp !== undefined) {
      skipped++;
      continue;
    }
    const type = labels["node.kubernetes.io/instance-type"] ?? labels["beta.kubernetes.io/instance-type"] ?? "unknown";
    const key = `${labels["eks.amazonaws.com/nodegroup"] ?? "unmanaged"}\u0000${type}`;
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  const names = [...groups.keys()].map((k) => k.split("\u0000")[0]);
  const nodeGroups: NodeGroupInput[] = [];
  for (const [key, members] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    members.sort((a, b) => compareText(a.metadata?.name ?? "", b.metadata?.name ?? ""));
    const [group = "unmanaged", type = "unknown"] = key.split("\u0000");
    const first = members[0] as V1Node;
    const shared = Object.entries(first.metadata?.labels ?? {}).filter(
      ([k, v]) => !PER_NODE_LABELS.test(k) && members.every((m) => m.metadata?.labels?.[k] === v),
    );
    const taintKey = (t: { key: string; value?: string; effect: string }) => `${t.key}=${t.value ?? ""}:${t.effect}`;
    const taints = (first.spec?.taints ?? []).filter((t) => !TRANSIENT_TAINT.test(t.key) && members.every((m) => (m.spec?.taints ?? []).some((o) => taintKey(o) === taintKey(t))));
    const spot = first.metadata?.labels?.["eks.amazonaws.com/capacityType"] === "SPOT" || first.metadata?.labels?.["karpenter.sh/capacity-type"] === "spot";
    const maxPods = Number(first.status?.capacity?.pods);
    nodeGroups.push({
      // one group per (node group, instance type); the type is added only when a node group has several
      name: names.filter((n) => n === group).length > 1 ? `${group}/${type}` : group,
      instanceType: type,
      count: members.length,
      capacityType: spot ? "spot" : "on-demand",
      zones: members.map((m) => m.metadata?.labels?.["topology.kubernetes.io/zone"]).filter((z): z is string => z !== undefined),
      labels: Object.fromEntries(shared.sort(([a], [b]) => (a < b ? -1 : 1))),
      taints: taints.map((t) => ({ key: t.key, ...(t.value !== undefined ? { value: t.value } : {}), effect: t.effect as Taint["effect"] })),
      ...(Number.isInteger(maxPods) && maxPods > 0 ? { kubelet: { maxPods } } : {}),
    });
  }
  return { nodeGroups, skipped };
}

/** One DaemonSet pod per node: its requests, tolerations, node selector and required node affinity. */
export function daemonSetsOf(list: readonly V1DaemonSet[]): DaemonSetInput[] {
  return list
    .map((d) => ({ name: `${d.metadata?.namespace ?? "default"}/${d.metadata?.name ?? ""}`, ...podSchedulingOf((d.spec?.template?.spec ?? {}) as Record<string, unknown>) }))
    .sort((a, b) => compareText(a.name, b.name));
}

/** Reads every Node and DaemonSet (read-only: list nodes, list daemonsets in all namespaces). */
export async function readLiveCapacity(options: LiveCapacityOptions): Promise<LiveCapacity> {
  let kc: KubeConfig;
  try {
    kc = loadKubeConfig(options);
  } catch (err) {
    throw new LiveClusterError((err as Error).message);
  }
  const server = kc.getCurrentCluster()?.server ?? "(no cluster in kubeconfig)";
  const call = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (err) {
      const code = err instanceof ApiException ? ` (HTTP ${err.code})` : "";
      // refused credentials or RBAC are the kubeconfig's to fix (2); a failing or unreachable API is external (4)
      const setup = err instanceof ApiException && (err.code === 401 || err.code === 403);
      throw new LiveClusterError(`${what} at ${server} failed${code}: ${(err as Error).message.split("\n")[0]}`, !setup);
    }
  };
  const nodes = await call("list nodes", () => kc.makeApiClient(CoreV1Api).listNode());
  const daemonSets = await call("list daemonsets", () => kc.makeApiClient(AppsV1Api).listDaemonSetForAllNamespaces());
  const { nodeGroups, skipped } = nodeGroupsOf(nodes.items);
  return { server, nodeGroups, daemonSets: daemonSetsOf(daemonSets.items), skippedNodes: skipped };
}

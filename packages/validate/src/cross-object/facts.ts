// loadOverlayFacts(): reads the overlays' cluster.ts (via @eks-gitops/config) for the facts rendered files do not carry.
import { listClusters, loadCluster } from "@eks-gitops/config/load";
import type { OverlayFacts } from "./overlay.ts";

/**
 * Facts of the named overlays (every overlay under `<root>/clusters` when `names` is omitted).
 * Throws the overlay's ConfigError when one does not load (the CLI turns it into exit 2).
 * Needs a TypeScript loader in the process (the CLI registers tsx; vitest has its own).
 */
export async function loadOverlayFacts(root: string, names?: readonly string[]): Promise<Record<string, OverlayFacts>> {
  const facts: Record<string, OverlayFacts> = {};
  for (const name of names ?? listClusters(root)) {
    const config = await loadCluster(root, name);
    facts[name] = { clusterName: config.name, kubernetesVersion: config.kubernetesVersion, karpenterVersion: config.karpenter.version };
  }
  return facts;
}

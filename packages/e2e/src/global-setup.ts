// Vitest global setup of the e2e suite: one API server with the pinned CRDs for every test file, stopped even when tests fail.
import { KubeConfig } from "@kubernetes/client-node";
import type { TestProject } from "vitest/node";
import { installCrds, pinnedCrds } from "./harness/crds.ts";
import { startTestCluster } from "./harness/test-cluster.ts";

declare module "vitest" {
  export interface ProvidedContext {
    kubeconfigPath: string;
  }
}

export default async function setup(project: TestProject) {
  const crds = await pinnedCrds();
  const cluster = await startTestCluster();
  try {
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    const crdStart = performance.now();
    await installCrds(kc, crds);
    const crdMs = performance.now() - crdStart;
    process.stderr.write(
      `e2e: kube-apiserver ready at ${cluster.server} in ${(cluster.startupMs / 1000).toFixed(1)} s; ` +
        `${crds.length} CRDs Established in ${(crdMs / 1000).toFixed(1)} s\n`,
    );
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  project.provide("kubeconfigPath", cluster.kubeconfigPath);
  return async () => {
    await cluster.stop();
  };
}

// Reads every committed rendered Kubernetes object of every overlay (clusters/*/rendered/**/*.yaml).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { CLUSTERS_DIR, listClusters, RENDERED_DIR } from "@eks-gitops/config";
import type { KubernetesObject } from "@kubernetes/client-node";
import { parseAllDocuments } from "yaml";
import { REPO_ROOT } from "./harness/repo.ts";

export interface RenderedObject {
  readonly cluster: string;
  /** Path relative to the repository root. */
  readonly file: string;
  readonly index: number;
  readonly object: KubernetesObject;
}

/** Every object, sorted by cluster then file; a YAML error throws with the file name. */
export function loadRenderedObjects(root: string = REPO_ROOT): RenderedObject[] {
  return listClusters(root).flatMap((cluster) => {
    const dir = join(root, CLUSTERS_DIR, cluster, RENDERED_DIR);
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".yaml") || f.endsWith(".yml"))
      .sort();
    return files.flatMap((f) => {
      const file = relative(root, join(dir, f));
      return parseAllDocuments(readFileSync(join(dir, f), "utf8")).flatMap((doc, index) => {
        if (doc.errors.length > 0) throw new Error(`${file}: document ${index}: ${doc.errors[0]?.message}`);
        const object = doc.toJS() as KubernetesObject | null;
        return object ? [{ cluster, file, index, object }] : [];
      });
    });
  });
}

/** `Kind/namespace/name` (or `Kind/name`), for messages. */
export function objectRef(object: KubernetesObject): string {
  const ns = object.metadata?.namespace;
  return `${object.kind}/${ns ? `${ns}/` : ""}${object.metadata?.name ?? "(no name)"}`;
}

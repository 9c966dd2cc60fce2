// renderCluster(): the whole rendered/ tree of one overlay as relative path -> file content, in memory.
import { COMPONENTS, type ClusterConfig } from "@eks-gitops/config";
import { buildArgoCdObjects } from "@eks-gitops/argocd";
import { buildKubernetesComponents } from "@eks-gitops/manifests";
import { buildIamDocuments, iamFiles } from "@eks-gitops/policies";
import { objectFileName, type ObjectIdentity, toJson, toYaml } from "./serialize.ts";

/** Relative path inside rendered/ (always `/`-separated) -> file content. Sorted by path. */
export type RenderedTree = ReadonlyMap<string, string>;

/** Renders every artifact of an overlay. Pure: no files, no environment, no clock. */
export function renderCluster(config: ClusterConfig): RenderedTree {
  const files = new Map<string, string>();
  const header = `Rendered by \`pnpm synth\` from ${config.sourceFile}. Do not edit: change the overlay and re-render.`;
  const add = (path: string, content: string) => {
    if (files.has(path)) throw new Error(`two rendered objects map to the same file ${path}`);
    files.set(path, content);
  };
  const addObjects = (component: string, objects: readonly ObjectIdentity[]) => {
    for (const o of objects) add(`${component}/${objectFileName(o)}`, toYaml(o, header));
  };

  const components = buildKubernetesComponents(config);
  for (const c of components) addObjects(c.name, c.objects);

  const argo = buildArgoCdObjects(config, components);
  addObjects(COMPONENTS.argocd, argo.objects);
  addObjects(COMPONENTS.bootstrap, argo.bootstrap);

  for (const [name, doc] of iamFiles(buildIamDocuments(config))) add(`${COMPONENTS.iam}/${name}`, toJson(doc));

  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

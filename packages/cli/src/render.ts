// renderCluster(): the whole rendered/ tree of one overlay as relative path -> file content, in memory.
import { COMPONENTS, type ClusterConfig } from "@eks-gitops/config";
import { buildArgoCdObjects } from "@eks-gitops/argocd";
import { buildKubernetesComponents, type ObjectSources, sourceKey } from "@eks-gitops/manifests";
import { buildIamDocuments, iamFiles } from "@eks-gitops/policies";
import { objectFileName, type ObjectIdentity, toJson, toYaml } from "./serialize.ts";

/** Relative path inside rendered/ (always `/`-separated) -> file content. Sorted by path. */
export type RenderedTree = ReadonlyMap<string, string>;

/** Relative path inside rendered/ -> where its fields came from in the overlay (see @eks-gitops/manifests sources.ts). */
export type RenderSources = ReadonlyMap<string, ObjectSources>;

/** Overlay fields behind the files no construct describes field by field: the section of the overlay they follow from. */
const COMPONENT_SOURCES: Readonly<Record<string, ObjectSources>> = {
  [COMPONENTS.argocd]: { "": ["argocd"] },
  [COMPONENTS.bootstrap]: { "": ["argocd"] },
  [COMPONENTS.iam]: { "": ["karpenter"] },
};

/** Renders every artifact of an overlay. Pure: no files, no environment, no clock. */
export function renderCluster(config: ClusterConfig): RenderedTree {
  return renderClusterTraced(config).tree;
}

/** {@link renderCluster}, with the side table saying which overlay field each rendered file's fields came from. */
export function renderClusterTraced(config: ClusterConfig): { tree: RenderedTree; sources: RenderSources } {
  const files = new Map<string, string>();
  const sources = new Map<string, ObjectSources>();
  const header = `Rendered by \`pnpm synth\` from ${config.sourceFile}. Do not edit: change the overlay and re-render.`;
  const add = (path: string, content: string) => {
    if (files.has(path)) throw new Error(`two rendered objects map to the same file ${path}`);
    files.set(path, content);
  };
  const addObjects = (component: string, objects: readonly ObjectIdentity[], known?: ReadonlyMap<string, ObjectSources>) => {
    for (const o of objects) {
      const path = `${component}/${objectFileName(o)}`;
      add(path, toYaml(o, header));
      const traced = known?.get(sourceKey(o)) ?? COMPONENT_SOURCES[component];
      if (traced) sources.set(path, traced);
    }
  };

  const components = buildKubernetesComponents(config);
  for (const c of components) addObjects(c.name, c.objects, c.sources);

  const argo = buildArgoCdObjects(config, components);
  addObjects(COMPONENTS.argocd, argo.objects);
  addObjects(COMPONENTS.bootstrap, argo.bootstrap);

  for (const [name, doc] of iamFiles(buildIamDocuments(config))) {
    add(`${COMPONENTS.iam}/${name}`, toJson(doc));
    sources.set(`${COMPONENTS.iam}/${name}`, COMPONENT_SOURCES[COMPONENTS.iam] as ObjectSources);
  }

  return { tree: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), sources };
}

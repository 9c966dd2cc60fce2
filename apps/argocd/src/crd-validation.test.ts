// The rendered Argo CD objects (and the ApplicationSet variant) against the Argo CD v3.5.1 CRDs, via @eks-gitops/validate.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCluster } from "@eks-gitops/config";
import { buildKubernetesComponents } from "@eks-gitops/manifests";
import { catalogLayer, ObjectValidator, parseText, SchemaRegistry } from "@eks-gitops/validate";
import { beforeAll, describe, expect, it } from "vitest";
import { buildArgoCdObjects } from "./build.ts";

const root = fileURLToPath(new URL("../../..", import.meta.url));

type Obj = Record<string, unknown> & { apiVersion: string; kind: string };
let registry: SchemaRegistry;
const validator = new ObjectValidator();
/** Findings as `path: message [rule]`; [] when valid. */
const check = (o: Obj): string[] => {
  const type = registry.lookup(o.apiVersion, o.kind);
  if (!type) throw new Error(`no schema for ${o.apiVersion} ${o.kind}`);
  return validator.validate(structuredClone(o), type, registry).map((f) => `${f.path}: ${f.message} [${f.rule}]`);
};

beforeAll(async () => {
  // the product's path: the pinned CRDs from its cache, else from $EKS_GITOPS_MIRROR or upstream, SHA-256-checked
  registry = new SchemaRegistry().with([await catalogLayer({ argocd: "3.5.1" }, {})]);
}, 120_000);

const renderedArgoFiles = ["aws-cn", "eksworkshop"].flatMap((cluster) =>
  ["argocd", "bootstrap"].flatMap((folder) => {
    const dir = join(root, "clusters", cluster, "rendered", folder);
    return readdirSync(dir).map((f) => `clusters/${cluster}/rendered/${folder}/${f}`);
  }),
);

describe("Argo CD v3.5.1 CRDs", () => {
  it("cover every committed file in rendered/argocd and rendered/bootstrap", () => {
    // rendered/argocd: the project and the Applications (5 + 4); rendered/bootstrap: the root app and its project (2 + 2)
    expect(renderedArgoFiles).toHaveLength(15);
  });

  it.each(renderedArgoFiles)("%s is valid", (file) => {
    const [doc] = parseText({ file, text: readFileSync(join(root, file), "utf8") }).resources;
    expect(doc?.object.apiVersion).toBe("argoproj.io/v1alpha1");
    expect(check(doc?.object as Obj)).toEqual([]);
  });

  it("accept the ApplicationSet variant", async () => {
    const config = await loadCluster(root, "eksworkshop");
    const fleet = { ...config, argocd: { ...config.argocd, applicationSet: true } };
    const { objects, bootstrap } = buildArgoCdObjects(fleet, buildKubernetesComponents(config));
    expect(objects.map((o) => o.kind)).toEqual(["AppProject", "ApplicationSet"]);
    for (const o of [...objects, ...bootstrap]) expect(check(o as unknown as Obj), `${o.kind}/${o.metadata.name}`).toEqual([]);
  }, 120_000);

  it("reject a misspelled sync option field and a whitelist entry without a kind", async () => {
    const config = await loadCluster(root, "eksworkshop");
    const { objects } = buildArgoCdObjects(config, buildKubernetesComponents(config));
    const app = structuredClone(objects.find((o) => o.kind === "Application")) as unknown as { spec: { syncPolicy: { automated: Record<string, unknown> } } } & Obj;
    app.spec.syncPolicy.automated.prun = true;
    expect(check(app)).toEqual([
      '/spec/syncPolicy/automated/prun: unknown field "spec.syncPolicy.automated.prun" [schema:additionalProperties]',
    ]);
    const project = structuredClone(objects[0]) as unknown as { spec: { clusterResourceWhitelist: Record<string, unknown>[] } } & Obj;
    project.spec.clusterResourceWhitelist.push({ group: "karpenter.sh" });
    expect(check(project)).toEqual([`/spec/clusterResourceWhitelist/${project.spec.clusterResourceWhitelist.length - 1}/kind: Required value [schema:required]`]);
  }, 60_000);
});

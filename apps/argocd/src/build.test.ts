// Field-by-field checks of the Argo CD objects: project scoping, waves, sync options, prune/delete protections.
import { fileURLToPath } from "node:url";
import { checkCluster, type ClusterConfig, type ClusterInput, loadCluster } from "@eks-gitops/config";
import { buildKubernetesComponents, type Component, type KubeObject } from "@eks-gitops/manifests";
import { beforeAll, describe, expect, it } from "vitest";
import { type ArgoObject, hpaReplicaDifferences } from "./applications.ts";
import { buildArgoCdObjects } from "./build.ts";

type Json = any;

const root = fileURLToPath(new URL("../../..", import.meta.url));
let config: ClusterConfig;
let components: Component[];
let objects: readonly ArgoObject[];
let rootApp: ArgoObject;

beforeAll(async () => {
  config = await loadCluster(root, "eksworkshop");
  components = buildKubernetesComponents(config);
  ({ objects, root: rootApp } = buildArgoCdObjects(config, components));
});

const byName = (name: string) => {
  const o = objects.find((x) => x.metadata.name === name);
  if (!o) throw new Error(`no object ${name}; have ${objects.map((x) => x.metadata.name).join(", ")}`);
  return o;
};
const spec = (o: ArgoObject) => o.spec as Json;
const wave = (o: ArgoObject) => (o.metadata.annotations as Record<string, string>)["argocd.argoproj.io/sync-wave"];

describe("AppProject", () => {
  it("allows exactly this repository and the chart repository, one server, and the namespaces the apps use", () => {
    const p = byName("eksworkshop");
    expect(p.kind).toBe("AppProject");
    expect(p.metadata.namespace).toBe("argocd");
    expect(spec(p).sourceRepos).toEqual(["https://github.com/example-org/eks-karpenter-gitops.git", "public.ecr.aws/karpenter"]);
    expect(spec(p).destinations).toEqual(
      ["kube-node-lease", "kube-system", "nlb-app-karpenter", "nlb-app-ondemand"].map((namespace) => ({
        server: "https://kubernetes.default.svc",
        namespace,
      })),
    );
  });

  it("lists exactly the cluster-scoped and namespaced kinds rendered or installed by the Karpenter charts", () => {
    const p = spec(byName("eksworkshop"));
    expect(p.clusterResourceWhitelist).toEqual([
      { group: "", kind: "Namespace" },
      { group: "apiextensions.k8s.io", kind: "CustomResourceDefinition" },
      { group: "karpenter.k8s.aws", kind: "EC2NodeClass" },
      { group: "karpenter.sh", kind: "NodePool" },
      { group: "rbac.authorization.k8s.io", kind: "ClusterRole" },
      { group: "rbac.authorization.k8s.io", kind: "ClusterRoleBinding" },
    ]);
    expect(p.namespaceResourceWhitelist).toEqual([
      { group: "", kind: "Service" },
      { group: "", kind: "ServiceAccount" },
      { group: "apps", kind: "Deployment" },
      { group: "autoscaling", kind: "HorizontalPodAutoscaler" },
      { group: "policy", kind: "PodDisruptionBudget" },
      { group: "rbac.authorization.k8s.io", kind: "Role" },
      { group: "rbac.authorization.k8s.io", kind: "RoleBinding" },
    ]);
  });

  it("has no wildcard anywhere", () => {
    expect(JSON.stringify(byName("eksworkshop").spec)).not.toContain("*");
  });

  it("permits every Application's destination and every rendered object's namespace and kind", () => {
    const p = spec(byName("eksworkshop"));
    const dests = new Set(p.destinations.map((d: { namespace: string }) => d.namespace));
    for (const app of objects.filter((o) => o.kind === "Application")) {
      expect(spec(app).project).toBe("eksworkshop");
      expect(spec(app).destination.server).toBe("https://kubernetes.default.svc");
      expect(dests.has(spec(app).destination.namespace), app.metadata.name).toBe(true);
    }
    const kinds = (list: { group: string; kind: string }[]) => new Set(list.map((k) => `${k.group}/${k.kind}`));
    const cluster = kinds(p.clusterResourceWhitelist);
    const namespaced = kinds(p.namespaceResourceWhitelist);
    for (const o of components.flatMap((c) => c.objects)) {
      const gk = `${o.apiVersion.includes("/") ? o.apiVersion.split("/")[0] : ""}/${o.kind}`;
      if (o.metadata.namespace) {
        expect(namespaced.has(gk), gk).toBe(true);
        expect(dests.has(o.metadata.namespace)).toBe(true);
      } else expect(cluster.has(gk), gk).toBe(true);
    }
  });
});

describe("Applications", () => {
  it("renders <cluster>-<component> for both charts and every component, in that order", () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      "AppProject/eksworkshop",
      "Application/eksworkshop-karpenter-crd",
      "Application/eksworkshop-karpenter",
      "Application/eksworkshop-karpenter-nodepools",
      "Application/eksworkshop-workload-nlb-app-karpenter",
      "Application/eksworkshop-workload-nlb-app-ondemand",
    ]);
  });

  it("gives every Application the resources finalizer, automated prune + self-heal and a retry", () => {
    for (const app of [...objects.filter((o) => o.kind === "Application"), rootApp]) {
      expect(app.metadata.finalizers, app.metadata.name).toEqual(["resources-finalizer.argocd.argoproj.io"]);
      expect(spec(app).syncPolicy.automated).toEqual({ prune: true, selfHeal: true });
      expect(spec(app).syncPolicy.retry.limit).toBe(5);
    }
  });

  it("orders project < CRDs < controller < node pools < workloads with sync waves", () => {
    expect(wave(byName("eksworkshop"))).toBe("-2");
    expect(wave(byName("eksworkshop-karpenter-crd"))).toBe("-1");
    expect(wave(byName("eksworkshop-karpenter"))).toBe("0");
    expect(wave(byName("eksworkshop-karpenter-nodepools"))).toBe("1");
    expect(wave(byName("eksworkshop-workload-nlb-app-karpenter"))).toBe("2");
    expect(wave(byName("eksworkshop-workload-nlb-app-ondemand"))).toBe("2");
  });

  it("installs the CRDs from the karpenter-crd chart with Prune=false,Delete=false and skips them in the main chart", () => {
    const crd = spec(byName("eksworkshop-karpenter-crd"));
    expect(crd.source).toEqual({
      repoURL: "public.ecr.aws/karpenter",
      chart: "karpenter-crd",
      targetRevision: "1.14.1",
      helm: { releaseName: "karpenter-crd", valuesObject: { additionalAnnotations: { "argocd.argoproj.io/sync-options": "Prune=false,Delete=false" } } },
    });
    expect(crd.syncPolicy.syncOptions).toEqual(["ServerSideApply=true"]);
    const main = spec(byName("eksworkshop-karpenter"));
    expect(main.source.chart).toBe("karpenter");
    expect(main.source.repoURL).toBe("public.ecr.aws/karpenter");
    expect(main.source.targetRevision).toBe("1.14.1");
    expect(main.source.helm.skipCrds).toBe(true);
    expect(main.source.helm.releaseName).toBe("karpenter");
    expect(main.destination.namespace).toBe("kube-system");
    // kube-system always exists: no CreateNamespace.
    expect(main.syncPolicy.syncOptions).toEqual(["ServerSideApply=true"]);
  });

  it("passes the overlay's chart values: cluster name, IRSA role, controller resources; no queue unless asked", () => {
    const values = spec(byName("eksworkshop-karpenter")).source.helm.valuesObject;
    expect(values.settings).toEqual({ clusterName: "eksworkshop" });
    expect(values.serviceAccount).toEqual({
      name: "karpenter",
      annotations: { "eks.amazonaws.com/role-arn": "arn:aws:iam::133129065110:role/KarpenterControllerRole-eksworkshop" },
    });
    expect(values.controller.resources).toEqual({ requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } });
  });

  it("skips the dry run for node pools, whose CRDs come from the karpenter-crd app", () => {
    const np = spec(byName("eksworkshop-karpenter-nodepools"));
    expect(np.syncPolicy.syncOptions).toEqual(["ServerSideApply=true", "SkipDryRunOnMissingResource=true"]);
    expect(np.source).toEqual({
      repoURL: "https://github.com/example-org/eks-karpenter-gitops.git",
      targetRevision: "main",
      path: "clusters/eksworkshop/rendered/karpenter-nodepools",
    });
    expect(np.destination.namespace).toBe("kube-system");
  });

  it("syncs workloads into their own rendered Namespace without CreateNamespace or ignoreDifferences", () => {
    const w = spec(byName("eksworkshop-workload-nlb-app-karpenter"));
    expect(w.destination.namespace).toBe("nlb-app-karpenter");
    expect(w.syncPolicy.syncOptions).toBeUndefined();
    expect(w.ignoreDifferences).toBeUndefined();
  });

  it("marks every NodePool and EC2NodeClass Prune=false,Delete=false", () => {
    const pools = components.find((c) => c.name === "karpenter-nodepools")?.objects ?? [];
    expect(pools.map((o) => o.kind).sort()).toEqual(["EC2NodeClass", "NodePool"]);
    for (const o of pools) {
      expect((o.metadata.annotations as Record<string, string>)["argocd.argoproj.io/sync-options"]).toBe("Prune=false,Delete=false");
    }
  });

  it("leaves spec.replicas off every HPA-managed Deployment", () => {
    const w = components.find((c) => c.name === "workload-nlb-app-karpenter")?.objects ?? [];
    const deployment = w.find((o) => o.kind === "Deployment") as KubeObject & { spec: Record<string, unknown> };
    expect(w.some((o) => o.kind === "HorizontalPodAutoscaler")).toBe(true);
    expect("replicas" in deployment.spec).toBe(false);
  });
});

describe("root app-of-apps", () => {
  it("syncs the rendered argocd folder from the overlay's repository and revision", () => {
    expect(rootApp.metadata.name).toBe("eksworkshop-root");
    expect(rootApp.metadata.namespace).toBe("argocd");
    expect(spec(rootApp).project).toBe("eksworkshop-bootstrap");
    expect(spec(rootApp).source).toEqual({
      repoURL: "https://github.com/example-org/eks-karpenter-gitops.git",
      targetRevision: "main",
      path: "clusters/eksworkshop/rendered/argocd",
    });
    expect(spec(rootApp).destination).toEqual({ server: "https://kubernetes.default.svc", namespace: "argocd" });
  });
});

describe("the root app's own AppProject (rendered/bootstrap/, applied by hand)", () => {
  it("allows only Applications and AppProjects in the argocd namespace, from this repository; no cluster-scoped kind", () => {
    const { bootstrap } = buildArgoCdObjects(config, components);
    expect(bootstrap.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(["AppProject/eksworkshop-bootstrap", "Application/eksworkshop-root"]);
    const project = bootstrap[0] as ArgoObject;
    expect(project.metadata).toEqual({ name: "eksworkshop-bootstrap", namespace: "argocd", finalizers: ["resources-finalizer.argocd.argoproj.io"] });
    expect(spec(project)).toEqual({
      description: "The app-of-apps of EKS cluster eksworkshop: only Argo CD objects in argocd, from https://github.com/example-org/eks-karpenter-gitops.git",
      sourceRepos: ["https://github.com/example-org/eks-karpenter-gitops.git"],
      destinations: [{ server: "https://kubernetes.default.svc", namespace: "argocd" }],
      namespaceResourceWhitelist: [
        { group: "argoproj.io", kind: "AppProject" },
        { group: "argoproj.io", kind: "Application" },
      ],
    });
    expect("clusterResourceWhitelist" in spec(project)).toBe(false);
    // never the built-in project, which allows everything until an install locks it down
    expect([...objects, ...bootstrap].filter((o) => o.kind === "Application").map((o) => spec(o).project)).not.toContain("default");
  });

  it("lists exactly the kinds the root app syncs: an ApplicationSet for a fleet", () => {
    const fleet = { ...config, argocd: { ...config.argocd, applicationSet: true } };
    const project = buildArgoCdObjects(fleet, components).bootstrap[0] as ArgoObject;
    expect(spec(project).namespaceResourceWhitelist.map((k: { kind: string }) => k.kind)).toEqual(["AppProject", "ApplicationSet"]);
  });
});

describe("HPA-managed replicas", () => {
  const hpa = (target: string): KubeObject => ({
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: target, namespace: "web" },
    spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: target }, maxReplicas: 5 },
  });
  const deployment = (name: string, replicas?: number): KubeObject => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: "web" },
    spec: replicas === undefined ? {} : { replicas },
  });

  it("ignores /spec/replicas only on a targeted Deployment that sets replicas", () => {
    expect(hpaReplicaDifferences([deployment("a", 3), hpa("a"), deployment("b"), hpa("b"), deployment("c", 2)])).toEqual([
      { group: "apps", kind: "Deployment", name: "a", namespace: "web", jsonPointers: ["/spec/replicas"] },
    ]);
  });

  it("adds ignoreDifferences and RespectIgnoreDifferences=true to that component's Application", () => {
    const extra: Component = {
      name: "workload-web",
      objects: [{ apiVersion: "v1", kind: "Namespace", metadata: { name: "web" } }, deployment("a", 3), hpa("a")],
    };
    const app = buildArgoCdObjects(config, [extra]).objects.find((o) => o.metadata.name === "eksworkshop-workload-web");
    expect(spec(app as ArgoObject).ignoreDifferences).toEqual([
      { group: "apps", kind: "Deployment", name: "a", namespace: "web", jsonPointers: ["/spec/replicas"] },
    ]);
    expect(spec(app as ArgoObject).syncPolicy.syncOptions).toEqual(["RespectIgnoreDifferences=true"]);
  });
});

const minimal: ClusterInput = {
  name: "fleet-a",
  account: "123456789012",
  region: "eu-west-1",
  kubernetesVersion: "1.36",
  oidcIssuer: "https://oidc.eks.eu-west-1.amazonaws.com/id/0123456789ABCDEF0123456789ABCDEF",
  karpenter: { version: "1.14.1", namespace: "karpenter", interruptionQueue: true },
  nodeClasses: [{ name: "default", amiSelectorTerms: [{ alias: "al2023@latest" }] }],
  nodePools: [{ name: "default", nodeClass: "default", requirements: [{ key: "kubernetes.io/arch", operator: "In", values: ["amd64"] }] }],
  argocd: { repoURL: "https://git.example.com/gitops.git", targetRevision: "v2", applicationSet: true },
};

describe("overlay options", () => {
  const build = (input: ClusterInput) => {
    const c = checkCluster(input, "clusters/fleet-a/cluster.ts");
    return { c, out: buildArgoCdObjects(c, buildKubernetesComponents(c)) };
  };

  it("sets settings.interruptionQueue and creates a non-standard controller namespace", () => {
    const { c, out } = build({ ...minimal, argocd: { ...minimal.argocd, applicationSet: false } });
    const app = out.objects.find((o) => o.metadata.name === "fleet-a-karpenter") as ArgoObject;
    expect(spec(app).source.helm.valuesObject.settings).toEqual({ clusterName: "fleet-a", interruptionQueue: c.karpenter.interruptionQueue });
    expect(c.karpenter.interruptionQueue).toBe("fleet-a");
    expect(spec(app).syncPolicy.syncOptions).toEqual(["ServerSideApply=true", "CreateNamespace=true"]);
    const project = spec(out.objects[0] as ArgoObject);
    expect(project.destinations.map((d: { namespace: string }) => d.namespace)).toEqual(["karpenter", "kube-node-lease", "kube-system"]);
    expect(project.clusterResourceWhitelist[0]).toEqual({ group: "", kind: "Namespace" });
    expect(spec(out.root).source.targetRevision).toBe("v2");
  });

  it("renders one ApplicationSet (cluster generator) instead of the Applications", () => {
    const { c, out } = build(minimal);
    expect(out.objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(["AppProject/fleet-a", "ApplicationSet/fleet-a"]);
    const set = spec(out.objects[1] as ArgoObject);
    expect(set.goTemplate).toBe(true);
    expect(set.goTemplateOptions).toEqual(["missingkey=error"]);
    const [clusters, list] = set.generators[0].matrix.generators;
    expect(clusters).toEqual({ clusters: { selector: { matchLabels: { "eks-gitops.io/cluster": "fleet-a" } } } });
    expect(list.list.elements.map((e: { component: string }) => e.component)).toEqual(["karpenter-crd", "karpenter", "karpenter-nodepools"]);
    expect(set.template.spec.destination).toEqual({ server: "{{ .server }}", namespace: "{{ .namespace }}" });
    expect(set.templatePatch).toBe("{{ toJson .patch }}");
    expect(set.syncPolicy).toEqual({ preserveResourcesOnDeletion: true });

    // What Argo CD generates (template + element params + templatePatch merged) equals the plain Application.
    const plain = buildArgoCdObjects({ ...c, argocd: { ...c.argocd, applicationSet: false } }, buildKubernetesComponents(c)).objects;
    for (const e of list.list.elements) {
      const generated = merge(
        JSON.parse(JSON.stringify(set.template).replaceAll("{{ .component }}", e.component).replaceAll("{{ .namespace }}", e.namespace).replaceAll("{{ .server }}", c.argocd.destinationServer)),
        e.patch,
      );
      const expected = plain.find((o) => o.metadata.name === `fleet-a-${e.component}`) as ArgoObject;
      const { annotations: _wave, ...expectedMetadata } = expected.metadata;
      expect(generated).toEqual({ metadata: expectedMetadata, spec: expected.spec });
    }
  });
});

/** JSON merge of plain objects (what templatePatch does for maps). */
function merge(a: Json, b: Json): Json {
  if (typeof a !== "object" || typeof b !== "object" || Array.isArray(a) || Array.isArray(b)) return b;
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in a ? merge(a[k], v) : v;
  return out;
}

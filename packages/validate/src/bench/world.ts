// The shapes corpus of `pnpm bench` (issue 19): varied synthetic objects of 21 kinds, 10–20% of them invalid with
// several findings each and some cross-object findings, written in every input shape people feed a validator.
// Seeded and deterministic: the same seed and count give the same bytes, so figures from two runs compare.
import { stringify } from "yaml";

/** The kinds generated (`List` and the CRD-heavy set add List documents, CRDs and custom resources). */
export const WORLD_KINDS = [
  "Namespace",
  "Deployment",
  "StatefulSet",
  "DaemonSet",
  "Job",
  "CronJob",
  "Service",
  "ConfigMap",
  "HorizontalPodAutoscaler",
  "ServiceAccount",
  "Role",
  "RoleBinding",
  "ClusterRole",
  "ClusterRoleBinding",
  "Ingress",
  "PodDisruptionBudget",
  "NetworkPolicy",
  "NodePool",
  "EC2NodeClass",
  "Application",
  "Secret",
] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];

/** The input shapes: one object per file (block YAML, flow YAML, JSON text in `.yaml`, `.json`), multi-document files, `kind: List`, CRDs with their custom resources. */
export const SHAPES = ["block", "flow", "json-in-yaml", "json", "multi-doc", "list", "crd-heavy"] as const;
export type Shape = (typeof SHAPES)[number];

type Obj = Record<string, unknown>;

export interface WorldObject {
  readonly object: Obj;
  /** The defects put in (empty: valid as far as one object goes; cross-object findings are counted apart). */
  readonly defects: readonly string[];
  /** A reference to an object that does not exist (an HPA's target, a NodePool's EC2NodeClass). */
  readonly dangling: boolean;
}

/** mulberry32: a small seeded generator (deterministic across Node versions, unlike Math.random). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(readonly random: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
}

const IMAGES = ["public.ecr.aws/nginx/nginx:1.31", "registry.k8s.io/pause:3.10", "ghcr.io/example/api:v2.4.1", "docker.io/library/redis:7.4", "quay.io/prometheus/node-exporter:v1.9.0"];
const TEAMS = ["payments", "search", "checkout", "platform", "data", "identity", "media", "ads"];

const nsOf = (i: number) => `${TEAMS[i % TEAMS.length]}-${i % 40}`;
const appLabels = (name: string, g: Gen): Obj => ({
  "app.kubernetes.io/name": name,
  "app.kubernetes.io/part-of": g.pick(TEAMS),
  ...(g.chance(0.5) ? { "app.kubernetes.io/version": `v${g.int(1, 9)}.${g.int(0, 30)}.${g.int(0, 9)}` } : {}),
});

function container(g: Gen, name: string): Obj {
  const c: Obj = {
    name,
    image: g.pick(IMAGES),
    resources: { requests: { cpu: `${g.int(1, 20) * 50}m`, memory: `${g.int(1, 16) * 64}Mi` }, limits: { memory: `${g.int(17, 40) * 64}Mi` } },
  };
  if (g.chance(0.7)) c.ports = [{ name: "http", containerPort: g.pick([80, 8080, 3000, 9090]), protocol: "TCP" }];
  if (g.chance(0.6)) c.env = Array.from({ length: g.int(1, 6) }, (_, k) => ({ name: `SETTING_${k}`, value: `value-${g.int(0, 999)}` }));
  if (g.chance(0.5)) c.readinessProbe = { httpGet: { path: "/healthz", port: g.pick([80, 8080]) }, periodSeconds: g.int(5, 30) };
  if (g.chance(0.5)) c.securityContext = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ["ALL"] } };
  return c;
}

function podSpec(g: Gen, name: string): Obj {
  const spec: Obj = { containers: Array.from({ length: g.int(1, 3) }, (_, k) => container(g, k === 0 ? name.slice(0, 40) : `sidecar-${k}`)) };
  if (g.chance(0.4)) spec.serviceAccountName = name;
  if (g.chance(0.3)) spec.nodeSelector = { "kubernetes.io/arch": g.pick(["amd64", "arm64"]) };
  if (g.chance(0.3)) spec.tolerations = [{ key: "example.com/team", operator: "Equal", value: g.pick(TEAMS), effect: "NoSchedule" }];
  if (g.chance(0.3)) spec.volumes = [{ name: "config", configMap: { name: `${name}-config` } }];
  return spec;
}

function meta(name: string, namespace: string | undefined, g: Gen): Obj {
  return { name, ...(namespace ? { namespace } : {}), labels: appLabels(name, g), ...(g.chance(0.3) ? { annotations: { "example.com/owner": g.pick(TEAMS) } } : {}) };
}

/** One valid object of `kind` (index `i`), and the kind-specific defects that can be put into it. */
type Builder = (i: number, g: Gen) => Obj;
const workload = (kind: string, extra: (spec: Obj, name: string, g: Gen) => void): Builder => (i, g) => {
  const name = `${kind.toLowerCase()}-${i}`;
  const labels = { "app.kubernetes.io/name": name };
  const spec: Obj = { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec(g, name) } };
  extra(spec, name, g);
  return { apiVersion: "apps/v1", kind, metadata: meta(name, nsOf(i), g), spec };
};

const BUILD: Readonly<Record<WorldKind, Builder>> = {
  Namespace: (i, g) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name: `ns-${i}`, labels: { team: g.pick(TEAMS) } } }),
  // no replicas: an HPA may target it (hpa-target-sets-replicas)
  Deployment: workload("Deployment", (spec, _n, g) => {
    spec.strategy = { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: g.int(0, 2) } };
  }),
  StatefulSet: workload("StatefulSet", (spec, name, g) => {
    spec.serviceName = name;
    spec.replicas = g.int(1, 5);
    if (g.chance(0.5)) spec.volumeClaimTemplates = [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: `${g.int(1, 100)}Gi` } } } }];
  }),
  DaemonSet: workload("DaemonSet", (spec) => {
    spec.updateStrategy = { type: "RollingUpdate" };
  }),
  Job: (i, g) => ({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: meta(`job-${i}`, nsOf(i), g),
    spec: { backoffLimit: g.int(0, 6), template: { spec: { ...podSpec(g, `job-${i}`), restartPolicy: "Never" } } },
  }),
  CronJob: (i, g) => ({
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: meta(`cron-${i}`, nsOf(i), g),
    spec: { schedule: `${g.int(0, 59)} ${g.int(0, 23)} * * *`, concurrencyPolicy: "Forbid", jobTemplate: { spec: { template: { spec: { ...podSpec(g, `cron-${i}`), restartPolicy: "OnFailure" } } } } },
  }),
  Service: (i, g) => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: meta(`deployment-${i}`, nsOf(i), g),
    spec: { type: g.pick(["ClusterIP", "ClusterIP", "NodePort"]), selector: { "app.kubernetes.io/name": `deployment-${i}` }, ports: [{ name: "http", port: 80, targetPort: g.pick([80, 8080]), protocol: "TCP" }] },
  }),
  ConfigMap: (i, g) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: meta(`config-${i}`, nsOf(i), g),
    data: Object.fromEntries(Array.from({ length: g.int(1, 12) }, (_, k) => [`key-${k}.properties`, `setting.${k}=${g.int(0, 1e6)}\nother.${k}=true\n`])),
  }),
  HorizontalPodAutoscaler: (i, g) => ({
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: meta(`deployment-${i}`, nsOf(i), g),
    spec: {
      // the target is set by buildWorld
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: `deployment-${i}` },
      minReplicas: g.int(1, 3),
      maxReplicas: g.int(4, 30),
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: g.int(40, 90) } } }],
    },
  }),
  ServiceAccount: (i, g) => ({ apiVersion: "v1", kind: "ServiceAccount", metadata: meta(`sa-${i}`, nsOf(i), g), automountServiceAccountToken: false }),
  Role: (i, g) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: meta(`role-${i}`, nsOf(i), g),
    rules: [{ apiGroups: [""], resources: g.pick([["pods"], ["configmaps", "secrets"], ["services", "endpoints"]]), verbs: ["get", "list", "watch"] }],
  }),
  RoleBinding: (i, g) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: meta(`binding-${i}`, nsOf(i), g),
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: `role-${i}` },
    subjects: [{ kind: "ServiceAccount", name: `sa-${i}`, namespace: nsOf(i) }],
  }),
  ClusterRole: (i, g) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: meta(`cluster-role-${i}`, undefined, g),
    rules: [{ apiGroups: ["apps"], resources: ["deployments", "statefulsets"], verbs: ["get", "list"] }, { nonResourceURLs: ["/metrics"], verbs: ["get"] }],
  }),
  ClusterRoleBinding: (i, g) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: meta(`cluster-binding-${i}`, undefined, g),
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: `cluster-role-${i}` },
    subjects: [{ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: `team:${g.pick(TEAMS)}` }],
  }),
  Ingress: (i, g) => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: meta(`ingress-${i}`, nsOf(i), g),
    spec: {
      ingressClassName: "alb",
      rules: [{ host: `app-${i}.example.com`, http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: `deployment-${i}`, port: { number: 80 } } } }] } }],
      ...(g.chance(0.5) ? { tls: [{ hosts: [`app-${i}.example.com`], secretName: `tls-${i}` }] } : {}),
    },
  }),
  PodDisruptionBudget: (i, g) => ({
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: meta(`pdb-${i}`, nsOf(i), g),
    spec: { ...(g.chance(0.5) ? { minAvailable: g.int(1, 3) } : { maxUnavailable: "25%" }), selector: { matchLabels: { "app.kubernetes.io/name": `deployment-${i}` } } },
  }),
  NetworkPolicy: (i, g) => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(`netpol-${i}`, nsOf(i), g),
    spec: {
      podSelector: { matchLabels: { "app.kubernetes.io/name": `deployment-${i}` } },
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: g.pick(TEAMS) } } }, { ipBlock: { cidr: `10.${g.int(0, 255)}.0.0/16` } }], ports: [{ protocol: "TCP", port: 8080 }] }],
    },
  }),
  NodePool: (i, g) => ({
    apiVersion: "karpenter.sh/v1",
    kind: "NodePool",
    metadata: { name: `pool-${i}` },
    spec: {
      weight: g.int(1, 100),
      limits: { cpu: `${g.int(10, 1000)}`, memory: `${g.int(40, 4000)}Gi` },
      disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: `${g.int(1, 30)}m`, budgets: [{ nodes: `${g.int(1, 20)}%` }] },
      template: {
        metadata: { labels: { team: g.pick(TEAMS) } },
        spec: {
          expireAfter: "720h",
          // the EC2NodeClass is set by buildWorld
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: `class-${i - 1}` },
          requirements: [
            { key: "karpenter.sh/capacity-type", operator: "In", values: g.pick([["spot"], ["on-demand"], ["spot", "on-demand"]]) },
            { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
            { key: "kubernetes.io/arch", operator: "In", values: [g.pick(["amd64", "arm64"])] },
          ],
        },
      },
    },
  }),
  EC2NodeClass: (i, g) => ({
    apiVersion: "karpenter.k8s.aws/v1",
    kind: "EC2NodeClass",
    metadata: { name: `class-${i}` },
    spec: {
      role: "KarpenterNodeRole-bench",
      amiSelectorTerms: [{ alias: g.pick(["al2023@latest", "bottlerocket@latest"]) }],
      subnetSelectorTerms: [{ tags: { "karpenter.sh/discovery": "bench" } }],
      securityGroupSelectorTerms: [{ tags: { "karpenter.sh/discovery": "bench" } }],
      tags: { team: g.pick(TEAMS) },
      blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: `${g.int(20, 200)}Gi`, volumeType: "gp3", encrypted: true } }],
    },
  }),
  Application: (i, g) => ({
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Application",
    metadata: { name: `app-${i}`, namespace: "argocd", finalizers: ["resources-finalizer.argocd.argoproj.io"] },
    spec: {
      project: "default",
      destination: { server: "https://kubernetes.default.svc", namespace: nsOf(i) },
      source: { repoURL: "https://github.com/example-org/apps.git", targetRevision: "main", path: `apps/${g.pick(TEAMS)}/app-${i}` },
      syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ["CreateNamespace=true"] },
    },
  }),
  Secret: (i, g) => ({ apiVersion: "v1", kind: "Secret", metadata: meta(`secret-${i}`, nsOf(i), g), type: "Opaque", stringData: { password: `not-a-real-password-${g.int(0, 1e6)}` } }),
};

/** Sets a value deep inside generated data, creating maps on the way. */
function setPath(o: Obj, path: readonly (string | number)[], value: unknown): void {
  let cur = o as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    cur[key] ??= {};
    cur = cur[key] as Record<string | number, unknown>;
  }
  cur[path.at(-1) as string | number] = value;
}

const POD = { Deployment: ["spec", "template", "spec"], StatefulSet: ["spec", "template", "spec"], DaemonSet: ["spec", "template", "spec"], Job: ["spec", "template", "spec"], CronJob: ["spec", "jobTemplate", "spec", "template", "spec"] } as const;

/** Mistakes people make, each a finding of the schema, native or CEL stage: [name, how to make it]. */
function defectsOf(kind: WorldKind): [string, (o: Obj) => void][] {
  const common: [string, (o: Obj) => void][] = [
    ["bad label value", (o) => setPath(o, ["metadata", "labels", "example.com/tier"], "front end!")],
    ["unknown metadata field", (o) => setPath(o, ["metadata", "lables"], { a: "b" })],
    ["upper-case name", (o) => setPath(o, ["metadata", "name"], `Bad_${String((o.metadata as Obj).name)}`)],
  ];
  const pod = (POD as Record<string, readonly string[]>)[kind];
  if (pod) {
    return [
      ...common,
      ["unknown container field", (o) => setPath(o, [...pod, "containers", 0, "imagePullPolice"], "Always")],
      ["bad cpu quantity", (o) => setPath(o, [...pod, "containers", 0, "resources", "requests", "cpu"], "2 cores")],
      ["port is a string", (o) => setPath(o, [...pod, "containers", 0, "ports"], [{ containerPort: "http" }])],
      ["limit below request", (o) => setPath(o, [...pod, "containers", 0, "resources", "limits", "memory"], "1Mi")],
    ];
  }
  switch (kind) {
    case "Service":
      return [...common, ["port is not an integer", (o) => setPath(o, ["spec", "ports", 0, "port"], "http")], ["unknown type", (o) => setPath(o, ["spec", "type"], "Internal")]];
    case "HorizontalPodAutoscaler":
      return [...common, ["minReplicas is a string", (o) => setPath(o, ["spec", "minReplicas"], "2")], ["no maxReplicas", (o) => delete (o.spec as Obj).maxReplicas]];
    case "ConfigMap":
      return [...common, ["data value not a string", (o) => setPath(o, ["data", "count"], 3)]];
    case "Ingress":
      return [...common, ["bad pathType", (o) => setPath(o, ["spec", "rules", 0, "http", "paths", 0, "pathType"], "Glob")], ["port name and number", (o) => setPath(o, ["spec", "rules", 0, "http", "paths", 0, "backend", "service", "port", "name"], "http")]];
    case "NodePool":
      return [
        ["restricted template label (CEL)", (o) => setPath(o, ["spec", "template", "metadata", "labels", "kubernetes.io/hostname"], "pinned")],
        ["v1beta1 consolidationPolicy", (o) => setPath(o, ["spec", "disruption", "consolidationPolicy"], "WhenUnderutilized")],
        ["bad requirement operator", (o) => setPath(o, ["spec", "template", "spec", "requirements", 0, "operator"], "Within")],
      ];
    case "EC2NodeClass":
      return [
        ["role and instanceProfile (CEL)", (o) => setPath(o, ["spec", "instanceProfile"], "KarpenterNodeInstanceProfile")],
        ["no amiSelectorTerms", (o) => setPath(o, ["spec", "amiSelectorTerms"], [])],
        ["bad volume type", (o) => setPath(o, ["spec", "blockDeviceMappings", 0, "ebs", "volumeType"], "gp9")],
      ];
    case "Application":
      return [["unknown syncPolicy field", (o) => setPath(o, ["spec", "syncPolicy", "automated", "selfheal"], true)], ["no destination", (o) => delete (o.spec as Obj).destination], ["bad label value", common[0]![1]]];
    case "PodDisruptionBudget":
      return [...common, ["minAvailable is a bool", (o) => setPath(o, ["spec", "minAvailable"], true)]];
    case "NetworkPolicy":
      return [...common, ["bad policy type", (o) => setPath(o, ["spec", "policyTypes"], ["Sideways"])], ["port is an object", (o) => setPath(o, ["spec", "ingress", 0, "ports", 0, "port"], { n: 1 })]];
    case "Role":
    case "ClusterRole":
      return [...common, ["verbs is a string", (o) => setPath(o, ["rules", 0, "verbs"], "get")]];
    case "RoleBinding":
    case "ClusterRoleBinding":
      return [...common, ["no roleRef kind", (o) => delete (o.roleRef as Obj).kind]];
    default:
      return common;
  }
}

export interface WorldOptions {
  readonly count: number;
  /** @default 19 */
  readonly seed?: number;
  /** Share of objects made invalid. @default 0.15 */
  readonly invalidShare?: number;
}

/** `count` objects of the kinds above in a seeded random mix; about `invalidShare` of them with 2–3 defects. */
export function buildWorld(options: WorldOptions): WorldObject[] {
  const g = new Gen(rng(options.seed ?? 19));
  const share = options.invalidShare ?? 0.15;
  const out: WorldObject[] = [];
  // the last Deployment and EC2NodeClass made: an HPA targets the one, a NodePool the other; one in ten points at
  // an object that does not exist (a cross-object finding)
  let lastDeployment: { name: string; namespace: string } | undefined;
  let lastClass: string | undefined;
  for (let i = 0; i < options.count; i++) {
    // workloads and their companions are the most common, as in real repositories
    const kind = g.chance(0.35) ? g.pick(["Deployment", "Service", "HorizontalPodAutoscaler", "ConfigMap"] as const) : g.pick(WORLD_KINDS);
    const object = BUILD[kind](i, g);
    let dangling = false;
    if (kind === "HorizontalPodAutoscaler" || kind === "NodePool") {
      const last = kind === "NodePool" ? lastClass : lastDeployment?.name;
      dangling = last === undefined || g.chance(0.1);
      const target = dangling ? `missing-${i}` : (last as string);
      if (kind === "NodePool") setPath(object, ["spec", "template", "spec", "nodeClassRef", "name"], target);
      else {
        setPath(object, ["spec", "scaleTargetRef", "name"], target);
        // an HPA lives in its target's namespace
        if (!dangling) setPath(object, ["metadata", "namespace"], lastDeployment?.namespace);
      }
    }
    const defects: string[] = [];
    if (g.chance(share)) {
      const options = defectsOf(kind);
      const n = Math.min(options.length, g.int(2, 3));
      const start = g.int(0, options.length - 1);
      for (let k = 0; k < n; k++) {
        const [name, apply] = options[(start + k) % options.length]!;
        apply(object);
        defects.push(name);
      }
    }
    const name = String((object.metadata as Obj).name);
    if (kind === "Deployment" && defects.length === 0) lastDeployment = { name, namespace: String((object.metadata as Obj).namespace) };
    if (kind === "EC2NodeClass" && defects.length === 0) lastClass = name;
    out.push({ object, defects, dangling });
  }
  return out;
}

/**
 * A synthetic CRD of the CRD-heavy shape (group bench.example.com), with a CEL rule and typed fields. Each CRD's schema
 * is its own (a limit and an optional field of its own), as in a real set of CRDs: 40 copies of one schema let a
 * validator compile, load and warm one validator for all 40 kinds, and measured ~13% faster than 40 schemas did.
 */
export function benchCrd(n: number): Obj {
  const kind = `Widget${n}`;
  const plural = `widget${n}s`;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.bench.example.com` },
    spec: {
      group: "bench.example.com",
      scope: "Namespaced",
      names: { kind, plural, singular: `widget${n}`, listKind: `${kind}List` },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                apiVersion: { type: "string" },
                kind: { type: "string" },
                metadata: { type: "object" },
                spec: {
                  type: "object",
                  required: ["size", "mode"],
                  "x-kubernetes-validations": [{ rule: "self.minSize <= self.size", message: "minSize must not exceed size" }],
                  properties: {
                    size: { type: "integer", minimum: 1, maximum: 1000 + n },
                    minSize: { type: "integer", minimum: 0, default: 1 },
                    mode: { type: "string", enum: ["Fast", "Safe", "Balanced"] },
                    owner: { type: "string", maxLength: 63, pattern: "^[a-z0-9-]+$" },
                    tags: { type: "object", additionalProperties: { type: "string" }, maxProperties: 16 },
                    endpoints: { type: "array", maxItems: 8, items: { type: "object", required: ["host"], properties: { host: { type: "string" }, port: { type: "integer", minimum: 1, maximum: 65535 } } } },
                    [`extra${n}`]: { type: "string", maxLength: 8 + (n % 8) },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** The number of CRDs of the CRD-heavy shape. */
export const BENCH_CRDS = 40;

function customResource(i: number, g: Gen): WorldObject {
  const n = g.int(0, BENCH_CRDS - 1);
  const size = g.int(2, 500);
  const object: Obj = {
    apiVersion: "bench.example.com/v1",
    kind: `Widget${n}`,
    metadata: { name: `widget-${i}`, namespace: nsOf(i) },
    spec: { size, minSize: g.int(1, size), mode: g.pick(["Fast", "Safe", "Balanced"]), owner: g.pick(TEAMS), tags: { team: g.pick(TEAMS) }, endpoints: [{ host: `h${i}.example.com`, port: 443 }] },
  };
  const defects: string[] = [];
  if (g.chance(0.15)) {
    (object.spec as Obj).minSize = size + 10;
    (object.spec as Obj).mode = "Reckless";
    defects.push("minSize above size (CEL)", "mode not in enum");
  }
  return { object, defects, dangling: false };
}

/** The custom resources of the CRD-heavy shape (the CRDs come in their own files, see shapeFiles). */
export function buildCustomResources(options: WorldOptions): WorldObject[] {
  const g = new Gen(rng((options.seed ?? 19) + 1));
  return Array.from({ length: options.count - BENCH_CRDS }, (_, i) => customResource(i, g));
}

// repeated objects (a selector's labels and the template's) are written out, not as anchors and aliases
const toBlock = (o: Obj) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false });
const toFlow = (o: Obj) => stringify(o, { collectionStyle: "flow", lineWidth: 0, aliasDuplicateObjects: false });
const toJson = (o: Obj) => `${JSON.stringify(o, null, 2)}\n`;

/** Multi-document and List files hold 50–500 objects each, sized by the seed. */
function chunks<T>(items: readonly T[], g: Gen): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; ) {
    const n = g.int(50, 500);
    out.push(items.slice(at, at + n));
    at += n;
  }
  return out;
}

/** The files of one shape of `count` objects: [relative file name, text]. Generated lazily so 50,000 objects never sit in memory twice. */
export function* shapeFiles(shape: Shape, count: number, seed = 19): Generator<[string, string]> {
  const name = (i: number, ext: string) => `${String(Math.floor(i / 1000)).padStart(3, "0")}/object-${String(i).padStart(6, "0")}.${ext}`;
  if (shape === "crd-heavy") {
    for (let n = 0; n < BENCH_CRDS; n++) yield [`crds/widget${n}.yaml`, toBlock(benchCrd(n))];
    const g = new Gen(rng(seed + 2));
    const crs = buildCustomResources({ count, seed });
    let i = 0;
    for (const chunk of chunks(crs, g)) yield [`widgets-${String(i++).padStart(4, "0")}.yaml`, chunk.map((w) => toBlock(w.object)).join("---\n")];
    return;
  }
  const world = buildWorld({ count, seed });
  const g = new Gen(rng(seed + 2));
  switch (shape) {
    case "block":
      for (const [i, w] of world.entries()) yield [name(i, "yaml"), toBlock(w.object)];
      return;
    case "flow":
      for (const [i, w] of world.entries()) yield [name(i, "yaml"), toFlow(w.object)];
      return;
    case "json-in-yaml":
      for (const [i, w] of world.entries()) yield [name(i, "yaml"), toJson(w.object)];
      return;
    case "json":
      for (const [i, w] of world.entries()) yield [name(i, "json"), toJson(w.object)];
      return;
    case "multi-doc": {
      let i = 0;
      for (const chunk of chunks(world, g)) yield [`stream-${String(i++).padStart(4, "0")}.yaml`, chunk.map((w) => toBlock(w.object)).join("---\n")];
      return;
    }
    case "list": {
      let i = 0;
      for (const chunk of chunks(world, g)) yield [`list-${String(i++).padStart(4, "0")}.yaml`, toBlock({ apiVersion: "v1", kind: "List", items: chunk.map((w) => w.object) })];
      return;
    }
  }
}

/** What a shape's corpus holds, for the bench's header line. */
export function describeShape(shape: Shape, count: number, seed = 19): { objects: number; invalid: number; dangling: number } {
  const objects = shape === "crd-heavy" ? buildCustomResources({ count, seed }) : buildWorld({ count, seed });
  return { objects: count, invalid: objects.filter((o) => o.defects.length > 0).length, dangling: objects.filter((o) => o.dangling).length };
}

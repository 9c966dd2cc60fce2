// The benchmark corpus: N objects of the kinds a rendered overlay holds (NodePool, EC2NodeClass, Deployment, Service, HPA,
// Application), one in ten made invalid in a kind-specific way. Deterministic: the same N gives the same bytes.
import { stringify } from "yaml";

export const CORPUS_KINDS = ["NodePool", "EC2NodeClass", "Deployment", "Service", "HorizontalPodAutoscaler", "Application"] as const;
export type CorpusKind = (typeof CORPUS_KINDS)[number];

export interface CorpusObject {
  readonly kind: CorpusKind;
  /** What makes it invalid ("" when valid), and whether only CEL can see it (kubeconform cannot). */
  readonly defect: string;
  readonly celOnly: boolean;
  readonly object: Record<string, unknown>;
}

function nodePool(g: number): Record<string, unknown> {
  return {
    apiVersion: "karpenter.sh/v1",
    kind: "NodePool",
    metadata: { name: `pool-${g}` },
    spec: {
      weight: (g % 100) + 1,
      limits: { cpu: `${100 + g}`, memory: `${400 + g}Gi` },
      disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m", budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "0 9 * * mon-fri", duration: "8h" }] },
      template: {
        metadata: { labels: { team: `team-${g % 20}`, "karpenter.sh/capacity-type": "spot" } },
        spec: {
          expireAfter: "720h",
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: `class-${g}` },
          requirements: [
            { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "on-demand"] },
            { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"], minValues: 2 },
            { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["2"] },
            { key: "kubernetes.io/arch", operator: "In", values: ["amd64", "arm64"] },
          ],
          taints: [{ key: "example.com/team", value: `team-${g % 20}`, effect: "NoSchedule" }],
        },
      },
    },
  };
}

function ec2NodeClass(g: number): Record<string, unknown> {
  const discovery = [{ tags: { "karpenter.sh/discovery": "bench" } }];
  return {
    apiVersion: "karpenter.k8s.aws/v1",
    kind: "EC2NodeClass",
    metadata: { name: `class-${g}` },
    spec: {
      role: "KarpenterNodeRole-bench",
      amiSelectorTerms: [{ alias: "al2023@latest" }],
      subnetSelectorTerms: discovery,
      securityGroupSelectorTerms: discovery,
      tags: { team: `team-${g % 20}` },
      kubelet: { maxPods: 110, imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80, kubeReserved: { cpu: "200m", memory: "100Mi" } },
      blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "100Gi", volumeType: "gp3", encrypted: true } }],
    },
  };
}

const labels = (g: number) => ({ "app.kubernetes.io/name": `app-${g}` });
const ns = (g: number) => `ns-${g % 50}`;

function deployment(g: number): Record<string, unknown> {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: `app-${g}`, namespace: ns(g), labels: labels(g) },
    spec: {
      selector: { matchLabels: labels(g) },
      template: {
        metadata: { labels: labels(g) },
        spec: {
          containers: [
            {
              name: "web",
              image: "public.ecr.aws/nginx/nginx:1.31",
              ports: [{ containerPort: 80, name: "http" }],
              resources: { requests: { cpu: "250m", memory: "256Mi" }, limits: { memory: "512Mi" } },
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true },
            },
          ],
        },
      },
    },
  };
}

function service(g: number): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: `app-${g}`, namespace: ns(g), annotations: { "service.beta.kubernetes.io/aws-load-balancer-scheme": "internet-facing" } },
    spec: { type: "LoadBalancer", loadBalancerClass: "service.k8s.aws/nlb", selector: labels(g), ports: [{ name: "http", port: 80, targetPort: "http" }] },
  };
}

function hpa(g: number): Record<string, unknown> {
  return {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: `app-${g}`, namespace: ns(g) },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: `app-${g}` },
      minReplicas: 2,
      maxReplicas: 20,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 60 } } }],
    },
  };
}

function application(g: number): Record<string, unknown> {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Application",
    metadata: { name: `app-${g}`, namespace: "argocd", finalizers: ["resources-finalizer.argocd.argoproj.io"] },
    spec: {
      project: "default",
      destination: { server: "https://kubernetes.default.svc", namespace: ns(g) },
      source: { repoURL: "https://github.com/example-org/eks-karpenter-gitops.git", targetRevision: "main", path: `clusters/bench/rendered/app-${g}` },
      syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ["CreateNamespace=true"] },
    },
  };
}

const BUILD: Readonly<Record<CorpusKind, (g: number) => Record<string, unknown>>> = {
  NodePool: nodePool,
  EC2NodeClass: ec2NodeClass,
  Deployment: deployment,
  Service: service,
  HorizontalPodAutoscaler: hpa,
  Application: application,
};

/** Sets a value deep inside generated test data (the path exists by construction). */
function setPath(o: unknown, path: readonly (string | number)[], value: unknown): void {
  let cur = o as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) cur = cur[key] as Record<string | number, unknown>;
  cur[path.at(-1)!] = value;
}

/** Breaks an object the way real mistakes do; alternates between CEL-only and schema defects where the kind allows. */
function breakObject(kind: CorpusKind, o: Record<string, unknown>, variant: number): { defect: string; celOnly: boolean } {
  switch (kind) {
    case "NodePool":
      if (variant % 2 === 0) {
        setPath(o, ["spec", "template", "metadata", "labels", "kubernetes.io/hostname"], "pinned");
        return { defect: "restricted template label (CEL)", celOnly: true };
      }
      setPath(o, ["spec", "disruption", "consolidationPolicy"], "WhenUnderutilized");
      return { defect: "v1beta1 consolidationPolicy (enum)", celOnly: false };
    case "EC2NodeClass":
      if (variant % 2 === 0) {
        setPath(o, ["spec", "instanceProfile"], "KarpenterNodeInstanceProfile");
        return { defect: "role and instanceProfile (CEL)", celOnly: true };
      }
      setPath(o, ["spec", "amiSelectorTerms"], []);
      return { defect: "no amiSelectorTerms (minItems)", celOnly: false };
    case "Deployment":
      setPath(o, ["spec", "template", "spec", "containers", 0, "imagePullPolice"], "Always");
      return { defect: "unknown container field", celOnly: false };
    case "Service":
      setPath(o, ["spec", "ports", 0, "port"], "http");
      return { defect: "port is not an integer", celOnly: false };
    case "HorizontalPodAutoscaler":
      setPath(o, ["spec", "minReplicas"], "2");
      return { defect: "minReplicas is not an integer", celOnly: false };
    case "Application":
      setPath(o, ["spec", "syncPolicy", "automated", "selfheal"], true);
      return { defect: "unknown syncPolicy field", celOnly: false };
  }
}

/** `count` objects cycling through the kinds; every tenth is invalid. */
export function buildCorpus(count: number): CorpusObject[] {
  const out: CorpusObject[] = [];
  for (let i = 0; i < count; i++) {
    const kind = CORPUS_KINDS[i % CORPUS_KINDS.length]!;
    const g = Math.floor(i / CORPUS_KINDS.length);
    const object = BUILD[kind](g);
    if (i % 10 === 9) out.push({ kind, object, ...breakObject(kind, object, Math.floor(i / 10)) });
    else out.push({ kind, object, defect: "", celOnly: false });
  }
  return out;
}

/** The corpus as multi-document YAML files of `perFile` objects each: [file name, text]. */
export function corpusFiles(corpus: readonly CorpusObject[], perFile: number): [string, string][] {
  const files: [string, string][] = [];
  for (let start = 0; start < corpus.length; start += perFile) {
    const docs = corpus.slice(start, start + perFile).map((c) => stringify(c.object));
    files.push([`corpus-${String(files.length).padStart(4, "0")}.yaml`, docs.join("---\n")]);
  }
  return files;
}

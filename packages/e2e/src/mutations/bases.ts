// Valid objects of the built-in kinds that the rendered output does not contain (the other kinds issue 11's and
// issue 23's native checks cover), written for the mutation corpus: each is accepted by kube-apiserver 1.36.5 as it is (checked by
// differential.e2e.ts before mutating). Namespaced ones live in the `mutations` namespace.
import type { KubernetesObject } from "@kubernetes/client-node";
import { ADMISSION_OBJECTS } from "./bases-admission.ts";
import type { MutationBase } from "./generate.ts";

export const BASES_NAMESPACE = "mutations";
const ns = BASES_NAMESPACE;
const labels = { "app.kubernetes.io/name": "worker" };
const container = (name = "worker") => ({
  name,
  image: "public.ecr.aws/docker/library/busybox:1.37",
  command: ["sh", "-c", "echo done"],
  resources: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "500m", memory: "128Mi" } },
});
const podSpec = (restartPolicy?: string) => ({ ...(restartPolicy ? { restartPolicy } : {}), containers: [container()] });

const OBJECTS: readonly Record<string, unknown>[] = [
  {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "report", namespace: ns },
    spec: { completions: 3, parallelism: 2, backoffLimit: 4, activeDeadlineSeconds: 600, ttlSecondsAfterFinished: 3600, template: { metadata: { labels }, spec: podSpec("Never") } },
  },
  {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name: "nightly", namespace: ns },
    spec: {
      schedule: "30 2 * * *",
      timeZone: "Europe/Berlin",
      concurrencyPolicy: "Forbid",
      startingDeadlineSeconds: 300,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { spec: { backoffLimit: 2, template: { metadata: { labels }, spec: podSpec("OnFailure") } } },
    },
  },
  {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "worker", namespace: ns },
    spec: { minAvailable: 1, selector: { matchLabels: labels }, unhealthyPodEvictionPolicy: "AlwaysAllow" },
  },
  {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: { name: "worker-reader", namespace: ns },
    rules: [{ apiGroups: [""], resources: ["configmaps", "pods"], verbs: ["get", "list", "watch"] }],
  },
  {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name: "mutations-node-reader" },
    rules: [
      { apiGroups: [""], resources: ["nodes"], verbs: ["get", "list"] },
      { nonResourceURLs: ["/healthz", "/metrics"], verbs: ["get"] },
    ],
  },
  {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "worker-reader", namespace: ns },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "worker-reader" },
    subjects: [{ kind: "ServiceAccount", name: "worker", namespace: ns }, { apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "developers" }],
  },
  {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: "mutations-node-reader" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "mutations-node-reader" },
    subjects: [{ kind: "ServiceAccount", name: "worker", namespace: ns }, { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "jane@example.com" }],
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "shop", namespace: ns, annotations: { "alb.ingress.kubernetes.io/scheme": "internet-facing" } },
    spec: {
      ingressClassName: "alb",
      tls: [{ hosts: ["shop.example.com"], secretName: "shop-tls" }],
      rules: [
        {
          host: "shop.example.com",
          http: {
            paths: [
              { path: "/", pathType: "Prefix", backend: { service: { name: "web", port: { number: 80 } } } },
              { path: "/api", pathType: "Exact", backend: { service: { name: "api", port: { name: "http" } } } },
            ],
          },
        },
      ],
    },
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "worker", namespace: ns },
    spec: {
      podSelector: { matchLabels: labels },
      policyTypes: ["Ingress", "Egress"],
      ingress: [{ from: [{ podSelector: { matchLabels: { role: "frontend" } } }, { namespaceSelector: { matchLabels: { team: "shop" } } }], ports: [{ protocol: "TCP", port: 8080 }] }],
      egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/16", except: ["10.0.5.0/24"] } }], ports: [{ protocol: "TCP", port: 5432, endPort: 5440 }] }],
    },
  },
  { apiVersion: "scheduling.k8s.io/v1", kind: "PriorityClass", metadata: { name: "mutations-high" }, value: 100000, globalDefault: false, preemptionPolicy: "PreemptLowerPriority", description: "batch work" },
  {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: "mutations-gp3" },
    provisioner: "ebs.csi.aws.com",
    parameters: { type: "gp3", encrypted: "true" },
    reclaimPolicy: "Delete",
    volumeBindingMode: "WaitForFirstConsumer",
    allowVolumeExpansion: true,
    allowedTopologies: [{ matchLabelExpressions: [{ key: "topology.kubernetes.io/zone", values: ["eu-west-1a", "eu-west-1b"] }] }],
  },
  {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "db", namespace: ns },
    spec: {
      serviceName: "db",
      replicas: 2,
      selector: { matchLabels: { app: "db" } },
      podManagementPolicy: "OrderedReady",
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
      template: { metadata: { labels: { app: "db" } }, spec: { containers: [{ ...container("db"), ports: [{ name: "pg", containerPort: 5432 }], volumeMounts: [{ name: "data", mountPath: "/data" }] }] } },
      volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }],
    },
  },
  {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { name: "agent", namespace: ns },
    spec: {
      selector: { matchLabels: { app: "agent" } },
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1 } },
      template: {
        metadata: { labels: { app: "agent" } },
        spec: {
          tolerations: [{ key: "node-role.kubernetes.io/control-plane", operator: "Exists", effect: "NoSchedule" }],
          containers: [{ ...container("agent"), env: [{ name: "NODE_NAME", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } }] }],
        },
      },
    },
  },
  { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "worker-config", namespace: ns }, data: { "app.properties": "mode=batch", LOG_LEVEL: "info" } },
  { apiVersion: "v1", kind: "Secret", metadata: { name: "worker-secret", namespace: ns }, type: "Opaque", stringData: { token: "not-a-real-token" } },
  { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "worker", namespace: ns }, automountServiceAccountToken: false },
  // issue 23
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name: "mutations-policy" },
    webhooks: [
      {
        name: "check.pods.mutations.example.com",
        admissionReviewVersions: ["v1"],
        sideEffects: "None",
        timeoutSeconds: 5,
        failurePolicy: "Ignore",
        matchPolicy: "Equivalent",
        namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["kube-system"] }] },
        clientConfig: { service: { name: "hooks", namespace: ns, path: "/validate/pods", port: 8443 } },
        rules: [{ operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"], scope: "Namespaced" }],
      },
    ],
  },
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingWebhookConfiguration",
    metadata: { name: "mutations-injector" },
    webhooks: [
      {
        name: "inject.sidecar.mutations.example.com",
        admissionReviewVersions: ["v1"],
        sideEffects: "NoneOnDryRun",
        timeoutSeconds: 10,
        failurePolicy: "Fail",
        reinvocationPolicy: "Never",
        clientConfig: { service: { name: "injector", namespace: ns, path: "/mutate", port: 443 } },
        rules: [{ operations: ["CREATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"] }],
      },
    ],
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: { name: "mutations-external" },
    spec: { controller: "example.com/ingress-controller", parameters: { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "external", scope: "Namespace", namespace: ns } },
  },
  {
    apiVersion: "node.k8s.io/v1",
    kind: "RuntimeClass",
    metadata: { name: "mutations-gvisor" },
    handler: "runsc",
    overhead: { podFixed: { cpu: "250m", memory: "64Mi" } },
    scheduling: { nodeSelector: { sandbox: "gvisor" }, tolerations: [{ key: "sandbox", operator: "Equal", value: "gvisor", effect: "NoSchedule" }] },
  },
  { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "leader", namespace: ns }, spec: { holderIdentity: "worker-0", leaseDurationSeconds: 15, leaseTransitions: 2 } },
  {
    apiVersion: "storage.k8s.io/v1",
    kind: "CSIDriver",
    metadata: { name: "mutations.csi.example.com" },
    spec: { attachRequired: false, podInfoOnMount: true, fsGroupPolicy: "File", tokenRequests: [{ audience: "vault", expirationSeconds: 3600 }], volumeLifecycleModes: ["Persistent", "Ephemeral"] },
  },
  ...ADMISSION_OBJECTS,
];

/** The bases, as mutation input (`file` names the kind: there is no rendered file behind them). */
export function extraBases(): MutationBase[] {
  return OBJECTS.map((o) => ({ file: `mutations/${String(o.kind).toLowerCase()}.yaml`, object: structuredClone(o) as KubernetesObject }));
}

// Valid objects for issue 23's pod-spec and core-volume checks (Pod, PodTemplate, PersistentVolume,
// PersistentVolumeClaim), written for the mutation corpus; each is accepted by kube-apiserver 1.36.5 as it is (checked
// by differential.e2e.ts before mutating). Namespaced ones live in the `mutations` namespace.
const ns = "mutations";
const labels = { "app.kubernetes.io/name": "worker" };

/** A pod spec that uses the volume kinds the native stage checks in detail (projected, downwardAPI, csi, ephemeral). */
const podSpec = () => ({
  serviceAccountName: "default",
  securityContext: { runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000, seccompProfile: { type: "RuntimeDefault" } },
  containers: [
    {
      name: "worker",
      image: "public.ecr.aws/docker/library/busybox:1.37",
      command: ["sh", "-c", "sleep 3600"],
      resources: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "500m", memory: "128Mi" } },
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
      volumeMounts: [
        { name: "aws-token", mountPath: "/var/run/secrets/eks.amazonaws.com/serviceaccount", readOnly: true },
        { name: "podinfo", mountPath: "/etc/podinfo", readOnly: true, recursiveReadOnly: "IfPossible" },
        { name: "scratch", mountPath: "/scratch" },
      ],
    },
  ],
  volumes: [
    {
      name: "aws-token",
      projected: {
        defaultMode: 0o444,
        sources: [
          { serviceAccountToken: { audience: "sts.amazonaws.com", expirationSeconds: 86400, path: "token" } },
          { configMap: { name: "worker-config", items: [{ key: "app.properties", path: "app.properties" }] } },
        ],
      },
    },
    {
      name: "podinfo",
      downwardAPI: {
        items: [
          { path: "labels", fieldRef: { fieldPath: "metadata.labels" } },
          { path: "cpu-limit", resourceFieldRef: { containerName: "worker", resource: "limits.cpu", divisor: "1m" } },
        ],
      },
    },
    { name: "scratch", ephemeral: { volumeClaimTemplate: { metadata: { labels }, spec: { accessModes: ["ReadWriteOnce"], storageClassName: "gp3", resources: { requests: { storage: "1Gi" } } } } } },
  ],
  dnsConfig: { searches: ["svc.cluster.local"], options: [{ name: "ndots", value: "2" }] },
});

export const PODSPEC_BASES: readonly Record<string, unknown>[] = [
  { apiVersion: "v1", kind: "Pod", metadata: { name: "worker", namespace: ns, labels }, spec: podSpec() },
  { apiVersion: "v1", kind: "PodTemplate", metadata: { name: "worker", namespace: ns }, template: { metadata: { labels }, spec: podSpec() } },
  {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "data", namespace: ns },
    spec: {
      accessModes: ["ReadWriteOnce"],
      storageClassName: "gp3",
      resources: { requests: { storage: "10Gi" } },
      dataSource: { apiGroup: "snapshot.storage.k8s.io", kind: "VolumeSnapshot", name: "data-snapshot" },
    },
  },
  {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: "mutations-ebs" },
    spec: {
      capacity: { storage: "10Gi" },
      accessModes: ["ReadWriteOnce"],
      persistentVolumeReclaimPolicy: "Retain",
      storageClassName: "gp3",
      volumeMode: "Filesystem",
      csi: { driver: "ebs.csi.aws.com", volumeHandle: "vol-0123456789abcdef0", fsType: "ext4" },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["eu-west-1a"] }] }] } },
    },
  },
];

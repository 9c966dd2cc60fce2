// Bases for issue 23's storage, resource.k8s.io (DRA), quota and remaining core/apps kinds: one valid object per kind,
// each accepted by kube-apiserver 1.36.5 as it is (differential.e2e.ts checks that before mutating).
// Namespaced ones live in the `mutations` namespace (BASES_NAMESPACE of bases.ts).
const ns = "mutations";
const labels = { "app.kubernetes.io/name": "legacy" };
const container = { name: "legacy", image: "public.ecr.aws/docker/library/busybox:1.37", command: ["sleep", "3600"] };

export const STORRES_BASES: readonly Record<string, unknown>[] = [
  {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name: "legacy", namespace: ns },
    spec: { replicas: 2, minReadySeconds: 5, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [container] } } },
  },
  {
    apiVersion: "apps/v1",
    kind: "ControllerRevision",
    metadata: { name: "legacy-7c5d8f", namespace: ns, labels },
    revision: 3,
    data: { spec: { template: { spec: { containers: [{ name: "legacy", image: "busybox" }] } } } },
  },
  {
    apiVersion: "v1",
    kind: "ReplicationController",
    metadata: { name: "legacy-rc", namespace: ns },
    spec: { replicas: 1, selector: { app: "legacy-rc" }, template: { metadata: { labels: { app: "legacy-rc" } }, spec: { containers: [container] } } },
  },
  { apiVersion: "v1", kind: "Namespace", metadata: { name: "mutations-extra", labels: { team: "platform" } } },
  {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "legacy-db", namespace: ns },
    subsets: [{ addresses: [{ ip: "10.0.1.10" }, { ip: "10.0.1.11", hostname: "db-1" }], ports: [{ name: "pg", port: 5432, protocol: "TCP" }] }],
  },
  {
    apiVersion: "v1",
    kind: "LimitRange",
    metadata: { name: "defaults", namespace: ns },
    spec: {
      limits: [
        { type: "Container", default: { cpu: "500m", memory: "256Mi" }, defaultRequest: { cpu: "100m", memory: "128Mi" }, max: { cpu: "2", memory: "1Gi" }, min: { cpu: "50m" } },
        { type: "PersistentVolumeClaim", max: { storage: "10Gi" }, min: { storage: "1Gi" } },
      ],
    },
  },
  {
    apiVersion: "v1",
    kind: "ResourceQuota",
    metadata: { name: "compute", namespace: ns },
    spec: { hard: { pods: "20", "requests.cpu": "4", "limits.memory": "8Gi" }, scopes: ["NotTerminating"] },
  },
  {
    apiVersion: "storage.k8s.io/v1",
    kind: "CSINode",
    metadata: { name: "ip-10-0-1-23.eu-west-1.compute.internal" },
    spec: { drivers: [{ name: "ebs.csi.aws.com", nodeID: "i-0123456789abcdef0", allocatable: { count: 25 }, topologyKeys: ["topology.ebs.csi.aws.com/zone"] }] },
  },
  {
    apiVersion: "storage.k8s.io/v1",
    kind: "CSIStorageCapacity",
    metadata: { name: "gp3-eu-west-1a", namespace: ns },
    storageClassName: "mutations-gp3",
    capacity: "500Gi",
    maximumVolumeSize: "16Ti",
    nodeTopology: { matchLabels: { "topology.ebs.csi.aws.com/zone": "eu-west-1a" } },
  },
  {
    apiVersion: "storage.k8s.io/v1",
    kind: "VolumeAttachment",
    metadata: { name: "csi-0f1e2d3c4b5a" },
    spec: { attacher: "ebs.csi.aws.com", nodeName: "ip-10-0-1-23.eu-west-1.compute.internal", source: { persistentVolumeName: "pvc-0f1e2d3c" } },
  },
  {
    apiVersion: "storage.k8s.io/v1",
    kind: "VolumeAttributesClass",
    metadata: { name: "mutations-fast" },
    driverName: "ebs.csi.aws.com",
    parameters: { iops: "6000", throughput: "250" },
  },
  {
    apiVersion: "resource.k8s.io/v1",
    kind: "DeviceClass",
    metadata: { name: "gpu.example.com" },
    spec: {
      selectors: [{ cel: { expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100"' } }],
      config: [{ opaque: { driver: "gpu.example.com", parameters: { sharing: "timeSlicing" } } }],
    },
  },
  {
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceClaim",
    metadata: { name: "training-gpu", namespace: ns },
    spec: {
      devices: {
        requests: [
          { name: "gpu", exactly: { deviceClassName: "gpu.example.com", allocationMode: "ExactCount", count: 2, selectors: [{ cel: { expression: 'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0' } }] } },
          { name: "nic", firstAvailable: [{ name: "fast", deviceClassName: "nic.example.com" }, { name: "any", deviceClassName: "nic.example.com", allocationMode: "All" }] },
        ],
        constraints: [{ requests: ["gpu"], matchAttribute: "gpu.example.com/numa" }],
        config: [{ requests: ["gpu", "nic/fast"], opaque: { driver: "gpu.example.com", parameters: { mode: "exclusive" } } }],
      },
    },
  },
  {
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceClaimTemplate",
    metadata: { name: "inference-gpu", namespace: ns },
    spec: {
      metadata: { labels: { workload: "inference" } },
      spec: {
        devices: {
          requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com", tolerations: [{ key: "gpu.example.com/maintenance", operator: "Exists", effect: "NoSchedule" }] } }],
        },
      },
    },
  },
  {
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceSlice",
    metadata: { name: "node-1-gpu.example.com" },
    spec: {
      driver: "gpu.example.com",
      nodeName: "ip-10-0-1-23.eu-west-1.compute.internal",
      pool: { name: "ip-10-0-1-23", generation: 1, resourceSliceCount: 1 },
      devices: [
        {
          name: "gpu-0",
          attributes: { model: { string: "a100" }, "gpu.example.com/numa": { int: 0 }, driverVersion: { version: "535.104.5" }, mig: { bool: false } },
          capacity: { memory: { value: "40Gi" } },
        },
      ],
    },
  },
];

// Valid objects of the networking, discovery, certificates, flowcontrol and events kinds (issue 23), written for the
// mutation corpus: each is accepted by kube-apiserver 1.36.5 as it is (checked by differential.e2e.ts before mutating).
// The CSR is a PKCS#10 request made for this corpus with a throwaway P-256 key (the key itself is not kept).
// bases.ts's BASES_NAMESPACE, restated: bases.ts imports this file
const ns = "mutations";

/** base64 of a PEM CERTIFICATE REQUEST (CN=mutations-client, O=mutations), as spec.request carries it. */
const CSR =
  "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIcE1JR1JBZ0VBTUM4eEdUQVhCZ05WQkFNTUVHMTFkR0YwYVc5dWN5MWpiR2xsYm5ReEVq" +
  "QVFCZ05WQkFvTQpDVzExZEdGMGFXOXVjekJaTUJNR0J5cUdTTTQ5QWdFR0NDcUdTTTQ5QXdFSEEwSUFCRmliVjJNMjlodTRwUnVTCnlhekEzZExLdFoxdTlS" +
  "amJCL2NvZkFkcEpRbnBCcVJ0dzE2b3BKWU5ORENnTzVIRlAxRGhJTDdLV045dldBSFYKaXp4UE9CNmdBREFLQmdncWhrak9QUVFEQWdOSEFEQkVBaUJ3UXky" +
  "cHJvbTR5K0w1emEzQzc5VDdZYjF0aG14cgpaNTdQQ0ZRZW0xMTZvQUlnTUE2VThTR2VTUXZyNjk4NXV6MlVlVVoxV1ZQVDlNaG1JdW1DcWxnMlZMZz0KLS0t" +
  "LS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==";

export const CORENET_OBJECTS: readonly Record<string, unknown>[] = [
  {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { name: "web-abc12", namespace: ns, labels: { "kubernetes.io/service-name": "web" } },
    addressType: "IPv4",
    ports: [
      { name: "http", port: 8080, protocol: "TCP", appProtocol: "http" },
      { name: "metrics", port: 9090, protocol: "TCP" },
    ],
    endpoints: [
      { addresses: ["10.1.2.3"], conditions: { ready: true, serving: true, terminating: false }, nodeName: "node-a", hostname: "web-0", zone: "eu-west-1a", hints: { forZones: [{ name: "eu-west-1a" }] } },
      { addresses: ["10.1.2.4"], conditions: { ready: false }, nodeName: "node-b", zone: "eu-west-1b" },
    ],
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "IPAddress",
    metadata: { name: "10.0.0.200" },
    spec: { parentRef: { group: "", resource: "services", name: "web", namespace: ns } },
  },
  { apiVersion: "networking.k8s.io/v1", kind: "ServiceCIDR", metadata: { name: "mutations-extra" }, spec: { cidrs: ["10.100.0.0/24", "fd00:10::/112"] } },
  {
    apiVersion: "certificates.k8s.io/v1",
    kind: "CertificateSigningRequest",
    metadata: { name: "mutations-client" },
    spec: { request: CSR, signerName: "kubernetes.io/kube-apiserver-client", usages: ["digital signature", "client auth"], expirationSeconds: 86400 },
  },
  {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1",
    kind: "FlowSchema",
    metadata: { name: "mutations-batch" },
    spec: {
      priorityLevelConfiguration: { name: "mutations-batch" },
      matchingPrecedence: 5000,
      distinguisherMethod: { type: "ByUser" },
      rules: [
        {
          subjects: [{ kind: "ServiceAccount", serviceAccount: { name: "worker", namespace: ns } }, { kind: "Group", group: { name: "batch-users" } }],
          resourceRules: [{ verbs: ["get", "list", "watch"], apiGroups: ["batch"], resources: ["jobs"], namespaces: [ns] }],
          nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/healthz", "/metrics/*"] }],
        },
      ],
    },
  },
  {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "mutations-batch" },
    spec: {
      type: "Limited",
      limited: { nominalConcurrencyShares: 20, lendablePercent: 50, borrowingLimitPercent: 100, limitResponse: { type: "Queue", queuing: { queues: 32, handSize: 4, queueLengthLimit: 50 } } },
    },
  },
  {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "mutations-node-a", labels: { "kubernetes.io/hostname": "mutations-node-a", "topology.kubernetes.io/zone": "eu-west-1a" } },
    spec: { podCIDRs: ["10.244.1.0/24"], providerID: "aws:///eu-west-1a/i-0123456789abcdef0", taints: [{ key: "dedicated", value: "batch", effect: "NoSchedule" }] },
    status: { capacity: { cpu: "4", memory: "16Gi", pods: "110" }, allocatable: { cpu: "3800m", memory: "15Gi", pods: "110" } },
  },
  {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: "worker.17f0a1b2c3d4", namespace: ns },
    eventTime: "2026-09-01T10:00:00.000000Z",
    reportingController: "example.com/batch-controller",
    reportingInstance: "batch-controller-0",
    action: "Scheduled",
    reason: "JobStarted",
    type: "Normal",
    note: "job started",
    regarding: { apiVersion: "batch/v1", kind: "Job", name: "report", namespace: ns },
  },
];

// Built-in kinds and Karpenter custom resources validated against the pinned catalog (read from the mirror).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseText } from "./reader.ts";
import type { SchemaRegistry } from "./schema/registry.ts";
import { catalogRegistry } from "./testing.ts";
import type { Finding } from "./types.ts";
import { ObjectValidator } from "./validate.ts";

type Obj = Record<string, any>;
const RENDERED = resolve(import.meta.dirname, "../../../clusters/eksworkshop/rendered");
const load = (rel: string): Obj => parseText({ file: rel, text: readFileSync(`${RENDERED}/${rel}`, "utf8") }).resources[0]?.object as Obj;
const brief = (fs: readonly Finding[]) => fs.map((f) => `${f.path}: ${f.message} [${f.rule}]`);

let registry: SchemaRegistry;
const v = new ObjectValidator();
const check = (o: Obj): Finding[] => {
  const type = registry.lookup(o.apiVersion, o.kind);
  if (!type) throw new Error(`no schema for ${o.apiVersion} ${o.kind}`);
  return v.validate(o, type, registry);
};

beforeAll(async () => {
  registry = await catalogRegistry();
}, 120_000);

describe("built-in kinds (Kubernetes v1.36.5 OpenAPI v3)", () => {
  const deployment = () => load("workload-nlb-app-karpenter/apps_v1_deployment_nlb-app-karpenter_nginx-deployment.yaml");

  it("accepts the rendered Deployment and reports unknown fields, types and required fields", () => {
    expect(check(deployment())).toEqual([]);
    const d = deployment();
    d.spec.template.spec.containers[0].imagePullPolicyy = "Always";
    d.spec.replicas = "3";
    delete d.spec.selector;
    expect(brief(check(d))).toEqual([
      "/spec/selector: Required value [schema:required]",
      '/spec/replicas: Invalid value: "3": must be of type integer, not string [schema:type]',
      '/spec/template/spec/containers/0/imagePullPolicyy: unknown field "spec.template.spec.containers[0].imagePullPolicyy" [schema:additionalProperties]',
    ]);
  });

  it("knows int-or-string ports and quantities", () => {
    const svc = load("workload-nlb-app-karpenter/core_v1_service_nlb-app-karpenter_service-nginx.yaml");
    svc.spec.ports[0].targetPort = "http";
    expect(check(svc)).toEqual([]);
    svc.spec.ports[0].targetPort = 1.5;
    expect(brief(check(svc))).toEqual([
      "/spec/ports/0/targetPort: Invalid value: 1.5: must be of type integer or string, not number [schema:type]",
      // the native stage's decode check, worded as kube-apiserver 1.36.5 answers (HTTP 400)
      '/spec/ports/0/targetPort: Service in version "v1" cannot be handled as a Service: json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32 [decode:int-or-string]',
    ]);
  });

  it("records which source a schema came from", () => {
    expect(registry.lookup("apps/v1", "Deployment")?.source).toBe("catalog kubernetes@1.36.5 apis__apps__v1_openapi.json");
    expect(registry.lookup("karpenter.sh/v1", "NodePool")?.source).toBe("catalog karpenter@1.14.1 karpenter.sh_nodepools.yaml");
  });
});

describe("the whole Kubernetes v1.36.5 API (every GA group-version pinned)", () => {
  const storageClass = (): Obj => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: "gp3" },
    provisioner: "ebs.csi.aws.com",
    parameters: { type: "gp3" },
    reclaimPolicy: "Delete",
    volumeBindingMode: "WaitForFirstConsumer",
    allowVolumeExpansion: true,
  });
  const priorityClass = (): Obj => ({ apiVersion: "scheduling.k8s.io/v1", kind: "PriorityClass", metadata: { name: "critical" }, value: 1000000, globalDefault: false });
  const lease = (): Obj => ({
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: "leader", namespace: "kube-system" },
    spec: { holderIdentity: "pod-a", leaseDurationSeconds: 15 },
  });

  it("has schemas for StorageClass, PriorityClass, Lease, EndpointSlice, CronJob, Ingress and NetworkPolicy", () => {
    expect(registry.lookup("storage.k8s.io/v1", "StorageClass")?.source).toBe("catalog kubernetes@1.36.5 apis__storage.k8s.io__v1_openapi.json");
    expect(registry.lookup("scheduling.k8s.io/v1", "PriorityClass")?.source).toBe("catalog kubernetes@1.36.5 apis__scheduling.k8s.io__v1_openapi.json");
    expect(registry.lookup("coordination.k8s.io/v1", "Lease")?.source).toBe("catalog kubernetes@1.36.5 apis__coordination.k8s.io__v1_openapi.json");
    expect(registry.lookup("discovery.k8s.io/v1", "EndpointSlice")?.source).toBe("catalog kubernetes@1.36.5 apis__discovery.k8s.io__v1_openapi.json");
    expect(registry.lookup("batch/v1", "CronJob")).toBeDefined();
    expect(registry.lookup("networking.k8s.io/v1", "Ingress")).toBeDefined();
    expect(registry.lookup("networking.k8s.io/v1", "NetworkPolicy")).toBeDefined();
  });

  it("validates a StorageClass, a PriorityClass and a Lease", () => {
    expect(check(storageClass())).toEqual([]);
    expect(check(priorityClass())).toEqual([]);
    expect(check(lease())).toEqual([]);
    const sc = storageClass();
    delete sc.provisioner;
    sc.allowVolumeExpansion = "yes";
    expect(brief(check(sc))).toEqual([
      "/provisioner: Required value [schema:required]",
      '/allowVolumeExpansion: Invalid value: "yes": must be of type boolean, not string [schema:type]',
    ]);
    const pc = priorityClass();
    pc.value = "high";
    pc.preemptionPolicies = "Never";
    expect(brief(check(pc))).toEqual([
      '/preemptionPolicies: unknown field "preemptionPolicies" [schema:additionalProperties]',
      '/value: Invalid value: "high": must be of type integer, not string [schema:type]',
    ]);
    const l = lease();
    l.spec.leaseDurationSeconds = 2 ** 31;
    expect(brief(check(l))).toEqual(["/spec/leaseDurationSeconds: Invalid value: 2147483648: must be of format int32 [schema:format]"]);
  });
});

describe("Karpenter v1.14.1 custom resources", () => {
  const nodePool = () => load("karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml");
  const nodeClass = () => load("karpenter-nodepools/karpenter.k8s.aws_v1_ec2nodeclass_default.yaml");

  it("accepts the rendered NodePool and EC2NodeClass", () => {
    expect(check(nodePool())).toEqual([]);
    expect(check(nodeClass())).toEqual([]);
  });

  it("runs the restricted-label rule (uses string.find with RE2)", () => {
    const np = nodePool();
    np.spec.template.spec.requirements.push({ key: "karpenter.sh/nodepool", operator: "In", values: ["x"] });
    expect(brief(check(np))).toEqual(['/spec/template/spec/requirements/6/key: Invalid value: "karpenter.sh/nodepool": label "karpenter.sh/nodepool" is restricted [cel:self != "karpenter.sh/nodepool"]']);
  });

  it("checks patterns and CEL side by side", () => {
    const np = nodePool();
    np.spec.template.spec.nodeClassRef.kind = "";
    np.spec.disruption.consolidateAfter = "5 minutes";
    expect(brief(check(np))).toEqual([
      `/spec/disruption/consolidateAfter: Invalid value: "5 minutes": should match '^(([0-9]+(s|m|h))+|Never)$' [schema:pattern]`,
      `/spec/template/spec/nodeClassRef/kind: Invalid value: "": kind may not be empty [cel:self != '']`,
    ]);
  });

  it("reports EC2NodeClass selector rules", () => {
    const nc = nodeClass();
    nc.spec.subnetSelectorTerms = [{}];
    expect(brief(check(nc))).toEqual([`/spec/subnetSelectorTerms: Invalid value: "array": expected at least one, got none, ['tags', 'id'] [cel:self.all(x, has(x.tags) || has(x.id))]`]);
  });
});

// Pod-spec checks whose logic has more branches than the fixtures show: the aggregate of container resources (sidecars
// and init containers), the AppArmor annotation sync a Pod gets and a template does not, the claim strategy's data
// source handling. Messages as kube-apiserver 1.36.5 answered (captured with packages/e2e/src/probe.ts).
import { describe, expect, it } from "vitest";
import { core } from "./core.ts";
import { Reporter } from "./report.ts";
import { aggregateContainerResources } from "./resources.ts";
import { quantityString } from "./quantity.ts";

const run = (kind: string, object: Record<string, unknown>) => {
  const r = new Reporter();
  core.kinds[kind]?.(object, r, { group: "", version: "v1", kind, report: r });
  return r.findings.map((f) => `${f.path} | ${f.message}`);
};
const ctr = (name: string, resources: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ name, image: "busybox", resources, ...extra });

describe("aggregate container resources", () => {
  it("adds sidecars to the containers and takes the larger of that and each init container with the sidecars before it", () => {
    const spec = {
      containers: [ctr("a", { requests: { cpu: "100m" } }), ctr("b", { requests: { cpu: "200m" } })],
      initContainers: [
        ctr("side", { requests: { cpu: "50m" } }, { restartPolicy: "Always" }),
        ctr("migrate", { requests: { cpu: "1", memory: "1Gi" } }),
      ],
    };
    const agg = aggregateContainerResources(spec, "requests");
    // containers 300m + sidecar 50m = 350m; the init container runs with the sidecar: 1050m
    expect(quantityString(agg.get("cpu")!)).toBe("1050m");
    expect(quantityString(agg.get("memory")!)).toBe("1Gi");
  });
});

describe("pod-level resources", () => {
  it("defaults a Pod's pod-level requests from its containers, then holds them to the pod-level limit", () => {
    const pod = { metadata: { name: "p" }, spec: { resources: { limits: { cpu: "1" } }, containers: [ctr("app", { requests: { cpu: "2" } })] } };
    expect(run("Pod", pod)).toEqual(["/spec/resources/requests/cpu | spec.resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"]);
  });

  it("does not default a template's: its explicit requests are compared with the containers'", () => {
    const template = { metadata: { name: "t" }, template: { spec: { resources: { requests: { cpu: "500m" } }, containers: [ctr("app", { requests: { cpu: "1" } })] } } };
    expect(run("PodTemplate", template)).toEqual([
      "/template/spec/resources/requests/cpu | template.spec.resources.requests[cpu]: Invalid value: \"500m\": must be greater than or equal to aggregate container requests of 1",
    ]);
  });
});

describe("AppArmor annotations against fields", () => {
  const annotations = { "container.apparmor.security.beta.kubernetes.io/app": "localhost/foo" };
  const spec = { securityContext: { appArmorProfile: { type: "RuntimeDefault" } }, containers: [{ name: "app", image: "nginx" }] };
  it("accepts a Pod whose container annotation differs from the pod-level profile (the strategy copies it to the container)", () => {
    expect(run("Pod", { metadata: { name: "p", annotations }, spec })).toEqual([]);
  });
  it("refuses the same in a template, where the container inherits the pod-level profile", () => {
    expect(run("PodTemplate", { metadata: { name: "t" }, template: { metadata: { annotations }, spec } })).toEqual([
      "/template/spec/containers/0/securityContext/appArmorProfile/type | template.spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
    ]);
  });
});

describe("claim data sources", () => {
  const claim = (spec: Record<string, unknown>) => ({
    metadata: { name: "c" },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
  });
  it("drops a legacy dataSource that is neither a claim nor a snapshot, as the claim strategy does", () => {
    expect(run("PersistentVolumeClaim", claim({ dataSource: { kind: "ConfigMap", name: "a" } }))).toEqual([]);
  });
  it("keeps it when a dataSourceRef is set, and then both must agree", () => {
    expect(run("PersistentVolumeClaim", claim({ dataSource: { kind: "ConfigMap", name: "a" }, dataSourceRef: { kind: "ConfigMap", name: "a" } }))).toEqual([
      "/spec/dataSource | spec.dataSource: Invalid value: \"ConfigMap\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
      "/spec/dataSourceRef | spec.dataSourceRef: Invalid value: \"ConfigMap\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
    ]);
  });
});

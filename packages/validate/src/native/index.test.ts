// The native stage as validate.ts runs it: decode before validation, per-kind registry, enum de-duplication.
import { beforeAll, describe, expect, it } from "vitest";
import { catalogLayer, SchemaRegistry } from "../schema/registry.ts";
import type { TypeSchema } from "../schema/model.ts";
import type { Finding } from "../types.ts";
import { nativeFindings, withoutSuperseded } from "./index.ts";
import { NativeRegistry } from "./registry.ts";

let registry: SchemaRegistry;
const type = (apiVersion: string, kind: string): TypeSchema => registry.lookup(apiVersion, kind) as TypeSchema;
const lines = (fs: readonly Finding[]) => fs.map((f) => `${f.path} ${f.message} [${f.rule}]`);

const deployment = (container: Record<string, unknown>) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: { selector: { matchLabels: { app: "web" } }, template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "app", image: "nginx", ...container }] } } },
});

beforeAll(async () => {
  registry = new SchemaRegistry();
  registry.layers.push(await catalogLayer({}, {}));
}, 120_000);

describe("nativeFindings", () => {
  it("answers an undecodable quantity as the server's 400, and validates nothing else", () => {
    const d = deployment({ ports: [{ containerPort: 70000 }], resources: { limits: { memory: "4GB" } } });
    expect(lines(nativeFindings(d, type("apps/v1", "Deployment")))).toEqual([
      `/spec/template/spec/containers/0/resources/limits/memory Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' [decode:quantity]`,
    ]);
  });

  it("runs the kind's checks after ObjectMeta", () => {
    const d = deployment({ ports: [{ containerPort: 70000 }] });
    d.metadata.name = "Web";
    expect(lines(nativeFindings(d, type("apps/v1", "Deployment"))).map((l) => l.replace(/ \(e\.g\..*\)/, ""))).toEqual([
      '/metadata/name metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character [native:meta/name]',
      "/spec/template/spec/containers/0/ports/0/containerPort spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive [native:core/container-port]",
    ]);
  });

  it("supersedes a schema:enum finding where it speaks about the same field (its wording is the server's)", () => {
    const d = deployment({ imagePullPolicy: "Sometimes" });
    const pointer = "/spec/template/spec/containers/0/imagePullPolicy";
    const native = nativeFindings(d, type("apps/v1", "Deployment"));
    expect(lines(native)).toEqual([
      `${pointer} spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never" [native:core/image-pull-policy]`,
    ]);
    const schemaEnum: Finding = { severity: "error", path: pointer, message: 'Unsupported value: "Sometimes"', rule: "schema:enum" };
    const other: Finding = { severity: "error", path: "/spec/strategy/type", message: 'Unsupported value: "Bogus"', rule: "schema:enum" };
    expect(withoutSuperseded([schemaEnum, other], native)).toEqual([other]);
    // an "Unsupported value" of the parent (a strategy refused as a whole) supersedes its type's enum finding too
    const parent: Finding = { severity: "error", path: "/spec/strategy", message: 'spec.strategy: Unsupported value: {"type":"Bogus"}: supported values: "Recreate"', rule: "native:apps/strategy" };
    expect(withoutSuperseded([schemaEnum, other], [parent])).toEqual([schemaEnum]);
    // a schema `required` at the pointer of a native Required (RBAC verbs) is the same finding said twice
    const required: Finding = { severity: "error", path: "/rules/0/verbs", message: "Required value", rule: "schema:required" };
    const nativeRequired: Finding = { severity: "error", path: "/rules/0/verbs", message: "rules[0].verbs: Required value: verbs must contain at least one value", rule: "native:rbac/policy-rule" };
    expect(withoutSuperseded([required, other], [nativeRequired])).toEqual([other]);
  });

  it("checks only ObjectMeta of custom resources, without the built-in finalizer rule", () => {
    const crd: TypeSchema = { gvk: { group: "karpenter.sh", version: "v1", kind: "NodePool" }, flavour: "crd", root: {}, source: "test" };
    expect(nativeFindings({ metadata: { name: "default", finalizers: ["cleanup"] } }, crd)).toEqual([]);
    expect(lines(nativeFindings({ metadata: { name: "Default" } }, crd))[0]).toMatch(/^\/metadata\/name metadata\.name: Invalid value: "Default"/);
  });
});

describe("NativeRegistry", () => {
  it("refuses a kind registered twice", () => {
    const check = () => {};
    expect(() => new NativeRegistry([{ group: "batch", kinds: { Job: check } }, { group: "batch", kinds: { Job: check } }])).toThrow("native check for batch/Job registered twice");
  });
});

describe("probe ports (a warning: the server accepts them)", () => {
  it("warns when a probe names no port of its container", () => {
    const d = deployment({ ports: [{ name: "http", containerPort: 8080 }], livenessProbe: { httpGet: { port: "health" } }, readinessProbe: { tcpSocket: { port: "http" } } });
    expect(nativeFindings(d, type("apps/v1", "Deployment"))).toEqual([
      {
        severity: "warning",
        path: "/spec/template/spec/containers/0/livenessProbe/httpGet/port",
        message: 'spec.template.spec.containers[0].livenessProbe.httpGet.port: container "app" has no port named "health"; the API server accepts this, the kubelet\'s probe fails',
        rule: "native:core/probe-port-name",
        hint: "name a port of the container (http) or use the port number",
      },
    ]);
  });
});

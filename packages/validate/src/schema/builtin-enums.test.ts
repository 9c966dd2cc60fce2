// The Go `+enum` values of built-in kinds applied to the pinned schemas (which carry no enum), with the server's wording.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseText } from "../reader.ts";
import { catalogRegistry } from "../testing.ts";
import type { Finding } from "../types.ts";
import { ObjectValidator } from "../validate.ts";
import { ENUM_VALUES } from "./enum-values.ts";
import { typesFromOpenApi } from "./sources.ts";
import type { SchemaRegistry } from "./registry.ts";

type Obj = Record<string, any>;
const RENDERED = resolve(import.meta.dirname, "../../../../clusters/eksworkshop/rendered");
const load = (rel: string): Obj => parseText({ file: rel, text: readFileSync(`${RENDERED}/${rel}`, "utf8") }).resources[0]?.object as Obj;
const deployment = () => load("workload-nlb-app-karpenter/apps_v1_deployment_nlb-app-karpenter_nginx-deployment.yaml");
const service = () => load("workload-nlb-app-karpenter/core_v1_service_nlb-app-karpenter_service-nginx.yaml");

let registry: SchemaRegistry;
const v = new ObjectValidator();
// the schema stage alone (the native stage words some of these fields itself, superseding the schema:enum finding)
const check = (o: Obj): string[] =>
  v
    .validate(o, registry.lookup(o.apiVersion, o.kind)!, registry, undefined, { native: false })
    .filter((f: Finding) => f.rule.startsWith("schema:"))
    .map((f) => `${f.path}: ${f.message} [${f.rule}]`);

beforeAll(async () => {
  registry = await catalogRegistry();
}, 120_000);

describe("enums of built-in kinds (generated from k8s.io/api v0.36.5)", () => {
  it("reports an invalid imagePullPolicy with the API server's message", () => {
    const d = deployment();
    d.spec.template.spec.containers[0].imagePullPolicy = "Sometimes";
    expect(check(d)).toEqual([
      '/spec/template/spec/containers/0/imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never" [schema:enum]',
    ]);
    // with the native stage on, its finding (the server's field path in front) replaces the schema's: one finding
    expect(v.validate(d, registry.lookup("apps/v1", "Deployment")!, registry).map((f) => `${f.message} [${f.rule}]`)).toEqual([
      'spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never" [native:core/image-pull-policy]',
    ]);
  });

  it("checks enum fields of every group: Service type, list items (ipFamilies), StorageClass, Ingress pathType", () => {
    const s = service();
    s.spec.type = "Internal";
    s.spec.ipFamilies = ["IPv5"];
    expect(check(s)).toEqual([
      '/spec/ipFamilies/0: Unsupported value: "IPv5": supported values: "", "IPv4", "IPv6" [schema:enum]',
      '/spec/type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort" [schema:enum]',
    ]);
    const sc: Obj = { apiVersion: "storage.k8s.io/v1", kind: "StorageClass", metadata: { name: "s" }, provisioner: "p" };
    sc.volumeBindingMode = "Later";
    expect(check(sc)).toEqual(['/volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer" [schema:enum]']);
    const ingress = {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name: "i", namespace: "n" },
      spec: { rules: [{ http: { paths: [{ path: "/", pathType: "Regex", backend: { service: { name: "s", port: { number: 80 } } } }] } }] },
    };
    expect(check(ingress)).toEqual([
      '/spec/rules/0/http/paths/0/pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix" [schema:enum]',
    ]);
  });

  it("keeps \"\" in a non-pointer enum field unset, and leaves status alone (reset on create)", () => {
    const d = deployment();
    d.spec.template.spec.containers[0].imagePullPolicy = "";
    expect(check(d)).toEqual([]);
    const s = service();
    s.status = { loadBalancer: { ingress: [{ ip: "10.0.0.1", ports: [{ port: 80, protocol: "QUIC" }] }] } };
    expect(check(s)).toEqual([]);
  });

  it("holds only names and values, sorted as kube-openapi publishes them", () => {
    expect(ENUM_VALUES["io.k8s.api.core.v1.Container"]?.imagePullPolicy).toEqual(["Always", "IfNotPresent", "Never"]);
    for (const fields of Object.values(ENUM_VALUES)) for (const values of Object.values(fields)) expect([...values].sort()).toEqual(values);
  });

  it("leaves a field the native stage checks to it, even when the served schema (--from-cluster) carries the Go enum", () => {
    const doc = {
      components: {
        schemas: {
          "io.k8s.api.storage.v1.StorageClass": {
            type: "object",
            required: ["provisioner"],
            properties: { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" }, provisioner: { type: "string" }, reclaimPolicy: { type: "string", enum: ["Delete", "Recycle", "Retain"] } },
            "x-kubernetes-group-version-kind": [{ group: "storage.k8s.io", version: "v1", kind: "StorageClass" }],
          },
        },
      },
    };
    const [type] = typesFromOpenApi(doc, "served document", "test:from-cluster-enum");
    const findings = (o: Obj) => new ObjectValidator().validate(o, type!).map((f) => `${f.path}: ${f.message} [${f.rule}]`);
    const sc = { apiVersion: "storage.k8s.io/v1", kind: "StorageClass", metadata: { name: "s" }, provisioner: "p" };
    // the server accepts "" there (an unset pointer value is defaulted), and words other values with its own list
    expect(findings({ ...sc, reclaimPolicy: "" })).toEqual([]);
    expect(findings({ ...sc, reclaimPolicy: "Keep" })).toEqual(['/reclaimPolicy: reclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Retain" [native:storage/reclaim-policy]']);
  });
});

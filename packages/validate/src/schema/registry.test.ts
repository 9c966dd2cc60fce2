// Schema source priority: --crd, then CRDs among the documents, then the catalog; JSON Schema and OpenAPI files as --crd.
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseText } from "../reader.ts";
import { catalogForTests, MIRROR } from "../testing.ts";
import { catalogLayer, SchemaRegistry, typesFromDocuments, typesFromPaths } from "./registry.ts";

const crd = (group: string, kind: string, marker: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${kind.toLowerCase()}s.${group}}
spec:
  group: ${group}
  scope: Cluster
  names: {kind: ${kind}, plural: ${kind.toLowerCase()}s}
  versions:
    - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, description: ${marker}}}}
    - {name: v0, served: false, storage: false, schema: {openAPIV3Schema: {type: object}}}
`;

describe("SchemaRegistry priority", () => {
  it("takes --crd over documents over the catalog, and skips unserved versions", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crd-"));
    writeFileSync(join(dir, "nodepool.yaml"), crd("karpenter.sh", "NodePool", "from-flag"));
    const docs = parseText({ file: "docs.yaml", text: `${crd("karpenter.sh", "NodePool", "from-doc")}---\n${crd("karpenter.k8s.aws", "EC2NodeClass", "from-doc")}---\n${crd("example.com", "Widget", "from-doc")}` });
    const registry = new SchemaRegistry()
      .addLayer("--crd", typesFromPaths([dir]))
      .addLayer("documents", typesFromDocuments(docs.resources), { role: "documents" })
      .with([await catalogForTests()]);
    expect(registry.lookup("karpenter.sh/v1", "NodePool")?.root.description).toBe("from-flag");
    expect(registry.lookup("karpenter.sh/v1", "NodePool")?.source).toBe(`--crd ${join(dir, "nodepool.yaml")}`);
    // a CRD among the documents never replaces a pinned kind (see crd-claims.ts)
    expect(registry.lookup("karpenter.k8s.aws/v1", "EC2NodeClass")?.source).toBe("catalog karpenter@1.14.1 karpenter.k8s.aws_ec2nodeclasses.yaml");
    expect(registry.lookup("example.com/v1", "Widget")?.source).toBe("document docs.yaml#2");
    expect(registry.lookup("karpenter.sh/v1", "NodeClaim")?.source).toBe("catalog karpenter@1.14.1 karpenter.sh_nodeclaims.yaml");
    expect(registry.lookup("karpenter.sh/v0", "NodePool")).toBeUndefined();
    expect(registry.layers.map((l) => l.name)).toEqual(["--crd", "documents", "catalog kubernetes@1.36.5 karpenter@1.14.1 argocd@3.5.1"]);
  }, 120_000);

  it("reads kubeconform-style JSON Schema files and /openapi/v3 documents given with --crd", () => {
    const dir = mkdtempSync(join(tmpdir(), "jsonschema-"));
    writeFileSync(join(dir, "widget-example.com-v1.json"), JSON.stringify({ type: "object", required: ["spec"] }));
    writeFileSync(
      join(dir, "openapi.json"),
      JSON.stringify({ components: { schemas: { "com.example.Gadget": { type: "object", "x-kubernetes-group-version-kind": [{ group: "example.com", version: "v2", kind: "Gadget" }] } } } }),
    );
    const registry = new SchemaRegistry().addLayer("--crd", typesFromPaths([dir]));
    expect(registry.lookup("example.com/v1", "Widget")?.flavour).toBe("jsonschema");
    expect(registry.lookup("example.com/v2", "Gadget")?.flavour).toBe("builtin");
  });
});

describe("catalogLayer with the kinds wanted", () => {
  it("reads only the catalog files that define them (plus one OpenAPI document for ObjectMeta), once each file's kinds are indexed", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "catalog-wanted-"));
    const fetch = { mirror: MIRROR, cacheDir };
    const kindsOf = (layer: { types: ReadonlyMap<string, unknown> }) => [...layer.types.keys()];
    // first run: no kind index yet, so everything is read (and indexed)
    const first = await catalogLayer({}, fetch, [{ apiVersion: "karpenter.sh/v1", kind: "NodePool" }]);
    expect(kindsOf(first)).toEqual(expect.arrayContaining(["argoproj.io/v1alpha1/ApplicationSet", "karpenter.sh/v1/NodePool", "/v1/Service"]));
    expect(readdirSync(cacheDir).filter((f) => f.endsWith(".kinds.json")).length).toBeGreaterThanOrEqual(15);

    const only = await catalogLayer({}, fetch, [{ apiVersion: "karpenter.sh/v1", kind: "NodePool" }]);
    const kinds = kindsOf(only);
    expect(kinds).toContain("karpenter.sh/v1/NodePool");
    expect(kinds.some((k) => k.startsWith("argoproj.io/"))).toBe(false);
    expect(kinds).not.toContain("karpenter.k8s.aws/v1/EC2NodeClass");
    // ObjectMeta for the NodePool's metadata comes from one (the smallest) Kubernetes document
    expect(new SchemaRegistry().with([only]).anyBuiltin()).toBeDefined();
    expect(kinds).not.toContain("apps/v1/Deployment");
    expect(kinds).not.toContain("/v1/Service");

    const mixed = kindsOf(await catalogLayer({}, fetch, [{ apiVersion: "apps/v1", kind: "Deployment" }, { apiVersion: "argoproj.io/v1alpha1", kind: "Application" }]));
    expect(mixed).toEqual(expect.arrayContaining(["apps/v1/Deployment", "argoproj.io/v1alpha1/Application"]));
    expect(mixed).not.toContain("/v1/Service");
    expect(mixed).not.toContain("karpenter.sh/v1/NodePool");
  });
});

// --from-cluster against a stand-in API server on 127.0.0.1: CRDs and /openapi/v3 documents become a schema layer.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterLayer, ClusterSchemaError } from "./cluster.ts";

const crd = {
  metadata: { name: "gadgets.example.com" },
  spec: { group: "example.com", scope: "Cluster", names: { kind: "Gadget", plural: "gadgets" }, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }] },
};
const coreDoc = {
  components: { schemas: { "io.k8s.api.core.v1.Namespace": { type: "object", "x-kubernetes-group-version-kind": [{ group: "", version: "v1", kind: "Namespace" }] } } },
};

let server: Server;
const requested: string[] = [];
let base = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? "");
    const send = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/apis/apiextensions.k8s.io/v1/customresourcedefinitions") return send({ items: [crd] });
    if (req.url === "/openapi/v3") return send({ paths: { "api/v1": { serverRelativeURL: "/openapi/v3/api/v1?hash=abc" }, "apis/apps/v1": { serverRelativeURL: "/openapi/v3/apis/apps/v1?hash=def" } } });
    if (req.url === "/openapi/v3/api/v1?hash=abc") return send(coreDoc);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const kubeconfig = (server: string) => {
  const kc = new KubeConfig();
  kc.loadFromOptions({ clusters: [{ name: "c", server, skipTLSVerify: true }], users: [{ name: "u", token: "t" }], contexts: [{ name: "x", cluster: "c", user: "u" }], currentContext: "x" });
  return kc;
};

describe("clusterLayer", () => {
  it("reads the cluster's CRDs and only the /openapi/v3 group-versions the run needs", async () => {
    const layer = await clusterLayer(["v1", "example.com/v1"], kubeconfig(base));
    expect(layer.name).toBe(`--from-cluster ${base}`);
    expect([...layer.types.keys()].sort()).toEqual(["/v1/Namespace", "example.com/v1/Gadget"]);
    expect(layer.types.get("example.com/v1/Gadget")?.flavour).toBe("crd");
    expect(requested).not.toContain("/openapi/v3/apis/apps/v1?hash=def");
  });

  it("names the server when it cannot be reached", async () => {
    await expect(clusterLayer(["v1"], kubeconfig("http://127.0.0.1:1"))).rejects.toThrow(ClusterSchemaError);
    await expect(clusterLayer(["v1"], kubeconfig("http://127.0.0.1:1"))).rejects.toThrow("--from-cluster: cannot reach http://127.0.0.1:1");
  });
});

// Schemas from the current kubeconfig's cluster (--from-cluster): its CRDs and its /openapi/v3 documents.
import { createRequire } from "node:module";
import type { RequestOptions } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import type { TypeSchema } from "./model.ts";
import type { SchemaLayer } from "./registry.ts";
import { SchemaRegistry } from "./registry.ts";
import { typesFromCrd, typesFromOpenApi } from "./sources.ts";

/**
 * The cluster could not be reached or answered oddly; the message names the server and the path. `external`: the
 * API failed, timed out or could not be reached (not a setting the user can fix: exit 4); otherwise the kubeconfig,
 * its credentials or RBAC are at fault (exit 2), as for simulate --from-cluster.
 */
export class ClusterSchemaError extends Error {
  override name = "ClusterSchemaError";
  constructor(
    message: string,
    readonly external = false,
  ) {
    super(message);
  }
}

async function getJson(kc: KubeConfig, path: string): Promise<unknown> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new ClusterSchemaError("--from-cluster: the kubeconfig has no current cluster; set one with `kubectl config use-context`");
  const url = new URL(path, cluster.server);
  const opts: RequestOptions = { method: "GET", headers: { accept: "application/json" } };
  try {
    await kc.applyToHTTPSOptions(opts);
  } catch (err) {
    throw new ClusterSchemaError(`--from-cluster: cannot use the kubeconfig's credentials for ${cluster.server}: ${(err as Error).message}`);
  }
  return new Promise((resolve, reject) => {
    // node:http and node:https (with tls and net) are loaded here, on first use: every `validate` loads this module,
    // few use --from-cluster, and loading them cost each run ~8 ms (issue 19)
    const request = url.protocol === "http:" ? process.getBuiltinModule("node:http").request : process.getBuiltinModule("node:https").request;
    const req = request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const status = res.statusCode ?? 0;
        // refused credentials or RBAC are the kubeconfig's to fix; any other failing answer is the API's
        if (status >= 300) return reject(new ClusterSchemaError(`--from-cluster: GET ${url.href} answered HTTP ${status}`, status !== 401 && status !== 403));
        try {
          resolve(JSON.parse(body));
        } catch {
          reject(new ClusterSchemaError(`--from-cluster: GET ${url.href} did not return JSON`));
        }
      });
    });
    req.on("error", (err) => reject(new ClusterSchemaError(`--from-cluster: cannot reach ${url.origin}: ${err.message}`, true)));
    req.setTimeout(30_000, () => req.destroy(new Error("timed out after 30 s")));
    req.end();
  });
}

/**
 * The cluster's CRDs plus the /openapi/v3 documents of the given API groups/versions (`v1`, `apps/v1`...).
 * Only the group-versions the run needs are fetched.
 */
export async function clusterLayer(apiVersions: readonly string[], kubeconfig?: KubeConfig): Promise<SchemaLayer> {
  // client-node is large; load it only when --from-cluster is used. require(), not import(): the CLI runs as
  // a CommonJS script with V8's code cache, where import() is unavailable on Node 20 (require of this ES
  // module is supported from Node 20.19, the engines minimum)
  const kc = kubeconfig ?? new (createRequire(import.meta.url)("@kubernetes/client-node") as typeof import("@kubernetes/client-node")).KubeConfig();
  if (!kubeconfig) {
    try {
      kc.loadFromDefault();
    } catch (err) {
      throw new ClusterSchemaError(`--from-cluster: cannot load the kubeconfig (KUBECONFIG or ~/.kube/config): ${(err as Error).message}`);
    }
  }
  const server = kc.getCurrentCluster()?.server ?? "?";
  const types: TypeSchema[] = [];
  const crds = (await getJson(kc, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions")) as { items?: unknown[] };
  for (const crd of crds.items ?? []) types.push(...typesFromCrd({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", ...(crd as object) }, `cluster ${server}`));
  const index = (await getJson(kc, "/openapi/v3")) as { paths?: Record<string, { serverRelativeURL?: string }> };
  for (const apiVersion of new Set(apiVersions)) {
    const key = apiVersion.includes("/") ? `apis/${apiVersion}` : `api/${apiVersion}`;
    const entry = index.paths?.[key];
    if (!entry) continue;
    const doc = await getJson(kc, entry.serverRelativeURL ?? `/openapi/v3/${key}`);
    types.push(...typesFromOpenApi(doc, `cluster ${server} /openapi/v3/${key}`, `cluster:${server}:${key}`));
  }
  return new SchemaRegistry().addLayer(`--from-cluster ${server}`, types).layers[0] as SchemaLayer;
}

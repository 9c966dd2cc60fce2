// Test helper: a small Kubernetes API stand-in on 127.0.0.1 speaking ConfigMap GET/PUT/POST with
// resourceVersion conflicts and the NodeClaim list (the kube-apiserver harness has not landed yet).
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface ConfigMap {
  apiVersion: "v1";
  kind: "ConfigMap";
  metadata: { name: string; namespace: string; resourceVersion: string; [k: string]: unknown };
  data?: Record<string, string>;
}

export interface FakeApiServer {
  readonly url: string;
  /** A kubeconfig file whose current context points here. */
  readonly kubeconfig: string;
  /** Stored ConfigMaps by `namespace/name`. */
  readonly configMaps: Map<string, ConfigMap>;
  /** null: the NodeClaim CRD is not installed (404). */
  nodeClaims: unknown[] | null;
  /** Runs before a PUT is checked; lets a test change the object underneath (a concurrent writer). */
  beforePut: ((cm: ConfigMap | undefined) => void) | undefined;
  readonly requests: string[];
  setConfigMap(namespace: string, name: string, data: Record<string, string>): void;
  close(): Promise<void>;
}

const status = (res: ServerResponse, code: number, reason: string, message: string) => {
  res.writeHead(code, { "content-type": "application/json" });
  res.end(JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", reason, message, code }));
};

const body = async (req: IncomingMessage): Promise<unknown> => {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
};

export async function startFakeApiServer(): Promise<FakeApiServer> {
  let rv = 100;
  const configMaps = new Map<string, ConfigMap>();
  const state = {
    nodeClaims: null as unknown[] | null,
    beforePut: undefined as FakeApiServer["beforePut"],
  };
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push(`${req.method} ${url.pathname}`);
    const cm = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps(?:\/([^/]+))?$/.exec(url.pathname);
    if (cm) {
      const [, ns, name] = cm;
      const key = `${ns}/${name}`;
      if (req.method === "GET" && name) {
        const found = configMaps.get(key);
        if (!found) return status(res, 404, "NotFound", `configmaps "${name}" not found`);
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify(found));
      }
      if (req.method === "PUT" && name) {
        const incoming = (await body(req)) as ConfigMap;
        state.beforePut?.(configMaps.get(key));
        const current = configMaps.get(key);
        if (!current) return status(res, 404, "NotFound", `configmaps "${name}" not found`);
        if (incoming.metadata?.resourceVersion !== current.metadata.resourceVersion) {
          return status(res, 409, "Conflict", `Operation cannot be fulfilled on configmaps "${name}": the object has been modified; please apply your changes to the latest version and try again`);
        }
        const stored: ConfigMap = { ...incoming, metadata: { ...incoming.metadata, resourceVersion: String(++rv) } };
        configMaps.set(key, stored);
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify(stored));
      }
      if (req.method === "POST" && !name) {
        const incoming = (await body(req)) as ConfigMap;
        const k = `${ns}/${incoming.metadata.name}`;
        if (configMaps.has(k)) return status(res, 409, "AlreadyExists", `configmaps "${incoming.metadata.name}" already exists`);
        const stored: ConfigMap = { ...incoming, metadata: { ...incoming.metadata, namespace: ns!, resourceVersion: String(++rv) } };
        configMaps.set(k, stored);
        res.writeHead(201, { "content-type": "application/json" });
        return res.end(JSON.stringify(stored));
      }
    }
    if (req.method === "GET" && url.pathname === "/apis/karpenter.sh/v1/nodeclaims") {
      if (state.nodeClaims === null) return status(res, 404, "NotFound", "the server could not find the requested resource");
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ apiVersion: "karpenter.sh/v1", kind: "NodeClaimList", metadata: {}, items: state.nodeClaims }));
    }
    status(res, 404, "NotFound", `no route ${req.method} ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), "eks-gitops-kube-"));
  const kubeconfig = join(dir, "kubeconfig");
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "fake", cluster: { server: url, "insecure-skip-tls-verify": true } }],
      users: [{ name: "fake", user: { token: "fake-token" } }],
      contexts: [{ name: "fake", context: { cluster: "fake", user: "fake" } }],
      "current-context": "fake",
    }),
  );
  return {
    url,
    kubeconfig,
    configMaps,
    requests,
    get nodeClaims() {
      return state.nodeClaims;
    },
    set nodeClaims(v) {
      state.nodeClaims = v;
    },
    get beforePut() {
      return state.beforePut;
    },
    set beforePut(v) {
      state.beforePut = v;
    },
    setConfigMap(namespace, name, data) {
      configMaps.set(`${namespace}/${name}`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace, resourceVersion: String(++rv) }, data });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

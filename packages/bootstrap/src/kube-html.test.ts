// A kubeconfig pointing at something that is not a Kubernetes API (a web server's HTML 404): an error, never "no aws-auth" or "0 NodeClaims".
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { kubeAccess } from "./kube.ts";

let server: Server;
let url: string;
let dir: string;
let kubeconfig: string;
let status = 404;
let body = "<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>";

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(status, { "content-type": "text/html" });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const a = server.address();
  url = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
  dir = mkdtempSync(join(tmpdir(), "kube-html-"));
  kubeconfig = join(dir, "kubeconfig");
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${url}\n    insecure-skip-tls-verify: true\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\nusers:\n- name: u\n  user:\n    token: t\n`,
  );
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  status = 404;
  body = "<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>";
});

describe("a kubeconfig server that answers with HTML", () => {
  const access = () => kubeAccess({ kubeconfig, backupDir: dir });

  it("a 404 page is not a missing aws-auth ConfigMap", async () => {
    await expect(access().readAwsAuth()).rejects.toThrow(
      `Kubernetes API ${url}: cannot read ConfigMap kube-system/aws-auth: the endpoint does not serve the Kubernetes API (it answered HTTP 404 with an HTML page); check the server of the kubeconfig context (--kubeconfig, --context)`,
    );
  });

  it("a 404 page is not 'no NodeClaims' (destroy must not go ahead on it)", async () => {
    await expect(access().countNodeClaims()).rejects.toThrow(
      `Kubernetes API ${url}: cannot list karpenter.sh/v1 NodeClaims: the endpoint does not serve the Kubernetes API (it answered HTTP 404 with an HTML page)`,
    );
  });

  it("a 200 page is not an object", async () => {
    status = 200;
    await expect(access().readAwsAuth()).rejects.toThrow(
      `Kubernetes API ${url}: cannot read ConfigMap kube-system/aws-auth: the endpoint does not serve the Kubernetes API (it answered HTTP 200 with an HTML page)`,
    );
  });
});

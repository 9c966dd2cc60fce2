// Writes the kubeconfig of a test cluster (bearer token, the server's own CA), atomically.
import { renameSync, writeFileSync } from "node:fs";
import { stringify } from "yaml";

export interface KubeconfigParams {
  readonly server: string;
  readonly caPem: string;
  readonly token: string;
  /** Context, cluster and user name. @default "eks-gitops-e2e" */
  readonly name?: string;
}

export function kubeconfigYaml(params: KubeconfigParams): string {
  const name = params.name ?? "eks-gitops-e2e";
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name,
        cluster: { server: params.server, "certificate-authority-data": Buffer.from(params.caPem).toString("base64") },
      },
    ],
    users: [{ name, user: { token: params.token } }],
    contexts: [{ name, context: { cluster: name, user: name } }],
    "current-context": name,
  });
}

export function writeKubeconfig(file: string, params: KubeconfigParams): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, kubeconfigYaml(params), { mode: 0o600 });
  renameSync(tmp, file);
}

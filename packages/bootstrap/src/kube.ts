// Kubernetes access through @kubernetes/client-node: aws-auth with optimistic concurrency, and NodeClaim counts.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import {
  ApiException,
  type Configuration,
  CoreV1Api,
  createConfiguration,
  CustomObjectsApi,
  KubeConfig,
  type Middleware,
  type ResponseContext,
  ServerConfiguration,
  type V1ConfigMap,
} from "@kubernetes/client-node";
import { stringify } from "yaml";
import { AWS_AUTH, type AwsAuthEdit } from "./aws-auth.ts";

export interface KubeAccess {
  /** Where requests go (for the report). */
  readonly server: string;
  readAwsAuth(): Promise<V1ConfigMap | undefined>;
  /** Applies `edit` to the current ConfigMap, re-reading and retrying on a resourceVersion conflict. */
  updateAwsAuth(edit: (data: Readonly<Record<string, string>> | undefined) => AwsAuthEdit): Promise<AwsAuthUpdate>;
  /** Number of karpenter.sh/v1 NodeClaims (0 when the CRD is not installed). */
  countNodeClaims(): Promise<number>;
}

export interface AwsAuthUpdate {
  readonly changed: boolean;
  readonly attempts: number;
  readonly backupFile?: string;
  readonly warning?: string;
}

export interface KubeAccessOptions {
  /** kubeconfig file; default: KUBECONFIG or ~/.kube/config. */
  readonly kubeconfig?: string;
  readonly context?: string;
  /** Folder for aws-auth backups, written before any change. */
  readonly backupDir: string;
  readonly maxConflictRetries?: number;
  /** Clock for backup file names (tests pass a fixed one). */
  readonly now?: () => Date;
}

const status = (err: unknown): number | undefined => (err instanceof ApiException ? err.code : undefined);

/** An answer that is an HTML page (a web server's or a proxy's), whatever its status: not the Kubernetes API. */
class NotKubernetesAnswer extends Error {
  override name = "NotKubernetesAnswer";
  constructor(readonly status: number) {
    super(`the endpoint does not serve the Kubernetes API (it answered HTTP ${status} with an HTML page); check the server of the kubeconfig context (--kubeconfig, --context)`);
  }
}

/**
 * Without this, an HTML 404 reads as "no such object" (no aws-auth, no NodeClaims) and an HTML 200 as
 * an empty object: client-node only looks at the status and at JSON it can parse. Only answers labelled
 * HTML are read ahead (their body is handed on), and only an HTML document is refused.
 */
const rejectHtml: Middleware = {
  pre: (context) => Promise.resolve(context),
  post: async (response: ResponseContext) => {
    const type = Object.entries(response.headers).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
    if (!/\bhtml\b/i.test(type)) return response;
    const text = await response.body.text();
    if (/^\s*<(!doctype\s+html|html[\s>])/i.test(text.slice(0, 512))) throw new NotKubernetesAnswer(response.httpStatusCode);
    response.body = { text: () => Promise.resolve(text), binary: () => Promise.resolve(Buffer.from(text)) };
    return response;
  },
};

/** No usable kubeconfig: none found, unreadable, not a kubeconfig, or without the context asked for. A set-up problem (exit 2). */
export class KubeconfigError extends Error {
  override name = "KubeconfigError";
}

/** A Kubernetes API call failed. `setup`: the endpoint is not the Kubernetes API (fix the kubeconfig); otherwise the API failed or was unreachable. */
export class KubeCallError extends Error {
  override name = "KubeCallError";
  constructor(
    message: string,
    readonly setup: boolean,
  ) {
    super(message);
  }
}

/**
 * The kubeconfig files client-node's loadFromDefault() would read: KUBECONFIG's files (those that exist),
 * else ~/.kube/config. Without any, loadFromDefault() quietly falls back to in-cluster credentials or to
 * http://localhost:8080, whose errors tell the user nothing; so we look first and say where we looked.
 */
export function loadKubeConfig(options: { readonly kubeconfig?: string; readonly context?: string; readonly env?: NodeJS.ProcessEnv }): KubeConfig {
  const env = options.env ?? process.env;
  const kc = new KubeConfig();
  const fromEnv = (env.KUBECONFIG ?? "").split(delimiter).filter((f) => f !== "");
  const candidates = options.kubeconfig !== undefined ? [options.kubeconfig] : fromEnv.length > 0 ? fromEnv : [join(env.HOME ?? homedir(), ".kube", "config")];
  const found = candidates.filter((f) => existsSync(f));
  const inCluster = options.kubeconfig === undefined && found.length === 0 && env.KUBERNETES_SERVICE_HOST !== undefined && existsSync("/var/run/secrets/kubernetes.io/serviceaccount/token");
  if (found.length === 0 && !inCluster) {
    const where = options.kubeconfig !== undefined ? `--kubeconfig ${options.kubeconfig}: no such file` : `no kubeconfig found (looked in ${fromEnv.length > 0 ? `KUBECONFIG: ${candidates.join(", ")}` : candidates[0]})`;
    throw new KubeconfigError(`${where}; pass --kubeconfig FILE (e.g. after \`aws eks update-kubeconfig --name CLUSTER\`)`);
  }
  if (inCluster) kc.loadFromCluster();
  // KUBECONFIG's files merged as kubectl does (the first file's current context wins)
  found.forEach((file, i) => {
    try {
      readFileSync(file); // unreadable (permissions, a folder) named as such, not as a YAML error
    } catch (err) {
      throw new KubeconfigError(`kubeconfig ${file}: cannot be read: ${(err as Error).message}; fix its permissions or pass --kubeconfig FILE`);
    }
    const one = i === 0 ? kc : new KubeConfig();
    try {
      one.loadFromFile(file); // (not from a string: relative certificate paths resolve against the file's folder)
    } catch (err) {
      throw new KubeconfigError(`kubeconfig ${file}: not a valid kubeconfig: ${(err as Error).message.split("\n")[0]}; fix it or pass --kubeconfig FILE`);
    }
    if (one === kc) return;
    // kubectl's merge: the first file that names a cluster, user or context wins (client-node's mergeConfig throws instead)
    const add = <T extends { name: string }>(have: T[], more: readonly T[]) => {
      for (const m of more) if (!have.some((h) => h.name === m.name)) have.push(m);
    };
    add(kc.clusters, one.clusters);
    add(kc.users, one.users);
    add(kc.contexts, one.contexts);
    if (!kc.currentContext) kc.currentContext = one.currentContext;
  });
  if (options.context) {
    if (!kc.getContexts().some((c) => c.name === options.context)) {
      throw new KubeconfigError(`kubeconfig ${found.join(", ")}: no context '${options.context}' (it has ${kc.getContexts().map((c) => c.name).join(", ") || "none"}); pass --context NAME`);
    }
    kc.setCurrentContext(options.context);
  }
  if (!kc.getCurrentCluster()) {
    throw new KubeconfigError(`kubeconfig ${found.join(", ") || "(in-cluster)"}: no current cluster${options.context ? ` for context '${options.context}'` : ""}; pass --kubeconfig FILE or --context NAME`);
  }
  return kc;
}

/** kc.makeApiClient(), plus the HTML check. */
function makeClient<T>(kc: KubeConfig, server: string, Api: new (configuration: Configuration) => T): T {
  return new Api(createConfiguration({ baseServer: new ServerConfiguration(server, {}), authMethods: { default: kc }, promiseMiddleware: [rejectHtml] }));
}

export function kubeAccess(options: KubeAccessOptions): KubeAccess {
  const kc = loadKubeConfig(options);
  const server = kc.getCurrentCluster()?.server ?? "(no cluster in kubeconfig)";
  const core = makeClient(kc, server, CoreV1Api);
  const custom = makeClient(kc, server, CustomObjectsApi);
  const maxRetries = options.maxConflictRetries ?? 5;
  const now = options.now ?? (() => new Date());

  const readAwsAuth = async (): Promise<V1ConfigMap | undefined> => {
    try {
      return await core.readNamespacedConfigMap({ name: AWS_AUTH.name, namespace: AWS_AUTH.namespace });
    } catch (err) {
      if (status(err) === 404) return undefined;
      throw kubeError(err, `read ConfigMap ${AWS_AUTH.namespace}/${AWS_AUTH.name}`, server);
    }
  };

  const backup = (cm: V1ConfigMap, attempt: number): string => {
    const stamp = now().toISOString().replace(/[:.]/g, "-");
    const file = join(options.backupDir, `aws-auth.${stamp}.rv${cm.metadata?.resourceVersion ?? "0"}.${attempt}.yaml`);
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: AWS_AUTH.name, namespace: AWS_AUTH.namespace, resourceVersion: cm.metadata?.resourceVersion }, data: cm.data ?? {} }));
    renameSync(tmp, file);
    return file;
  };

  return {
    server,
    readAwsAuth,
    async updateAwsAuth(edit) {
      for (let attempt = 1; attempt <= maxRetries + 1; attempt++) {
        const cm = await readAwsAuth();
        const result = edit(cm?.data);
        if (!result.changed) return { changed: false, attempts: attempt, ...(result.warning ? { warning: result.warning } : {}) };
        try {
          if (cm === undefined) {
            await core.createNamespacedConfigMap({
              namespace: AWS_AUTH.namespace,
              body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: AWS_AUTH.name, namespace: AWS_AUTH.namespace }, data: { ...result.data } },
            });
            return { changed: true, attempts: attempt };
          }
          const backupFile = backup(cm, attempt);
          // The read resourceVersion stays in metadata, so the API server rejects the write if anyone changed it since.
          await core.replaceNamespacedConfigMap({ name: AWS_AUTH.name, namespace: AWS_AUTH.namespace, body: { ...cm, data: { ...result.data } } });
          return { changed: true, attempts: attempt, backupFile };
        } catch (err) {
          if (status(err) === 409) continue;
          throw kubeError(err, `write ConfigMap ${AWS_AUTH.namespace}/${AWS_AUTH.name}`, server);
        }
      }
      throw new Error(`ConfigMap ${AWS_AUTH.namespace}/${AWS_AUTH.name}: still conflicting after ${maxRetries} retries; someone else keeps changing it, run again later`);
    },
    async countNodeClaims() {
      try {
        const list = (await custom.listClusterCustomObject({ group: "karpenter.sh", version: "v1", plural: "nodeclaims" })) as { items?: unknown[] };
        return list.items?.length ?? 0;
      } catch (err) {
        if (status(err) === 404) return 0;
        throw kubeError(err, "list karpenter.sh/v1 NodeClaims", server);
      }
    },
  };
}

function kubeError(err: unknown, what: string, server: string): Error {
  const code = status(err);
  const detail = err instanceof ApiException ? `HTTP ${code}` : err instanceof Error ? err.message : String(err);
  // 401/403: the kubeconfig's identity is refused or lacks RBAC, a setting to fix; an HTML page: not the API
  const setup = err instanceof NotKubernetesAnswer || code === 401 || code === 403;
  return new KubeCallError(`Kubernetes API ${server}: cannot ${what}: ${detail}`, setup);
}

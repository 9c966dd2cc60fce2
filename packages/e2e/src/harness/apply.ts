// Server-side apply through client-node with the object's exact bytes, and the API server's verdict as data.
import {
  ApiException,
  HttpMethod,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from "@kubernetes/client-node";

/** The field manager of every apply the e2e suite makes. */
export const FIELD_MANAGER = "eks-gitops-e2e";

export interface ApplyOptions {
  /** `true` sends `dryRun=All`: every admission and validation stage runs, nothing is persisted. */
  readonly dryRun: boolean;
  /** @default true (take ownership of fields other managers set, as `kubectl apply --server-side --force-conflicts`) */
  readonly force?: boolean;
}

/**
 * KubernetesObjectApi whose apply sends the object exactly as given.
 * Why not `KubernetesObjectApi.patch`: client-node first runs a built-in object (Deployment, Service, ...)
 * through its generated model serializer, which silently drops every field the model does not know,
 * so an unknown or misspelt field would never reach the server. URL resolution (discovery),
 * authentication and error handling stay client-node's own.
 */
export class RawObjectApi extends KubernetesObjectApi {
  static fromKubeConfig(kc: KubeConfig): RawObjectApi {
    const api = kc.makeApiClient(RawObjectApi);
    api.setDefaultNamespace(kc);
    return api;
  }

  async serverSideApply(object: KubernetesObject, options: ApplyOptions): Promise<KubernetesObject> {
    const path = await this.specUriPath(object, "patch");
    const ctx = this.configuration.baseServer.makeRequestContext(path, HttpMethod.PATCH);
    ctx.setHeaderParam("Accept", "application/json");
    ctx.setHeaderParam("Content-Type", PatchStrategy.ServerSideApply);
    if (options.dryRun) ctx.setQueryParam("dryRun", "All");
    ctx.setQueryParam("fieldManager", FIELD_MANAGER);
    ctx.setQueryParam("force", String(options.force ?? true));
    // Unknown and duplicate fields are errors, as the validator treats them (the server default only warns / prunes).
    ctx.setQueryParam("fieldValidation", "Strict");
    ctx.setBody(JSON.stringify(object));
    return this.requestPromise(ctx, "any");
  }

  /** POST (create), exactly as given: the semantics the offline validator follows ("as on create"). */
  async createExact(object: KubernetesObject, options: { readonly dryRun: boolean }): Promise<KubernetesObject> {
    const path = await this.specUriPath(object, "create");
    const ctx = this.configuration.baseServer.makeRequestContext(path, HttpMethod.POST);
    ctx.setHeaderParam("Accept", "application/json");
    ctx.setHeaderParam("Content-Type", "application/json");
    if (options.dryRun) ctx.setQueryParam("dryRun", "All");
    ctx.setQueryParam("fieldManager", FIELD_MANAGER);
    ctx.setQueryParam("fieldValidation", "Strict");
    ctx.setBody(JSON.stringify(object));
    return this.requestPromise(ctx, "any");
  }
}

/** One `details.causes[]` entry of a Kubernetes Status. */
export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

export type ApplyVerdict =
  | { readonly accepted: true; readonly object: KubernetesObject }
  | {
      readonly accepted: false;
      /** HTTP status: 422 invalid, 400 undecodable (wrong type, unknown field), 404 unknown kind... */
      readonly code: number;
      readonly reason: string;
      readonly message: string;
      readonly causes: readonly StatusCause[];
    };

/** Applies and turns a rejection into data; anything but an HTTP answer (connection refused...) still throws. */
export function applyVerdict(api: RawObjectApi, object: KubernetesObject, options: ApplyOptions): Promise<ApplyVerdict> {
  return verdictOf(() => api.serverSideApply(object, options));
}

/** Creates (POST) and turns a rejection into data, like applyVerdict. */
export function createVerdict(api: RawObjectApi, object: KubernetesObject, options: { readonly dryRun: boolean }): Promise<ApplyVerdict> {
  return verdictOf(() => api.createExact(object, options));
}

async function verdictOf(send: () => Promise<KubernetesObject>): Promise<ApplyVerdict> {
  try {
    return { accepted: true, object: await send() };
  } catch (err) {
    if (!(err instanceof ApiException)) throw err;
    const status = parseStatus(err.body);
    return {
      accepted: false,
      code: err.code,
      reason: status.reason ?? "",
      message: status.message ?? String(err.body),
      causes: status.details?.causes ?? [],
    };
  }
}

interface Status {
  reason?: string;
  message?: string;
  details?: { causes?: StatusCause[] };
}

function parseStatus(body: unknown): Status {
  if (typeof body === "object" && body !== null) return body as Status;
  try {
    return JSON.parse(String(body)) as Status;
  } catch {
    return { message: String(body) };
  }
}

/** Creates (for real, idempotently) the namespaces that namespaced objects need before they can be applied. */
export async function ensureNamespaces(api: RawObjectApi, names: Iterable<string>): Promise<void> {
  for (const name of new Set(names)) {
    const verdict = await applyVerdict(api, { apiVersion: "v1", kind: "Namespace", metadata: { name } }, { dryRun: false });
    if (!verdict.accepted) throw new Error(`cannot create namespace ${name}: ${verdict.message}`);
    // no controller-manager runs here to create it, and Pods are only admitted with their service account
    const sa = await applyVerdict(api, { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "default", namespace: name } }, { dryRun: false });
    if (!sa.accepted) throw new Error(`cannot create service account ${name}/default: ${sa.message}`);
  }
}

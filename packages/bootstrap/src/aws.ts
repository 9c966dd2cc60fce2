// AWS SDK v3 clients for one overlay: region, retry with backoff, and errors that name the missing permission.
import { EC2Client } from "@aws-sdk/client-ec2";
import { EKSClient } from "@aws-sdk/client-eks";
import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { IAMClient } from "@aws-sdk/client-iam";
import { SQSClient } from "@aws-sdk/client-sqs";
import { STSClient } from "@aws-sdk/client-sts";
import { ConfiguredRetryStrategy } from "@smithy/core/retry";

export interface AwsClients {
  readonly sts: STSClient;
  readonly iam: IAMClient;
  readonly ec2: EC2Client;
  readonly eks: EKSClient;
  readonly sqs: SQSClient;
  readonly events: EventBridgeClient;
}

export interface AwsClientOptions {
  readonly region: string;
  /** Total attempts per call, first try included. @default 8 */
  readonly maxAttempts?: number;
  /** Delay before retry n (1-based), in ms. @default exponential from 200 ms with full jitter, capped at 20 s */
  readonly backoff?: (attempt: number) => number;
}

/** IAM action prefix of each client, for naming a denied permission. */
const SERVICE_PREFIX: Record<string, string> = {
  STSClient: "sts",
  IAMClient: "iam",
  EC2Client: "ec2",
  EKSClient: "eks",
  SQSClient: "sqs",
  EventBridgeClient: "events",
};

const ACCESS_DENIED = new Set(["AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "AuthorizationError", "UnauthorizedException"]);

/** Who is calling, filled in once STS answered; AccessDenied messages name it. */
export interface CallerRef {
  arn: string | undefined;
}

/** An AWS call that failed; the message names the call, and for AccessDenied the permission and identity. */
export class AwsCallError extends Error {
  override name = "AwsCallError";
  constructor(
    message: string,
    readonly code: string,
    readonly permission: string,
    readonly accessDenied: boolean,
    /** The set-up is wrong (no credentials, an endpoint that is not the AWS API), not the call: exit 2. */
    readonly setup = false,
  ) {
    super(message);
  }
}

export function defaultBackoff(attempt: number): number {
  return Math.round(Math.random() * Math.min(20_000, 200 * 2 ** attempt));
}

/**
 * Creates the six clients. Endpoints come from the standard AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_<SERVICE>
 * variables (the SDK reads them); credentials from the default provider chain and are never logged.
 */
export function createAwsClients(options: AwsClientOptions, caller: CallerRef): AwsClients {
  const config = {
    region: options.region,
    retryStrategy: new ConfiguredRetryStrategy(options.maxAttempts ?? 8, options.backoff ?? defaultBackoff),
  };
  const clients: AwsClients = {
    sts: new STSClient(config),
    iam: new IAMClient(config),
    ec2: new EC2Client(config),
    eks: new EKSClient(config),
    sqs: new SQSClient(config),
    events: new EventBridgeClient(config),
  };
  for (const client of Object.values(clients)) {
    addErrorNaming(client, caller);
    rejectNonApiAnswers(client);
  }
  return clients;
}

export interface StackClient {
  middlewareStack: { add(mw: unknown, options: { step: "initialize" | "deserialize"; name: string; priority?: "high" | "low" }): void };
}

function addErrorNaming(client: StackClient, caller: CallerRef): void {
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>, context: { clientName?: string; commandName?: string }) => async (args: unknown) => {
      try {
        return await next(args);
      } catch (err) {
        throw describeAwsError(err, context.clientName ?? "", context.commandName ?? "", caller.arn);
      }
    },
    { step: "initialize", name: "eksGitopsNameErrors", priority: "high" },
  );
}

/** An HTML document, not an API answer (whatever its content type says: moto labels JSON `text/html`). */
const HTML_PAGE = /^\s*<(!doctype\s+html|html[\s>])/i;

/**
 * Inside the SDK's deserializer: an HTML page (a proxy's or a web server's 404) is not the AWS API,
 * whatever its status; say so instead of letting the parser fail on it (or read an empty answer from
 * it), and do not retry it. Only answers labelled HTML are read ahead, and their body is handed on.
 */
export function rejectNonApiAnswers(client: StackClient): void {
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<{ response?: unknown }>) => async (args: { request?: unknown }) => {
      const result = await next(args);
      const response = result.response as { statusCode?: number; headers?: Record<string, string>; body?: unknown } | undefined;
      const type = Object.entries(response?.headers ?? {}).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
      if (!response || !/\bhtml\b/i.test(type)) return result;
      const body = await readBody(response.body);
      if (HTML_PAGE.test(body.subarray(0, 512).toString("utf8"))) {
        const r = (args.request ?? {}) as { protocol?: string; hostname?: string; port?: number; path?: string };
        const url = `${r.protocol ?? "https:"}//${r.hostname ?? "?"}${r.port ? `:${r.port}` : ""}${r.path ?? "/"}`;
        throw new NotAnApiAnswer(url, response.statusCode ?? 0);
      }
      // the SDK's body collector takes bytes as well as a stream
      response.body = body;
      return result;
    },
    { step: "deserialize", name: "eksGitopsRejectNonApiAnswers", priority: "low" },
  );
}

async function readBody(body: unknown): Promise<Buffer> {
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body === undefined || body === null) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

class NotAnApiAnswer extends Error {
  override name = "NotAnApiAnswer";
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`${url} answered HTTP ${status} with an HTML page`);
  }
}

/** Display name of each client's API. */
const API_NAME: Record<string, string> = { STSClient: "STS", IAMClient: "IAM", EC2Client: "EC2", EKSClient: "EKS", SQSClient: "SQS", EventBridgeClient: "EventBridge" };

/** The endpoint variable in effect for a service (per-service first, as the SDK reads them), for messages. */
function endpointSetting(api: string): string {
  const own = `AWS_ENDPOINT_URL_${api.toUpperCase()}`;
  if (process.env[own]) return `${own} (${process.env[own]})`;
  if (process.env.AWS_ENDPOINT_URL) return `AWS_ENDPOINT_URL (${process.env.AWS_ENDPOINT_URL})`;
  return `the network path to AWS (a proxy?) or set ${own}`;
}

/** Error codes for credentials that exist but that AWS does not accept. */
const CREDENTIALS_REFUSED = new Set(["InvalidClientTokenId", "SignatureDoesNotMatch", "ExpiredToken", "ExpiredTokenException", "UnrecognizedClientException", "InvalidAccessKeyId", "AuthFailure", "RequestExpired"]);

function profileName(): string {
  return process.env.AWS_PROFILE || process.env.AWS_DEFAULT_PROFILE || "default";
}

/** Where the default chain took the credentials from: the key id's last 4 characters only (as the AWS CLI shows it), never the secret key. */
function credentialSource(): string {
  if (process.env.AWS_ACCESS_KEY_ID) return `AWS_ACCESS_KEY_ID (ending ${process.env.AWS_ACCESS_KEY_ID.slice(-4)})`;
  return `profile '${profileName()}'`;
}

function refreshHint(): string {
  if (process.env.AWS_ACCESS_KEY_ID) return "refresh them, or unset AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN to use a profile";
  return `run \`aws sso login --profile ${profileName()}\` (or \`aws configure --profile ${profileName()}\`), or set AWS_PROFILE to another profile`;
}

/** What the default credential chain tried, and how to get credentials. Never prints a secret. */
function noCredentials(): string {
  const env = process.env;
  const profile = profileName();
  const why = env.AWS_PROFILE ? "AWS_PROFILE" : env.AWS_DEFAULT_PROFILE ? "AWS_DEFAULT_PROFILE" : "the default profile";
  const home = env.HOME ?? "~";
  const files = `${env.AWS_CONFIG_FILE ?? `${home}/.aws/config`} and ${env.AWS_SHARED_CREDENTIALS_FILE ?? `${home}/.aws/credentials`}`;
  return (
    `no AWS credentials for profile '${profile}' (${why}; files ${files}, then the environment, SSO, web identity and instance metadata were tried); ` +
    `run \`aws sso login --profile ${profile}\` or \`aws configure --profile ${profile}\`, or set AWS_PROFILE to a profile that has credentials`
  );
}

/** Turns an SDK error into one line that says which call failed and, for AccessDenied, what to grant to whom. */
export function describeAwsError(err: unknown, clientName: string, commandName: string, callerArn: string | undefined): unknown {
  if (err instanceof AwsCallError || !(err instanceof Error)) return err;
  const code = (err as { name?: string; Code?: string }).Code ?? err.name;
  const action = commandName.replace(/Command$/, "");
  const prefix = SERVICE_PREFIX[clientName] ?? clientName.replace(/Client$/, "").toLowerCase();
  const permission = `${prefix}:${action}`;
  const api = API_NAME[clientName] ?? clientName.replace(/Client$/, "");
  if (err instanceof NotAnApiAnswer) {
    return new AwsCallError(
      `${prefix} ${action} failed: the endpoint ${err.url} does not serve the ${api} API (it answered HTTP ${err.status} with an HTML page); check ${endpointSetting(api)}`,
      code,
      permission,
      false,
      true,
    );
  }
  if (err.name === "SyntaxError") {
    // a JSON protocol's parser failed: whatever answered is not the AWS API
    return new AwsCallError(`${prefix} ${action} failed: the endpoint does not serve the ${api} API (its answer is not JSON); check ${endpointSetting(api)}`, code, permission, false, true);
  }
  if (CREDENTIALS_REFUSED.has(code)) {
    return new AwsCallError(`${prefix} ${action} failed: ${code}: AWS refused the credentials from ${credentialSource()}: ${err.message.split("\n")[0]}; ${refreshHint()}`, code, permission, false, true);
  }
  if (code === "CredentialsProviderError") return new AwsCallError(`${prefix} ${action} failed: ${noCredentials()}`, code, permission, false, true);
  if (ACCESS_DENIED.has(code) || /not authorized to perform/i.test(err.message)) {
    // IAM's own message says which action and resource; fall back to the API name when it does not.
    const said = /perform: ([a-z0-9-]+:[A-Za-z0-9]+)/.exec(err.message)?.[1] ?? permission;
    const on = /on resource: (.+?)(?: because |$)/.exec(err.message)?.[1];
    const who = /User: (\S+)/.exec(err.message)?.[1] ?? callerArn ?? "the current AWS identity";
    return new AwsCallError(
      `AccessDenied: ${who} lacks permission ${said}${on ? ` on ${on}` : ""} (call ${prefix} ${action}); grant it and run again`,
      code,
      said,
      true,
    );
  }
  return new AwsCallError(`${prefix} ${action} failed: ${code}: ${err.message.split("\n")[0]}`, code, permission, false);
}

// AWS set-up mistakes say what is wrong and how to fix it: an endpoint that answers with an HTML page, no credentials (real CLI, clean env).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DescribeClusterCommand } from "@aws-sdk/client-eks";
import { GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AwsCallError, createAwsClients } from "./aws.ts";

vi.setConfig({ testTimeout: 300_000 });

const REPO = resolve(import.meta.dirname, "../../..");
const CLI = join(REPO, "packages/cli/bin/eks-gitops.js");
const HTML = "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>";
let server: Server;
let endpoint: string;
let requests = 0;
let status = 404;
let body = HTML;
let home: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests++;
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const a = server.address();
  endpoint = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
  home = mkdtempSync(join(tmpdir(), "aws-setup-home-"));
});
afterAll(async () => {
  rmSync(home, { recursive: true, force: true });
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  requests = 0;
  status = 404;
  body = HTML;
});

/** The eks-gitops CLI with nothing from this environment but PATH: no credentials, no profile files, no instance metadata. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        AWS_CONFIG_FILE: join(home, "no-config"),
        AWS_SHARED_CREDENTIALS_FILE: join(home, "no-credentials"),
        AWS_EC2_METADATA_DISABLED: "true",
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
        AWS_ENDPOINT_URL: endpoint, // even a stray credential would only ever reach 127.0.0.1
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

describe("an endpoint that does not serve the AWS API", () => {
  it("an HTML 404 is 'the endpoint does not serve <API>', once (no retries), for XML and JSON protocols", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE", AWS_SECRET_ACCESS_KEY: "not-a-secret", AWS_ENDPOINT_URL: endpoint });
    try {
      const clients = createAwsClients({ region: "us-east-1", backoff: () => 1 }, { arn: undefined });
      const sts = (await clients.sts.send(new GetCallerIdentityCommand({})).catch((e: unknown) => e)) as AwsCallError;
      expect(sts).toBeInstanceOf(AwsCallError);
      expect(sts.message).toBe(
        `sts GetCallerIdentity failed: the endpoint ${endpoint}/ does not serve the STS API (it answered HTTP 404 with an HTML page); check AWS_ENDPOINT_URL (${endpoint})`,
      );
      expect(sts.setup).toBe(true);
      expect(requests).toBe(1);
      status = 200; // a 200 HTML page is no answer either
      await expect(clients.eks.send(new DescribeClusterCommand({ name: "x" }))).rejects.toThrow(
        `eks DescribeCluster failed: the endpoint ${endpoint}/clusters/x does not serve the EKS API (it answered HTTP 200 with an HTML page); check AWS_ENDPOINT_URL (${endpoint})`,
      );
      expect(requests).toBe(2);
    } finally {
      process.env = saved;
    }
  });

  it("an API answer merely labelled text/html (as moto's Flask answers are) is still read", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE", AWS_SECRET_ACCESS_KEY: "not-a-secret", AWS_ENDPOINT_URL: endpoint });
    try {
      status = 200;
      body = JSON.stringify({ cluster: { name: "x", status: "ACTIVE" } });
      const clients = createAwsClients({ region: "us-east-1", backoff: () => 1 }, { arn: undefined });
      const out = await clients.eks.send(new DescribeClusterCommand({ name: "x" }));
      expect(out.cluster?.status).toBe("ACTIVE");
      body = "<GetCallerIdentityResponse><GetCallerIdentityResult><Account>133129065110</Account></GetCallerIdentityResult></GetCallerIdentityResponse>";
      expect((await clients.sts.send(new GetCallerIdentityCommand({}))).Account).toBe("133129065110");
    } finally {
      process.env = saved;
    }
  });

  it("bootstrap plan against it: exit 2 with that message, nothing else", async () => {
    const r = await cli(["bootstrap", "plan", "--cluster", "eksworkshop", "--root", REPO], { AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE", AWS_SECRET_ACCESS_KEY: "not-a-secret" });
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: `eks-gitops bootstrap: sts GetCallerIdentity failed: the endpoint ${endpoint}/ does not serve the STS API (it answered HTTP 404 with an HTML page); check AWS_ENDPOINT_URL (${endpoint})\n`,
    });
    expect(requests).toBe(1);
  });
});

describe("credentials AWS refuses", () => {
  it("an invalid or expired key names where the credentials came from (key id masked) and the fix", async () => {
    const saved = { ...process.env };
    const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY";
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE", AWS_SECRET_ACCESS_KEY: SECRET, AWS_ENDPOINT_URL: endpoint });
    const xml = `<ErrorResponse><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid.</Message></Error><RequestId>r</RequestId></ErrorResponse>`;
    const local = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(403, { "content-type": "text/xml" });
        res.end(xml);
      });
    });
    await new Promise<void>((r) => local.listen(0, "127.0.0.1", r));
    const a = local.address();
    process.env.AWS_ENDPOINT_URL = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
    try {
      const clients = createAwsClients({ region: "us-east-1", backoff: () => 1 }, { arn: undefined });
      const err = (await clients.sts.send(new GetCallerIdentityCommand({})).catch((e: unknown) => e)) as AwsCallError;
      expect(err.message).toBe(
        "sts GetCallerIdentity failed: InvalidClientTokenId: AWS refused the credentials from AWS_ACCESS_KEY_ID (ending MPLE): The security token included in the request is invalid.; refresh them, or unset AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN to use a profile",
      );
      expect(err.setup).toBe(true);
      expect(JSON.stringify({ m: err.message, s: err.stack })).not.toContain(SECRET);
      expect(err.message).not.toContain("AKIAIOSFODNN7EXAMPLE");
    } finally {
      process.env = saved;
      await new Promise<void>((r) => local.close(() => r()));
    }
  });
});

describe("no AWS credentials", () => {
  it("names the profile tried and the fix, exit 2", async () => {
    const r = await cli(["bootstrap", "plan", "--cluster", "eksworkshop", "--root", REPO], { AWS_PROFILE: "ops" });
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr:
        `eks-gitops bootstrap: sts GetCallerIdentity failed: no AWS credentials for profile 'ops' (AWS_PROFILE; files ${join(home, "no-config")} and ${join(home, "no-credentials")}, then the environment, SSO, web identity and instance metadata were tried); ` +
        "run `aws sso login --profile ops` or `aws configure --profile ops`, or set AWS_PROFILE to a profile that has credentials\n",
    });
    expect(requests).toBe(0);
  });

  it("without AWS_PROFILE, names the default profile", async () => {
    const r = await cli(["bootstrap", "plan", "--cluster", "eksworkshop", "--root", REPO], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no AWS credentials for profile 'default' (the default profile;");
    expect(r.stderr).toContain("run `aws sso login --profile default` or `aws configure --profile default`");
  });
});

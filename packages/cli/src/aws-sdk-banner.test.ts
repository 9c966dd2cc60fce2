// The AWS SDK's NodeVersionSupportWarning (printed on Node < 22 when a client is made) never reaches users of the
// commands that call AWS: capacity refresh and bootstrap run here against a local endpoint that refuses the
// credentials, so the SDK client is made, its call sent and answered, and stderr holds only our own message.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const BIN = join(ROOT, "packages/cli/bin/eks-gitops.js");
const BANNER = "NodeVersionSupportWarning";
const nodeMajor = Number(process.versions.node.split(".")[0]);

let server: Server;
let endpoint: string;
const calls: string[] = [];

beforeAll(async () => {
  // EC2 and STS (query protocol) both read this shape as a non-retryable client error
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      calls.push(/Action=(\w+)/.exec(body)?.[1] ?? req.url ?? "");
      res.writeHead(403, { "content-type": "text/xml" });
      res.end(
        "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid.</Message></Error><RequestId>test</RequestId></ErrorResponse>",
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** The CLI as a user runs it: no AWS_SDK_* switch in the environment unless given. */
function cli(args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("AWS_")) env[k] = v;
  Object.assign(env, { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_MAX_ATTEMPTS: "1", NODE_OPTIONS: "" }, extra);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args, "--root", ROOT], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.once("error", fail);
    child.once("close", (code) => done({ code, stderr }));
  });
}

describe(`no AWS SDK Node-version banner (Node ${process.versions.node})`, { timeout: 120_000 }, () => {
  it("capacity refresh: the SDK call is made and refused, and stderr has no banner", async () => {
    const r = await cli(["capacity", "refresh", "--cluster", "eksworkshop", "--check"]);
    expect(calls).toContain("DescribeInstanceTypes");
    expect(r.stderr).toContain("DescribeInstanceTypes");
    expect(r.stderr).not.toContain(BANNER);
    expect(r.code).not.toBe(0);
  });

  it("bootstrap plan: the SDK call is made and refused, and stderr has no banner", async () => {
    const r = await cli(["bootstrap", "plan", "--cluster", "eksworkshop"]);
    expect(calls).toContain("GetCallerIdentity");
    expect(r.stderr).toContain("GetCallerIdentity");
    expect(r.stderr).not.toContain(BANNER);
    expect(r.code).not.toBe(0);
  });

  // the control: on this Node the SDK does print the banner when the user asks for it (so the tests above see a
  // quiet CLI, not a quiet SDK)
  it.skipIf(nodeMajor >= 22)("prints the banner when the user sets the SDK's switch to anything but true", async () => {
    const r = await cli(["capacity", "refresh", "--cluster", "eksworkshop", "--check"], { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "false" });
    expect(r.stderr).toContain(BANNER);
  });
});

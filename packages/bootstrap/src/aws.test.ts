// AWS client behaviour: retry with backoff on throttling, AccessDenied naming permission and identity, no secrets printed.
import { createServer, type Server } from "node:http";
import { GetRoleCommand } from "@aws-sdk/client-iam";
import { GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AwsCallError, createAwsClients } from "./aws.ts";

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY";
let server: Server;
let endpoint: string;
let replies: { status: number; body: string }[] = [];
let seen = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen++;
      const r = replies.shift() ?? { status: 500, body: "unexpected" };
      res.writeHead(r.status, { "content-type": "text/xml" });
      res.end(r.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const a = server.address();
  endpoint = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
  process.env.AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
  process.env.AWS_SECRET_ACCESS_KEY = SECRET;
  process.env.AWS_ENDPOINT_URL = endpoint;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  replies = [];
  seen = 0;
});

const queryError = (code: string, message: string) =>
  `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`;
const identity = `<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:sts::133129065110:assumed-role/Ops/alice</Arn><UserId>AROA:alice</UserId><Account>133129065110</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>r-2</RequestId></ResponseMetadata></GetCallerIdentityResponse>`;

describe("AWS clients", () => {
  it("retries throttled calls with backoff, then succeeds", async () => {
    replies = [
      { status: 400, body: queryError("Throttling", "Rate exceeded") },
      { status: 400, body: queryError("Throttling", "Rate exceeded") },
      { status: 200, body: identity },
    ];
    const delays: number[] = [];
    const clients = createAwsClients({ region: "ap-southeast-1", backoff: (n) => {
      delays.push(n);
      return 1;
    } }, { arn: undefined });
    const out = await clients.sts.send(new GetCallerIdentityCommand({}));
    expect(out.Account).toBe("133129065110");
    expect(seen).toBe(3);
    expect(out.$metadata.attempts).toBe(3);
    expect(delays).toEqual([1, 2]);
  });

  it("gives up after maxAttempts and names the call", async () => {
    replies = Array.from({ length: 3 }, () => ({ status: 400, body: queryError("Throttling", "Rate exceeded") }));
    const clients = createAwsClients({ region: "ap-southeast-1", maxAttempts: 3, backoff: () => 1 }, { arn: undefined });
    await expect(clients.sts.send(new GetCallerIdentityCommand({}))).rejects.toThrow("sts GetCallerIdentity failed: Throttling: Rate exceeded");
    expect(seen).toBe(3);
  });

  it("AccessDenied names the missing permission, the resource and the identity, and never the secret", async () => {
    replies = [
      {
        status: 403,
        body: queryError(
          "AccessDenied",
          "User: arn:aws:sts::133129065110:assumed-role/Ops/alice is not authorized to perform: iam:GetRole on resource: arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop because no identity-based policy allows the iam:GetRole action",
        ),
      },
    ];
    const clients = createAwsClients({ region: "ap-southeast-1", backoff: () => 1 }, { arn: undefined });
    const err = (await clients.iam.send(new GetRoleCommand({ RoleName: "KarpenterNodeRole-eksworkshop" })).catch((e: unknown) => e)) as AwsCallError;
    expect(err).toBeInstanceOf(AwsCallError);
    expect(err.message).toBe(
      "AccessDenied: arn:aws:sts::133129065110:assumed-role/Ops/alice lacks permission iam:GetRole on arn:aws:iam::133129065110:role/KarpenterNodeRole-eksworkshop (call iam GetRole); grant it and run again",
    );
    expect(err.permission).toBe("iam:GetRole");
    expect(seen).toBe(1);
    expect(JSON.stringify({ message: err.message, stack: err.stack })).not.toContain(SECRET);
  });

  it("AccessDenied without IAM's wording falls back to the API name and the caller STS reported", async () => {
    replies = [{ status: 403, body: queryError("AccessDenied", "Access Denied") }];
    const clients = createAwsClients({ region: "ap-southeast-1", backoff: () => 1 }, { arn: "arn:aws:sts::133129065110:assumed-role/Ops/bob" });
    await expect(clients.iam.send(new GetRoleCommand({ RoleName: "x" }))).rejects.toThrow(
      "AccessDenied: arn:aws:sts::133129065110:assumed-role/Ops/bob lacks permission iam:GetRole (call iam GetRole); grant it and run again",
    );
  });
});

// The exit-code table: printed by every command's --help and by `help <command>`; 3 only for our own faults; an AWS or
// Kubernetes API that fails is 4 and a set-up mistake 2, the same in capacity refresh, bootstrap and simulate --from-cluster.
// (0, 1 and 2 of synth, validate and diff are tested beside each command: synth.test.ts, validate.test.ts, diff.test.ts.)
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AwsCallError, AwsAuthFormatError, KubeCallError, KubeconfigError } from "@eks-gitops/bootstrap";
import { main } from "./bin.ts";
import { exitCodeOf } from "./commands/bootstrap.ts";
import { EXIT, EXIT_CODES, exitCodeHelp } from "./exit-codes.ts";
import { findRepoRoot } from "./repo.ts";
import { captureOutput } from "./testing/capture.ts";

// the AWS SDK and cdk8s load on first use: slow on a busy machine, and not a timing test
vi.setConfig({ testTimeout: 120_000 });

const output = captureOutput();
const root = findRepoRoot();

describe("--help of every command ends with its exit codes", () => {
  it.each(Object.keys(EXIT_CODES))("%s", async (command) => {
    expect(await main([...command.split(" "), "--help"])).toBe(0);
    const help = output.out;
    expect(help.trimEnd().endsWith(exitCodeHelp(command))).toBe(true);
    expect(help).toContain("  3  internal fault of eks-gitops (a bug: please report it)");
    output.out = "";
    // `help <command>` prints the same
    expect(await main(["help", command.split(" ")[0]!])).toBe(0);
    expect(output.out).toContain(exitCodeHelp(command));
  });
});

describe("eks-gitops help", () => {
  it("lists the commands (exit 0), as --help does; a bare `eks-gitops` lists them too but exits 2", async () => {
    expect(await main(["help"])).toBe(0);
    const list = output.out;
    expect(list).toContain("  synth      render overlays");
    expect(list).toContain("  help       this list; 'help <command>' shows a command's options and exit codes");
    output.out = "";
    expect(await main(["--help"])).toBe(0);
    expect(output.out).toBe(list);
    output.out = "";
    expect(await main([])).toBe(2);
    expect(output.out).toBe(list);
  });

  it("help of an unknown command: exit 2 with a did-you-mean", async () => {
    expect(await main(["help", "sytnh"])).toBe(2);
    expect(output.err.split("\n")[0]).toBe("eks-gitops: unknown command 'sytnh'; did you mean 'synth'?");
    output.err = "";
    expect(await main(["hlep"])).toBe(2);
    expect(output.err.split("\n")[0]).toBe("eks-gitops: unknown command 'hlep'; did you mean 'help'?");
  });

  it("every command suggests the closest option and takes -o for --output where it has one", async () => {
    for (const [argv, message] of [
      [["simulate", "--replica", "a/b=1"], "eks-gitops: simulate --replica: unknown option; did you mean --replicas? (eks-gitops simulate --help lists the options)\n"],
      [["diff", "-o"], "eks-gitops: diff -o: needs a value (eks-gitops diff --help lists the options)\n"],
      [["simulate", "-o"], "eks-gitops: simulate -o: needs a value (eks-gitops simulate --help lists the options)\n"],
      [["bootstrap", "plan", "-o"], "eks-gitops: bootstrap -o: needs a value (eks-gitops bootstrap --help lists the options)\n"],
      [["validate", "-o"], "eks-gitops: validate -o: needs a value (eks-gitops validate --help lists the options)\n"],
    ] as const) {
      output.err = "";
      expect(await main(argv)).toBe(2);
      expect(output.err).toBe(message);
    }
  });
});

describe("3 is an internal fault only", () => {
  afterEach(() => {
    vi.doUnmock("./commands/synth.ts");
    vi.resetModules();
  });

  it("a command that throws something unexpected exits 3 with the stack", async () => {
    vi.resetModules();
    vi.doMock("./commands/synth.ts", () => ({
      synthCommand: () => {
        throw new TypeError("a bug");
      },
    }));
    const { main: fresh } = await import("./bin.ts");
    expect(await fresh(["synth"])).toBe(3);
    expect(output.err).toMatch(/^eks-gitops: internal error: TypeError: a bug\n {4}at /);
  });

  it("bootstrap: set-up mistakes 2, a failing AWS or Kubernetes API 4, a refused aws-auth 1, anything else 3", () => {
    expect(exitCodeOf(new AwsCallError("no credentials", "CredentialsProviderError", "sts:GetCallerIdentity", false, true))).toBe(EXIT.usage);
    expect(exitCodeOf(new AwsCallError("AccessDenied", "AccessDenied", "iam:GetRole", true))).toBe(EXIT.usage);
    expect(exitCodeOf(new AwsCallError("ServiceUnavailable", "ServiceUnavailable", "iam:GetRole", false))).toBe(EXIT.external);
    expect(exitCodeOf(new KubeCallError("HTML page", true))).toBe(EXIT.usage);
    expect(exitCodeOf(new KubeCallError("connect ECONNREFUSED", false))).toBe(EXIT.external);
    expect(exitCodeOf(new KubeconfigError("no kubeconfig found"))).toBe(EXIT.usage);
    expect(exitCodeOf(new AwsAuthFormatError("duplicate key"))).toBe(EXIT.invalid);
    expect(exitCodeOf(new TypeError("a bug"))).toBe(EXIT.internal);
  });
});

/** A stand-in for an AWS endpoint that answers every call with a non-retryable service error (or an HTML page). */
function failingAws(mode: "error" | "html"): Server {
  return createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (mode === "html") {
        res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><html><body>proxy login</body></html>");
      } else if (body.includes("Version=2016-11-15")) {
        // EC2's query protocol
        res.writeHead(400, { "content-type": "text/xml" }).end("<Response><Errors><Error><Code>Unsupported</Code><Message>down for a test</Message></Error></Errors><RequestID>1</RequestID></Response>");
      } else if (String(req.headers["content-type"]).includes("json")) {
        res.writeHead(400, { "content-type": "application/x-amz-json-1.1", "x-amzn-errortype": "Unsupported" }).end('{"__type":"Unsupported","message":"down for a test"}');
      } else {
        res.writeHead(400, { "content-type": "text/xml" }).end("<ErrorResponse><Error><Type>Sender</Type><Code>Unsupported</Code><Message>down for a test</Message></Error><RequestId>1</RequestId></ErrorResponse>");
      }
    });
  });
}

describe("an external service: 2 when the set-up is wrong, 4 when the service fails (capacity refresh, bootstrap)", () => {
  const saved = { ...process.env };
  const servers: Server[] = [];
  const start = async (mode: "error" | "html") => {
    const s = failingAws(mode);
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  const empty = mkdtempSync(join(tmpdir(), "eks-gitops-no-aws-"));
  const useAws = (env: Record<string, string | undefined>) => {
    for (const k of Object.keys(process.env)) if (k.startsWith("AWS_")) delete process.env[k];
    Object.assign(process.env, {
      AWS_CONFIG_FILE: join(empty, "config"),
      AWS_SHARED_CREDENTIALS_FILE: join(empty, "credentials"),
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      AWS_MAX_ATTEMPTS: "1",
      ...env,
    });
  };
  afterEach(() => {
    process.env = { ...saved };
  });
  afterAll(() => {
    for (const s of servers) s.close();
  });
  const keys = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "ap-southeast-1" };

  it("capacity refresh: no credentials 2, an HTML endpoint 2, EC2 answering an error 4", async () => {
    useAws({});
    expect(await main(["capacity", "refresh", "--cluster", "eksworkshop", "--root", root, "--check"])).toBe(2);
    expect(output.err).toContain("no AWS credentials");
    output.err = "";
    useAws({ ...keys, AWS_ENDPOINT_URL: await start("html") });
    expect(await main(["capacity", "refresh", "--cluster", "eksworkshop", "--root", root, "--check"])).toBe(2);
    expect(output.err).toContain("does not serve the EC2 API");
    output.err = "";
    useAws({ ...keys, AWS_ENDPOINT_URL: await start("error") });
    expect(await main(["capacity", "refresh", "--cluster", "eksworkshop", "--root", root, "--check"])).toBe(4);
    expect(output.err).toContain("Unsupported: down for a test");
  });

  it("bootstrap plan: no credentials 2, an HTML endpoint 2, AWS answering an error 4", async () => {
    useAws({});
    expect(await main(["bootstrap", "plan", "--cluster", "eksworkshop", "--root", root])).toBe(2);
    expect(output.err).toContain("no AWS credentials");
    output.err = "";
    useAws({ ...keys, AWS_ENDPOINT_URL: await start("html") });
    expect(await main(["bootstrap", "plan", "--cluster", "eksworkshop", "--root", root])).toBe(2);
    expect(output.err).toContain("with an HTML page");
    output.err = "";
    useAws({ ...keys, AWS_ENDPOINT_URL: await start("error") });
    expect(await main(["bootstrap", "plan", "--cluster", "eksworkshop", "--root", root])).toBe(4);
    expect(output.err).toContain("down for a test");
  });
});

describe("simulate --from-cluster: no kubeconfig 2, an API that fails 4", () => {
  let api: Server;
  let server: string;
  const dir = mkdtempSync(join(tmpdir(), "eks-gitops-kube-"));
  beforeAll(async () => {
    api = createServer((_req, res) => res.writeHead(500, { "content-type": "application/json" }).end('{"kind":"Status","code":500,"message":"etcd down"}'));
    await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
    server = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => api.close());

  it("names where it looked for a kubeconfig (exit 2), and exits 4 when the API answers 500", async () => {
    const missing = join(dir, "nope");
    expect(await main(["simulate", "--cluster", "eksworkshop", "--from-cluster", "--kubeconfig", missing, "--root", root])).toBe(2);
    expect(output.err.split("\n")[0]).toBe(`--kubeconfig ${missing}: no such file; pass --kubeconfig FILE (e.g. after \`aws eks update-kubeconfig --name CLUSTER\`)`);
    output.err = "";
    const kubeconfig = join(dir, "config");
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${server}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
    );
    expect(await main(["simulate", "--cluster", "eksworkshop", "--from-cluster", "--kubeconfig", kubeconfig, "--root", root])).toBe(4);
    expect(output.err).toContain(`list nodes at ${server} failed (HTTP 500)`);
  });
});

describe("validate --from-cluster: a kubeconfig without a cluster or refused credentials 2, an API that fails 4", () => {
  let api: Server;
  let server: string;
  let status = 500;
  const dir = mkdtempSync(join(tmpdir(), "eks-gitops-kube-"));
  const saved = process.env.KUBECONFIG;
  beforeAll(async () => {
    api = createServer((_req, res) => res.writeHead(status, { "content-type": "application/json" }).end(`{"kind":"Status","code":${status}}`));
    await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
    server = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    api.close();
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
  });

  it("exits 4 when the API answers 500 or cannot be reached, 2 when it refuses the credentials", async () => {
    const kubeconfig = (at: string) => {
      const file = join(dir, `config-${at.replace(/\W/g, "")}`);
      writeFileSync(
        file,
        `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${at}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
      );
      return file;
    };
    const file = join(root, "clusters/eksworkshop/rendered");
    const run = async (at: string) => {
      process.env.KUBECONFIG = kubeconfig(at);
      output.err = "";
      return main(["validate", "--from-cluster", file, "--root", root]);
    };
    status = 500;
    expect(await run(server)).toBe(4);
    expect(output.err).toContain(`--from-cluster: GET ${server}/apis/apiextensions.k8s.io/v1/customresourcedefinitions answered HTTP 500`);
    status = 403;
    expect(await run(server)).toBe(2);
    expect(output.err).toContain("answered HTTP 403");
    // nothing listens on port 1
    expect(await run("http://127.0.0.1:1")).toBe(4);
    expect(output.err).toContain("--from-cluster: cannot reach http://127.0.0.1:1");
  });
});

describe("the README's exit-code table", () => {
  it("is the table of the code", async () => {
    const { readFileSync } = await import("node:fs");
    const { exitCodeTable } = await import("./exit-codes.ts");
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain(`\n${exitCodeTable()}\n`);
  });
});

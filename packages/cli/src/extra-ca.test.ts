// NODE_EXTRA_CA_CERTS: bin/eks-gitops.sh starts Node without it (Node 20 reads the file before the first line of
// JavaScript, ~37 ms of every run), and bin/extra-ca.js trusts its certificates on the first TLS connection, as Node
// would have. A local HTTPS server (127.0.0.1) whose certificate only testing/tls/ca.pem signed tells trusted from not.
import { spawn } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createSecureServer } from "node:http2";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CATALOG, fetchPinned } from "@eks-gitops/validate";
import { afterAll, describe, expect, it, vi } from "vitest";

// processes of their own (extra-ca.js changes process-wide things), and a run with a cold cache: seconds, not a timing test
vi.setConfig({ testTimeout: 120_000 });

const REPO = resolve(import.meta.dirname, "../../..");
const BIN = join(REPO, "packages/cli/bin");
const TLS_DIR = join(import.meta.dirname, "testing/tls");
const CA = join(TLS_DIR, "ca.pem");
const UNTRUSTED = "UNABLE_TO_VERIFY_LEAF_SIGNATURE";

const scratch = mkdtempSync(join(tmpdir(), "eks-gitops-extra-ca-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The environment of a user's shell, without what this test run adds, and without NODE_EXTRA_CA_CERTS (each case says its own). */
function userEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === "INIT_CWD" || k === "PNPM_SCRIPT_SRC_DIR" || k === "FORCE_COLOR" || k === "NODE_OPTIONS" || k.startsWith("npm_") || k.startsWith("VITEST")) continue;
    if (k === "NODE_EXTRA_CA_CERTS" || k === "EKS_GITOPS_EXTRA_CA_CERTS") continue;
    out[k] = v;
  }
  return { ...out, ...env };
}

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command without blocking this process (whose HTTPS server must answer meanwhile). */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd = REPO): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: userEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    child.on("error", fail);
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

/** An HTTPS server on 127.0.0.1 (HTTP/1.1 and HTTP/2), with the certificate ca.pem signed. */
async function httpsServer(answer: (path: string) => Promise<Buffer | undefined> = async () => Buffer.from("ok")): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createSecureServer({ key: readFileSync(join(TLS_DIR, "server-key.pem")), cert: readFileSync(join(TLS_DIR, "server.pem")), allowHTTP1: true }, (req, res) => {
    const response = res as unknown as ServerResponse;
    answer(decodeURIComponent((req as unknown as IncomingMessage).url ?? "/")).then(
      (body) => {
        response.statusCode = body ? 200 : 404;
        response.end(body ?? "not here");
      },
      () => {
        response.statusCode = 500;
        response.end();
      },
    );
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((closed) => server.close(() => closed())) };
}

/**
 * A Node process that runs extra-ca.js as the launcher does, then makes its first TLS connection through `first`
 * (fetch, require("node:https"), process.getBuiltinModule("node:https") or http2), then connections through https:
 * one naming its own certificate authority (one of Node's roots, which did not sign the server's certificate), one
 * with a context it made itself, two setting nothing (counting the contexts made) and one setting a cipher list. It
 * prints what it saw as JSON.
 */
const CLIENT = `
const { spawnSync } = require("node:child_process");
const trust = require(${JSON.stringify(join(BIN, "extra-ca.js"))}).restoreExtraCaCerts();
const [first, url] = process.argv.slice(1);
const out = {
  trust: typeof trust,
  tlsLoaded: process.moduleLoadList.filter((m) => /^NativeModule (tls|https|_tls_wrap|http2)$/.test(m)),
  env: process.env.NODE_EXTRA_CA_CERTS ?? null,
  moved: process.env.EKS_GITOPS_EXTRA_CA_CERTS ?? null,
  child: spawnSync(process.execPath, ["-p", "process.env.NODE_EXTRA_CA_CERTS"], { encoding: "utf8" }).stdout.trim(),
};
const get = (https, options) => new Promise((done) => https.get(url, { agent: false, ...options }, (r) => { r.resume(); r.on("end", () => done(String(r.statusCode))); }).on("error", (e) => done(e.code)));
const h2 = () => new Promise((done) => { const s = require("node:http2").connect(url); s.on("connect", () => { s.close(); done("connected"); }); s.on("error", (e) => done(e.code)); });
(async () => {
  if (first === "fetch") out.first = await fetch(url).then((r) => String(r.status), (e) => e.cause?.code ?? e.message);
  if (first === "require") out.first = await get(require("node:https"));
  if (first === "builtin") out.first = await get(process.getBuiltinModule("node:https"));
  if (first === "http2") out.first = await h2();
  out.ownCa = await get(require("node:https"), { ca: [require("node:tls").rootCertificates[0]] });
  const tls = require("node:tls");
  // a context other code makes itself trusts the file too, as Node's root store would
  out.ownContext = await get(require("node:https"), { secureContext: tls.createSecureContext({}) });
  // connections that set nothing of their context share one (no context made for each); one that sets a cipher list gets its own
  const make = tls.createSecureContext;
  let made = 0;
  tls.createSecureContext = function (...a) { made++; return make.apply(this, a); };
  out.shared = [await get(require("node:https")), await get(require("node:https")), made];
  out.ciphers = [await get(require("node:https"), { ciphers: "HIGH" }), made];
  console.log(JSON.stringify(out));
})();
`;

async function client(first: string, url: string, env: NodeJS.ProcessEnv): Promise<{ ran: Ran; out: Record<string, unknown> }> {
  const ran = await run(process.execPath, ["-e", CLIENT, first, `${url}/`], env);
  expect(ran.status, ran.stderr).toBe(0);
  return { ran, out: JSON.parse(ran.stdout) as Record<string, unknown> };
}

describe("extra-ca.js: NODE_EXTRA_CA_CERTS moved aside, trusted on the first TLS connection", () => {
  it.each(["fetch", "require", "builtin", "http2"])("trusts the file's certificates from the first connection on, made by %s", async (first) => {
    const server = await httpsServer();
    try {
      const { out } = await client(first, server.url, { EKS_GITOPS_EXTRA_CA_CERTS: CA, NODE_EXTRA_CA_CERTS: "" });
      expect(out.first).toBe(first === "http2" ? "connected" : "200");
      // the variable is back for child processes, and nothing of TLS was loaded before the first use
      expect(out).toMatchObject({ trust: "function", env: CA, moved: null, child: CA, tlsLoaded: [] });
      // a connection that names its own certificate authorities trusts only those, as in Node
      expect(out.ownCa).toBe(UNTRUSTED);
      expect(out).toMatchObject({ ownContext: "200", shared: ["200", "200", 0], ciphers: ["200", 1] });
    } finally {
      await server.close();
    }
  });

  it("trusts nothing more when nothing was moved aside (the control: the server's certificate is untrusted)", async () => {
    const server = await httpsServer();
    try {
      for (const first of ["fetch", "require"]) {
        const { out } = await client(first, server.url, { NODE_EXTRA_CA_CERTS: "" });
        expect(out).toMatchObject({ trust: "undefined", env: "", moved: null, first: UNTRUSTED, ownContext: UNTRUSTED });
      }
    } finally {
      await server.close();
    }
  });

  it("says a file it cannot read as Node does, and trusts none of it", async () => {
    const server = await httpsServer();
    const missing = join(scratch, "no-such-bundle.pem");
    const empty = join(scratch, "empty.pem");
    writeFileSync(empty, "not a certificate\n");
    try {
      const gone = await client("require", server.url, { EKS_GITOPS_EXTRA_CA_CERTS: missing, NODE_EXTRA_CA_CERTS: "" });
      expect(gone.out).toMatchObject({ env: missing, first: UNTRUSTED });
      expect(gone.ran.stderr).toBe(`Warning: Ignoring extra certs from \`${missing}\`, load failed: ENOENT\n`);
      const none = await client("fetch", server.url, { EKS_GITOPS_EXTRA_CA_CERTS: empty, NODE_EXTRA_CA_CERTS: "" });
      expect(none.out).toMatchObject({ first: UNTRUSTED });
      expect(none.ran.stderr).toContain(`Ignoring extra certs from \`${empty}\`, load failed: no PEM certificate in the file`);
    } finally {
      await server.close();
    }
  });
});

describe("eks-gitops.sh: Node starts without NODE_EXTRA_CA_CERTS", () => {
  // loaded by Node before the launcher (NODE_OPTIONS=--require): the environment the process started with
  const probe = join(scratch, "probe.cjs");
  const seen = join(scratch, "seen.json");
  writeFileSync(probe, `require("node:fs").writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ extra: process.env.NODE_EXTRA_CA_CERTS ?? null, moved: process.env.EKS_GITOPS_EXTRA_CA_CERTS ?? null }));\n`);
  const started = () => JSON.parse(readFileSync(seen, "utf8")) as { extra: string | null; moved: string | null };

  it("moves it aside, and the command runs (`pnpm eks-gitops --version`, and the launcher through a link)", async () => {
    const typed = await run("pnpm", ["-s", "eks-gitops", "--version"], { NODE_EXTRA_CA_CERTS: CA, NODE_OPTIONS: `--require ${probe}` });
    expect(typed.status, typed.stderr).toBe(0);
    expect(typed.stdout).toMatch(/^eks-gitops \d+\.\d+\.\d+\n$/);
    expect(started()).toEqual({ extra: null, moved: CA });
    const link = join(scratch, "eks-gitops");
    symlinkSync(join(BIN, "eks-gitops.sh"), link);
    const linked = await run(link, ["--version"], { NODE_EXTRA_CA_CERTS: CA }, scratch);
    expect(linked.status, linked.stderr).toBe(0);
    expect(linked.stdout).toBe(typed.stdout);
  });

  it("leaves it to Node when Node trusts the system's store (--use-openssl-ca), and when it is unset", async () => {
    const openssl = await run("sh", [join(BIN, "eks-gitops.sh"), "--version"], { NODE_EXTRA_CA_CERTS: CA, NODE_OPTIONS: `--use-openssl-ca --require ${probe}` });
    expect(openssl.status, openssl.stderr).toBe(0);
    expect(started()).toEqual({ extra: CA, moved: null });
    const unset = await run("sh", [join(BIN, "eks-gitops.sh"), "--version"], { NODE_OPTIONS: `--require ${probe}` });
    expect(unset.status, unset.stderr).toBe(0);
    expect(started()).toEqual({ extra: null, moved: null });
  });

  it("`pnpm validate` downloads the pinned schemas from an HTTPS mirror that only NODE_EXTRA_CA_CERTS makes trusted", async () => {
    // the mirror serves the pinned files' bytes (as this test run has them: its mirror, else upstream) at their paths
    const pinned = new Map(CATALOG.flatMap((release) => release.files).map((f) => [`/${f.path}`, f]));
    const served: string[] = [];
    const mirror = await httpsServer(async (path) => {
      const file = pinned.get(path);
      if (!file) return undefined;
      served.push(path);
      return fetchPinned(file);
    });
    const manifest = join(scratch, "configmap.yaml");
    writeFileSync(manifest, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n");
    try {
      const cold = (name: string) => ({ XDG_CACHE_HOME: mkdtempSync(join(scratch, `${name}-`)), EKS_GITOPS_MIRROR: mirror.url });
      const refused = await run("pnpm", ["-s", "validate", manifest], { ...cold("untrusted"), NODE_EXTRA_CA_CERTS: "" });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`cannot download ${mirror.url}/`);
      expect(refused.stderr).toContain(`fetch failed (${UNTRUSTED}: unable to verify the first certificate)`);
      expect(served).toEqual([]);
      const trusted = await run("pnpm", ["-s", "validate", manifest], { ...cold("trusted"), NODE_EXTRA_CA_CERTS: CA });
      expect(trusted.stderr).not.toContain("cannot download");
      expect(trusted.status, trusted.stderr).toBe(0);
      expect(trusted.stdout).toContain("Summary: 1 resources found - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0");
      expect(served.length).toBeGreaterThan(0);
    } finally {
      await mirror.close();
    }
  });
});

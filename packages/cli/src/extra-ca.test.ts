// NODE_EXTRA_CA_CERTS: bin/eks-gitops.sh starts Node without it (Node 20 reads the file before the first line of
// JavaScript, ~37 ms of every run), and bin/extra-ca.js trusts its certificates on the first TLS connection, as Node
// would have. A local HTTPS server (127.0.0.1) whose certificate only testing/tls/ca.pem signed tells trusted from not.
import { spawn } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createSecureServer } from "node:http2";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { CATALOG, fetchPinned } from "@eks-gitops/validate";
import { afterAll, describe, expect, it, vi } from "vitest";
import { userEnv } from "./testing/user-env.ts";

// processes of their own (extra-ca.js changes process-wide things), and a run with a cold cache: seconds, not a timing test
vi.setConfig({ testTimeout: 120_000 });

const REPO = resolve(import.meta.dirname, "../../..");
const BIN = join(REPO, "packages/cli/bin");
const TLS_DIR = join(import.meta.dirname, "testing/tls");
const CA = join(TLS_DIR, "ca.pem");
const UNTRUSTED = "UNABLE_TO_VERIFY_LEAF_SIGNATURE";

const scratch = mkdtempSync(join(tmpdir(), "eks-gitops-extra-ca-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command without blocking this process (whose HTTPS server must answer meanwhile). */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd = REPO): Promise<Ran> {
  return new Promise((done, fail) => {
    // a user's shell, without NODE_OPTIONS or the certificate variables: each case says its own
    const child = spawn(command, args, { cwd, env: { ...userEnv(["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "EKS_GITOPS_EXTRA_CA_CERTS"]), ...env }, stdio: ["ignore", "pipe", "pipe"] });
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
 * A Node process that runs extra-ca.js as the launcher does, changes folder (as the launcher does for a root script),
 * then makes its first TLS connection through `first` (fetch, require("node:https"), process.getBuiltinModule or
 * http2), then connections through https that set their context in the ways Node treats apart. It prints, as JSON,
 * what each connection got (`outcomes`: the status and TLS version, or the error code) and what it saw besides.
 */
const CLIENT = `
const { spawnSync } = require("node:child_process");
const trust = require(${JSON.stringify(join(BIN, "extra-ca.js"))}).restoreExtraCaCerts();
const [first, url, folder] = process.argv.slice(1);
process.chdir(folder);
const out = {
  trust: typeof trust,
  tlsLoaded: process.moduleLoadList.filter((m) => /^NativeModule (tls|https|_tls_wrap|http2)$/.test(m)),
  env: process.env.NODE_EXTRA_CA_CERTS ?? null,
  moved: process.env.EKS_GITOPS_EXTRA_CA_CERTS ?? null,
  child: spawnSync(process.execPath, ["-p", "process.env.NODE_EXTRA_CA_CERTS ?? null"], { encoding: "utf8" }).stdout.trim(),
  outcomes: {},
};
const get = (https, options) => new Promise((done) => https.get(url, { agent: false, ...options }, (r) => { const v = r.socket.getProtocol(); r.resume(); r.on("end", () => done(r.statusCode + " " + v)); }).on("error", (e) => done(e.code)));
const h2 = () => new Promise((done) => { const s = require("node:http2").connect(url); s.on("connect", () => { s.close(); done("connected"); }); s.on("error", (e) => done(e.code)); });
(async () => {
  const o = out.outcomes;
  if (first === "fetch") o.first = await fetch(url).then((r) => String(r.status), (e) => e.cause?.code ?? e.message);
  if (first === "require") o.first = await get(require("node:https"));
  if (first === "builtin") o.first = await get(process.getBuiltinModule("node:https"));
  if (first === "http2") o.first = await h2();
  const https = require("node:https");
  const tls = require("node:tls");
  // its own authority (one of Node's roots, which did not sign the server's certificate): only that one
  o.ownCa = await get(https, { ca: [tls.rootCertificates[0]] });
  // a context made by the caller, and one made of options that inherit what they set
  o.ownContext = await get(https, { secureContext: tls.createSecureContext({}) });
  o.inherited = await get(https, { secureContext: tls.createSecureContext(Object.create({ maxVersion: "TLSv1.2" })) });
  // where Node 20 copies its roots without the file's
  o.partialChain = await get(https, { allowPartialTrustChain: true });
  o.ciphers = await get(https, { ciphers: "HIGH" });
  // a default changed after the first connections: read again for the next one, as Node does for each context
  const make = tls.createSecureContext;
  let made = 0;
  tls.createSecureContext = function (...a) { made++; return make.apply(this, a); };
  o.plain = [await get(https), await get(https)];
  out.made = made;
  tls.DEFAULT_MAX_VERSION = "TLSv1.2";
  o.defaultChanged = await get(https);
  console.log(JSON.stringify(out));
})();
`;

async function client(first: string, url: string, env: NodeJS.ProcessEnv, cwd = REPO): Promise<{ ran: Ran; out: Record<string, unknown> & { outcomes: Record<string, unknown> } }> {
  const ran = await run(process.execPath, ["-e", CLIENT, first, `${url}/`, scratch], env, cwd);
  expect(ran.status, ran.stderr).toBe(0);
  return { ran, out: JSON.parse(ran.stdout) };
}

/**
 * The same client with Node reading `file` itself at start, and with the file moved aside as eks-gitops.sh does:
 * every connection must get the same outcome both ways.
 */
async function sameAsNode(first: string, url: string, file: string, cwd = REPO) {
  const native = await client(first, url, { NODE_EXTRA_CA_CERTS: file }, cwd);
  const moved = await client(first, url, { EKS_GITOPS_EXTRA_CA_CERTS: file, NODE_EXTRA_CA_CERTS: "" }, cwd);
  expect(moved.out.outcomes, file).toEqual(native.out.outcomes);
  return { native, moved };
}

/** Runs `use` with a local HTTPS server (httpsServer), closed after. */
async function withServer(use: (url: string) => Promise<void>): Promise<void> {
  const server = await httpsServer();
  try {
    await use(server.url);
  } finally {
    await server.close();
  }
}

describe("extra-ca.js: NODE_EXTRA_CA_CERTS moved aside, trusted as Node trusts it, from the first TLS connection on", () => {
  it.each(["fetch", "require", "builtin", "http2"])("every connection gets what it gets with Node reading the file itself; the first one made by %s", async (first) => {
    await withServer(async (url) => {
      const { native, moved } = await sameAsNode(first, url, CA);
      expect(native.out.outcomes).toMatchObject({
        first: first === "http2" ? "connected" : first === "fetch" ? "200" : "200 TLSv1.3",
        ownCa: UNTRUSTED,
        ownContext: "200 TLSv1.3",
        inherited: "200 TLSv1.2",
        ciphers: "200 TLSv1.3",
        plain: ["200 TLSv1.3", "200 TLSv1.3"],
        defaultChanged: "200 TLSv1.2",
      });
      expect(native.out.outcomes.partialChain).not.toMatch(/^200/);
      // the variable is back for child processes, and nothing of TLS was loaded before the first use
      expect(moved.out).toMatchObject({ trust: "function", env: CA, moved: null, child: CA, tlsLoaded: [] });
      // connections that set nothing of their context share one (none made for them)
      expect(moved.out.made).toBe(0);
      expect(moved.ran.stderr).toBe("");
    });
  });

  it("trusts nothing more when nothing was moved aside (the control: the server's certificate is untrusted)", async () => {
    await withServer(async (url) => {
      const { out } = await client("require", url, { NODE_EXTRA_CA_CERTS: "" });
      expect(out).toMatchObject({ trust: "undefined", env: "", moved: null, outcomes: { first: UNTRUSTED, ownContext: UNTRUSTED, plain: [UNTRUSTED, UNTRUSTED] } });
    });
  });

  it("reads the file at start, as Node does: a relative path is the start folder's", async () => {
    // the client changes folder before it connects (as the launcher does for a root script)
    await withServer(async (url) => expect((await sameAsNode("fetch", url, "ca.pem", TLS_DIR)).native.out.outcomes.first).toBe("200"));
  });

  it("takes the certificates before one that does not parse, and says so; warns of a file it cannot read; is silent on one without certificates", async () => {
    const pem = readFileSync(CA, "latin1");
    const damaged = pem.replace(/(BEGIN CERTIFICATE-----\n)(.{8})/, "$1AAAAAAAA");
    const broken = join(scratch, "broken.pem");
    // Node's first root, a damaged block, then the test authority: the test authority is never reached
    writeFileSync(broken, `${(await import("node:tls")).rootCertificates[0]}\n${damaged}${pem}`);
    const missing = join(scratch, "no-such-bundle.pem");
    const empty = join(scratch, "empty.pem");
    writeFileSync(empty, "not a certificate\n");
    // the certificates before the damaged one are kept: the test authority, put first, is trusted
    const first = join(scratch, "first.pem");
    writeFileSync(first, `${pem}${damaged}`);
    await withServer(async (url) => {
      for (const [file, outcome, warned] of [[broken, UNTRUSTED, true], [missing, UNTRUSTED, true], [empty, UNTRUSTED, false], [first, "200 TLSv1.3", true]] as const) {
        const { native, moved } = await sameAsNode("require", url, file);
        expect(native.out.outcomes.first, file).toBe(outcome);
        const warning = `Warning: Ignoring extra certs from \`${file}\`, load failed: `;
        expect([native.ran.stderr.includes(warning), moved.ran.stderr.includes(warning)], file).toEqual([warned, warned]);
      }
    });
  });

  it("ignores a moved value it was not given by the launcher: NODE_EXTRA_CA_CERTS already read by Node, or the system's store", async () => {
    await withServer(async (url) => {
      const native = await client("require", url, { NODE_EXTRA_CA_CERTS: CA, EKS_GITOPS_EXTRA_CA_CERTS: join(scratch, "other.pem") });
      expect(native.out).toMatchObject({ trust: "undefined", env: CA, moved: null, outcomes: { first: "200 TLSv1.3" } });
    });
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
    // a relative link, as a package manager's bin folder holds
    symlinkSync(relative(scratch, join(BIN, "eks-gitops.sh")), link);
    const linked = await run(link, ["--version"], { NODE_EXTRA_CA_CERTS: CA }, scratch);
    expect(linked.status, linked.stderr).toBe(0);
    expect(linked.stdout).toBe(typed.stdout);
    // `sh eks-gitops`: the link named without a folder
    const named = await run("sh", ["eks-gitops", "--version"], { NODE_EXTRA_CA_CERTS: CA }, scratch);
    expect(named.status, named.stderr).toBe(0);
    expect(named.stdout).toBe(typed.stdout);
  });

  it("leaves it to Node when Node trusts the system's store (--use-openssl-ca), and when it is unset", async () => {
    const openssl = await run("sh", [join(BIN, "eks-gitops.sh"), "--version"], { NODE_EXTRA_CA_CERTS: CA, NODE_OPTIONS: `--use-openssl-ca --require ${probe}` });
    expect(openssl.status, openssl.stderr).toBe(0);
    expect(started()).toEqual({ extra: CA, moved: null });
    // a moved value the launcher did not set (inherited, or set by hand) is dropped
    const unset = await run("sh", [join(BIN, "eks-gitops.sh"), "--version"], { NODE_OPTIONS: `--require ${probe}`, EKS_GITOPS_EXTRA_CA_CERTS: CA });
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

// NODE_EXTRA_CA_CERTS, trusted on the first TLS connection instead of at the start of every run.
//
// Node 20 reads the file NODE_EXTRA_CA_CERTS names at start, before the first line of JavaScript: OpenSSL parses
// Node's own ~140 root certificates and the file's into the root store. On the 2-CPU machine of issue 19, with the
// system's bundle of ~140 certificates, that was 54 ms to a script's first line against 17 ms without it, in every
// process: `validate` of 5,000 block-YAML files 0.72 -> 0.68 s, of 5,000 CRD-heavy files 0.36 -> 0.31 s (medians
// of 9 interleaved runs, 2026-12-05). Few runs make a TLS connection at all: a download of the pinned schemas (a
// cold cache), `--from-cluster`, `bootstrap`, the EC2 and pricing APIs.
//
// So eks-gitops.sh starts Node with the variable moved to EKS_GITOPS_EXTRA_CA_CERTS, and restoreExtraCaCerts() puts
// it back (child processes get it as the user set it) and trusts the file's certificates the way Node would have:
// every TLS context made without certificate authorities of its own (`ca`) trusts Node's root certificates and the
// file's, one that names its own trusts only those, as in Node, with Node's exceptions: a context with a `pfx`, a
// `crl` or `allowPartialTrustChain` trusts Node's roots only (Node 20 then copies its roots without the file's). The
// file is read at start, as Node reads it (a relative path is the start folder's), and its certificates are taken
// as Node takes them: in order, up to the first that does not parse (with a warning, as for a file that cannot be
// read). Known differences, none on a path the CLI takes: certificates added to a context after it was made
// (`context.addCACert()`) join the file's, where Node drops them; a server context without `ca` lists the trusted
// authorities in its certificate requests; ES module imports of `node:https` and worker threads are not hooked (a
// connection from them trusts Node's roots only: it fails, never trusts more).
//
// Hand-written, as no library does this: Node 20 has no call to change its default certificate authorities. The
// certificates are read when the first module that makes TLS connections is loaded (`tls`, `https`, `http2`, by
// require() or process.getBuiltinModule()) or fetch() is first called; loading `tls` at every start would cost
// ~5 ms of the 37. A worker thread has a module loader of its own: none of the CLI's workers connects anywhere.
"use strict";

const Module = require("node:module");

/** Where eks-gitops.sh moves NODE_EXTRA_CA_CERTS to (see above). */
const MOVED = "EKS_GITOPS_EXTRA_CA_CERTS";

/** The modules whose loading means a TLS connection may follow. */
const TLS_MODULES = new Set(["tls", "node:tls", "https", "node:https", "http2", "node:http2"]);

/** What tls.createSecureContext() reads of its options (Node 20's createSecureContext and configSecureContext): a connection setting none of them gets the shared context. */
const CONTEXT_OPTIONS = ["allowPartialTrustChain", "ca", "cert", "ciphers", "clientCertEngine", "crl", "dhparam", "ecdhCurve", "key", "passphrase", "pfx", "privateKeyIdentifier", "privateKeyEngine", "sessionIdContext", "sessionTimeout", "sigalgs", "ticketKeys", "honorCipherOrder", "minVersion", "maxVersion", "secureProtocol", "secureOptions"];

/** PEM blocks OpenSSL reads as certificates (PEM_read_bio_X509: `CERTIFICATE`, `X509 CERTIFICATE`). */
const PEM_CERTIFICATE = /-----BEGIN (X509 )?CERTIFICATE-----[\s\S]*?-----END \1CERTIFICATE-----/g;

/** Whether Node trusts the system's store instead of its own roots (the variable is then Node's own business). */
const usesOpensslCa = () => process.execArgv.includes("--use-openssl-ca") || /(^|\s)--use-openssl-ca(\s|$)/.test(process.env.NODE_OPTIONS ?? "");

/**
 * Puts NODE_EXTRA_CA_CERTS back into `process.env` when eks-gitops.sh moved it aside, reads the file (as Node would
 * have, at start), and arranges for its certificates to be trusted from the first TLS connection on. Call once,
 * first thing (before any change of folder). Returns a function that trusts them at once (for code whose imports do
 * not pass through Module._load: the CLI run from its TypeScript sources, as ES modules), or undefined when there is
 * nothing to trust.
 */
function restoreExtraCaCerts() {
  const file = process.env[MOVED];
  if (file === undefined) return undefined;
  delete process.env[MOVED];
  // set by hand or inherited, not by the launcher: Node has read NODE_EXTRA_CA_CERTS itself, or trusts the system's
  // store; either way the moved value is not for this process
  if (process.env.NODE_EXTRA_CA_CERTS || usesOpensslCa()) return undefined;
  process.env.NODE_EXTRA_CA_CERTS = file;
  if (file === "") return undefined;
  let text;
  let failure;
  try {
    text = require("node:fs").readFileSync(file, "latin1");
  } catch (err) {
    // a folder reads as no certificate, without a word, as in Node
    if (err.code !== "EISDIR") failure = err.code ?? err.message;
  }
  let trusted = false;
  const trust = () => {
    if (trusted) return;
    trusted = true;
    trustFile(file, text, failure);
  };
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (!trusted && TLS_MODULES.has(request)) trust();
    return load.call(this, request, ...rest);
  };
  const builtin = process.getBuiltinModule;
  if (typeof builtin === "function") {
    process.getBuiltinModule = function getBuiltinModule(id) {
      if (!trusted && TLS_MODULES.has(id)) trust();
      return builtin.call(this, id);
    };
  }
  const original = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  if (original) {
    // Node 20 defines fetch with a getter that loads its HTTP client on first use: read only when called
    const real = () => (original.get ? original.get.call(globalThis) : original.value);
    Object.defineProperty(globalThis, "fetch", {
      configurable: true,
      enumerable: original.enumerable,
      writable: true,
      value: function fetch(input, init) {
        trust();
        return real()(input, init);
      },
    });
  }
  return trust;
}

/** The certificates of the file's text as Node takes them: in order, up to the first that does not parse. */
function certificatesOf(text) {
  const { X509Certificate } = require("node:crypto");
  const certificates = [];
  for (const [pem] of text.matchAll(PEM_CERTIFICATE)) {
    try {
      new X509Certificate(pem);
    } catch (err) {
      return { certificates, failure: err.message };
    }
    certificates.push(pem);
  }
  return { certificates, failure: undefined };
}

/**
 * Makes every secure context made without certificate authorities of its own trust the file's certificates with
 * Node's own roots: the root store Node would have made (`text`: the file's, read at start; `failure`: why it could
 * not be read).
 */
function trustFile(file, text, failure) {
  const tls = require("node:tls");
  const read = text === undefined ? { certificates: [], failure } : certificatesOf(text);
  // said as Node says it at start (on stderr), and as there, the certificates before the failure are kept
  if (read.failure !== undefined) process.stderr.write(`Warning: Ignoring extra certs from \`${file}\`, load failed: ${read.failure}\n`);
  const extra = read.certificates;
  if (extra.length === 0) return;
  let authorities;
  const withFile = () => (authorities ??= [...tls.rootCertificates, ...extra]);
  const createSecureContext = tls.createSecureContext;
  // Every TLS context is made here: tls.connect() calls it through this module's export (for https, fetch and http2
  // alike) unless given a `secureContext`, and other code makes its own here. Node's code (20.x) trusts `options.ca`
  // when it is truthy, and its root store (with the file's certificates) otherwise, except that a `pfx`, a `crl` or
  // `allowPartialTrustChain` make it copy its roots without the file's: those are left to Node, and so are options
  // that are not an object (Node refuses them). The options are the prototype of what is passed on, so that what
  // Node reads of them (own, inherited or a getter) is read the same.
  tls.createSecureContext = function (options) {
    if (options?.ca || (options !== undefined && options !== null && typeof options !== "object")) return createSecureContext.call(this, options);
    if (options && (options.pfx != null || options.crl != null || options.allowPartialTrustChain)) return createSecureContext.call(this, options);
    return createSecureContext.call(this, { __proto__: options ?? null, ca: withFile() });
  };
  // A context trusting Node's ~140 certificates and the file's (~280 here) costs ~40 ms to make (OpenSSL parses each
  // one), where Node's own, sharing one root store, cost ~0.3 ms: a connection that sets nothing of its context gets
  // one made once and shared, as Node shares its root store, and made again when a default it was made with changes
  // (tls.DEFAULT_MIN_VERSION and the others, read by Node for each new context). Only connections: a context that
  // other code makes is its own (it may add to it).
  let shared;
  let sharedWith;
  const sharedContext = () => {
    const defaults = `${tls.DEFAULT_MIN_VERSION}\n${tls.DEFAULT_MAX_VERSION}\n${tls.DEFAULT_CIPHERS}\n${tls.DEFAULT_ECDH_CURVE}`;
    if (shared === undefined || sharedWith !== defaults) {
      shared = createSecureContext.call(tls, { ca: withFile() });
      sharedWith = defaults;
    }
    return shared;
  };
  const connect = tls.connect;
  tls.connect = function (...args) {
    // tls.connect(options[, cb]), (port[, host][, options][, cb]) or (path[, options][, cb]): the first object
    const at = args.findIndex((a) => typeof a === "object" && a !== null);
    const options = at >= 0 ? args[at] : undefined;
    if (!options || (options.secureContext === undefined && CONTEXT_OPTIONS.every((k) => options[k] === undefined || (k === "ca" && !options.ca)))) {
      // spread, as Node's connect() spreads the options it is given (what they inherit is not read there either)
      if (options) args[at] = { ...options, secureContext: sharedContext() };
      else {
        const callback = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
        args.push({ secureContext: sharedContext() });
        if (callback) args.push(callback);
      }
    }
    return connect.apply(this, args);
  };
}

exports.restoreExtraCaCerts = restoreExtraCaCerts;

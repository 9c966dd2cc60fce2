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
// file's, one that names its own trusts only those (a `pfx`'s authorities are added either way), as in Node.
// Nothing is ever trusted that Node would not trust, and a file that cannot be read is said as Node says it (a
// warning), its certificates then trusted by nobody.
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

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Puts NODE_EXTRA_CA_CERTS back into `process.env` when eks-gitops.sh moved it aside, and arranges for its
 * certificates to be trusted from the first TLS connection on. Call once, first thing. Returns a function that
 * trusts them at once (for code whose imports do not pass through Module._load: the CLI run from its TypeScript
 * sources, as ES modules), or undefined when nothing was moved aside.
 */
function restoreExtraCaCerts() {
  const file = process.env[MOVED];
  if (file === undefined) return undefined;
  delete process.env[MOVED];
  process.env.NODE_EXTRA_CA_CERTS = file;
  if (file === "") return undefined;
  let trusted = false;
  const trust = () => {
    if (trusted) return;
    trusted = true;
    trustFile(file);
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

/**
 * Reads the certificates of `file`, and makes every secure context made without certificate authorities of its own
 * trust them with Node's own root certificates: the root store Node would have made.
 */
function trustFile(file) {
  const tls = require("node:tls");
  let extra;
  try {
    extra = require("node:fs").readFileSync(file, "latin1").match(PEM_CERTIFICATE) ?? [];
    if (extra.length === 0) throw new Error("no PEM certificate in the file");
  } catch (err) {
    // said as Node says it at start (its words, on stderr), and as there, TLS goes on with Node's root certificates
    process.stderr.write(`Warning: Ignoring extra certs from \`${file}\`, load failed: ${err.code ?? err.message}\n`);
    return;
  }
  let authorities;
  const withFile = () => (authorities ??= [...tls.rootCertificates, ...extra]);
  const createSecureContext = tls.createSecureContext;
  // Every TLS context is made here: tls.connect() calls it through this module's export (for https, fetch and http2
  // alike) unless given a `secureContext`, and other code makes its own here. Node's code (20.x) trusts `options.ca`
  // when it is truthy, and its root store (with the file's certificates) otherwise.
  tls.createSecureContext = function (options) {
    if (options?.ca) return createSecureContext.call(this, options);
    return createSecureContext.call(this, { ...options, ca: withFile() });
  };
  // A context trusting Node's ~140 certificates and the file's (~280 here) costs ~40 ms to make (OpenSSL parses each
  // one), where Node's own, sharing one root store, cost ~0.3 ms: a connection that sets nothing of its context gets one made once and shared, as
  // Node shares its root store. Only connections: a context that other code makes is its own (it may add to it).
  let shared;
  const connect = tls.connect;
  tls.connect = function (...args) {
    // tls.connect(options[, cb]), (port[, host][, options][, cb]) or (path[, options][, cb]): the first object
    const at = args.findIndex((a) => typeof a === "object" && a !== null);
    const options = at >= 0 ? args[at] : undefined;
    if (!options || (options.secureContext === undefined && CONTEXT_OPTIONS.every((k) => options[k] === undefined || (k === "ca" && !options.ca)))) {
      shared ??= createSecureContext.call(tls, { ca: withFile() });
      if (options) args[at] = { ...options, secureContext: shared };
      else {
        const callback = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
        args.push({ secureContext: shared });
        if (callback) args.push(callback);
      }
    }
    return connect.apply(this, args);
  };
}

exports.restoreExtraCaCerts = restoreExtraCaCerts;
exports.MOVED = MOVED;

// CertificateSigningRequest (certificates.k8s.io/v1) as the API server validates it on create.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/certificates/validation/validation.go (ValidateCertificateSigningRequestCreate,
// validateCSR, ValidateCertificateRequestName: any name), pkg/apis/certificates/helpers.go (ParseCSR),
// pkg/apis/core/validation/names.go (ValidateSignerName) and pkg/registry/certificates/certificates/strategy.go
// (status is reset on create, so conditions and status.certificate are never judged on create).
// The PKCS#10 request is parsed with @peculiar/asn1-csr and its signature checked with node:crypto, as Go's
// x509.CertificateRequest.CheckSignature does; messages of Go's ASN.1 parser for malformed DER are not reproduced.
import { createPublicKey, verify } from "node:crypto";
import { createRequire } from "node:module";
import type { CertificationRequest } from "@peculiar/asn1-csr";
import { isDns1123Label, isDns1123Subdomain } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import { goQuote, type Reporter } from "./report.ts";
import { type Obj, asArr, asNum, asObj, asStr } from "./values.ts";

const C = "certificates/csr";
const SPEC = FieldPath.of("spec");
const LEGACY_SIGNER = "kubernetes.io/legacy-unknown";
const USAGES = [
  "any",
  "cert sign",
  "client auth",
  "code signing",
  "content commitment",
  "crl sign",
  "data encipherment",
  "decipher only",
  "digital signature",
  "email protection",
  "encipher only",
  "ipsec end system",
  "ipsec tunnel",
  "ipsec user",
  "key agreement",
  "key encipherment",
  "microsoft sgc",
  "netscape sgc",
  "ocsp signing",
  "s/mime",
  "server auth",
  "signing",
  "timestamping",
];

/** Signature algorithms Go's CheckSignature accepts for a CSR (SHA-1 included), by OID: the digest node:crypto uses. */
const SIGNATURE_DIGESTS: Readonly<Record<string, string | null>> = {
  "1.2.840.113549.1.1.5": "sha1", // sha1WithRSAEncryption
  "1.2.840.113549.1.1.11": "sha256",
  "1.2.840.113549.1.1.12": "sha384",
  "1.2.840.113549.1.1.13": "sha512",
  "1.2.840.10045.4.1": "sha1", // ecdsa-with-SHA1
  "1.2.840.10045.4.3.2": "sha256",
  "1.2.840.10045.4.3.3": "sha384",
  "1.2.840.10045.4.3.4": "sha512",
  "1.3.101.112": null, // Ed25519: no separate digest
};

interface Asn1 {
  readonly CertificationRequest: typeof import("@peculiar/asn1-csr").CertificationRequest;
  readonly AsnConvert: typeof import("@peculiar/asn1-schema").AsnConvert;
}
let asn1: Asn1 | undefined;
/** The ASN.1 libraries, loaded on the first CSR only: they take a noticeable time to load and most runs have no CSR. */
function loadAsn1(): Asn1 {
  if (!asn1) {
    const require = createRequire(import.meta.url);
    asn1 = { CertificationRequest: require("@peculiar/asn1-csr").CertificationRequest, AsnConvert: require("@peculiar/asn1-schema").AsnConvert };
  }
  return asn1;
}

/** The first TLV inside a DER SEQUENCE (the request's certificationRequestInfo, as signed), or undefined. */
function firstInnerElement(der: Uint8Array): Uint8Array | undefined {
  const header = (at: number): { start: number; end: number } | undefined => {
    let i = at + 1;
    const first = der[i++];
    if (first === undefined) return undefined;
    let length = first;
    if (first & 0x80) {
      const n = first & 0x7f;
      if (n === 0 || n > 4) return undefined;
      length = 0;
      for (let k = 0; k < n; k++) length = length * 256 + (der[i++] ?? 0);
    }
    return i + length <= der.length ? { start: i, end: i + length } : undefined;
  };
  const outer = header(0);
  if (!outer || der[0] !== 0x30) return undefined;
  const inner = header(outer.start);
  return inner ? der.subarray(outer.start, inner.end) : undefined;
}

/** pem.Decode's first block: its type and bytes, or undefined when there is no well-formed block. */
function decodePem(text: string): { type: string; bytes: Buffer } | undefined {
  const m = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)\r?\n?-----END \1-----/.exec(text);
  if (!m) return undefined;
  let body = m[2] as string;
  // optional RFC 1421 headers end at the first blank line
  if (/^[^\n]*:/.test(body)) body = body.split(/\r?\n\r?\n/).slice(1).join("\n");
  const compact = body.replace(/\s/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return undefined;
  return { type: m[1] as string, bytes: Buffer.from(compact, "base64") };
}

/** validateCSR: the PEM request parses as PKCS#10 and is signed by its own key. The error text, or undefined. */
export function csrProblem(request: Buffer): string | undefined {
  const block = decodePem(request.toString("latin1"));
  if (block?.type !== "CERTIFICATE REQUEST") return "PEM block type must be CERTIFICATE REQUEST";
  const { AsnConvert, CertificationRequest: Request } = loadAsn1();
  let csr: CertificationRequest;
  try {
    csr = AsnConvert.parse(block.bytes, Request);
  } catch {
    return "x509: malformed certificate request";
  }
  const oid = csr.signatureAlgorithm.algorithm;
  if (!(oid in SIGNATURE_DIGESTS)) return "x509: cannot verify signature: algorithm unimplemented";
  const signed = firstInnerElement(block.bytes);
  if (!signed) return "x509: malformed certificate request";
  let key: ReturnType<typeof createPublicKey>;
  try {
    key = createPublicKey({ key: Buffer.from(AsnConvert.serialize(csr.certificationRequestInfo.subjectPKInfo)), format: "der", type: "spki" });
  } catch {
    return "x509: unsupported public key";
  }
  const signature = Buffer.from(csr.signature);
  let ok = false;
  try {
    ok = verify(SIGNATURE_DIGESTS[oid] ?? null, signed, key, signature);
  } catch {
    ok = false;
  }
  if (ok) return undefined;
  if (key.asymmetricKeyType === "rsa") return "crypto/rsa: verification error";
  if (key.asymmetricKeyType === "ec") return "x509: ECDSA verification failure";
  if (key.asymmetricKeyType === "ed25519") return "x509: Ed25519 verification failure";
  return "x509: signature verification failure";
}

/** ValidateSignerName (core): `example.com/signer-name`, a domain of labels and a path of subdomains. */
export function validateSignerName(path: FieldPath, signerName: string, r: Reporter, check: string): void {
  if (signerName.length === 0) {
    r.required(path, "", check);
    return;
  }
  const segments = signerName.split("/");
  if (segments.length !== 2) {
    r.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'", check);
    return;
  }
  const [domain = "", rest = ""] = segments;
  if (domain.length > 253) r.tooLong(path, 253, check);
  const domainLabels = domain.split(".");
  for (const label of domainLabels) {
    const errs = isDns1123Label(label);
    if (errs.length > 0) {
      for (const e of errs) r.invalid(path, domain, `validating label ${goQuote(label)}: ${e}`, check);
      break;
    }
  }
  if (domainLabels.length < 2) r.invalid(path, domain, "should be a domain with at least two segments separated by dots", check);
  for (const label of rest.split(".")) {
    const errs = isDns1123Subdomain(label);
    if (errs.length > 0) {
      for (const e of errs) r.invalid(path, rest, `validating label ${goQuote(label)}: ${e}`, check);
      break;
    }
  }
  const max = 253 + (253 + 63 + 1) + 1;
  if (signerName.length > max) r.tooLong(path, max, check);
}

/** ValidateCertificateSigningRequestCreate (ObjectMeta by objectmeta.ts: any name is allowed). */
function validateCertificateSigningRequest(csr: Obj, r: Reporter): void {
  const spec = asObj(csr.spec) ?? {};
  const request = Buffer.from(asStr(spec.request) ?? "", "base64");
  const problem = csrProblem(request);
  // Go prints the request bytes with json.Marshal: standard base64
  if (problem) r.invalid(SPEC.child("request"), request.toString("base64"), problem, C);
  const usages = asArr(spec.usages) ?? [];
  if (usages.length === 0) r.required(SPEC.child("usages"), "", C);
  usages.forEach((u, i) => {
    if (!USAGES.includes(u as string)) r.notSupported(SPEC.child("usages").index(i), u, USAGES, C);
  });
  const seen = new Set<unknown>();
  usages.forEach((u, i) => {
    if (seen.has(u)) r.duplicate(SPEC.child("usages").index(i), u, C);
    seen.add(u);
  });
  const signerName = asStr(spec.signerName) ?? "";
  if (signerName === LEGACY_SIGNER) r.invalid(SPEC.child("signerName"), signerName, "the legacy signerName is not allowed via this API version", C);
  else validateSignerName(SPEC.child("signerName"), signerName, r, C);
  const expiration = asNum(spec.expirationSeconds);
  if (expiration !== undefined && expiration < 600) r.invalid(SPEC.child("expirationSeconds"), expiration, "may not specify a duration less than 600 seconds (10 minutes)", C);
}

export const CERTIFICATES: NativeGroup = { group: "certificates.k8s.io", kinds: { CertificateSigningRequest: validateCertificateSigningRequest } };

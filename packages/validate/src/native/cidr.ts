// CIDR values as the API server parses them: Go's sloppy parser, then 1.36's strict checks (StrictIPCIDRValidation, on
// by default). After k8s.io/apimachinery@v0.36.5/pkg/util/validation/ip.go (parseCIDR, IsValidCIDRForLegacyField) and
// k8s.io/utils/net (ParseCIDRSloppy). Shared by networking.ts (ipBlock) and core.ts (Service loadBalancerSourceRanges).
import { isIP, isIPv4 } from "node:net";

/**
 * Whether `v` could be an address at all: before any IPv6 zone (`%eth0`), an address holds only hex digits, dots and
 * colons. A host name fails this at once, without Node's large IPv6 expression (compiled on first use, then run for
 * every Ingress host).
 */
function mayBeIp(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x25 /* % */) return i > 0;
    const hex = (c >= 0x30 && c <= 0x3a) /* 0-9 : */ || c === 0x2e /* . */ || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
    if (!hex) return false;
  }
  return v.length > 0;
}

/** netutils.ParseIPSloppy: an IP address, IPv4 octets may have leading zeros. */
export function isIpSloppy(v: string): boolean {
  if (!mayBeIp(v)) return false;
  if (isIP(v) !== 0) return true;
  const parts = v.split(".");
  return parts.length === 4 && parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}

/** netutils.ParseCIDRSloppy succeeds. */
export function isCidrSloppy(v: string): boolean {
  const slash = v.indexOf("/");
  if (slash < 0) return false;
  const ip = v.slice(0, slash);
  const bits = v.slice(slash + 1);
  if (!/^[0-9]+$/.test(bits)) return false;
  const v4 = isIpSloppy(ip) && !ip.includes(":");
  const v6 = !v4 && isIP(ip) === 6;
  return (v4 && Number(bits) <= 32) || (v6 && Number(bits) <= 128);
}

export const CIDR_MSG = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/**
 * 1.36's strict CIDR checks (StrictIPCIDRValidation, on by default) for a CIDR the sloppy parser accepted:
 * leading zeros, an IPv4-mapped IPv6 address, bits set beyond the prefix length (apimachinery ip.go parseCIDR).
 */
export function strictCidrProblem(v: string): string | undefined {
  const [ip = "", bits = ""] = v.split("/");
  const v4 = !ip.includes(":");
  if ((bits.length > 1 && bits.startsWith("0")) || (v4 && ip.split(".").some((o) => o.length > 1 && o.startsWith("0")))) {
    return "must not have leading 0s in IP or prefix length";
  }
  if (!v4 && /^(0{0,4}:){0,5}:?(0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+|[0-9a-f]{1,4}:[0-9a-f]{1,4})$/i.test(ip) && cidrRange(`${ip}/128`).start >> 32n === 0xffffn) {
    return "must not have an IPv4-mapped IPv6 address";
  }
  const width = v4 ? 32 : 128;
  const full = cidrRange(`${ip}/${width}`).start;
  if (full !== cidrRange(v).start) return "must not have bits set beyond the prefix length";
  return undefined;
}

/** The network of a CIDR as a bigint range, for the strict-subset check of `except`. */
export function cidrRange(v: string): { v6: boolean; start: bigint; bits: number } {
  const [ip = "", bitsText = "0"] = v.split("/");
  const bits = Number(bitsText);
  if (isIPv4(ip) || !ip.includes(":")) {
    const n = ip.split(".").reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n);
    const mask = bits === 0 ? 0n : ((1n << 32n) - 1n) ^ ((1n << BigInt(32 - bits)) - 1n);
    return { v6: false, start: n & mask, bits };
  }
  const [head = "", tail = ""] = ip.split("::");
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  let h = groups(head);
  let t = groups(tail);
  // an embedded IPv4 tail counts as two groups
  const last = (ip.includes("::") ? t : h).at(-1) ?? "";
  if (last.includes(".")) {
    const o = last.split(".").map(Number);
    const extra = [((o[0] ?? 0) << 8) | (o[1] ?? 0), ((o[2] ?? 0) << 8) | (o[3] ?? 0)].map((x) => x.toString(16));
    if (ip.includes("::")) t = [...t.slice(0, -1), ...extra];
    else h = [...h.slice(0, -1), ...extra];
  }
  const all = ip.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h;
  const n = all.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
  const mask = bits === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - bits)) - 1n);
  return { v6: true, start: n & mask, bits };
}

/** IsValidCIDRForLegacyField of a new value (no old value to tolerate): the messages, none when valid. */
export function legacyCidrProblems(value: string): string[] {
  if (!isCidrSloppy(value)) return [CIDR_MSG];
  const strict = strictCidrProblem(value);
  return strict ? [strict] : [];
}

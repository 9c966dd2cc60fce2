// IP addresses in legacy fields (Service clusterIPs/externalIPs, hostAliases, dnsConfig nameservers) as the API server
// parses them: Go's sloppy parser (IPv4 octets may have leading zeros), then 1.36's strict checks (StrictIPCIDRValidation,
// beta and on): no leading zeros, no IPv4-mapped IPv6.
// After k8s.io/apimachinery@v0.36.5/pkg/util/validation/ip.go (parseIP, IsValidIPForLegacyField); hand-written:
// Node's net.isIP differs on exactly these cases.

const OCTET = /^[0-9]{1,3}$/;

function sloppyIpv4(s: string): { ok: boolean; leadingZero: boolean } {
  const parts = s.split(".");
  if (parts.length !== 4) return { ok: false, leadingZero: false };
  let leadingZero = false;
  for (const p of parts) {
    if (!OCTET.test(p) || Number(p) > 255) return { ok: false, leadingZero: false };
    if (p.length > 1 && p.startsWith("0")) leadingZero = true;
  }
  return { ok: true, leadingZero };
}

function ipv6(s: string): { ok: boolean; mapped: boolean } {
  if (!s.includes(":") || !/^[0-9a-fA-F:.]+$/.test(s)) return { ok: false, mapped: false };
  const halves = s.split("::");
  if (halves.length > 2) return { ok: false, mapped: false };
  const groups = (x: string) => (x === "" ? [] : x.split(":"));
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  let all = [...head, ...tail];
  let extra = 0;
  let v4 = false;
  const last = all[all.length - 1];
  if (last?.includes(".")) {
    const v = sloppyIpv4(last);
    if (!v.ok || v.leadingZero) return { ok: false, mapped: false };
    all = all.slice(0, -1);
    extra = 2;
    v4 = true;
  }
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return { ok: false, mapped: false };
  const n = all.length + extra;
  const ok = halves.length === 2 ? n < 8 : n === 8;
  if (!ok) return { ok, mapped: false };
  // ::ffff:a.b.c.d or ::ffff:xxxx:xxxx
  const expanded = halves.length === 2 ? [...head, ...Array(8 - n).fill("0"), ...tail.slice(0, v4 ? -1 : undefined)] : all;
  const words = expanded.map((g) => Number.parseInt(g, 16));
  const mapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff && (v4 || words.length === 8);
  return { ok, mapped };
}

/**
 * ValidateEndpointIP's extra rules for an address that parsed (Service externalIPs): not unspecified, loopback,
 * link-local or link-local multicast. Only IPv4 and the common IPv6 forms are classified.
 */
export function endpointIpProblems(value: string): string[] {
  const out: string[] = [];
  const v4 = sloppyIpv4(value).ok ? value.split(".").map(Number) : undefined;
  const lower = value.toLowerCase();
  const unspecified = v4 ? v4.every((o) => o === 0) : /^(0*:)*:?(0*:?)*0*$/.test(lower) && ipv6(value).ok && lower.replace(/[:0]/g, "") === "";
  if (unspecified) out.push(`may not be unspecified (${value})`);
  const loopback = v4 ? v4[0] === 127 : lower.replace(/^(0*:)*:?/, "").replace(/^0+/, "") === "1" && ipv6(value).ok && /^[0:]*:0*1$/.test(lower);
  if (loopback) out.push("may not be in the loopback range (127.0.0.0/8, ::1/128)");
  const linkLocal = v4 ? v4[0] === 169 && v4[1] === 254 : /^fe[89ab][0-9a-f]?:/.test(lower);
  if (linkLocal) out.push("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
  const linkLocalMulticast = v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : /^ff[0-9a-f]2:/.test(lower);
  if (linkLocalMulticast) out.push("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
  return out;
}

/** The messages Go gives for an IP in a legacy field (empty = valid). */
export function ipProblems(value: string): string[] {
  const v4 = sloppyIpv4(value);
  if (v4.ok) return v4.leadingZero ? ["must not have leading 0s"] : [];
  const v6 = ipv6(value);
  if (!v6.ok) return ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"];
  return v6.mapped ? ["must not be an IPv4-mapped IPv6 address"] : [];
}

/** Go's net.IP.String() of an address that parsed strictly: IPv4 as written, IPv6 in RFC 5952 form (`2001:db8::1`). */
export function canonicalIp(value: string): string {
  if (!value.includes(":")) return value;
  const [head = "", tail] = value.split("::");
  const groupsOf = (s: string): number[] => {
    if (s === "") return [];
    const out: number[] = [];
    for (const g of s.split(":")) {
      if (g.includes(".")) {
        const o = g.split(".").map(Number);
        out.push((((o[0] ?? 0) << 8) | (o[1] ?? 0)) >>> 0, (((o[2] ?? 0) << 8) | (o[3] ?? 0)) >>> 0);
      } else out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const h = groupsOf(head);
  const t = tail === undefined ? [] : groupsOf(tail);
  const words = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
  // the longest run of two or more zero groups (the first of equal runs) becomes "::"
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(":");
  if (best < 0) return hex(words);
  return `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}

/** validation.IsValidIP (strict, canonical form), the messages in Go's order. */
export function strictIpProblems(value: string): string[] {
  const problems = ipProblems(value);
  if (problems.length > 0) return problems;
  const canonical = canonicalIp(value);
  return canonical === value ? [] : [`must be in canonical form ("${canonical}")`];
}

// Legacy-field IP parsing, against the answers of k8s.io/apimachinery@v0.36.5 IsValidIPForLegacyField(strict) for the same inputs.
import { describe, expect, it } from "vitest";
import { canonicalIp, endpointIpProblems, ipProblems, strictIpProblems } from "./ip.ts";

const INVALID = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

describe("ipProblems", () => {
  it.each([
    ["10.0.0.1", []],
    ["010.0.0.1", ["must not have leading 0s"]],
    ["10.0.0.300", [INVALID]],
    ["::1", []],
    ["2001:db8::ffff", []],
    ["::ffff:1.2.3.4", ["must not be an IPv4-mapped IPv6 address"]],
    ["::ffff:0102:0304", ["must not be an IPv4-mapped IPv6 address"]],
    ["1:2:3:4:5:6:7:8", []],
    ["1:2:3:4:5:6:7:8:9", [INVALID]],
    ["fe80::1%eth0", [INVALID]],
    ["", [INVALID]],
    ["1.2.3", [INVALID]],
    ["::", []],
    ["1::2::3", [INVALID]],
    ["::1.2.3.4", []],
    ["a.b.c.d", [INVALID]],
  ])("%j", (ip, expected) => {
    expect(ipProblems(ip)).toEqual(expected);
  });

  it("refuses the special ranges for Service externalIPs (ValidateEndpointIP)", () => {
    expect(endpointIpProblems("0.0.0.0")).toEqual(["may not be unspecified (0.0.0.0)"]);
    expect(endpointIpProblems("::")).toEqual(["may not be unspecified (::)"]);
    expect(endpointIpProblems("127.0.0.2")).toEqual(["may not be in the loopback range (127.0.0.0/8, ::1/128)"]);
    expect(endpointIpProblems("::1")).toEqual(["may not be in the loopback range (127.0.0.0/8, ::1/128)"]);
    expect(endpointIpProblems("169.254.1.1")).toEqual(["may not be in the link-local range (169.254.0.0/16, fe80::/10)"]);
    expect(endpointIpProblems("fe80::1")).toEqual(["may not be in the link-local range (169.254.0.0/16, fe80::/10)"]);
    expect(endpointIpProblems("224.0.0.5")).toEqual(["may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"]);
    expect(endpointIpProblems("203.0.113.10")).toEqual([]);
    expect(endpointIpProblems("2001:db8::1")).toEqual([]);
  });
});

describe("strictIpProblems (IsValidIP: strict, then Go's net.IP.String() as the canonical form)", () => {
  it.each([
    ["10.0.0.1", []],
    ["2001:db8::1", []],
    ["2001:DB8::1", ['must be in canonical form ("2001:db8::1")']],
    ["2001:db8:0:0:0:0:0:1", ['must be in canonical form ("2001:db8::1")']],
    ["2001:0db8::1", ['must be in canonical form ("2001:db8::1")']],
    // the longest run of zeros is compressed, the first of two equal runs, never a single zero group
    ["1:0:0:2:0:0:0:3", ['must be in canonical form ("1:0:0:2::3")']],
    ["1:0:0:2:0:0:3:4", ['must be in canonical form ("1::2:0:0:3:4")']],
    ["1:0:2:3:4:5:6:7", []],
    ["::1.2.3.4", ['must be in canonical form ("::102:304")']],
    ["010.0.0.1", ["must not have leading 0s"]],
  ])("%j", (ip, expected) => {
    expect(strictIpProblems(ip)).toEqual(expected);
  });

  it("prints IPv6 as Go does", () => {
    expect(canonicalIp("0:0:0:0:0:0:0:0")).toBe("::");
    expect(canonicalIp("fd00:10:0:0:0:0:0:0")).toBe("fd00:10::");
  });
});

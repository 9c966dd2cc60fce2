import { isIP } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isIpSloppy } from "./cidr.ts";

// The definition, without the pre-check on characters that isIpSloppy makes first.
const reference = (v: string): boolean => isIP(v) !== 0 || (v.split(".").length === 4 && v.split(".").every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255));

const ipish = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[0-9a-fA-F.:%]{0,12}$/),
  fc.tuple(fc.ipV4(), fc.constantFrom("", "%", "%eth0")).map(([a, z]) => a + z),
  fc.tuple(fc.ipV6(), fc.constantFrom("", "%", "%eth0", "%1", "%a.b:c")).map(([a, z]) => a + z),
  fc.array(fc.stringMatching(/^[0-9]{1,4}$/), { minLength: 1, maxLength: 5 }).map((p) => p.join(".")),
  fc.domain(),
);

describe("isIpSloppy", () => {
  it("answers as Node's isIP with Go's sloppy IPv4 (leading zeros), on any string", () => {
    fc.assert(fc.property(ipish, (v) => {
        expect(isIpSloppy(v)).toBe(reference(v));
      }), { numRuns: 5000 });
  });

  it("accepts addresses, zoned IPv6 and zero-padded IPv4, and refuses host names", () => {
    expect(["10.0.0.1", "010.000.000.001", "::1", "fe80::1%eth0", "::ffff:1.2.3.4", "ABCD::EF"].map(isIpSloppy)).toEqual([true, true, true, true, true, true]);
    expect(["app.example.com", "", "%eth0", "10.0.0", "1.2.3.256", "deadbeef"].map(isIpSloppy)).toEqual([false, false, false, false, false, false]);
  });
});

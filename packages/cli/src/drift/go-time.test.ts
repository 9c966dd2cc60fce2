import { describe, expect, it } from "vitest";
import { parseGoDuration, parseRfc3339 } from "./go-time.ts";

describe("parseGoDuration (time.ParseDuration)", () => {
  it.each([
    ["720h", 2_592_000_000_000_000n],
    ["1h30m", 5_400_000_000_000n],
    ["1.5h", 5_400_000_000_000n],
    [".5h", 1_800_000_000_000n],
    ["0", 0n],
    ["-5m", -300_000_000_000n],
    ["300ms", 300_000_000n],
    ["1\u00b5s", 1000n],
    ["1.000000001s", 1_000_000_001n],
    ["2h45m0.5s", 9_900_500_000_000n],
  ])("%s = %d ns", (text, ns) => expect(parseGoDuration(text)).toBe(ns));

  it.each(["", "1", "h", "1x", "1.h.", "9223372036854775808ns", "Never"])("refuses %j", (text) => expect(() => parseGoDuration(text)).toThrow(/time: /));
});

describe("parseRfc3339 (metav1.Time -> MarshalBinary, Local = UTC)", () => {
  it("writes version 1, seconds since year 1, nanoseconds, zone offset 0", () => {
    const b = parseRfc3339("1970-01-01T00:00:01.5Z");
    expect(b[0]).toBe(1);
    const sec = [...b.slice(1, 9)].reduce((n, x) => n * 256n + BigInt(x), 0n);
    expect(sec).toBe(62135596801n);
    expect([...b.slice(9, 13)]).toEqual([0x1d, 0xcd, 0x65, 0x00]); // 500000000
    expect([...b.slice(13)]).toEqual([0, 0]);
  });
  it("converts an offset to the same instant", () => expect(parseRfc3339("2024-01-02T04:04:05+01:00")).toEqual(parseRfc3339("2024-01-02T03:04:05Z")));
});

// resource.Quantity parsing, canonical String() and MilliValue(), against answers printed by
// k8s.io/apimachinery@v0.36.5 (ParseQuantity, String, MilliValue) for the same inputs.
import { describe, expect, it } from "vitest";
import { compareQuantities, milliValue, parseQuantity, quantityString, quantityValue } from "./quantity.ts";

// input, String(), MilliValue(), Value() — or the error
const GO_ANSWERS: readonly (readonly [string, string, bigint?, bigint?])[] = [
  ["1.5", "1500m", 1500n, 2n],
  ["1.5Gi", "1536Mi", 1610612736000n, 1610612736n],
  ["1000m", "1", 1000n, 1n],
  ["0.1m", "100u", 1n, 1n],
  ["100Mi", "100Mi", 104857600000n, 104857600n],
  ["1Ki", "1Ki", 1024000n, 1024n],
  ["1024Ki", "1Mi", 1048576000n, 1048576n],
  ["2000m", "2", 2000n, 2n],
  ["1e3", "1e3", 1000000n, 1000n],
  ["1.0", "1", 1000n, 1n],
  [".", "0", 0n, 0n],
  ["+1", "+1", 1000n, 1n],
  ["-1.5", "-1500m", -1500n, -2n],
  ["0.0000000001", "1n", 1n, 1n],
  ["0.5Gi", "512Mi", 536870912000n, 536870912n],
  ["12e-1", "1200e-3", 1200n, 2n],
  ["+.5", "500m", 500n, 1n],
  ["00100", "00100", 100000n, 100n],
  ["1024", "1024", 1024000n, 1024n],
  ["2048Mi", "2Gi", 2147483648000n, 2147483648n],
  ["1.5k", "1500", 1500000n, 1500n],
  ["1e+3", "1e+3", 1000000n, 1000n],
  ["100m", "100m", 100n, 1n],
  ["5e-10", "1e-9", 1n, 1n],
  ["1ei", "unable to parse quantity's suffix"],
  ["1ki", "unable to parse quantity's suffix"],
  ["4GB", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ["1.5.5", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ["0x10", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  [" 1", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
];

describe("parseQuantity", () => {
  it.each(GO_ANSWERS.map((a) => [...a] as [string, string, bigint?, bigint?]))("%s", (input: string, text: string, milli?: bigint, value?: bigint) => {
    if (milli === undefined) {
      expect(() => parseQuantity(input)).toThrow(text);
      return;
    }
    const q = parseQuantity(input);
    expect(quantityString(q)).toBe(text);
    expect(milliValue(q)).toBe(milli);
    expect(quantityValue(q)).toBe(value);
  });

  it("compares exactly", () => {
    const cmp = (a: string, b: string) => compareQuantities(parseQuantity(a), parseQuantity(b));
    expect(cmp("2", "1500m")).toBe(1);
    expect(cmp("1Gi", "1073741824")).toBe(0);
    expect(cmp("1G", "1Gi")).toBe(-1);
    expect(cmp("0.0000000001", "1n")).toBe(0);
  });
});

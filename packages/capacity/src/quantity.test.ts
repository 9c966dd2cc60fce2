import { describe, expect, it } from "vitest";
import { formatBytes, formatCpu, formatGiB, parsePercentage, parseQuantity, QuantityError } from "./quantity.ts";

describe("parseQuantity", () => {
  it("gives exact integers in base units or millis", () => {
    expect(parseQuantity("2", 1000)).toBe(2000);
    expect(parseQuantity("450m", 1000)).toBe(450);
    expect(parseQuantity("0.1", 1000)).toBe(100); // a float parser would give 101m
    expect(parseQuantity("1.5", 1000)).toBe(1500);
    expect(parseQuantity("4G")).toBe(4_000_000_000);
    expect(parseQuantity("153Mi")).toBe(160_432_128);
    expect(parseQuantity("1.5Gi")).toBe(1_610_612_736);
    expect(parseQuantity("1000Gi")).toBe(1_073_741_824_000);
    expect(parseQuantity("1e3")).toBe(1000);
    expect(parseQuantity("1Ki")).toBe(1024);
    expect(parseQuantity(58)).toBe(58);
    expect(parseQuantity("-1")).toBe(-1);
  });

  it("rounds a fraction of a base unit up, as Kubernetes does", () => {
    expect(parseQuantity("100m")).toBe(1);
    expect(parseQuantity("1.0001", 1000)).toBe(1001);
  });

  it("refuses what is not a quantity", () => {
    expect(() => parseQuantity("2 cores")).toThrow(new QuantityError('"2 cores" is not a Kubernetes quantity (e.g. 500m, 2, 4G, 153Mi)'));
    expect(() => parseQuantity("4GB")).toThrow(QuantityError);
  });
});

describe("formatting", () => {
  it("prints CPU like Kubernetes and memory with the largest exact binary suffix", () => {
    expect(formatCpu(6450)).toBe("6450m");
    expect(formatCpu(7000)).toBe("7");
    expect(formatBytes(13215 * 2 ** 20)).toBe("13215Mi");
    expect(formatBytes(17 * 2 ** 30)).toBe("17Gi");
    expect(formatBytes(12_160_432_128)).toBe("12160432128");
    expect(formatBytes(0)).toBe("0");
    expect(formatGiB(12_160_432_128)).toBe("11.3Gi");
  });

  it("reads eviction percentages; 100% disables the threshold", () => {
    expect(parsePercentage("10%")).toBe(10);
    expect(parsePercentage("100%")).toBe(0);
    expect(() => parsePercentage("10")).toThrow('"10" is not a percentage between 0% and 100%');
  });
});

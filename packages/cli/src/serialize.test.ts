// toYaml writes what kubectl (sigs.k8s.io/yaml, YAML 1.1 rules) reads back as the same strings.
import { describe, expect, it } from "vitest";
import { toYaml } from "./serialize.ts";

describe("toYaml", () => {
  it("quotes strings that YAML 1.1 would read as booleans, numbers or dates", () => {
    const text = toYaml({ a: "on", b: "y", c: "no", d: "2024-01-02", e: "1_000", f: "plain", g: true, h: 3 }, "header");
    expect(text).toBe('# header\na: "on"\nb: "y"\nc: "no"\nd: "2024-01-02"\ne: "1_000"\nf: plain\ng: true\nh: 3\n');
  });
});

// Core checks whose inputs are too large for a fixture file; messages as kube-apiserver 1.36.5 answered them
// (captured with packages/e2e/src/probe.ts).
import { describe, expect, it } from "vitest";
import { core } from "./core.ts";
import { Reporter } from "./report.ts";

const run = (kind: string, object: Record<string, unknown>) => {
  const r = new Reporter();
  core.kinds[kind]?.(object, r, { group: "", version: "v1", kind, report: r });
  return r.findings.map((f) => `${f.path} | ${f.message}`);
};

describe("core sizes", () => {
  it("limits a ConfigMap's data and binaryData to 1 MiB in total (Go names the path `[]`)", () => {
    const data = { a: "x".repeat(600_000), b: "y".repeat(600_000) };
    expect(run("ConfigMap", { metadata: { name: "big" }, data })).toEqual([" | []: Too long: may not be more than 1048576 bytes"]);
    expect(run("ConfigMap", { metadata: { name: "ok" }, data: { a: "x".repeat(600_000) } })).toEqual([]);
  });

  it("limits a Secret's data (stringData included) to 1 MiB", () => {
    const secret = { metadata: { name: "big" }, data: { a: Buffer.alloc(600_000).toString("base64") }, stringData: { b: "y".repeat(600_000) } };
    expect(run("Secret", secret)).toEqual(["/data | data: Too long: may not be more than 1048576 bytes"]);
  });
});

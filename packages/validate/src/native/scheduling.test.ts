// PriorityClass native checks with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { SCHEDULING } from "./scheduling.ts";
import { runNative } from "./testing.ts";

const pc = (name: string, value: number, globalDefault = false) => ({ apiVersion: "scheduling.k8s.io/v1", kind: "PriorityClass", metadata: { name }, value, globalDefault });

describe("PriorityClass", () => {
  it("accepts user values up to one billion and the known system classes", () => {
    expect(runNative(SCHEDULING, pc("critical", 1_000_000_000))).toEqual([]);
    expect(runNative(SCHEDULING, pc("system-node-critical", 2_000_001_000))).toEqual([]);
  });

  it("refuses larger user values and unknown or altered system classes", () => {
    expect(runNative(SCHEDULING, pc("critical", 1_000_000_001))).toEqual([
      "/value value: Forbidden: maximum allowed value of a user defined priority is 1000000000 [native:scheduling/priority-class-value]",
    ]);
    expect(runNative(SCHEDULING, pc("system-important", 10))).toEqual([
      "/metadata/name metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-important is not a known system priority class [native:scheduling/priority-class-name]",
    ]);
    expect(runNative(SCHEDULING, pc("system-cluster-critical", 5))).toEqual([
      "/metadata/name metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000 [native:scheduling/priority-class-name]",
    ]);
  });
});

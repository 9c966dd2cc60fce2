// ControllerRevision (ValidateControllerRevisionCreate) with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { apps } from "./apps.ts";
import { runNative } from "./testing.ts";

const revision = (extra: Record<string, unknown>) => ({ apiVersion: "apps/v1", kind: "ControllerRevision", metadata: { name: "web-1", namespace: "shop" }, revision: 1, ...extra });

describe("ControllerRevision", () => {
  it("accepts any JSON object as data, also an empty one", () => {
    expect(runNative(apps, revision({ data: { spec: {} } }))).toEqual([]);
    expect(runNative(apps, revision({ data: {} }))).toEqual([]);
  });

  it("requires data as a JSON object and a revision not below 0", () => {
    expect(runNative(apps, revision({ revision: -1 }))).toEqual([
      "/revision revision: Invalid value: -1: must be greater than or equal to 0 [native:apps/controller-revision]",
      "/data data: Required value: data is mandatory [native:apps/controller-revision]",
    ]);
    expect(runNative(apps, revision({ data: null }))).toEqual(["/data data: Required value: data is mandatory [native:apps/controller-revision]"]);
    expect(runNative(apps, revision({ data: [1] }))).toEqual(["/data data: Required value: data must be a valid JSON object [native:apps/controller-revision]"]);
  });
});

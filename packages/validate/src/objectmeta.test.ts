// ObjectMeta syntax rules that live in the API server's Go code: per-kind name rules, labels, annotations.
import { describe, expect, it } from "vitest";
import { checkObjectMeta } from "./objectmeta.ts";

const rules = (apiVersion: string, kind: string, metadata: Record<string, unknown>) => checkObjectMeta({ apiVersion, kind, metadata }).map((f) => `${f.path} ${f.message}`);

describe("checkObjectMeta", () => {
  it("applies each kind's name rule", () => {
    expect(rules("rbac.authorization.k8s.io/v1", "ClusterRole", { name: "system:aggregate-to-view" })).toEqual([]);
    expect(rules("rbac.authorization.k8s.io/v1", "ClusterRole", { name: "a/b" })).toEqual([`/metadata/name Invalid value: "a/b": may not contain '/' or '%'`]);
    expect(rules("v1", "Service", { name: "1web" })).toEqual([
      `/metadata/name Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (at most 63 characters)`,
    ]);
    expect(rules("v1", "Namespace", { name: "a.b" })[0]).toMatch(/^\/metadata\/name Invalid value: "a\.b": a lowercase RFC 1123 label/);
    expect(rules("apps/v1", "Deployment", { name: "a.b" })).toEqual([]);
    expect(rules("apps/v1", "Deployment", { generateName: "web-" })).toEqual([]);
    expect(rules("apps/v1", "Deployment", {})).toEqual(["/metadata/name Required value: name or generateName is required"]);
  });

  it("checks label keys and values and annotation keys", () => {
    expect(rules("v1", "ConfigMap", { name: "c", labels: { "Bad Key": "v", ok: "x".repeat(64) }, annotations: { "example.com/": "v" } })).toEqual([
      `/metadata/labels/Bad Key Invalid value: "Bad Key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      `/metadata/labels/ok Invalid value: "${"x".repeat(64)}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (at most 63 characters)`,
      `/metadata/annotations/example.com~1 Invalid value: "example.com/": name part must be no more than 63 characters and non-empty`,
    ]);
  });
});

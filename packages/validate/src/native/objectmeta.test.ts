// ObjectMeta on create, per kind, with the API server's messages (kube-apiserver 1.36.5 wording).
import { describe, expect, it } from "vitest";
import { nameRuleFor, validateObjectMeta } from "./objectmeta.ts";
import { Reporter } from "./report.ts";

function meta(group: string, kind: string, metadata: Record<string, unknown>, kubeFinalizers = true): string[] {
  const r = new Reporter();
  validateObjectMeta({ metadata }, r, { nameRule: nameRuleFor(group, kind), kubeFinalizers });
  return r.findings.map((f) => `${f.path} ${f.message} [${f.rule}]`);
}

const SUBDOMAIN = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
const LABEL = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;

describe("validateObjectMeta", () => {
  it("applies each kind's name rule", () => {
    expect(meta("", "Service", { name: "1web" })).toEqual([]);
    expect(meta("", "Service", { name: "web.a" })).toEqual(['/metadata/name metadata.name: Invalid value: "web.a": must not contain dots [native:meta/name]']);
    expect(meta("", "Namespace", { name: "Shop" })).toEqual([`/metadata/name metadata.name: Invalid value: "Shop": ${LABEL} [native:meta/name]`]);
    expect(meta("apps", "Deployment", { name: "a.b" })).toEqual([]);
    expect(meta("apps", "Deployment", { name: "Bad_Name" })).toEqual([`/metadata/name metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN} [native:meta/name]`]);
    expect(meta("apps", "StatefulSet", { name: "x".repeat(64) })).toEqual([
      `/metadata/name metadata.name: Invalid value: "${"x".repeat(64)}": must be no more than 63 characters [native:meta/name]`,
    ]);
    expect(meta("rbac.authorization.k8s.io", "ClusterRole", { name: "system:aggregate-to-view" })).toEqual([]);
    expect(meta("rbac.authorization.k8s.io", "ClusterRole", { name: "a/b" })).toEqual([`/metadata/name metadata.name: Invalid value: "a/b": may not contain '/' [native:meta/name]`]);
  });

  it("requires a name or generateName, and checks generateName as a prefix", () => {
    expect(meta("apps", "Deployment", {})).toEqual(["/metadata/name metadata.name: Required value: name or generateName is required [native:meta/name]"]);
    expect(meta("apps", "Deployment", { generateName: "web-" })).toEqual([]);
    expect(meta("apps", "Deployment", { generateName: "Web-" })[0]).toMatch(/^\/metadata\/generateName metadata\.generateName: Invalid value: "Web-": a lowercase RFC 1123 subdomain/);
  });

  it("checks label keys and values (errors name metadata.labels, the pointer names the key)", () => {
    expect(meta("", "ConfigMap", { name: "c", labels: { "Bad Key": "v", ok: "x".repeat(64), "example.com/": "" } })).toEqual([
      `/metadata/labels/Bad Key metadata.labels: Invalid value: "Bad Key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') [native:meta/labels]`,
      `/metadata/labels/ok metadata.labels: Invalid value: "${"x".repeat(64)}": must be no more than 63 bytes [native:meta/labels]`,
      `/metadata/labels/example.com~1 metadata.labels: Invalid value: "example.com/": name part must be non-empty [native:meta/labels]`,
      `/metadata/labels/example.com~1 metadata.labels: Invalid value: "example.com/": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') [native:meta/labels]`,
    ]);
  });

  it("checks annotation keys lower-cased and their total size", () => {
    expect(meta("", "ConfigMap", { name: "c", annotations: { "Example.COM/Key": "v" } })).toEqual([]);
    expect(meta("", "ConfigMap", { name: "c", annotations: { a: "x".repeat(256 * 1024) } })).toEqual(["/metadata/annotations metadata.annotations: Too long: may not be more than 262144 bytes [native:meta/annotations]"]);
  });

  it("checks finalizers: qualified names, and built-in kinds need a standard or domain-qualified one", () => {
    expect(meta("apps", "Deployment", { name: "d", finalizers: ["kubernetes", "example.com/x"] })).toEqual([]);
    expect(meta("apps", "Deployment", { name: "d", finalizers: ["mine"] })).toEqual([
      '/metadata/finalizers/0 metadata.finalizers[0]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified [native:meta/finalizers]',
    ]);
    expect(meta("karpenter.sh", "NodePool", { name: "d", finalizers: ["mine"] }, false)).toEqual([]);
  });
});

// Role, ClusterRole and binding native checks with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { RBAC } from "./rbac.ts";
import { runNative } from "./testing.ts";

const G = "rbac.authorization.k8s.io";
const role = (kind: string, rules: unknown[], extra: Record<string, unknown> = {}) => ({ apiVersion: `${G}/v1`, kind, metadata: { name: "reader", namespace: "shop" }, rules, ...extra });
const binding = (kind: string, roleRef: Record<string, unknown>, subjects: unknown[]) => ({ apiVersion: `${G}/v1`, kind, metadata: { name: "reader" }, roleRef, subjects });

describe("Role and ClusterRole", () => {
  it("accepts resource rules and cluster-wide non-resource URLs", () => {
    expect(runNative(RBAC, role("Role", [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }]))).toEqual([]);
    expect(runNative(RBAC, role("ClusterRole", [{ nonResourceURLs: ["/healthz"], verbs: ["get"] }]))).toEqual([]);
  });

  it("requires verbs, api groups and resources, and keeps non-resource URLs cluster-wide and alone", () => {
    expect(runNative(RBAC, role("Role", [{ resources: ["pods"] }, { nonResourceURLs: ["/metrics"], resources: ["pods"], verbs: ["get"] }]))).toEqual([
      "/rules/0/verbs rules[0].verbs: Required value: verbs must contain at least one value [native:rbac/policy-rule]",
      "/rules/0/apiGroups rules[0].apiGroups: Required value: resource rules must supply at least one api group [native:rbac/policy-rule]",
      '/rules/1/nonResourceURLs rules[1].nonResourceURLs: Invalid value: ["/metrics"]: namespaced rules cannot apply to non-resource URLs [native:rbac/policy-rule]',
      '/rules/1/nonResourceURLs rules[1].nonResourceURLs: Invalid value: ["/metrics"]: rules cannot apply to both regular resources and non-resource URLs [native:rbac/policy-rule]',
    ]);
    expect(runNative(RBAC, role("ClusterRole", [], { aggregationRule: {} }))).toEqual([
      "/aggregationRule/clusterRoleSelectors aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil [native:rbac/aggregation-rule]",
    ]);
  });
});

describe("RoleBinding and ClusterRoleBinding", () => {
  it("accepts bindings to roles with defaulted subject api groups", () => {
    const subjects = [{ kind: "User", name: "jane" }, { kind: "Group", name: "ops", apiGroup: G }, { kind: "ServiceAccount", name: "deployer", namespace: "ci" }];
    expect(runNative(RBAC, binding("RoleBinding", { apiGroup: G, kind: "Role", name: "reader" }, subjects))).toEqual([]);
    expect(runNative(RBAC, binding("ClusterRoleBinding", { apiGroup: G, kind: "ClusterRole", name: "system:view" }, subjects))).toEqual([]);
  });

  it("checks roleRef and subjects", () => {
    expect(runNative(RBAC, binding("ClusterRoleBinding", { apiGroup: "rbac", kind: "Role", name: "a/b" }, [{ kind: "ServiceAccount", name: "Deployer" }, { kind: "Robot", name: "r" }]))).toEqual([
      '/roleRef/apiGroup roleRef.apiGroup: Unsupported value: "rbac": supported values: "rbac.authorization.k8s.io" [native:rbac/role-ref]',
      '/roleRef/kind roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole" [native:rbac/role-ref]',
      "/roleRef/name roleRef.name: Invalid value: \"a/b\": may not contain '/' [native:rbac/role-ref]",
      `/subjects/0/name subjects[0].name: Invalid value: "Deployer": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') [native:rbac/subject]`,
      "/subjects/0/namespace subjects[0].namespace: Required value [native:rbac/subject]",
      '/subjects/1/kind subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group" [native:rbac/subject]',
    ]);
    expect(runNative(RBAC, binding("RoleBinding", { apiGroup: G, kind: "Role", name: "" }, [{ kind: "User", name: "", apiGroup: "x" }]))).toEqual([
      "/roleRef/name roleRef.name: Required value [native:rbac/role-ref]",
      "/subjects/0/name subjects[0].name: Required value [native:rbac/subject]",
      '/subjects/0/apiGroup subjects[0].apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io" [native:rbac/subject]',
    ]);
  });
});

// ResourceQuota scopes against the resources they may limit (validateResourceQuotaScopes,
// validateScopedResourceSelectorRequirement) with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { core } from "./core.ts";
import { runNative } from "./testing.ts";

const quota = (spec: Record<string, unknown>) => ({ apiVersion: "v1", kind: "ResourceQuota", metadata: { name: "q", namespace: "shop" }, spec });

describe("ResourceQuota scopes", () => {
  it("accepts scopes with the resources they track, and untracked (extended) resources under any scope", () => {
    expect(runNative(core, quota({ hard: { pods: "10" }, scopes: ["BestEffort"] }))).toEqual([]);
    expect(runNative(core, quota({ hard: { "requests.example.com/gpu": "2", cpu: "4" }, scopes: ["NotTerminating", "PriorityClass"] }))).toEqual([]);
    expect(runNative(core, quota({ hard: { persistentvolumeclaims: "5", "requests.storage": "1Ti" }, scopes: ["VolumeAttributesClass"] }))).toEqual([]);
  });

  it("refuses a scope applied to a resource it cannot limit, once per resource", () => {
    expect(runNative(core, quota({ hard: { pods: "20", "requests.cpu": "4", "limits.memory": "8Gi" }, scopes: ["BestEffort"] }))).toEqual([
      '/spec/hard/limits.memory spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource [native:core/resource-quota]',
      '/spec/hard/requests.cpu spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource [native:core/resource-quota]',
    ]);
  });

  it("names the internal selector struct for a scope selector applied to a resource it cannot limit", () => {
    const spec = { hard: { "requests.cpu": "4" }, scopeSelector: { matchExpressions: [{ scopeName: "BestEffort", operator: "Exists" }] } };
    expect(runNative(core, quota(spec))).toEqual([
      '/spec/hard/requests.cpu spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"Exists","Values":null}]}: unsupported scope applied to resource [native:core/resource-quota]',
    ]);
  });

  it("reports each conflicting pair", () => {
    expect(runNative(core, quota({ hard: { pods: "1" }, scopes: ["Terminating", "NotTerminating", "BestEffort", "NotBestEffort"] }))).toEqual([
      '/spec/scopes spec.scopes: Invalid value: ["Terminating","NotTerminating","BestEffort","NotBestEffort"]: conflicting scopes [native:core/resource-quota]',
      '/spec/scopes spec.scopes: Invalid value: ["Terminating","NotTerminating","BestEffort","NotBestEffort"]: conflicting scopes [native:core/resource-quota]',
    ]);
  });
});

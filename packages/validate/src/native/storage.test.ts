// StorageClass native checks with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { STORAGE } from "./storage.ts";
import { runNative } from "./testing.ts";

const sc = (extra: Record<string, unknown>) => ({ apiVersion: "storage.k8s.io/v1", kind: "StorageClass", metadata: { name: "gp3" }, provisioner: "ebs.csi.aws.com", ...extra });
const zone = (values: string[], key = "topology.kubernetes.io/zone") => ({ matchLabelExpressions: [{ key, values }] });

describe("StorageClass", () => {
  it("accepts a CSI provisioner with parameters and topologies", () => {
    expect(runNative(STORAGE, sc({ parameters: { type: "gp3" }, reclaimPolicy: "Retain", allowedTopologies: [zone(["eu-west-1a"])] }))).toEqual([]);
  });

  it("requires a qualified provisioner name and refuses Recycle", () => {
    expect(runNative(STORAGE, sc({ provisioner: "" }))).toEqual(["/provisioner provisioner: Required value [native:storage/provisioner]"]);
    expect(runNative(STORAGE, sc({ provisioner: "ebs csi" }))[0]).toMatch(/^\/provisioner provisioner: Invalid value: "ebs csi": name part must consist of alphanumeric characters/);
    expect(runNative(STORAGE, sc({ reclaimPolicy: "Recycle" }))).toEqual([
      '/reclaimPolicy reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain" [native:storage/reclaim-policy]',
    ]);
  });

  it("checks allowed topologies: values required and unique, keys qualified, terms unique", () => {
    expect(runNative(STORAGE, sc({ allowedTopologies: [zone([]), zone(["a", "a"], "bad key"), zone(["b"]), zone(["b"])] }))).toEqual([
      "/allowedTopologies/0/matchLabelExpressions/0/values allowedTopologies[0].matchLabelExpressions[0].values: Required value [native:storage/allowed-topologies]",
      '/allowedTopologies/1/matchLabelExpressions/0/values/1 allowedTopologies[1].matchLabelExpressions[0].values[1]: Duplicate value: "a" [native:storage/allowed-topologies]',
      `/allowedTopologies/1/matchLabelExpressions/0/key allowedTopologies[1].matchLabelExpressions[0].key: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') [native:storage/allowed-topologies]`,
      '/allowedTopologies/3/matchLabelExpressions allowedTopologies[3].matchLabelExpressions: Duplicate value: "" [native:storage/allowed-topologies]',
    ]);
  });
});

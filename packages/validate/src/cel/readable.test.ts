// CEL findings that read well: the offending value in place of the type placeholder, and a hint for restricted label domains.
import { describe, expect, it } from "vitest";
import { readableCel } from "./readable.ts";

const AWS_RULE = `self in ["karpenter.k8s.aws/instance-category", "karpenter.k8s.aws/instance-family", "karpenter.k8s.aws/instance-cpu", "karpenter.k8s.aws/instance-size"] || !self.find("^([^/]+)").endsWith("karpenter.k8s.aws")`;
const LABELS_RULE = `self.all(x, x in ["karpenter.sh/capacity-type", "karpenter.sh/nodepool"] || !x.find("^([^/]+)").endsWith("karpenter.sh"))`;
const RESTRICTED_AWS = 'Invalid value: "string": label domain "karpenter.k8s.aws" is restricted';

describe("readableCel", () => {
  it("puts a misspelt requirement key where the server prints \"string\", and suggests the well-known key", () => {
    expect(readableCel(RESTRICTED_AWS, "karpenter.k8s.aws/instance-categroy", undefined, AWS_RULE, "string")).toEqual({
      message: 'Invalid value: "karpenter.k8s.aws/instance-categroy": label domain "karpenter.k8s.aws" is restricted',
      hint: "did you mean karpenter.k8s.aws/instance-category? The karpenter.k8s.aws domain allows only its 4 well-known keys; a label of your own needs a domain you own (e.g. example.com/instance-categroy)",
    });
  });

  it("names the nearest keys when nothing is close, and the refused key of a labels map", () => {
    const r = readableCel('Invalid value: "object": label domain "karpenter.sh" is restricted', { app: "web", "karpenter.sh/custom": "x" }, undefined, LABELS_RULE, "object");
    expect(r.message).toBe('Invalid value: "karpenter.sh/custom": label domain "karpenter.sh" is restricted');
    expect(r.hint).toBe("the karpenter.sh domain allows only its 2 well-known keys (nearest: karpenter.sh/nodepool, karpenter.sh/capacity-type); a label of your own needs a domain you own (e.g. example.com/custom)");
  });

  it("shows any other scalar value (at the rule's fieldPath) and leaves objects as the server words them", () => {
    expect(readableCel('Invalid value: "object": must be at most 10', { spec: { n: 12 } }, "/spec/n", "self.spec.n <= 10", "object").message).toBe("Invalid value: 12: must be at most 10");
    expect(readableCel('Invalid value: "string": kind may not be empty', "", undefined, "self != ''", "string").message).toBe('Invalid value: "": kind may not be empty');
    expect(readableCel('Invalid value: "object": bad', { a: 1 }, undefined, "false", "object")).toEqual({ message: 'Invalid value: "object": bad' });
  });
});

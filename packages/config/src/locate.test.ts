import { describe, expect, it } from "vitest";
import { parseOverlay } from "./locate.ts";

const SOURCE = `import { defineCluster } from "@eks-gitops/config";
const shared = { cpu: "1", memory: "1Gi" };
const pools = [{ name: "a", limits: shared }];
export default defineCluster({
  name: "x",
  "quoted-key": { inner: 1 },
  nodePools: pools,
  workloads: [...others, { name: "w" }],
  karpenter: { controllerResources: { requests: shared } },
});
`;

describe("parseOverlay().locate", () => {
  const source = parseOverlay("cluster.ts", SOURCE);

  it("finds a key or its value, 1-based", () => {
    expect(source.locate(["name"], "key")).toEqual({ line: 5, column: 3, depth: 1 });
    expect(source.locate(["name"], "value")).toEqual({ line: 5, column: 9, depth: 1 });
    expect(source.locate(["quoted-key", "inner"], "key")).toEqual({ line: 6, column: 19, depth: 2 });
  });

  it("follows a top-level constant to where the value is written", () => {
    expect(source.locate(["nodePools", 0, "limits", "cpu"])).toEqual({ line: 2, column: 23, depth: 4 });
    expect(source.locate(["karpenter", "controllerResources", "requests", "memory"], "key")).toEqual({ line: 2, column: 28, depth: 4 });
  });

  it("stops at the nearest written parent: a missing key, an index after a spread", () => {
    expect(source.locate(["nodePools", 0, "weight"], "key")).toEqual({ line: 3, column: 16, depth: 2 });
    expect(source.locate(["workloads", 1, "name"])).toEqual({ line: 8, column: 3, depth: 1 });
  });
});

// The decode plans (decode.ts) are shared by the kinds of one OpenAPI document: a plan pruned for one kind is the
// plan every other kind of the document would have made alone, in any order, cycles included.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogLayer } from "../schema/registry.ts";
import { typesFromOpenApiPack } from "../schema/openapi-pack.ts";
import type { SchemaNode, TypeSchema } from "../schema/model.ts";
import { MIRROR, TEST_CACHE } from "../testing.ts";
import { decodeFindings, decodePlan, unsharedDecodePlan } from "./decode.ts";

/** A plan as plain data (a cycle as the number of the plan it returns to), for comparing. */
function shape(p: unknown, seen = new Map<unknown, number>()): unknown {
  if (p === null || p === undefined) return p;
  const known = seen.get(p);
  if (known !== undefined) return { cycle: known };
  seen.set(p, seen.size);
  const plan = p as { leaf?: string; typeName?: string; props?: Map<string, unknown>; items?: unknown; values?: unknown };
  return {
    leaf: plan.leaf,
    typeName: plan.typeName,
    props: plan.props ? [...plan.props].map(([k, c]) => [k, shape(c, seen)]) : undefined,
    items: plan.items ? shape(plan.items, seen) : undefined,
    values: plan.values ? shape(plan.values, seen) : undefined,
  };
}

const REF = "#/components/schemas/";
const builtin = (kind: string, components: Record<string, SchemaNode>): TypeSchema => ({
  gvk: { group: "example.com", version: "v1", kind },
  flavour: "builtin",
  root: { $ref: `${REF}${kind}` },
  components,
  documentId: "test:cycle",
  source: "test",
});

describe("decode plans shared by the kinds of a document", () => {
  it("are, for every built-in kind of the pinned documents, the plan the kind makes alone", async () => {
    await catalogLayer({}, { mirror: MIRROR, cacheDir: TEST_CACHE }, [{ apiVersion: "apps/v1", kind: "Deployment" }, { apiVersion: "v1", kind: "Service" }, { apiVersion: "batch/v1", kind: "CronJob" }]);
    let compared = 0;
    let withLeaves = 0;
    for (const pack of readdirSync(TEST_CACHE).filter((f) => f.endsWith(".pack"))) {
      const path = join(TEST_CACHE, pack);
      // two readings of the document: one whose kinds share plans, one whose every kind plans alone
      const shared = typesFromOpenApiPack(path, "", "a") ?? [];
      const alone = typesFromOpenApiPack(path, "", "b") ?? [];
      // backwards for the shared ones: the order the kinds come in changes nothing
      for (let i = shared.length - 1; i >= 0; i--) {
        const a = shape(decodePlan(shared[i] as TypeSchema));
        expect(a, `${shared[i]?.gvk.kind}`).toEqual(shape(unsharedDecodePlan(alone[i] as TypeSchema)));
        compared++;
        if (a !== null) withLeaves++;
      }
    }
    expect(compared).toBeGreaterThan(50);
    expect(withLeaves).toBeGreaterThan(10);
  });

  it("keep a branch that reaches a quantity only through a cycle, whichever kind is planned first", () => {
    // A holds a quantity and a B; B holds only an A: B leads to a quantity through A
    const components = (): Record<string, SchemaNode> => ({
      A: { type: "object", properties: { b: { $ref: `${REF}B` }, q: { $ref: `${REF}io.k8s.apimachinery.pkg.api.resource.Quantity` } } },
      B: { type: "object", properties: { a: { $ref: `${REF}A` } } },
      "io.k8s.apimachinery.pkg.api.resource.Quantity": { type: "string" },
    });
    const object = { b: { a: { q: "1x", b: { a: { q: "2y" } } } } };
    for (const order of [["A", "B"], ["B", "A"]]) {
      const c = components();
      const types = Object.fromEntries(order.map((k) => [k, builtin(k, c)]));
      for (const k of order) decodePlan(types[k] as TypeSchema);
      // from A: /b/a/q and /b/a/b/a/q are found through B, which leads back to A
      expect(decodeFindings(object, types.A as TypeSchema).map((f) => f.path)).toEqual(["/b/a/q", "/b/a/b/a/q"]);
      expect(decodeFindings(object.b, types.B as TypeSchema).map((f) => f.path)).toEqual(["/a/q", "/a/b/a/q"]);
    }
  });
});

// The ResultStore gives back the results it was given, and finds a document's row as a Map keyed by file,
// index and pointer did (the last one kept wins), with cross-object findings escalating as before.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ResultStore } from "./result-store.ts";
import type { Finding, ResourceResult } from "./types.ts";

const finding = (severity: Finding["severity"], path = "/spec"): Finding => ({ severity, path, message: `m ${path}`, rule: "schema:type" });

describe("ResultStore", () => {
  it("gives back each result as it was kept, findings only where there are some", () => {
    const store = new ResultStore();
    const a: ResourceResult = { file: "clusters/x/rendered/a.yaml", index: 0, apiVersion: "apps/v1", kind: "Deployment", name: "web-frontend-long-name", namespace: "shop", status: "valid", findings: [] };
    const b: ResourceResult = { ...a, index: 1, name: "b", status: "invalid", findings: [finding("error")] };
    expect([store.add(a), store.add(b, "/items/3")]).toEqual([0, 1]);
    expect(store.results()).toStrictEqual([a, b]);
    expect(store.pointer(1)).toBe("/items/3");
    expect(store.pointer(0)).toBeUndefined();
  });

  it("finds rows by file, index and pointer, and adds findings (an error makes a valid result invalid)", () => {
    const store = new ResultStore();
    const base: ResourceResult = { file: "f.yaml", index: 0, apiVersion: "v1", kind: "List", name: "", namespace: "", status: "valid", findings: [] };
    store.add(base, "/items/0");
    store.add(base, "/items/1");
    store.add({ ...base, file: "g.yaml" });
    expect(store.find("f.yaml", 0, "/items/1")).toBe(1);
    expect(store.find("f.yaml", 0)).toBeUndefined();
    expect(store.find("g.yaml", 0)).toBe(2);
    expect(store.find("h.yaml", 0)).toBeUndefined();
    store.addFinding(0, finding("warning"));
    expect(store.get(0).status).toBe("valid");
    store.addFinding(0, finding("error", "/x"));
    expect(store.get(0)).toMatchObject({ status: "invalid", findings: [finding("warning"), finding("error", "/x")] });
    store.add({ ...base, status: "error" }, "/items/0");
    store.addFinding(3, finding("error"));
    expect(store.find("f.yaml", 0, "/items/0")).toBe(3);
    expect(store.get(3).status).toBe("error");
  });

  it("agrees with an array of results and a Map of keys (property)", () => {
    const result = fc.record({
      file: fc.constantFrom("a.yaml", "b.yaml", "clusters/one/rendered/apps_v1_Deployment_shop_web.yaml"),
      index: fc.nat(3),
      apiVersion: fc.constantFrom("v1", "apps/v1", ""),
      kind: fc.constantFrom("Deployment", "Service", ""),
      name: fc.string({ maxLength: 20 }),
      namespace: fc.constantFrom("", "shop"),
      status: fc.constantFrom("valid", "invalid", "error", "skipped"),
      findings: fc.array(fc.constantFrom(finding("error"), finding("warning"), finding("info")), { maxLength: 2 }),
    }).map((r) => ({ ...r }) as ResourceResult);
    const entry = fc.tuple(result, fc.option(fc.constantFrom("/items/0", "/items/1"), { nil: undefined }));
    const added = fc.tuple(fc.nat(40), fc.string({ maxLength: 3 }), fc.constantFrom<Finding["severity"]>("error", "warning"));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), fc.array(added, { maxLength: 5 }), (entries, extra) => {
        const store = new ResultStore();
        const expected: ResourceResult[] = [];
        const byKey = new Map<string, number>();
        const key = (file: string, index: number, pointer?: string) => `${file}\u0000${index}\u0000${pointer ?? ""}`;
        for (const [r, pointer] of entries) {
          byKey.set(key(r.file, r.index, pointer), expected.length);
          expected.push(r);
          store.add(r, pointer);
        }
        for (const [r, pointer] of entries) expect(store.find(r.file, r.index, pointer)).toBe(byKey.get(key(r.file, r.index, pointer)));
        for (const [at, path, severity] of extra) {
          if (expected.length === 0) break;
          const i = at % expected.length;
          const e = expected[i] as ResourceResult;
          const f = finding(severity, path);
          expected[i] = { ...e, status: e.status === "valid" && severity === "error" ? "invalid" : e.status, findings: [...e.findings, f] };
          store.addFinding(i, f);
        }
        expect(store.results()).toStrictEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

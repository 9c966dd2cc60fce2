// The ResultStore gives back the results it was given, and finds a document's row as a Map keyed by file,
// index and pointer did (the last one kept wins), with cross-object findings escalating as before. A run's
// report over the store (rows made objects one at a time) writes every format byte for byte as the sorted
// array of results did.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyLevels } from "./levels.ts";
import { formatReport, OUTPUT_FORMATS } from "./output/format.ts";
import { writeReport } from "./output/write.ts";
import { lazyRows, ResultStore, reportOfRows, SortedRows, withNotChecked } from "./result-store.ts";
import type { CrossObjectFinding, Finding, Report, ResourceResult } from "./types.ts";
import { summarize } from "./validate.ts";

const finding = (severity: Finding["severity"], path = "/spec"): Finding => ({ severity, path, message: `m ${path}`, rule: "schema:type" });

/** Budgets of the spill (spill.ts): everything in memory (the default), nothing, a few rows. */
const spillAfter = fc.constantFrom<number | undefined>(undefined, 0, 1, 3, 7);

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

  it("keeps the findings of rows past its budget in the spill (copies come back), cross-object findings added to them", () => {
    const store = new ResultStore({ after: 1, bufferBytes: 64 });
    const base: ResourceResult = { file: "f.yaml", index: 0, apiVersion: "v1", kind: "Service", name: "a", namespace: "", status: "invalid", findings: [] };
    const kept = [finding("error")];
    const spilled = [{ ...finding("error", "/spec/ports/0"), hint: "h\u2028\ud800", line: 3, column: 5 }, finding("warning")];
    // JSON would not give these back as they are: kept in memory
    const odd = [{ ...finding("warning"), line: -0 }];
    store.add({ ...base, findings: kept });
    store.add({ ...base, index: 1, findings: spilled });
    store.add({ ...base, index: 2, status: "valid" });
    store.add({ ...base, index: 3, findings: odd });
    store.add({ ...base, index: 4, status: "valid" });
    expect(store.get(0).findings).toBe(kept);
    expect(store.get(1).findings).not.toBe(spilled);
    expect(store.get(1).findings).toStrictEqual(spilled);
    expect(store.get(3).findings).toBe(odd);
    expect(store.rowsWithFindings()).toEqual([0, 1, 3]);
    store.addFinding(1, finding("info", "/x"));
    store.addFinding(4, finding("error", "/y"));
    expect(store.get(1).findings).toStrictEqual([...spilled, finding("info", "/x")]);
    expect(store.get(4)).toMatchObject({ status: "invalid", findings: [finding("error", "/y")] });
    expect(store.rowsWithFindings()).toEqual([0, 1, 3, 4]);
    expect(store.onDisk).toBe(true);
    store.close();
  });

  it("never spills the findings of a Secret (they may quote its values) nor of stdin's documents (on no disk)", () => {
    const store = new ResultStore({ after: 0, bufferBytes: 64 });
    const base: ResourceResult = { file: "f.yaml", index: 0, apiVersion: "v1", kind: "Service", name: "a", namespace: "", status: "invalid", findings: [] };
    const service = [finding("error")];
    const secret = [finding("error", "/data/password")];
    const stdin = [finding("error", "/spec")];
    store.add({ ...base, findings: service });
    store.add({ ...base, index: 1, kind: "Secret", findings: secret });
    store.add({ ...base, file: "-", index: 2, findings: stdin });
    expect(store.get(0).findings).not.toBe(service);
    expect(store.get(0).findings).toStrictEqual(service);
    expect(store.get(1).findings).toBe(secret);
    expect(store.get(2).findings).toBe(stdin);
    store.close();
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
      fc.property(fc.array(entry, { maxLength: 40 }), fc.array(added, { maxLength: 5 }), spillAfter, (entries, extra, after) => {
        // past `after` rows (and files) the names, pointers and files' names are read back from a temporary file
        const store = new ResultStore({ after, bufferBytes: 8 });
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

describe("a run's report over the store (SortedRows, reportOfRows)", () => {
  const result = fc
    .record({
      file: fc.constantFrom("b.yaml", "a.yaml", "clusters/one/rendered/x.yaml", "A.yaml", "a.yaml\u0000"),
      index: fc.nat(3),
      apiVersion: fc.constantFrom("v1", "apps/v1"),
      kind: fc.constantFrom("Deployment", "Secret\u001b[31m", ""),
      name: fc.string({ maxLength: 20 }),
      namespace: fc.constantFrom("", "shop"),
      status: fc.constantFrom("valid", "invalid", "error", "skipped"),
      findings: fc.array(fc.constantFrom(finding("error"), finding("warning", "/a\u2028b"), finding("info")), { maxLength: 2 }),
    })
    .map((r) => ({ ...r }) as ResourceResult);
  const entry = fc.tuple(result, fc.option(fc.constantFrom("/items/0", "/items/1"), { nil: undefined }));
  const crossFinding = fc.record({ at: fc.nat(40), path: fc.constantFrom("/spec", "/x"), severity: fc.constantFrom<Finding["severity"]>("error", "warning"), missing: fc.boolean() });

  /** The store as the stream leaves it, and the plain report made the way the stream made it before (results(), sort). */
  const build = (entries: [ResourceResult, string | undefined][], found: { at: number; path: string; severity: Finding["severity"]; missing: boolean }[], after?: number) => {
    const store = new ResultStore({ after, bufferBytes: 8 });
    for (const [r, pointer] of entries) store.add(r, pointer);
    // cross-object findings as the checks return them: by file, index and pointer (some on no kept row)
    const cross: CrossObjectFinding[] = found.map(({ at, path, severity, missing }) => {
      const [r, pointer] = entries[at % entries.length] as [ResourceResult, string | undefined];
      return { file: missing ? "nowhere.yaml" : r.file, index: r.index, ...(pointer ? { pointer } : {}), severity, path, message: `m ${path}`, rule: "hpa-target-missing" };
    });
    const reference = new ResultStore();
    for (const [r, pointer] of entries) reference.add(r, pointer);
    for (const f of cross) {
      const row = reference.find(f.file, f.index, f.pointer);
      if (row !== undefined) reference.addFinding(row, { severity: f.severity, path: f.path, message: f.message, rule: f.rule });
    }
    store.addFindings(cross, (f) => ({ severity: f.severity, path: f.path, message: f.message, rule: f.rule }));
    const plain = reference.results().sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.index - b.index));
    const done = new Map(store.rowsWithFindings().map((row) => [row, store.get(row)] as const));
    const stats = { transitionRulesSkipped: 0, celRulesEvaluated: 0 };
    return { lazy: reportOfRows(new SortedRows(store, store.sortedRows(), done), { stats }), plain: { summary: summarize(plain), resources: plain, stats } as Report };
  };

  it("gives the results, summary and every output format of the sorted array of results, byte for byte (property)", () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 30 }), fc.array(crossFinding, { maxLength: 5 }), fc.boolean(), spillAfter, (entries, found, verbose, after) => {
        const { lazy, plain } = build(entries, found, after);
        expect(lazyRows(lazy)).toBeDefined();
        for (const format of OUTPUT_FORMATS) {
          const written: string[] = [];
          writeReport(lazy, format, { verbose }, (c) => written.push(c));
          expect(written.join("")).toBe(formatReport(plain, format, { verbose }));
          expect(formatReport(lazy, format, { verbose })).toBe(formatReport(plain, format, { verbose }));
        }
        expect(lazy.summary).toStrictEqual(plain.summary);
        expect(lazy.resources).toStrictEqual(plain.resources);
        expect(JSON.stringify(lazy)).toBe(JSON.stringify(plain));
      }),
      { numRuns: 300 },
    );
  });

  it("stays lazy through levels and notChecked, and agrees with the plain report", () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 30 }), fc.array(crossFinding, { maxLength: 5 }), fc.boolean(), spillAfter, (entries, found, strict, after) => {
        const { lazy, plain } = build(entries, found, after);
        const acknowledge = [{ rule: "hpa-target-missing", reason: "known", path: "/x" }];
        const levelled = applyLevels(withNotChecked(lazy, ["a -> b"]), { strict, acknowledge });
        expect(lazyRows(levelled)).toBeDefined();
        const reference = applyLevels({ ...plain, notChecked: ["a -> b"] }, { strict, acknowledge });
        expect({ ...levelled }).toStrictEqual(reference);
        for (const format of OUTPUT_FORMATS) expect(formatReport(levelled, format)).toBe(formatReport(reference, format));
      }),
      { numRuns: 200 },
    );
  });

  it.each([undefined, 0, 2])("sorts rows by file (as `<` compares them), then index, ties in the order kept (spilled after %s)", (after) => {
    const store = new ResultStore({ after, bufferBytes: 8 });
    const r = (file: string, index: number, name: string): ResourceResult => ({ file, index, apiVersion: "v1", kind: "ConfigMap", name, namespace: "", status: "valid", findings: [] });
    for (const x of [r("b", 1, "1"), r("a", 2, "2"), r("b", 0, "3"), r("a", 2, "4"), r("B", 5, "5")]) store.add(x);
    expect([...store.sortedRows()]).toEqual([4, 1, 3, 2, 0]);
    // files met in sorted order are ranked as they come (a file met again apart past the budget sorts as one)
    const sorted = new ResultStore({ after, bufferBytes: 8 });
    for (const x of [r("a", 1, "1"), r("a", 0, "2"), r("b", 0, "3"), r("c", 0, "4"), r("c", 1, "5")]) sorted.add(x);
    expect([...sorted.sortedRows()]).toEqual([1, 0, 2, 3, 4]);
    expect(sorted.results().map((x) => x.file)).toEqual(["a", "a", "b", "c", "c"]);
  });
});

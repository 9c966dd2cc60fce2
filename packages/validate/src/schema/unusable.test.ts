// A malformed CRD (issue 14 item 1): reported as invalid with the schema path, its objects as "schema unusable",
// everything else still validated; a --crd file that cannot be read is a usage error naming it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunUsageError, runValidation } from "../run.ts";
import { exampleCrd, MIRROR, TEST_CACHE } from "../testing.ts";

const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fine, namespace: default}\ndata: {a: b}\n";
const THING = "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {a: abcdefgh}\n";

const cases: [string, Record<string, unknown>, string, string][] = [
  ["lookahead pattern", { type: "object", properties: { a: { type: "string", pattern: "(?=a)a" } } }, "/properties/spec/properties/a/pattern", 'Invalid value: "(?=a)a": must be a valid regular expression, but isn\'t: error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
  ["unclosed pattern", { type: "object", properties: { a: { type: "string", pattern: "([" } } }, "/properties/spec/properties/a/pattern", 'Invalid value: "([": must be a valid regular expression, but isn\'t: error parsing regexp: missing closing ]: `[`'],
  ["string maxLength", { type: "object", properties: { a: { type: "string", maxLength: "5" } } }, "/properties/spec/properties/a/maxLength", 'Invalid value: "5": must be a non-negative integer'],
  ["string minimum", { type: "object", properties: { a: { type: "integer", minimum: "abc" } } }, "/properties/spec/properties/a/minimum", 'Invalid value: "abc": must be a number'],
  ["string enum", { type: "object", properties: { a: { type: "string", enum: "x" } } }, "/properties/spec/properties/a/enum", 'Invalid value: "x": must be a list'],
  ["unknown type", { type: "object", properties: { a: { type: "nonsense" } } }, "/properties/spec/properties/a/type", 'Unsupported value: "nonsense": supported values: "array", "boolean", "integer", "number", "object", "string"'],
  ["$ref to a missing definition", { type: "object", properties: { a: { $ref: "#/definitions/missing" } } }, "/properties/spec/properties/a/$ref", "Forbidden: $ref is not supported"],
  ["null rule", { type: "object", "x-kubernetes-validations": [null] }, "/properties/spec/x-kubernetes-validations/0", "Invalid value: null: must be a rule object"],
];

async function run(files: Record<string, string>, crd?: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "unusable-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const { report } = await runValidation({ root: dir, paths: [dir], mirror: MIRROR, cacheDir: TEST_CACHE, crossObjectChecks: false, crd: crd?.map((c) => join(dir, c)), read: { cwd: dir } });
  return report;
}

/**
 * Where a finding on the one-line JSON CRD points: line 1, the column of the key the pointer ends at (its
 * `"`, its last occurrence: the deepest), or for a list item (only `[null]` here) the item itself.
 */
function at(text: string, pointer: string): { line: number; column: number } {
  const last = pointer.split("/").at(-1) as string;
  return { line: 1, column: /^\d+$/.test(last) ? text.indexOf("[null]") + 2 : text.lastIndexOf(`"${last}"`) + 1 };
}

describe("a malformed CRD", () => {
  it.each(cases)("%s: the CRD is invalid at the schema path, its object an error, the rest validated", async (_name, spec, pointer, message) => {
    const crd = exampleCrd("Thing", spec);
    const report = await run({ "a-crd.yaml": crd, "b-thing.yaml": THING, "c-cm.yaml": CM });
    const base = "/spec/versions/0/schema/openAPIV3Schema";
    const byFile = Object.fromEntries(report.resources.map((r) => [r.file, r]));
    expect(byFile["a-crd.yaml"]?.status).toBe("invalid");
    expect(byFile["a-crd.yaml"]?.findings).toContainEqual({ severity: "error", path: `${base}${pointer}`, message, rule: "crd:schema", ...at(crd, pointer) });
    const dotted = `spec.versions[0].schema.openAPIV3Schema${pointer.replace(/\/properties\/([^/]+)/g, ".properties[$1]").replace(/\/(\d+)/g, "[$1]").replace(/\//g, ".")}`;
    expect(byFile["b-thing.yaml"]).toMatchObject({ status: "error" });
    expect(byFile["b-thing.yaml"]?.findings).toEqual([
      {
        severity: "error",
        path: "",
        message: `schema unusable: the schema of example.com/v1 Thing (document a-crd.yaml#0) is invalid: ${dotted}: ${message}`,
        rule: "schema:unusable",
        hint: "fix the CRD (the API server would refuse it) or supply a working schema with --crd",
        // a finding about the whole object is located at its start
        line: 1,
        column: 1,
      },
    ]);
    expect(byFile["c-cm.yaml"]?.status).toBe("valid");
  });

  it("a null openAPIV3Schema is required", async () => {
    const crd = JSON.parse(exampleCrd("Thing", {}));
    crd.spec.versions[0].schema.openAPIV3Schema = null;
    const text = JSON.stringify(crd);
    const report = await run({ "a-crd.yaml": text, "b-thing.yaml": THING });
    expect(report.resources[1]?.findings[0]?.message).toBe(
      "schema unusable: the schema of example.com/v1 Thing (document a-crd.yaml#0) is invalid: spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required",
    );
    expect(report.resources[0]?.findings).toContainEqual({ severity: "error", path: "/spec/versions/0/schema/openAPIV3Schema", message: "Required value: schemas are required", rule: "crd:schema", ...at(text, "/openAPIV3Schema") });
  });

  it("the same from --crd: objects are errors, others validated", async () => {
    const report = await run({ "crd.json": exampleCrd("Thing", cases[0]?.[1] ?? {}), "b-thing.yaml": THING, "c-cm.yaml": CM }, ["crd.json"]);
    const thing = report.resources.find((r) => r.kind === "Thing");
    expect(thing?.findings[0]?.message).toMatch(/^schema unusable: the schema of example.com\/v1 Thing \(--crd .*crd.json\) is invalid: spec.versions\[0\]/);
    // the CRD file is in the validated folder too: invalid itself
    expect(report.summary).toMatchObject({ error: 1, valid: 1, invalid: 1 });
  });

  it.each([
    ["binary", "bin.yaml", Buffer.from([0x61, 0x00, 0x62, 0xff])],
    ["unparsable", "bad.yaml", "kind: [\n"],
    ["cyclic", "cyc.yaml", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: &s {x: *s}\n"],
    ["invalid JSON", "bad.json", "{"],
  ])("an %s --crd file is a usage error naming it", async (_what, name, content) => {
    const dir = mkdtempSync(join(tmpdir(), "unusable-crd-"));
    writeFileSync(join(dir, name), content);
    writeFileSync(join(dir, "cm.yaml"), CM);
    const run = runValidation({ root: dir, paths: [join(dir, "cm.yaml")], mirror: MIRROR, cacheDir: TEST_CACHE, crossObjectChecks: false, crd: [join(dir, name)] });
    await expect(run).rejects.toBeInstanceOf(RunUsageError);
    await expect(run).rejects.toThrow(`--crd ${join(dir, name)}`);
  });
});

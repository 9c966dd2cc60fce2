// Structural validation, defaulting, unknown fields, metadata and CEL of custom resources, on a CRD written for the test.
import { describe, expect, it } from "vitest";
import { parseText } from "./reader.ts";
import { exampleCrd, registryFromCrdYaml } from "./testing.ts";
import type { Finding } from "./types.ts";
import { CEL_SKIPPED_MESSAGE, ObjectValidator } from "./validate.ts";
import { validateDocuments } from "./validate-documents.ts";

const CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            apiVersion: {type: string}
            kind: {type: string}
            metadata: {type: object}
            spec:
              type: object
              required: [size]
              x-kubernetes-validations:
                - rule: "self.mode != 'manual' || has(self.owner)"
                  message: "owner is required when mode is manual"
                  fieldPath: ".owner"
                  reason: FieldValueRequired
                - rule: "self.size + 1 > 2"
                  messageExpression: "'size must exceed 1, got ' + string(self.size)"
                - rule: "self.ratio * 2.0 < 3.0"
                  message: "ratio too big"
                - rule: "self.?nickname.orValue('none') != 'forbidden'"
                  message: "nickname may not be 'forbidden'"
                - rule: "self.size == oldSelf.size"
                  message: "size is immutable"
              properties:
                size: {type: integer, minimum: 1, maximum: 10}
                ratio: {type: number, default: 0.5}
                mode: {type: string, enum: [auto, manual], default: auto}
                owner: {type: string, pattern: '^[a-z]+\\z'}
                nickname: {type: string}
                when: {type: string, format: date-time}
                port: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
                note: {type: string, nullable: true}
                level: {type: string}
                tags:
                  type: array
                  x-kubernetes-list-type: set
                  items: {type: string}
                extra:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                template:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
                checks:
                  type: array
                  items:
                    type: object
                    x-kubernetes-validations:
                      - rule: "self.name.startsWith('chk-')"
                        message: "check names start with chk-"
                      - rule: "self.missing == 1"
                    properties:
                      name: {type: string}
`;

const registry = registryFromCrdYaml(CRD);
const widgetType = registry.lookup("example.com/v1", "Widget");
if (!widgetType) throw new Error("test CRD did not load");

const widget = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: "w", namespace: "default" }) => ({
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata,
  spec,
});

const v = new ObjectValidator();
const check = (obj: Record<string, unknown>, previous?: Record<string, unknown>): Finding[] => v.validate(obj, widgetType, registry, previous);
const brief = (fs: readonly Finding[]) => fs.map((f) => `${f.path}: ${f.message} [${f.rule}]`);

describe("structural validation of a custom resource", () => {
  it("accepts a valid object", () => {
    expect(check(widget({ size: 2, owner: "alice", port: "http", tags: ["a", "b"], when: "2026-01-02T03:04:05Z" }))).toEqual([]);
  });

  it("reports required, enum, minimum and types with API-server wording", () => {
    expect(brief(check(widget({ mode: "sometimes" })))).toEqual([
      "/spec/size: Required value [schema:required]",
      '/spec/mode: Unsupported value: "sometimes": supported values: "auto", "manual" [schema:enum]',
      `: ${CEL_SKIPPED_MESSAGE} [cel:skipped]`,
    ]);
    // a missing required field stops CEL too (the rule reading it is not run)
    expect(brief(check(widget({})))).toEqual(["/spec/size: Required value [schema:required]", `: ${CEL_SKIPPED_MESSAGE} [cel:skipped]`]);
    expect(brief(check(widget({ size: 11 })))).toEqual(["/spec/size: Invalid value: 11: should be less than or equal to 10 [schema:maximum]"]);
  });

  it("rejects unknown fields (strict field validation) but keeps x-kubernetes-preserve-unknown-fields", () => {
    expect(brief(check(widget({ size: 2, colour: "red", extra: { anything: { goes: 1 } } })))).toEqual([
      '/spec/colour: unknown field "spec.colour" [schema:additionalProperties]',
    ]);
  });

  it("matches patterns with RE2 semantics (\\z is end of text in RE2, a syntax error in JavaScript)", () => {
    expect(check(widget({ size: 2, owner: "alice" }))).toEqual([]);
    expect(brief(check(widget({ size: 2, owner: "alice1" })))).toEqual([`/spec/owner: Invalid value: "alice1": should match '^[a-z]+\\z' [schema:pattern]`]);
  });

  it("checks formats, int-or-string and nullable", () => {
    expect(brief(check(widget({ size: 2, when: "yesterday" })))).toEqual(['/spec/when: Invalid value: "yesterday": must be of format date-time [schema:format]']);
    expect(check(widget({ size: 2, port: 8080, note: null }))).toEqual([]);
    expect(brief(check(widget({ size: 2, port: true })))[0]).toBe("/spec/port: Invalid value: true: must be of type integer or string, not boolean [schema:type]");
  });

  it("drops a null for a non-nullable field, as the API server does, so only required fields complain", () => {
    expect(check(widget({ size: 2, level: null }))).toEqual([]);
    expect(brief(check(widget({ size: null })))).toContain("/spec/size: Required value [schema:required]");
  });

  it("reports duplicates in x-kubernetes-list-type=set lists", () => {
    expect(brief(check(widget({ size: 2, tags: ["a", "a"] })))).toEqual(['/spec/tags/1: Duplicate value: "a" [schema:x-kubernetes-list-type=set]']);
  });

  it("requires apiVersion and kind of embedded resources", () => {
    expect(brief(check(widget({ size: 2, template: { metadata: { name: "x" } } })))).toEqual([
      "/spec/template/apiVersion: Required value [schema:required]",
      "/spec/template/kind: Required value [schema:required]",
      `: ${CEL_SKIPPED_MESSAGE} [cel:skipped]`,
    ]);
  });

  it("validates metadata as ObjectMeta (name, namespace, labels)", () => {
    expect(brief(check(widget({ size: 2 }, { name: "Bad_Name", labels: { "example.com/ok": "-bad-" } })))).toEqual([
      `/metadata/name: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') [native:meta/name]`,
      `/metadata/labels/example.com~1ok: metadata.labels: Invalid value: "-bad-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?') [native:meta/labels]`,
    ]);
  });
});

describe("CEL rules (x-kubernetes-validations)", () => {
  it("applies schema defaults before CEL: mode defaults to auto, so owner is not required", () => {
    expect(check(widget({ size: 2 }))).toEqual([]);
  });

  it("reports a failed rule with its message, fieldPath and reason", () => {
    expect(brief(check(widget({ size: 2, mode: "manual" })))).toEqual([
      "/spec/owner: Required value: owner is required when mode is manual [cel:self.mode != 'manual' || has(self.owner)]",
    ]);
  });

  it("uses messageExpression, with integers as CEL ints (int + int)", () => {
    expect(brief(check(widget({ size: 1 })))).toEqual(['/spec: Invalid value: "object": size must exceed 1, got 1 [cel:self.size + 1 > 2]']);
  });

  it("treats `number` fields as doubles, also when written as integers", () => {
    expect(check(widget({ size: 2, ratio: 1 }))).toEqual([]);
    expect(brief(check(widget({ size: 2, ratio: 2 })))).toEqual(['/spec: Invalid value: "object": ratio too big [cel:self.ratio * 2.0 < 3.0]']);
  });

  it("supports optional field selection", () => {
    expect(brief(check(widget({ size: 2, nickname: "forbidden" })))).toEqual([
      `/spec: Invalid value: "object": nickname may not be 'forbidden' [cel:self.?nickname.orValue('none') != 'forbidden']`,
    ]);
  });

  it("reports evaluation errors (a missing key) as errors, not as false; rules run per list item", () => {
    expect(brief(check(widget({ size: 2, checks: [{ name: "chk-a" }, { name: "b" }] })))).toEqual([
      '/spec/checks/0: Invalid value: "object": no such key: missing evaluating rule: self.missing == 1 [cel:self.missing == 1]',
      '/spec/checks/1: Invalid value: "object": check names start with chk- [cel:self.name.startsWith(\'chk-\')]',
      '/spec/checks/1: Invalid value: "object": no such key: missing evaluating rule: self.missing == 1 [cel:self.missing == 1]',
    ]);
  });

  it("skips CEL after a type, required, enum, maxLength, maxItems or maxProperties error, saying so; not after others", () => {
    expect(brief(check(widget({ size: "two" })))).toEqual([
      '/spec/size: Invalid value: "two": must be of type integer, not string [schema:type]',
      `: ${CEL_SKIPPED_MESSAGE} [cel:skipped]`,
    ]);
    // a maximum violation is not blocking: CEL still runs (and here finds nothing)
    expect(brief(check(widget({ size: 11 })))).toEqual(["/spec/size: Invalid value: 11: should be less than or equal to 10 [schema:maximum]"]);
  });

  it("skips and counts oldSelf rules on create; evaluates them against a previous object", async () => {
    const docs = { resources: parseText({ file: "w.yaml", text: JSON.stringify(widget({ size: 3 })) }).resources, unreadable: [], iam: [] };
    const created = await validateDocuments(docs, { registry });
    expect(created.stats.transitionRulesSkipped).toBe(1);
    expect(created.resources[0]?.status).toBe("valid");
    const updated = await validateDocuments(docs, { registry, previous: () => widget({ size: 2 }) });
    expect(updated.stats.transitionRulesSkipped).toBe(0);
    expect(brief(updated.resources[0]?.findings ?? [])).toEqual(['/spec: Invalid value: "object": size is immutable [cel:self.size == oldSelf.size]']);
  });
});

describe("validateDocuments", () => {
  it("says how to supply a missing schema and keeps going", async () => {
    const text = `apiVersion: example.com/v9\nkind: Gadget\nmetadata: {name: g}\n---\n${JSON.stringify(widget({ size: 2 }))}`;
    const docs = { ...parseText({ file: "m.yaml", text }), iam: [] };
    const report = await validateDocuments(docs, { registry });
    expect(report.summary).toEqual({ resources: 2, valid: 1, invalid: 0, error: 1, skipped: 0 });
    expect(report.resources[0]?.findings[0]).toEqual({
      severity: "error",
      path: "",
      message:
        "no schema for example.com/v9 Gadget (searched: test CRDs); supply it with --crd FILE|DIR (its CRD or a JSON Schema), add the CRD to the validated files, use --from-cluster, or fix apiVersion/kind",
      rule: "schema:missing",
    });
  });

  it("plugs in cross-object findings by file and index", async () => {
    const docs = { ...parseText({ file: "x.yaml", text: JSON.stringify(widget({ size: 2 })) }), iam: [] };
    const report = await validateDocuments(docs, {
      registry,
      crossObjectChecks: (resources) => resources.map((r) => ({ file: r.file, index: r.index, severity: "error", path: "/spec", message: "cross", rule: "test-check", hint: "do X" })),
    });
    expect(report.resources[0]?.status).toBe("invalid");
    expect(report.resources[0]?.findings).toEqual([{ severity: "error", path: "/spec", message: "cross", rule: "test-check", hint: "do X" }]);
  });
});

describe("CEL result memo", () => {
  const signed = registryFromCrdYaml(
    exampleCrd("Gauge", {
      type: "object",
      properties: {
        readings: {
          type: "array",
          "x-kubernetes-validations": [{ rule: "self.all(x, 1.0 / x.d > 0.0)", message: "readings must be positive (not -0)" }],
          items: { type: "object", properties: { d: { type: "number" } } },
        },
      },
    }),
  );
  const gauge = signed.lookup("example.com/v1", "Gauge");
  if (!gauge) throw new Error("Gauge CRD did not load");
  const obj = (d: number) => ({ apiVersion: "example.com/v1", kind: "Gauge", metadata: { name: "g" }, spec: { readings: [{ d }] } });

  it("never answers for a -0 from a memoised 0 (JSON writes both as 0)", () => {
    const v2 = new ObjectValidator();
    expect(v2.validate(obj(0), gauge, signed)).toEqual([]);
    expect(brief(v2.validate(obj(-0), gauge, signed))).toEqual(['/spec/readings: Invalid value: "array": readings must be positive (not -0) [cel:self.all(x, 1.0 / x.d > 0.0)]']);
    expect(v2.validate(obj(0), gauge, signed)).toEqual([]);
  });
});

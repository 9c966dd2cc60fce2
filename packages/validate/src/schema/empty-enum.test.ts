// "" in an enum field of a built-in kind: unset when the Go field is a value, checked when it is a pointer or required
// (the API server's behaviour, measured against kube-apiserver v1.36 in packages/e2e).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ObjectValidator } from "../validate.ts";
import { typesFromOpenApi } from "./sources.ts";
import { VALUE_ENUM_FIELDS } from "./value-enum-fields.ts";

// A minimal /openapi/v3 document written for this test, with the real definition names.
const ref = (name: string) => ({ allOf: [{ $ref: `#/components/schemas/io.k8s.api.core.v1.${name}` }] });
const doc = {
  components: {
    schemas: {
      "io.k8s.api.core.v1.Pod": {
        type: "object",
        properties: { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" }, spec: ref("PodSpec") },
        "x-kubernetes-group-version-kind": [{ group: "", version: "v1", kind: "Pod" }],
      },
      "io.k8s.api.core.v1.PodSpec": {
        type: "object",
        properties: {
          restartPolicy: { type: "string", enum: ["Always", "Never", "OnFailure"] },
          topologySpreadConstraints: { type: "array", items: ref("TopologySpreadConstraint") },
        },
      },
      "io.k8s.api.core.v1.TopologySpreadConstraint": {
        type: "object",
        required: ["whenUnsatisfiable"],
        properties: {
          whenUnsatisfiable: { type: "string", enum: ["DoNotSchedule", "ScheduleAnyway"] },
          nodeAffinityPolicy: { type: "string", enum: ["Honor", "Ignore"] },
        },
      },
    },
  },
};

const [pod] = typesFromOpenApi(doc, "test document", "test:empty-enum");
const validate = (spec: unknown, validator = new ObjectValidator()) =>
  // the schema stage alone (these partial pods have no containers, which the native stage would report)
  validator.validate({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec }, pod!, undefined, undefined, { native: false }).map((f) => `${f.path}: ${f.message}`);

describe('"" in an enum field of a built-in kind', () => {
  it("is judged like an absent field where the Go field is a value (PodSpec.restartPolicy)", () => {
    expect(VALUE_ENUM_FIELDS["io.k8s.api.core.v1.PodSpec"]).toContain("restartPolicy");
    expect(validate({ restartPolicy: "" })).toEqual([]);
    // any other value is still checked
    expect(validate({ restartPolicy: "always" })).toEqual(['/spec/restartPolicy: Unsupported value: "always": supported values: "Always", "Never", "OnFailure"']);
  });

  it("is checked against the enum where the Go field is a pointer (nodeAffinityPolicy) or the field is required (whenUnsatisfiable)", () => {
    expect(VALUE_ENUM_FIELDS["io.k8s.api.core.v1.TopologySpreadConstraint"]).toEqual(["whenUnsatisfiable"]);
    expect(validate({ topologySpreadConstraints: [{ whenUnsatisfiable: "", nodeAffinityPolicy: "" }] })).toEqual([
      '/spec/topologySpreadConstraints/0/whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"',
      '/spec/topologySpreadConstraints/0/nodeAffinityPolicy: Unsupported value: "": supported values: "Honor", "Ignore"',
    ]);
  });

  it("gives the same answers from validator code cached on disk", () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "empty-enum-"));
    const spec = { restartPolicy: "", topologySpreadConstraints: [{ whenUnsatisfiable: "DoNotSchedule", nodeAffinityPolicy: "" }] };
    const fresh = validate(spec, new ObjectValidator({ cacheDir }));
    expect(fresh).toEqual(['/spec/topologySpreadConstraints/0/nodeAffinityPolicy: Unsupported value: "": supported values: "Honor", "Ignore"']);
    expect(validate(spec, new ObjectValidator({ cacheDir }))).toEqual(fresh);
  });
});

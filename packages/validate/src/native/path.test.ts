import { describe, expect, it } from "vitest";
import { FieldPath } from "./path.ts";

describe("FieldPath", () => {
  it("spells a path as the API server does and as a JSON Pointer", () => {
    const p = FieldPath.of("spec", "template", "spec").child("containers").index(0).child("resources", "limits").key("cpu");
    expect(p.toString()).toBe("spec.template.spec.containers[0].resources.limits[cpu]");
    expect(p.pointer()).toBe("/spec/template/spec/containers/0/resources/limits/cpu");
  });

  it("takes up to three names a step, and an undefined name adds no step", () => {
    expect(FieldPath.of("metadata").child("a", "b", "c").toString()).toBe("metadata.a.b.c");
    expect(FieldPath.of("spec").child(undefined).toString()).toBe("spec");
    expect(FieldPath.of("spec").child().pointer()).toBe("/spec");
  });

  it("prints an empty name as Go does (NewPath(\"\") is [])", () => {
    expect(FieldPath.of("").toString()).toBe("[]");
    expect(FieldPath.of().toString()).toBe("[]");
    expect(FieldPath.of("").pointer()).toBe("");
  });
});

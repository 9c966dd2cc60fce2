// CEL cost limits (issue 14 item 9): rules the API server would refuse or cut off are reported instead of run.
import { describe, expect, it, vi } from "vitest";
import { catalogForTests, exampleCrd, registryFromCrdYaml } from "../testing.ts";
import type { TypeSchema } from "../schema/model.ts";
import { ObjectValidator } from "../validate.ts";
import { validateDocuments } from "../validate-documents.ts";
import { parseText } from "../reader.ts";
import { CelEvaluator } from "./evaluate.ts";

const ADVICE = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";

function thing(spec: Record<string, unknown>): { type: TypeSchema; crd: string } {
  const crd = exampleCrd("Thing", spec);
  const type = registryFromCrdYaml(crd).lookup("example.com/v1", "Thing");
  if (!type) throw new Error("no type");
  return { type, crd };
}
const object = (l: unknown[]) => ({ apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "t" }, spec: { l } });

describe("static cost (when the CRD is created)", () => {
  it("accepts every rule of the pinned CRDs, as the API server does", async () => {
    const layer = await catalogForTests();
    const cel = new CelEvaluator();
    const crds = [...layer.types.values()].filter((t) => t.flavour === "crd");
    expect(crds.length).toBeGreaterThan(5);
    for (const t of crds) expect(cel.checkCosts(t.root, t.schemaPointer ?? ""), `${t.gvk.kind}`).toEqual([]);
  });

  it("refuses a triple-nested all() over an unbounded list: the CRD is invalid, the rule is reported and not run", async () => {
    const rule = "self.l.all(x, self.l.all(y, self.l.all(z, x + y + z != '')))";
    const { type, crd } = thing({ type: "object", properties: { l: { type: "array", items: { type: "string" } } }, "x-kubernetes-validations": [{ rule }] });
    // the rule is refused before it runs (run over 1000 items it would take 10^9 steps): no program is run at all
    const run = vi.spyOn(CelEvaluator.prototype as unknown as { run: () => unknown }, "run");
    const findings = new ObjectValidator().validate(object(Array.from({ length: 1000 }, (_, i) => `v${i}`)), type);
    expect(run).not.toHaveBeenCalled();
    run.mockRestore();
    expect(findings).toEqual([{ severity: "error", path: "/spec", message: `Forbidden: rule not run: estimated rule cost exceeds budget by factor of more than 100x ${ADVICE}`, rule: `cel:${rule}` }]);
    const docs = { ...parseText({ file: "crd.json", text: crd }), iam: [] };
    const report = await validateDocuments(docs, { registry: registryFromCrdYaml(crd).with([await catalogForTests()]) });
    expect(report.resources[0]?.findings).toContainEqual({
      severity: "error",
      path: "/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0/rule",
      message: `Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${ADVICE}`,
      rule: "crd:cel-cost",
    });
  });

  it("refuses nested map() over an unbounded list", () => {
    const rule = "self.l.map(x, self.l.map(y, x + y)).size() > 0";
    const { type } = thing({ type: "object", properties: { l: { type: "array", items: { type: "string" } } }, "x-kubernetes-validations": [{ rule }] });
    const findings = new ObjectValidator().validate(object(Array.from({ length: 700 }, (_, i) => `v${i}`)), type);
    expect(findings.map((f) => f.message)).toEqual([`Forbidden: rule not run: estimated rule cost exceeds budget by factor of more than 100x ${ADVICE}`]);
  });
});

describe("run-time cost (per rule and per object)", () => {
  const bounded = (rules: string[], maxItems: number) =>
    thing({ type: "object", properties: { l: { type: "array", maxItems, items: { type: "string", maxLength: 8 } } }, "x-kubernetes-validations": rules.map((rule) => ({ rule })) }).type;
  const nested = "self.l.all(x, self.l.all(y, x != ''))";

  it("a rule within the static limit runs on a small list", () => {
    expect(new ObjectValidator().validate(object(["a", "b"]), bounded([nested], 1000))).toEqual([]);
  });

  it("cuts off a rule whose cost on this object is over the per-call limit", () => {
    const findings = new ObjectValidator().validate(object(Array.from({ length: 1000 }, (_, i) => `v${i}`)), bounded([nested, "false"], 1000));
    expect(findings).toEqual([
      {
        severity: "error",
        path: "/spec",
        message: `Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${nested}`,
        rule: `cel:${nested}`,
      },
    ]);
  });

  it("stops when one object's rules together exceed the budget", () => {
    const rules = Array.from({ length: 14 }, (_, i) => `self.l.all(x, self.l.all(y, x != '${i}'))`);
    const findings = new ObjectValidator().validate(object(Array.from({ length: 380 }, (_, i) => `v${i}`)), bounded(rules, 1000));
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toBe('Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run');
  });
});

describe("time guard", () => {
  it("stops an object's remaining rules once its CEL time is used up", () => {
    const { type } = thing({ type: "object", properties: { l: { type: "array", items: { type: "string" } } }, "x-kubernetes-validations": [{ rule: "self.l.size() >= 0" }, { rule: "false" }] });
    const validator = new ObjectValidator();
    expect(validator.validate(object(["a"]), type).map((f) => f.rule)).toEqual(["cel:false"]);
    validator.cel.timeLimitMs = -1;
    expect(validator.validate(object(["a"]), type)).toEqual([
      { severity: "error", path: "/spec", message: 'Invalid value: "object": CEL evaluation of this object took over -0.001 s, no further validation rules will be run', rule: "cel:self.l.size() >= 0" },
    ]);
  });
});

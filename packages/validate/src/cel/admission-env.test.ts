// The admission CEL environment against kube-apiserver 1.36.5: every expression of the server-accepted function tours
// compiles (no false rejection), every function declared for cel-js is exercised by one of them, and plain cel-js
// would reject many of them (what the declarations are for).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "@marcbachmann/cel-js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compileAdmissionExpression, goTypeName, variableFieldType } from "./admission-compile.ts";
import { createAdmissionEnvironment } from "./admission-env.ts";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "native");
/** Policies the server accepted as they are (their headers say `expect: valid`, captured by the e2e capture). */
const TOURS = ["valid-admission-policy-functions.yaml", "valid-admission-policy-libraries.yaml", "valid-admission-policy-declarations.yaml"];

const expressionsOf = (file: string): string[] => {
  const text = readFileSync(join(FIXTURES, file), "utf8");
  expect(text).toMatch(/^# expect: valid$/m);
  return (parse(text).spec.validations as { expression: string }[]).map((v) => v.expression);
};
const tour = TOURS.flatMap(expressionsOf);
const all = { params: true, authorizer: true };

describe("admission CEL environment", () => {
  it("compiles every expression the API server accepted, each to bool", () => {
    expect(tour.length).toBeGreaterThan(130);
    const rejected = tour.map((e) => [e, compileAdmissionExpression(e, all, ["bool"]).error] as const).filter(([, err]) => err !== undefined);
    expect(rejected).toEqual([]);
  });

  it("exercises every function it declares beyond cel-js's own in a server-accepted expression", () => {
    const own = new Set(new Environment({ enableOptionalTypes: true }).getDefinitions().functions.map((f) => f.signature));
    const declared = createAdmissionEnvironment(all)
      .getDefinitions()
      .functions.filter((f) => !own.has(f.signature) && !f.name.startsWith("re2matches"));
    expect(declared.length).toBeGreaterThan(80);
    const text = tour.join("\n");
    const unused = [...new Set(declared.map((f) => f.name))].filter((name) => !new RegExp(`\\b${name.replace(/[.]/g, "\\.")}\\(`).test(text));
    expect(unused).toEqual([]);
  });

  it("is needed: plain cel-js rejects a good share of the server-accepted expressions", () => {
    const plain = new Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: true });
    const rejected = tour.filter((e) => !plain.check(e).valid);
    // measured on the committed tours: 103 of 132 (two-variable comprehensions, ext strings/lists/sets, every Kubernetes library)
    expect(rejected.length).toBeGreaterThanOrEqual(100);
  });

  it("declares params only with a paramKind and authorizer only where the server does", () => {
    expect(compileAdmissionExpression("params.max > 1", { params: false, authorizer: true }, ["bool"]).error).toBe(
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.max > 1\n | ^",
    );
    expect(compileAdmissionExpression("params.max > 1", all, ["bool"]).error).toBeUndefined();
    expect(compileAdmissionExpression("authorizer.path('/').check('get').reason()", { params: false, authorizer: false }, ["string"]).error).toMatch(
      /undeclared reference to 'authorizer'/,
    );
  });

  it("types results as cel-go names them and checks them exactly (dyn is not bool)", () => {
    expect(compileAdmissionExpression("object.spec.replicas", all, ["bool"]).error).toBe("must evaluate to bool but got dyn");
    expect(compileAdmissionExpression("[{'a': optional.of(1)}]", all, ["string", "null_type"]).error).toBe(
      "must evaluate to one of [string null_type] but got list(map(string, optional_type(int)))",
    );
    expect(compileAdmissionExpression("object.x", all, ["any"]).error).toBeUndefined();
    expect(goTypeName("null")).toBe("null_type");
    expect(variableFieldType("list<kubernetes.Quantity>")).toBe("list<dyn>");
    expect(variableFieldType("map<string, list<int>>")).toBe("map<string, list<int>>");
  });

  it("composes variables: a variable is a typed field of `variables` once declared", () => {
    const vars = new Map([["replicas", "int"]]);
    expect(compileAdmissionExpression("variables.replicas > 1", all, ["bool"], vars).error).toBeUndefined();
    expect(compileAdmissionExpression("variables.replicas + 'x' == ''", all, ["bool"], vars).error).toBe(
      "compilation failed: ERROR: <input>:1:20: found no matching overload for '_+_' applied to '(int, string)'\n | variables.replicas + 'x' == ''\n | ...................^",
    );
    expect(compileAdmissionExpression("variables.later", all, ["any"], vars).error).toBe(
      "compilation failed: ERROR: <input>:1:10: undefined field 'later'\n | variables.later\n | .........^",
    );
  });

  it("rejects what the server's validators reject: literals, mixed aggregates (not inside format), cel.bind", () => {
    expect(compileAdmissionExpression("'a'.matches('(')", all, ["bool"]).error).toBe("compilation failed: ERROR: <input>:1:13: invalid matches argument\n | 'a'.matches('(')\n | ............^");
    expect(compileAdmissionExpression("duration('5 minutes') > duration('1s')", all, ["bool"]).error).toMatch(/^compilation failed: ERROR: <input>:1:10: invalid duration argument/);
    expect(compileAdmissionExpression("{'a': 1, 'b': 'x'}.size() == 2", all, ["bool"]).error).toMatch(/1:15: expected type 'int' but found 'string'/);
    expect(compileAdmissionExpression("'%s-%d'.format(['a', 1]) == 'a-1'", all, ["bool"]).error).toBeUndefined();
    expect(compileAdmissionExpression("cel.bind(x, 1, x == 1)", all, ["bool"]).error).toMatch(/^compilation failed: ERROR: <input>:1:1: undeclared reference to 'cel'/);
    expect(compileAdmissionExpression("[1].all(i, v, v)", all, ["bool"]).error).toMatch(/predicate must return bool/);
  });
});

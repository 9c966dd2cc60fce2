// Compiled validators cached on disk behave exactly like freshly compiled ones (patterns with RE2, formats, errors).
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogForTests, exampleCrd, registryFromCrdYaml } from "../testing.ts";
import { ObjectValidator } from "../validate.ts";
import type { ValidateFunction } from "ajv";
import { CACHE_VERSION, compilerAjv, verifiedCode } from "./compile.ts";
import { convertComponents, convertCrdRoot, OBJECT_META, SHARED_KEYWORD, sharedValue } from "./convert.ts";
import type { SchemaNode, TypeSchema } from "./model.ts";
import { SchemaRegistry } from "./registry.ts";
import { shareRepeatedSubschemas } from "./share.ts";
import { typesFromJsonSchema } from "./sources.ts";

const registry = registryFromCrdYaml(
  exampleCrd("Thing", {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^[a-z]+\\z" },
      at: { type: "string", format: "date-time" },
      n: { type: "integer", maximum: 3 },
    },
  }),
);

describe("SchemaCompiler disk cache", () => {
  it("stores validator code on first use and reuses it in a new process-like compiler", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "validators-"));
    const type = registry.lookup("example.com/v1", "Thing");
    const deployment = (await catalogForTests()).types.get("apps/v1/Deployment");
    if (!type || !deployment) throw new Error("schemas missing");
    const bad = { apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "t" }, spec: { id: "a1", at: "noon", n: 4, x: 1 } };
    const badDeployment = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" }, spec: { replicas: "1", template: {}, selector: {} } };

    const first = new ObjectValidator({ cacheDir });
    const expected = first.validate(bad, type);
    const expectedDeployment = first.validate(badDeployment, deployment);
    expect(expected.map((f) => f.rule)).toEqual(["schema:additionalProperties", "schema:pattern", "schema:format", "schema:maximum"]);
    // Thing's, Deployment's, and the ObjectMeta and PodSpec validators Deployment's code calls (shared, below)
    expect(readdirSync(join(cacheDir, "validators"))).toHaveLength(4);

    const second = new ObjectValidator({ cacheDir });
    expect(second.validate(bad, type)).toEqual(expected);
    expect(second.validate(badDeployment, deployment)).toEqual(expectedDeployment);
    expect(second.validate({ ...bad, spec: { id: "abc", at: "2026-01-01T00:00:00Z", n: 1 } }, type)).toEqual([]);
  }, 60_000);

  it("never uses a V8 code cache damaged inside its data (V8 verifies no checksum of one in release builds)", () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "validators-"));
    const type = registry.lookup("example.com/v1", "Thing");
    if (!type) throw new Error("schema missing");
    const bad = { apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "t" }, spec: { id: "a1", at: "noon", n: 4, x: 1 } };
    const first = new ObjectValidator({ cacheDir });
    const expected = first.validate(bad, type);
    first.compiler.saveCodeCache();
    const folder = join(cacheDir, "validators");
    const v8Files = readdirSync(folder).filter((f) => f.endsWith(".v8"));
    expect(v8Files).toHaveLength(1);
    const v8File = join(folder, v8Files[0] as string);
    const damaged = Buffer.from(readFileSync(v8File));
    // one bit of the serialized code, past V8's own header (which V8 does check)
    damaged.writeUInt8((damaged.at(-40) as number) ^ 0x01, damaged.length - 40);
    writeFileSync(v8File, damaged);
    const second = new ObjectValidator({ cacheDir });
    expect(second.validate(bad, type)).toEqual(expected);
    // not used: the run saves a good cache in its place
    second.compiler.saveCodeCache();
    expect(readFileSync(v8File).equals(damaged)).toBe(false);
  }, 60_000);

  it("loads one validator for kinds whose schemas are the same (a CRD set repeating one schema)", () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "validators-"));
    const spec = { type: "object", properties: { n: { type: "integer", maximum: 3 } } };
    const twins = registryFromCrdYaml(`${exampleCrd("Left", spec)}\n---\n${exampleCrd("Right", spec)}`);
    const left = twins.lookup("example.com/v1", "Left");
    const right = twins.lookup("example.com/v1", "Right");
    if (!left || !right) throw new Error("schemas missing");
    for (const run of [1, 2]) {
      const v = new ObjectValidator({ cacheDir });
      expect(v.compiler.validator(left), `run ${run}`).toBe(v.compiler.validator(right));
      const bad = (kind: string) => ({ apiVersion: "example.com/v1", kind, metadata: { name: "x" }, spec: { n: 4 } });
      expect(v.validate(bad("Left"), left).map((f) => f.rule)).toEqual(["schema:maximum"]);
      expect(v.validate(bad("Right"), right).map((f) => f.rule)).toEqual(["schema:maximum"]);
    }
    expect(readdirSync(join(cacheDir, "validators")).filter((f) => f.endsWith(".cjs"))).toHaveLength(1);
  }, 60_000);

  it("never runs a validator file that is not the one its key names: damaged, foreign or edited files are compiled anew", () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "validators-"));
    const spec = { type: "object", properties: { n: { type: "integer", maximum: 3 } } };
    const one = registryFromCrdYaml(exampleCrd("Solo", spec)).lookup("example.com/v1", "Solo");
    const other = registryFromCrdYaml(exampleCrd("Else", { type: "object", properties: { s: { type: "string" } } })).lookup("example.com/v1", "Else");
    if (!one || !other) throw new Error("schemas missing");
    const bad = { apiVersion: "example.com/v1", kind: "Solo", metadata: { name: "x" }, spec: { n: 4 } };
    const expected = new ObjectValidator({ cacheDir }).validate(bad, one);
    expect(expected.map((f) => f.rule)).toEqual(["schema:maximum"]);
    new ObjectValidator({ cacheDir }).validate({ ...bad, kind: "Else" }, other);
    const folder = join(cacheDir, "validators");
    const files = readdirSync(folder).filter((f) => f.endsWith(".cjs"));
    expect(files).toHaveLength(2);
    const texts = files.map((f) => readFileSync(join(folder, f), "latin1"));
    // which file is Solo's: the one that refuses n: 4
    const mine = files.findIndex((_, i) => (texts[i] as string).includes("maximum"));
    const file = join(folder, files[mine] as string);
    const good = texts[mine] as string;
    const [header, ...rest] = good.split("\n");
    const body = rest.join("\n");
    const damaged = [
      good.slice(0, Math.floor(good.length / 2)),
      `${header}\nmodule.exports = () => true;\n`,
      `${header}\n${body.replace("maximum", "maximun")}`,
      body,
      texts[1 - mine] as string,
      "module.exports = () => true;\n",
    ];
    for (const [i, text] of damaged.entries()) {
      writeFileSync(file, text);
      expect(new ObjectValidator({ cacheDir }).validate(bad, one), `damaged file ${i}`).toEqual(expected);
      // replaced by a good one
      expect(readFileSync(file, "latin1"), `damaged file ${i}`).toBe(good);
    }
    expect(verifiedCode(Buffer.from(good, "latin1"), (files[mine] as string).replace(".cjs", ""))).toBe(good);
    expect(verifiedCode(Buffer.from(good, "latin1"), "0".repeat(64))).toBeUndefined();
  }, 60_000);

  it("calls one ObjectMeta and one PodSpec validator from every kind's code, of every document, with the same findings as a copy", async () => {
    const catalog = await catalogForTests();
    const both = registry.with([catalog]);
    const thing = both.lookup("example.com/v1", "Thing");
    const deployment = catalog.types.get("apps/v1/Deployment");
    const statefulSet = catalog.types.get("apps/v1/StatefulSet");
    const job = catalog.types.get("batch/v1/Job");
    if (!thing || !deployment || !statefulSet || !job?.components || !deployment.components) throw new Error("schemas missing");
    // apps/v1 and batch/v1 are two documents, each with its own copy of PodSpec's definitions
    expect(job.documentId).not.toBe(deployment.documentId);
    const badMeta = { name: 5, labels: { app: ["x"] }, ownerReferences: [{ kind: "X" }] };
    const badPod = { containers: [{ name: "c", image: 7, ports: [{ containerPort: "80" }] }], restartPolicy: 1 };
    const objects = [
      { type: thing, object: { apiVersion: "example.com/v1", kind: "Thing", metadata: badMeta, spec: { n: 9 } } },
      { type: deployment, object: { apiVersion: "apps/v1", kind: "Deployment", metadata: badMeta, spec: { selector: {}, template: { metadata: badMeta, spec: badPod } } } },
      { type: statefulSet, object: { apiVersion: "apps/v1", kind: "StatefulSet", metadata: { name: "s" }, spec: { selector: {}, serviceName: "s", template: { spec: badPod } } } },
      { type: job, object: { apiVersion: "batch/v1", kind: "Job", metadata: { name: "j", labels: { app: ["x"] } }, spec: { template: { spec: badPod } } } },
    ];
    const run = (v: ObjectValidator) => objects.map(({ type, object }) => v.validate(object, type, both).map((f) => `${f.path} ${f.rule} ${f.message}`));

    const cacheDir = mkdtempSync(join(tmpdir(), "validators-"));
    const first = run(new ObjectValidator({ cacheDir }));
    // compiled from the cache's code in a new compiler, and in memory without a cache: the same findings
    expect(run(new ObjectValidator({ cacheDir }))).toEqual(first);
    expect(run(new ObjectValidator())).toEqual(first);
    // the shared validators' findings are at the caller's paths
    for (const path of ["/metadata/name", "/metadata/labels/app", "/metadata/ownerReferences/0/uid"]) expect(first[0]?.some((f) => f.startsWith(`${path} `))).toBe(true);
    for (const path of ["/metadata/name", "/spec/template/metadata/labels/app", "/spec/template/spec/containers/0/image", "/spec/template/spec/containers/0/ports/0/containerPort", "/spec/template/spec/restartPolicy"]) {
      expect(first[1]?.some((f) => f.startsWith(`${path} `))).toBe(true);
    }
    const podFindings = (f: readonly string[] | undefined) => f?.filter((x) => x.startsWith("/spec/template/spec/"));
    expect(podFindings(first[1])?.length).toBeGreaterThan(0);
    expect(podFindings(first[2])).toEqual(podFindings(first[1]));
    expect(podFindings(first[3])).toEqual(podFindings(first[1]));
    expect(first[3]?.some((f) => f.startsWith("/metadata/labels/app "))).toBe(true);

    // one file per shared validator, named by the content it checks: apps/v1 and batch/v1 hold the same PodSpec, so their
    // kinds call one; the kinds' own files call it instead of carrying its code
    const folder = join(cacheDir, "validators");
    const contentId = (value: string | undefined) => (value ?? "").slice(0, (value ?? "").indexOf(" "));
    const sharedFile = (value: string | undefined) => join(folder, `${createHash("sha256").update(`${CACHE_VERSION}\nshared ${contentId(value)}`).digest("hex")}.cjs`);
    const podSpec = sharedValue(deployment.components, deployment.documentId as string, "io.k8s.api.core.v1.PodSpec");
    expect(podSpec).toMatch(/^[0-9a-f]{64} catalog:[0-9a-f]{64}#\/\$defs\/io\.k8s\.api\.core\.v1\.PodSpec$/);
    expect(contentId(sharedValue(job.components, job.documentId as string, "io.k8s.api.core.v1.PodSpec"))).toBe(contentId(podSpec));
    expect(existsSync(sharedFile(podSpec))).toBe(true);
    expect(existsSync(sharedFile(sharedValue(deployment.components, deployment.documentId as string, OBJECT_META)))).toBe(true);
    const codes = readdirSync(folder)
      .filter((f) => f.endsWith(".cjs"))
      .map((f) => readFileSync(join(folder, f), "latin1"));
    // PodSpec's own checks (its restartPolicy enum) are in one file only: the shared validator's
    expect(codes.filter((code) => code.includes('"OnFailure"'))).toEqual([readFileSync(sharedFile(podSpec), "latin1")]);
    // Deployment, StatefulSet and Job call it; Job's code names its own document's PodSpec (to compile it from if the
    // shared file is missing), though apps/v1's was met first
    expect(codes.filter((code) => code.includes(`"eks-gitops:shared:${contentId(podSpec)} `))).toHaveLength(3);
    expect(codes.filter((code) => code.includes(`"eks-gitops:shared:${contentId(podSpec)} ${job.documentId}#`))).toHaveLength(1);

    // the shared validators' files gone, the kinds' files kept (as a pruning of the cache may leave them): a new
    // compiler loads the kinds' code and compiles the shared validators again, with the same findings
    const objectMeta = sharedFile(sharedValue(deployment.components, deployment.documentId as string, OBJECT_META));
    rmSync(sharedFile(podSpec));
    rmSync(objectMeta);
    expect(run(new ObjectValidator({ cacheDir }))).toEqual(first);
    expect(existsSync(sharedFile(podSpec))).toBe(true);
    expect(existsSync(objectMeta)).toBe(true);
  }, 60_000);

  it("keeps a `$ref` to a definition that reaches itself: its shared validator would call itself while it loads", () => {
    const components = {
      A: { type: "object", properties: { b: { $ref: "#/components/schemas/B" } } },
      B: { type: "object", properties: { a: { $ref: "#/components/schemas/A" }, c: { $ref: "#/components/schemas/C" } } },
      C: { type: "string" },
    };
    expect(sharedValue(components, "doc", "A")).toBeUndefined();
    // a reference out of the document's definitions: what it means is not in the content id
    expect(sharedValue({ D: { type: "object", properties: { e: { $ref: "other.json#/E" } } } }, "doc", "D")).toBeUndefined();
    expect(sharedValue(components, "doc", "C")).toMatch(/^[0-9a-f]{64} doc#\/\$defs\/C$/);
    const defs = convertComponents(components, "doc", { shared: new Set(["A", "C"]) }).$defs as Record<string, { properties: Record<string, unknown> }>;
    expect(defs.B?.properties.a).toEqual({ $ref: "#/$defs/A" });
    expect(defs.B?.properties.c).toEqual({ [SHARED_KEYWORD]: sharedValue(components, "doc", "C") });
  });

  it("makes the very ajv errors a validator compiled with `$ref`s makes (no shared validators), field for field", async () => {
    const catalog = await catalogForTests();
    const both = registry.with([catalog]);
    const builtin = both.anyBuiltin();
    const thing = both.lookup("example.com/v1", "Thing");
    const kinds = ["apps/v1/Deployment", "apps/v1/StatefulSet", "batch/v1/Job", "batch/v1/CronJob", "/v1/Pod"].map((k) => catalog.types.get(k));
    if (!builtin?.components || !thing || kinds.some((t) => !t?.components)) throw new Error("schemas missing");
    // the reference: each document converted without shared definitions, ObjectMeta of custom resources by `$ref`
    const reference = compilerAjv(false);
    const added = new Set<string>();
    for (const t of [builtin, ...kinds] as TypeSchema[]) {
      if (added.has(t.documentId as string)) continue;
      added.add(t.documentId as string);
      reference.addSchema(convertComponents(t.components as Record<string, SchemaNode>, t.documentId as string));
    }
    const objectMetaRef = `${builtin.documentId}#/$defs/${OBJECT_META}`;
    const referenceOf = (t: TypeSchema) =>
      reference.compile(t.flavour === "crd" ? shareRepeatedSubschemas(convertCrdRoot(t.root, { flavour: "crd", objectMetaRef })) : { $ref: `${t.documentId}${(t.root.$ref as string).replace("#/components/schemas/", "#/$defs/")}` });

    const badMeta = { name: 5, generateName: [], labels: { app: ["x"], ok: "y" }, annotations: 3, ownerReferences: [{ kind: "X", controller: "yes" }], managedFields: [{ fieldsV1: 1 }] };
    const badPod = {
      containers: [{ name: "c", image: 7, ports: [{ containerPort: "80", protocol: "SCTPX" }], resources: { limits: { cpu: [] } }, env: [{ name: "A", valueFrom: { secretKeyRef: {} } }] }, { nope: true }],
      restartPolicy: 1,
      volumes: [{ name: "v", hostPath: {} }],
      tolerations: "all",
    };
    const objects: [TypeSchema, Record<string, unknown>][] = [
      [thing, { apiVersion: "example.com/v1", kind: "Thing", metadata: badMeta, spec: { n: 9 } }],
      ...(kinds as TypeSchema[]).map((t): [TypeSchema, Record<string, unknown>] => [
        t,
        t.gvk.kind === "Pod" ? { metadata: badMeta, spec: badPod } : t.gvk.kind === "CronJob" ? { metadata: badMeta, spec: { jobTemplate: { metadata: badMeta, spec: { template: { metadata: badMeta, spec: badPod } } } } } : { metadata: badMeta, spec: { selector: 1, template: { metadata: badMeta, spec: badPod } } },
      ]),
    ];
    const errorsOf = (v: ValidateFunction, o: unknown) => (v(structuredClone(o)) ? [] : (v.errors ?? []));
    for (const cacheDir of [mkdtempSync(join(tmpdir(), "validators-")), undefined]) {
      // twice on a cache: compiled and stored, then loaded by a new compiler
      for (let pass = 0; pass < (cacheDir ? 2 : 1); pass++) {
        const compiler = new ObjectValidator(cacheDir ? { cacheDir } : {}).compiler;
        compiler.useObjectMetaFrom(builtin);
        for (const [type, object] of objects) {
          const expected = errorsOf(referenceOf(type), object);
          expect(expected.length, type.gvk.kind).toBeGreaterThan(5);
          expect(errorsOf(compiler.validator(type), object), `${type.gvk.kind}, pass ${pass}`).toEqual(expected);
        }
      }
    }
  }, 60_000);

  it("ignores the shared keyword in a schema it did not convert, and never stores another schema under a shared id", async () => {
    const catalog = await catalogForTests();
    const deployment = catalog.types.get("apps/v1/Deployment");
    if (!deployment?.components) throw new Error("schemas missing");
    const podSpec = sharedValue(deployment.components, deployment.documentId as string, "io.k8s.api.core.v1.PodSpec") as string;
    // PodSpec's id with another definition's reference: compiled, it would be stored where PodSpec's validator belongs
    const forged = `${podSpec.slice(0, 64)} ${deployment.documentId}#/$defs/io.k8s.api.core.v1.ConfigMapKeySelector`;
    const [user] = typesFromJsonSchema(
      { "x-kubernetes-group-version-kind": [{ group: "example.org", version: "v1", kind: "Forged" }], type: "object", properties: { x: { [SHARED_KEYWORD]: forged } } },
      "forged.json",
      "--crd forged.json",
    );
    if (!user) throw new Error("no type");
    const cacheDir = mkdtempSync(join(tmpdir(), "validators-"));
    const reg = new SchemaRegistry().with([catalog]);
    const only = { schema: true, cel: false, native: false };
    // as JSON Schema says of an unknown keyword: no constraint
    expect(new ObjectValidator({ cacheDir }).validate({ apiVersion: "example.org/v1", kind: "Forged", x: {} }, user, reg, undefined, only)).toEqual([]);
    const bad = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" }, spec: { selector: {}, template: { spec: { containers: [{ name: "c", image: 7 }], restartPolicy: 1 } } } };
    const expected = new ObjectValidator().validate(structuredClone(bad), deployment, reg, undefined, only);
    expect(new ObjectValidator({ cacheDir }).validate(structuredClone(bad), deployment, reg, undefined, only)).toEqual(expected);
    // and the compiler refuses a value that is not the one conversion makes for its definition
    // (a kind of the same document without a pod spec: the document is known, PodSpec's validator not made yet)
    const revision = catalog.types.get("apps/v1/ControllerRevision");
    if (!revision) throw new Error("schemas missing");
    const compiler = new ObjectValidator({ cacheDir: mkdtempSync(join(tmpdir(), "validators-")) }).compiler;
    compiler.validator(revision);
    const shared = (v: string) => (compiler as unknown as { shared(v: string): unknown }).shared(v);
    expect(() => shared(forged)).toThrow(/names no shared definition/);
    expect(typeof shared(podSpec)).toBe("function");
  }, 60_000);
});

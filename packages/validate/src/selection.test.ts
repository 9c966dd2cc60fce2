// Choosing what runs: kind patterns, file filters, the config file, and each option through the whole pipeline.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadValidateDefaults, mergeSelection } from "./config-file.ts";
import { runValidation } from "./run.ts";
import { compileSelection, fileFilter, kindMatcher, parseChecks, SelectionError } from "./selection.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const NODEPOOL = readFileSync(join(REPO, "clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml"), "utf8");
const tmp = () => mkdtempSync(join(tmpdir(), "validate-selection-"));

describe("kindMatcher", () => {
  it("takes KIND, GROUP/KIND (any version), core VERSION/KIND and GROUP/VERSION/KIND", () => {
    const m = kindMatcher(["Secret", "apps/Deployment", "karpenter.sh/v1/NodePool", "v1/ConfigMap"]);
    expect(m("v1", "Secret")).toBe("Secret");
    expect(m("apps/v1", "Deployment")).toBe("apps/Deployment");
    expect(m("extensions/v1beta1", "Deployment")).toBeUndefined();
    expect(m("karpenter.sh/v1", "NodePool")).toBe("karpenter.sh/v1/NodePool");
    expect(m("karpenter.sh/v1beta1", "NodePool")).toBeUndefined();
    expect(m("v1", "ConfigMap")).toBe("v1/ConfigMap");
    expect(() => kindMatcher(["a/b/c/D"])).toThrow("kind pattern 'a/b/c/D': use KIND, GROUP/KIND or GROUP/VERSION/KIND");
  });
});

describe("compileSelection", () => {
  it("rejects before it skips, and says which pattern rejected", () => {
    const s = compileSelection({ skip: ["NodePool"], reject: ["karpenter.sh/NodePool"] });
    expect(s.verdict({ apiVersion: "karpenter.sh/v1", kind: "NodePool" })).toEqual({
      status: "error",
      findings: [{ severity: "error", path: "/kind", message: "karpenter.sh/v1 NodePool is rejected by --reject karpenter.sh/NodePool", rule: "reject:karpenter.sh/NodePool" }],
    });
    expect(compileSelection({ skip: ["NodePool"] }).verdict({ apiVersion: "karpenter.sh/v1", kind: "NodePool" })).toEqual({ status: "skipped", findings: [] });
    expect(s.verdict({ apiVersion: "v1", kind: "Service" })).toBeUndefined();
  });

  it("parses check lists and refuses unknown names", () => {
    expect(parseChecks(["schema,cel", "native"])).toEqual(["schema", "cel", "native"]);
    expect(() => parseChecks(["schema,crossobject"])).toThrow("--checks: unknown check 'crossobject' (checks: schema, cel, native, cross-object, iam)");
  });
});

describe("fileFilter", () => {
  it("matches the path relative to the working folder, and refuses a bad expression", () => {
    const keep = fileFilter(["kustomization\\.ya?ml$", "(^|/)values\\.yaml$"], "/repo");
    expect(keep("/repo/apps/kustomization.yaml")).toBe(false);
    expect(keep("/repo/charts/values.yaml")).toBe(false);
    expect(keep("/repo/apps/my-values.yaml")).toBe(true);
    expect(keep("-")).toBe(true);
    expect(() => fileFilter(["("], "/repo")).toThrow(SelectionError);
  });
});

describe("loadValidateDefaults", () => {
  it("reads the validate block of .eks-gitops.yaml; flags replace a file's value", () => {
    const dir = tmp();
    writeFileSync(join(dir, ".eks-gitops.yaml"), "validate:\n  skip: [Secret]\n  ignoreFilenamePattern: kustomization\\.yaml$\n  checks: schema,cel\n  ignoreMissingSchemas: true\n");
    const d = loadValidateDefaults(dir);
    expect(d).toEqual({ file: join(dir, ".eks-gitops.yaml"), selection: { skip: ["Secret"], ignoreFilenamePatterns: ["kustomization\\.yaml$"], checks: ["schema", "cel"], ignoreMissingSchemas: true }, levels: {} });
    expect(mergeSelection(d?.selection, { skip: ["ConfigMap"], checks: undefined })).toEqual({
      skip: ["ConfigMap"],
      reject: undefined,
      ignoreMissingSchemas: true,
      ignoreFilenamePatterns: ["kustomization\\.yaml$"],
      checks: ["schema", "cel"],
    });
  });

  it("reads the validate key of package.json", () => {
    const dir = tmp();
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "x", validate: { reject: ["v1/Secret"] } }));
    expect(loadValidateDefaults(dir)?.selection).toEqual({ reject: ["v1/Secret"] });
    expect(loadValidateDefaults(tmp())).toBeUndefined();
  });

  it("names the file and the key of an unknown key, with the closest known one", () => {
    const dir = tmp();
    writeFileSync(join(dir, ".eks-gitops.yaml"), "validate:\n  ignoreMissingSchema: true\n");
    expect(() => loadValidateDefaults(dir)).toThrow(
      `${join(dir, ".eks-gitops.yaml")}: unknown key validate.ignoreMissingSchema (did you mean validate.ignoreMissingSchemas?); known keys: skip, reject, ignoreMissingSchemas, ignoreFilenamePattern, checks`,
    );
    writeFileSync(join(dir, ".eks-gitops.yaml"), "validat:\n  skip: [A]\n");
    expect(() => loadValidateDefaults(dir)).toThrow(`${join(dir, ".eks-gitops.yaml")}: unknown key validat (did you mean validate?); the file holds a validate mapping`);
    writeFileSync(join(dir, ".eks-gitops.yaml"), "validate:\n  ignoreMissingSchemas: yes please\n");
    expect(() => loadValidateDefaults(dir)).toThrow(`${join(dir, ".eks-gitops.yaml")}: validate.ignoreMissingSchemas must be true or false`);
    writeFileSync(join(dir, ".eks-gitops.yaml"), "validate: {}\n");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ validate: {} }));
    expect(() => loadValidateDefaults(dir)).toThrow(`validate defaults are in both ${join(dir, ".eks-gitops.yaml")} and ${join(dir, "package.json")} (key validate); keep one`);
  });
});

describe("runValidation with a selection", () => {
  const setup = () => {
    const dir = tmp();
    // an unknown field (schema; it does not block CEL) and an empty nodeClassRef kind (CEL, and the cross-object nodeclassref-kind)
    writeFileSync(join(dir, "np.yaml"), NODEPOOL.replace("consolidateAfter: 1m", "consolidateAfter: 1m\n    consolidateBefore: 2m").replace("kind: EC2NodeClass", 'kind: ""'));
    writeFileSync(join(dir, "gadget.yaml"), "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n");
    mkdirSync(join(dir, "app"));
    writeFileSync(join(dir, "app/kustomization.yaml"), "resources: [np.yaml]\n");
    writeFileSync(join(dir, "app/values.yaml"), "replicas: 2\n");
    const hpa = "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, namespace: shop}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: missing}\n  minReplicas: 1\n  maxReplicas: 3\n";
    writeFileSync(join(dir, "hpa.yaml"), hpa);
    writeFileSync(join(dir, "other.yaml"), "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: other, namespace: shop}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: nginx}]}\n");
    return dir;
  };
  const run = (dir: string, selection: Parameters<typeof runValidation>[0]["selection"]) => runValidation({ root: dir, paths: [dir], read: { cwd: dir }, selection });
  const statuses = (report: Awaited<ReturnType<typeof run>>["report"]) => Object.fromEntries(report.resources.map((r) => [r.file, [r.status, ...r.findings.map((f) => f.rule)].join(" ")]));

  it("by default reads every file: a kustomization.yaml and a values.yaml are errors, a missing schema too", async () => {
    const { report } = await run(setup(), undefined);
    expect(statuses(report)).toEqual({
      "app/kustomization.yaml": "error parse:missing-type parse:missing-type",
      "app/values.yaml": "error parse:missing-type parse:missing-type",
      "gadget.yaml": "error schema:missing",
      // loose files: the HPA's missing target is said once (notChecked), not an error
      "hpa.yaml": "valid",
      "np.yaml": "invalid schema:additionalProperties cel:self != '' nodeclassref-kind",
      "other.yaml": "valid",
    });
    expect(report.notChecked).toEqual(["HorizontalPodAutoscaler shop/web -> Deployment shop/missing"]);
  }, 60_000);

  it("--ignore-filename-pattern leaves files unread; --ignore-missing-schemas skips; --skip and --reject", async () => {
    const { report, files } = await run(setup(), {
      ignoreFilenamePatterns: ["kustomization\\.yaml$", "(^|/)values\\.yaml$"],
      ignoreMissingSchemas: true,
      skip: ["autoscaling/HorizontalPodAutoscaler"],
      reject: ["apps/v1/Deployment"],
    });
    expect(files.some((f) => f.includes("app/"))).toBe(false);
    expect(statuses(report)).toEqual({
      "gadget.yaml": "skipped schema:missing",
      "hpa.yaml": "skipped",
      "np.yaml": "invalid schema:additionalProperties cel:self != '' nodeclassref-kind",
      "other.yaml": "error reject:apps/v1/Deployment",
    });
    expect(report.resources.find((r) => r.file === "gadget.yaml")?.findings[0]?.severity).toBe("warning");
    expect(report.summary).toEqual({ resources: 4, valid: 0, invalid: 1, error: 1, skipped: 2 });
  }, 60_000);

  it("--checks picks the stages: cel without schema, schema without cel, and no cross-object", async () => {
    const dir = setup();
    const patterns = ["kustomization", "values"];
    const celOnly = await run(dir, { checks: ["cel", "cross-object"], ignoreFilenamePatterns: patterns, ignoreMissingSchemas: true });
    expect(statuses(celOnly.report)["np.yaml"]).toBe("invalid cel:self != '' nodeclassref-kind");
    expect(celOnly.report.notChecked).toEqual(["HorizontalPodAutoscaler shop/web -> Deployment shop/missing"]);
    const noCross = await run(dir, { checks: ["schema", "cel", "native", "iam"], ignoreFilenamePatterns: patterns, ignoreMissingSchemas: true });
    expect(statuses(noCross.report)).toEqual({
      "gadget.yaml": "skipped schema:missing",
      "hpa.yaml": "valid",
      "np.yaml": "invalid schema:additionalProperties cel:self != ''",
      "other.yaml": "valid",
    });
    expect(noCross.report.notChecked).toBeUndefined();
    const schemaOnly = await run(dir, { checks: ["schema"], ignoreFilenamePatterns: patterns });
    expect(statuses(schemaOnly.report)).toEqual({
      "gadget.yaml": "error schema:missing",
      "hpa.yaml": "valid",
      "np.yaml": "invalid schema:additionalProperties",
      "other.yaml": "valid",
    });
  }, 60_000);
});

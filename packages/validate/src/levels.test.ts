// How findings count: --strict, acknowledged findings, the info level, and the order findings are reported in.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadValidateDefaults } from "./config-file.ts";
import { applyLevels, globToRegExp } from "./levels.ts";
import { formatReport, OUTPUT_FORMATS } from "./output/format.ts";
import { runValidation } from "./run.ts";
import { SelectionError } from "./selection.ts";
import type { Finding, Report } from "./types.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const SETS_REPLICAS = fileURLToPath(new URL("../fixtures/cross-object/hpa-target-sets-replicas", import.meta.url));

const report = (findings: Finding[], status: "valid" | "invalid" = "valid"): Report => ({
  summary: { resources: 1, valid: status === "valid" ? 1 : 0, invalid: status === "invalid" ? 1 : 0, error: 0, skipped: 0 },
  resources: [{ file: "clusters/a/rendered/iam/p.json", index: 0, apiVersion: "", kind: "IAM:policy", name: "p", namespace: "", status, findings }],
  stats: { transitionRulesSkipped: 0, celRulesEvaluated: 0 },
});
const warning: Finding = { severity: "warning", path: "/spec/replicas", message: "sets replicas", rule: "hpa-target-sets-replicas", line: 9, column: 3 };
const info: Finding = { severity: "info", path: "/Statement/0/Resource", message: "as tight as IAM allows", rule: "iam:RESOURCE_STAR_SCOPABLE", line: 8, column: 7 };
const error: Finding = { severity: "error", path: "/Statement/1/Resource", message: "too broad", rule: "iam:X", line: 12, column: 7 };

describe("applyLevels", () => {
  it("--strict makes warnings errors (the resource invalid), never info", () => {
    const r = applyLevels(report([warning, info]), { strict: true });
    expect(r.resources[0]?.status).toBe("invalid");
    expect(r.resources[0]?.findings.map((f) => [f.rule, f.severity])).toEqual([
      ["iam:RESOURCE_STAR_SCOPABLE", "info"],
      ["hpa-target-sets-replicas", "error"],
    ]);
    expect(r.summary).toMatchObject({ valid: 0, invalid: 1 });
    expect(applyLevels(report([warning, info])).resources[0]?.status).toBe("valid");
  });

  it("an acknowledged error no longer counts; the reason goes with the finding; file globs and path prefixes select", () => {
    const acknowledge = [{ rule: "iam:X", reason: "reviewed in #42", file: "clusters/*/rendered/iam/*.json", path: "/Statement/1" }];
    const r = applyLevels(report([error], "invalid"), { acknowledge });
    expect(r.resources[0]?.status).toBe("valid");
    expect(r.resources[0]?.findings[0]).toMatchObject({ severity: "error", acknowledged: "reviewed in #42" });
    // another file, another path or another rule: not acknowledged
    for (const other of [{ ...acknowledge[0]!, file: "clusters/*/rendered/*.yaml" }, { ...acknowledge[0]!, path: "/Statement/10" }, { ...acknowledge[0]!, rule: "iam:Y" }]) {
      expect(applyLevels(report([error], "invalid"), { acknowledge: [other] }).resources[0]?.status).toBe("invalid");
    }
    // --strict does not undo an acknowledgement
    expect(applyLevels(report([{ ...error, severity: "warning" }]), { strict: true, acknowledge }).resources[0]?.status).toBe("valid");
  });

  it("sorts each resource's findings by line and column", () => {
    const at = (line: number, column: number): Finding => ({ ...warning, line, column, path: `/l${line}c${column}` });
    const r = applyLevels(report([at(27, 1), at(20, 5), at(24, 1), at(7, 3), at(20, 2), { ...warning, line: undefined, column: undefined, path: "" }]));
    expect(r.resources[0]?.findings.map((f) => f.line ?? 0)).toEqual([0, 7, 20, 20, 24, 27]);
    expect(r.resources[0]?.findings.map((f) => f.column ?? 0)).toEqual([0, 3, 2, 5, 1, 1]);
  });

  it("globs: * within a folder name, ** across folders", () => {
    expect(globToRegExp("clusters/*/rendered/iam/*.json").test("clusters/eksworkshop/rendered/iam/a.json")).toBe(true);
    expect(globToRegExp("clusters/*/rendered/iam/*.json").test("clusters/a/b/rendered/iam/a.json")).toBe(false);
    expect(globToRegExp("**/iam/*.json").test("clusters/a/rendered/iam/a.json")).toBe(true);
  });
});

describe("output of info and acknowledged findings", () => {
  const r = applyLevels(report([info, error]), { acknowledge: [{ rule: "iam:X", reason: "reviewed in #42" }] });
  it("text and JSON show them, marked; GitHub annotations and SARIF leave them out", () => {
    const text = formatReport(r, "text");
    expect(text).toContain("clusters/a/rendered/iam/p.json:8:7 IAM:policy/p info /Statement/0/Resource: as tight as IAM allows [iam:RESOURCE_STAR_SCOPABLE]");
    expect(text).toContain("clusters/a/rendered/iam/p.json:12:7 IAM:policy/p acknowledged /Statement/1/Resource: too broad (acknowledged: reviewed in #42) [iam:X]");
    expect(JSON.parse(formatReport(r, "json")).resources[0].findings.map((f: Finding) => [f.severity, f.acknowledged])).toEqual([
      ["info", undefined],
      ["error", "reviewed in #42"],
    ]);
    expect(formatReport(r, "github")).not.toContain("::");
    expect(JSON.parse(formatReport(r, "sarif")).runs[0].results).toEqual([]);
    for (const format of OUTPUT_FORMATS) expect(formatReport(r, format), format).not.toContain("::error");
  });
});

describe("the repository's defaults", () => {
  const root = mkdtempSync(join(tmpdir(), "levels-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (text: string) => writeFileSync(join(root, ".eks-gitops.yaml"), text);

  it("read strict and acknowledge from .eks-gitops.yaml", () => {
    write("validate:\n  strict: true\n  acknowledge:\n    - rule: iam:X\n      reason: reviewed in issue 42\n      file: clusters/*/rendered/iam/*.json\n");
    expect(loadValidateDefaults(root)?.levels).toEqual({ strict: true, acknowledge: [{ rule: "iam:X", reason: "reviewed in issue 42", file: "clusters/*/rendered/iam/*.json" }] });
  });

  it("refuse an acknowledgement without a reason, an unknown key, or a path that is not a JSON Pointer", () => {
    write("validate:\n  acknowledge:\n    - rule: iam:X\n");
    expect(() => loadValidateDefaults(root)).toThrow(/validate\.acknowledge\[0\]: reason is required/);
    write("validate:\n  acknowledge:\n    - rule: iam:X\n      reason: r\n      paht: /a\n");
    expect(() => loadValidateDefaults(root)).toThrow(new SelectionError(`${join(root, ".eks-gitops.yaml")}: validate.acknowledge[0]: unknown key paht (did you mean path?); known keys: rule, reason, file, path`));
    write("validate:\n  acknowledge:\n    - rule: iam:X\n      reason: r\n      path: Statement\n");
    expect(() => loadValidateDefaults(root)).toThrow(/must be a JSON Pointer/);
    write("validate:\n  strict: yes please\n");
    expect(() => loadValidateDefaults(root)).toThrow(/validate\.strict must be true or false/);
  });
});

describe("cross-object opinions in a whole run", () => {
  it("are warnings by default and errors with strict", async () => {
    const loose = await runValidation({ root: REPO, paths: [SETS_REPLICAS], iamLint: false, read: { cwd: SETS_REPLICAS } });
    const deployment = loose.report.resources.find((r) => r.kind === "Deployment");
    expect([deployment?.status, deployment?.findings.map((f) => [f.rule, f.severity])]).toEqual(["valid", [["hpa-target-sets-replicas", "warning"]]]);
    const strict = await runValidation({ root: REPO, paths: [SETS_REPLICAS], iamLint: false, read: { cwd: SETS_REPLICAS }, strict: true });
    expect(strict.report.resources.find((r) => r.kind === "Deployment")?.status).toBe("invalid");
    expect(strict.report.summary).toMatchObject({ valid: 1, invalid: 1 });
  }, 120_000);

  it("the zonal-shift statement's RESOURCE_STAR_SCOPABLE is info in the committed overlays", async () => {
    const { report: r } = await runValidation({ root: REPO, paths: [join(REPO, "clusters/eksworkshop/rendered/iam")], read: { cwd: REPO } });
    const scopable = r.resources.flatMap((x) => x.findings.filter((f) => f.rule === "iam:RESOURCE_STAR_SCOPABLE").map((f) => [x.file, f.severity]));
    expect(scopable).toEqual([["clusters/eksworkshop/rendered/iam/KarpenterControllerRole-eksworkshop.KarpenterControllerZonalShiftPolicy-eksworkshop.json", "info"]]);
    expect(formatReport(r, "github")).not.toContain("RESOURCE_STAR_SCOPABLE");
  }, 120_000);
});

// Runs one fuzz case through the validator as `eks-gitops validate` does (read, --crd, schemas, CEL, cross-object
// checks, IAM lint, every output format) in this process, and checks the properties every run must have.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { crossObjectChecks } from "../cross-object/index.ts";
import { formatReport, OUTPUT_FORMATS } from "../output/format.ts";
import { loadDocuments } from "../reader.ts";
import { catalogLayer, type SchemaLayer, SchemaRegistry, typesFromDocuments, typesFromPaths } from "../schema/registry.ts";
import type { Report } from "../types.ts";
import { ObjectValidator } from "../validate.ts";
import { validateDocuments } from "../validate-documents.ts";
import type { FuzzCase } from "./cases.ts";

export interface FuzzEnv {
  readonly catalog: SchemaLayer;
  validator: ObjectValidator;
  readonly root: string;
}

export interface CaseResult {
  readonly exitCode: number;
  readonly ms: number;
  /** Properties the run broke (empty when it behaved). */
  readonly problems: string[];
}

export async function createEnv(options: { mirror?: string; cacheDir: string }): Promise<FuzzEnv> {
  const catalog = await catalogLayer({}, { mirror: options.mirror, cacheDir: options.cacheDir });
  return { catalog, validator: new ObjectValidator(), root: mkdtempSync(join(tmpdir(), "eks-gitops-fuzz-")) };
}

function writeCase(dir: string, c: FuzzCase): void {
  for (const f of c.files) {
    const path = join(dir, f.path);
    mkdirSync(dirname(path), { recursive: true });
    if ("content" in f) writeFileSync(path, f.content);
    else if (f.special === "fifo") execFileSync("mkfifo", [path]);
    else if (f.special === "dangling-link") symlinkSync(join(dir, "no-such-target.yaml"), path);
    else if (f.special === "dir-link-loop") symlinkSync(dirname(path), path);
    else mkdirSync(path, { recursive: true });
  }
}

// XML 1.0 Char production: anything else makes the JUnit file unreadable
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
const SECRETS = ["hunter2-PLAINTEXT!!", "12345678"];

/** The properties of a finished run: every finding names its file, every format parses, counts add up, no secret. */
export function checkReport(c: FuzzCase, report: Report, outputs: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  const findings = report.resources.reduce((n, r) => n + r.findings.length, 0);
  // GitHub annotations and SARIF carry what someone must act on: no info, no acknowledged finding
  const actionable = report.resources.reduce((n, r) => n + r.findings.filter((f) => f.severity !== "info" && f.acknowledged === undefined).length, 0);
  // the summary line, then (loose files) one line naming what could not be checked
  const closing = report.notChecked?.length ? 2 : 1;
  for (const r of report.resources) {
    if (typeof r.file !== "string" || r.file === "") problems.push("a result names no file");
    if (!["valid", "invalid", "error", "skipped"].includes(r.status)) problems.push(`unknown status ${r.status}`);
  }
  const s = report.summary;
  if (s.valid + s.invalid + s.error + s.skipped !== s.resources || s.resources !== report.resources.length) problems.push("summary counts do not add up");
  try {
    const json = JSON.parse(outputs.json ?? "");
    if (json.resources.length !== report.resources.length) problems.push("json: wrong number of resources");
  } catch (err) {
    problems.push(`json does not parse: ${(err as Error).message}`);
  }
  try {
    const sarif = JSON.parse(outputs.sarif ?? "");
    if (sarif.runs[0].results.length !== actionable) problems.push("sarif: wrong number of results");
  } catch (err) {
    problems.push(`sarif does not parse: ${(err as Error).message}`);
  }
  const junit = outputs.junit ?? "";
  if (NOT_XML.test(junit)) problems.push("junit: a character XML does not allow");
  if ((junit.match(/<testcase /g) ?? []).length !== report.resources.length || (junit.match(/<\/testcase>/g) ?? []).length !== report.resources.length) problems.push("junit: testcases do not match resources");
  if (/&(?!(amp|lt|gt|quot|apos);)/.test(junit)) problems.push("junit: an unescaped &");
  const text = (outputs.text ?? "").replace(/\n$/, "").split("\n");
  if (text.length !== findings + closing || !text.at(-closing)?.startsWith("Summary: ")) problems.push(`text: ${text.length} lines for ${findings} findings`);
  const github = (outputs.github ?? "").replace(/\n$/, "").split("\n");
  if (github.length !== actionable + closing || github.slice(0, -closing).some((l) => !/^::(error|warning) file=/.test(l)) || !github.at(-closing)?.startsWith("Summary: ")) problems.push("github: a line that is not an annotation");
  for (const [format, out] of Object.entries(outputs)) {
    if (out.includes("\u001b")) problems.push(`${format}: a raw escape character`);
    if (c.label === "secret value") for (const secret of SECRETS) if (out.includes(secret)) problems.push(`${format}: prints a Secret value`);
  }
  return problems;
}

/** Runs one case; exit code 3 means the run threw (an internal fault), as the CLI would report it. */
export async function runCase(c: FuzzCase, env: FuzzEnv): Promise<CaseResult> {
  // one YAML text and nothing else: read as stdin (the `-` path), without touching the disk
  const only = c.files.length === 1 && !c.crd ? c.files[0] : undefined;
  const stdin = only && "content" in only && !only.path.startsWith("iam/") ? only.content : undefined;
  const dir = stdin === undefined ? mkdtempSync(join(env.root, "c-")) : undefined;
  try {
    if (dir) writeCase(dir, c);
    const started = performance.now();
    let report: Report | undefined;
    let exitCode: number;
    let error: string | undefined;
    const outputs: Record<string, string> = {};
    try {
      const docs = dir ? loadDocuments([dir], { cwd: dir }) : loadDocuments(["-"], { readStdin: () => Buffer.from(stdin as string | Uint8Array).toString("utf8") });
      const registry = new SchemaRegistry();
      let usage = false;
      if (c.crd) {
        try {
          registry.addLayer("--crd", typesFromPaths(c.crd.map((p) => join(dir as string, p))));
        } catch {
          usage = true; // runValidation's RunUsageError: exit 2
        }
      }
      if (usage) exitCode = 2;
      else {
        registry.addLayer("documents", typesFromDocuments(docs.resources), { role: "documents" });
        report = await validateDocuments(docs, { registry: registry.with([env.catalog]), crossObjectChecks, crossObjectContext: { overlays: {} } }, env.validator);
        for (const f of OUTPUT_FORMATS) outputs[f] = formatReport(report, f);
        exitCode = report.summary.invalid + report.summary.error > 0 ? 1 : 0;
      }
    } catch (err) {
      exitCode = 3;
      error = (err as Error)?.stack ?? String(err);
    }
    const ms = performance.now() - started;
    const problems = exitCode === 3 ? [`internal error: ${error?.split("\n").slice(0, 4).join(" | ")}`] : report ? checkReport(c, report, outputs) : [];
    return { exitCode, ms, problems };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

export function disposeEnv(env: FuzzEnv): void {
  rmSync(env.root, { recursive: true, force: true });
}

// Report formatters: text (grep-able lines + summary), json (the stable contract), junit, sarif, github annotations.
import { createColors } from "picocolors";
import packageJson from "../../package.json" with { type: "json" };
import type { Finding, Report, ResourceResult } from "../types.ts";
import { ruleInfo } from "./rules.ts";
import { lazyRows, type ResultRows, rowsOf } from "../result-store.ts";
import { safeResult, safeText } from "./sanitize.ts";

export const OUTPUT_FORMATS = ["text", "json", "junit", "sarif", "github"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface FormatOptions {
  /** ANSI colours (text only); the CLI turns them on only when stdout is a TTY. @default false */
  readonly color?: boolean;
  /** Text: also print one line per valid resource. @default false */
  readonly verbose?: boolean;
}

const objectName = (r: ResourceResult) => `${r.kind || "?"}/${r.namespace ? `${r.namespace}/` : ""}${r.name || "?"}`;
const where = (r: ResourceResult) => `${r.file}#${r.index}`;
/** `file:line:col` (what editors and terminals open) when the finding's position is known, else `file#index`. */
const located = (r: ResourceResult, f: Finding) => (f.line !== undefined ? `${r.file}:${f.line}:${f.column ?? 1}` : where(r));

function summaryLine(report: Report): string {
  const s = report.summary;
  const extra = report.stats.transitionRulesSkipped > 0 ? `; ${report.stats.transitionRulesSkipped} transition rules (oldSelf) skipped on create, use --base REF to run them` : "";
  const line = `Summary: ${s.resources} resources found - Valid: ${s.valid}, Invalid: ${s.invalid}, Errors: ${s.error}, Skipped: ${s.skipped}${extra}`;
  return report.notChecked?.length ? `${line}\n${notCheckedLine(report.notChecked)}` : line;
}

/** Said once: the references loose files make that the run cannot follow (not errors). */
export function notCheckedLine(references: readonly string[]): string {
  const n = references.length;
  return `Not checked: ${n} reference${n === 1 ? "" : "s"} to objects not among the given files (${references.map(safeText).join("; ")}); give those files too, or validate a whole clusters/<name>/rendered folder`;
}

/** GitHub annotations and SARIF carry what someone must act on: not info, not acknowledged findings. */
const actionable = (f: Finding) => f.severity !== "info" && f.acknowledged === undefined;

/**
 * Each actionable finding of the report with its result made safe, in report order, one row at a time. A result with
 * nothing to act on adds nothing and is not made safe at all (the SARIF and GitHub formats).
 */
function* actionableFindings(report: Report): Generator<{ r: ResourceResult; f: Finding }> {
  const rows = rowsOf(report);
  for (let i = 0; i < rows.length; i++) {
    const unsafe = rows.at(i);
    if (!unsafe.findings.some(actionable)) continue;
    const r = safeResult(unsafe);
    for (const f of r.findings.filter(actionable)) yield { r, f };
  }
}

/** The level word of a finding in text output (uncoloured). */
function levelWord(r: ResourceResult, f: Finding): string {
  if (f.acknowledged !== undefined) return "acknowledged";
  if (f.severity === "error") return r.status === "error" ? "error" : "invalid";
  if (f.severity === "info") return "info";
  return r.status === "skipped" ? "skipped" : "warning";
}

/** One line per finding: `file#index kind/ns/name path: message [rule]`. */
export function formatText(report: Report, options: FormatOptions = {}): string {
  const colors = createColors(options.color === true);
  const paint = (code: "31" | "32" | "33", s: string) => ({ "31": colors.red, "32": colors.green, "33": colors.yellow })[code](s);
  const lines: string[] = [];
  // one result at a time; names, paths and messages come from the input: no control character reaches the output raw
  const rows = rowsOf(report);
  for (let i = 0; i < rows.length; i++) {
    const unsafe = rows.at(i);
    if (unsafe.findings.length === 0 && !options.verbose) continue;
    const r = safeResult(unsafe);
    if (r.findings.length === 0) {
      lines.push(`${where(r)} ${objectName(r)} ${r.status === "skipped" ? paint("33", "skipped") : paint("32", "valid")}`);
      continue;
    }
    for (const f of r.findings) {
      const word = levelWord(r, f);
      const sev = word === "error" || word === "invalid" ? paint("31", word) : word === "warning" || word === "skipped" ? paint("33", word) : word;
      const hint = `${f.hint ? ` (fix: ${f.hint})` : ""}${f.acknowledged !== undefined ? ` (acknowledged: ${f.acknowledged})` : ""}`;
      lines.push(`${located(r, f)} ${objectName(r)} ${sev} ${f.path || "/"}: ${f.message}${hint} [${f.rule}]`);
    }
  }
  lines.push(summaryLine(report));
  return `${lines.join("\n")}\n`;
}

/** One finding as the JSON contract has it: `hint`, `line` and `column` only when known. */
export const jsonFinding = (f: Finding) => ({
  severity: f.severity,
  path: f.path,
  message: f.message,
  rule: f.rule,
  ...(f.hint !== undefined ? { hint: f.hint } : {}),
  ...(f.line !== undefined ? { line: f.line, column: f.column ?? 1 } : {}),
  ...(f.acknowledged !== undefined ? { acknowledged: f.acknowledged } : {}),
});

/** One entry of `resources[]` in the JSON contract (names, paths and messages come from the input: made safe to print). */
export const jsonResource = (unsafe: ResourceResult) => {
  const r = safeResult(unsafe);
  return {
    file: r.file,
  index: r.index,
  apiVersion: r.apiVersion,
  kind: r.kind,
  name: r.name,
  namespace: r.namespace,
    status: r.status,
    findings: r.findings.map(jsonFinding),
  };
};

/** The stable JSON contract: `{summary, resources}` with exactly the documented fields. */
export function formatJson(report: Report): string {
  // jsonResource makes each resource safe to print: no control character reaches the output raw
  const notChecked = report.notChecked?.length ? { notChecked: report.notChecked.map(safeText) } : {};
  const rows = rowsOf(report);
  const resources = Array.from({ length: rows.length }, (_, i) => jsonResource(rows.at(i)));
  return `${JSON.stringify({ summary: report.summary, resources, ...notChecked }, null, 2)}\n`;
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** JUnit XML: one testsuite per file, one testcase per resource (`file` and `line` attributes: the first finding's line, as pytest writes them). */
export function formatJunit(report: Report): string {
  return `${[...junitLines(report)].join("\n")}\n`;
}

/** formatJunit's lines, one testsuite at a time (a large report is written without one large string). */
/**
 * A report's results by file, files in the order they first appear. A run's report (result-store.ts) is sorted
 * by file: its files are its runs of rows, made objects one file at a time.
 */
function* byFile(report: Report): Generator<[string, ResourceResult[]]> {
  const lazy = lazyRows(report);
  if (lazy) {
    yield* consecutive(lazy);
    return;
  }
  const files = new Map<string, ResourceResult[]>();
  for (const r of report.resources) {
    const list = files.get(r.file);
    if (list) list.push(r);
    else files.set(r.file, [r]);
  }
  yield* files;
}

function* consecutive(rows: ResultRows): Generator<[string, ResourceResult[]]> {
  let group: ResourceResult[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows.at(i);
    if (group.length > 0 && (group[0] as ResourceResult).file !== r.file) {
      yield [(group[0] as ResourceResult).file, group];
      group = [];
    }
    group.push(r);
  }
  if (group.length > 0) yield [(group[0] as ResourceResult).file, group];
}

export function* junitLines(report: Report): Generator<string> {
  let out = [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="eks-gitops validate" tests="${report.summary.resources}" failures="${report.summary.invalid}" errors="${report.summary.error}" skipped="${report.summary.skipped}">`];
  for (const [unsafeFile, results] of byFile(report)) {
    // names, paths and messages come from the input: no control character reaches the output raw
    const file = safeText(unsafeFile);
    const count = (s: string) => results.filter((r) => r.status === s).length;
    out.push(`  <testsuite name="${xml(file)}" tests="${results.length}" failures="${count("invalid")}" errors="${count("error")}" skipped="${count("skipped")}">`);
    for (const unsafe of results) {
      const r = safeResult(unsafe);
      const line = r.findings.find((f) => f.line !== undefined)?.line;
      out.push(`    <testcase classname="${xml(file)}" name="${xml(`${where(r)} ${objectName(r)}`)}" file="${xml(file)}"${line !== undefined ? ` line="${line}"` : ""}>`);
      const text = r.findings.map((f) => `${f.line !== undefined ? `${f.line}:${f.column ?? 1} ` : ""}${f.path || "/"}: ${f.message}${f.hint ? ` (fix: ${f.hint})` : ""} [${f.rule}]`).join("\n");
      if (r.status === "invalid") out.push(`      <failure message="${xml(r.findings.find((f) => f.severity === "error")?.message ?? "invalid")}" type="invalid">${xml(text)}</failure>`);
      else if (r.status === "error") out.push(`      <error message="${xml(r.findings[0]?.message ?? "error")}" type="error">${xml(text)}</error>`);
      else if (r.status === "skipped") out.push(`      <skipped message="${xml(r.findings[0]?.message ?? "skipped")}"/>`);
      out.push("    </testcase>");
    }
    out.push("  </testsuite>");
    yield* out;
    out = [];
  }
  yield* out;
  yield "</testsuites>";
}

/** The validate package's version, as the SARIF driver's. */
export const VALIDATE_VERSION: string = packageJson.version;

type SarifRule = { id: string; shortDescription: { text: string }; help: { text: string } };

/** The SARIF 2.1.0 log of a report, as data. */
export function sarifDocument(report: Report) {
  const rules = new Map<string, SarifRule>();
  // names, paths and messages come from the input: no control character reaches the output raw
  const results: unknown[] = [];
  for (const { r, f } of actionableFindings(report)) {
    const info = ruleInfo(f.rule, f.hint);
    if (!rules.has(info.id)) rules.set(info.id, { id: info.id, shortDescription: { text: info.shortDescription }, help: { text: info.help } });
    const region = f.line !== undefined ? { region: { startLine: f.line, startColumn: f.column ?? 1 } } : {};
    results.push({
      ruleId: info.id,
      level: f.severity === "error" ? "error" : "warning",
      message: { text: `${objectName(r)} ${f.path || "/"}: ${f.message}${f.hint ? ` (fix: ${f.hint})` : ""}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: r.file }, ...region }, logicalLocations: [{ fullyQualifiedName: `${objectName(r)}${f.path}` }] }],
    });
  }
  const sorted = [...rules.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{ tool: { driver: { name: "eks-gitops validate", version: VALIDATE_VERSION, rules: sorted } }, results }],
  };
}

/** SARIF 2.1.0: one result per finding, located by file, line and column (and the JSON path as a logical location). */
export function formatSarif(report: Report): string {
  return `${JSON.stringify(sarifDocument(report), null, 2)}\n`;
}

// Workflow commands need %, CR and LF escaped in data and also : and , in properties.
const ghData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const ghProp = (s: string) => ghData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** GitHub Actions workflow annotations (`::error file=...::message`), then the summary line. */
export function formatGithub(report: Report): string {
  const lines: string[] = [];
  // one result at a time; names, paths and messages come from the input: no control character reaches the output raw
  for (const { r, f } of actionableFindings(report)) {
    const level = f.severity === "error" ? "error" : "warning";
    const at = f.line !== undefined ? `,line=${f.line},col=${f.column ?? 1}` : "";
    // the title names the rule by its stable id: a CEL rule's text would make a title of the whole rule
    lines.push(`::${level} file=${ghProp(r.file)}${at},title=${ghProp(`${objectName(r)} ${ruleInfo(f.rule).id}`)}::${ghData(`${f.path || "/"}: ${f.message}${f.hint ? ` (fix: ${f.hint})` : ""}`)}`);
  }
  lines.push(summaryLine(report));
  return `${lines.join("\n")}\n`;
}

export function formatReport(report: Report, format: OutputFormat, options: FormatOptions = {}): string {
  switch (format) {
    case "json":
      return formatJson(report);
    case "junit":
      return formatJunit(report);
    case "sarif":
      return formatSarif(report);
    case "github":
      return formatGithub(report);
    default:
      return formatText(report, options);
  }
}

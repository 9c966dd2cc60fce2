// Report formatters: text (grep-able lines + summary), json (the stable contract), junit, sarif, github annotations.
import { createColors } from "picocolors";
import type { Finding, Report, ResourceResult } from "../types.ts";
import { sanitizeReport } from "./sanitize.ts";

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

function summaryLine(report: Report): string {
  const s = report.summary;
  const extra = report.stats.transitionRulesSkipped > 0 ? `; ${report.stats.transitionRulesSkipped} transition rules (oldSelf) skipped on create, use --base REF to run them` : "";
  return `Summary: ${s.resources} resources found - Valid: ${s.valid}, Invalid: ${s.invalid}, Errors: ${s.error}, Skipped: ${s.skipped}${extra}`;
}

/** One line per finding: `file#index kind/ns/name path: message [rule]`. */
export function formatText(unsafe: Report, options: FormatOptions = {}): string {
  // names, paths and messages come from the input: no control character reaches the output raw
  const report = sanitizeReport(unsafe);
  const colors = createColors(options.color === true);
  const paint = (code: "31" | "32" | "33", s: string) => ({ "31": colors.red, "32": colors.green, "33": colors.yellow })[code](s);
  const lines: string[] = [];
  for (const r of report.resources) {
    if (r.findings.length === 0) {
      if (options.verbose) lines.push(`${where(r)} ${objectName(r)} ${paint("32", "valid")}`);
      continue;
    }
    for (const f of r.findings) {
      const sev = f.severity === "error" ? paint("31", r.status === "error" ? "error" : "invalid") : paint("33", r.status === "skipped" ? "skipped" : "warning");
      const hint = f.hint ? ` (fix: ${f.hint})` : "";
      lines.push(`${where(r)} ${objectName(r)} ${sev} ${f.path || "/"}: ${f.message}${hint} [${f.rule}]`);
    }
  }
  lines.push(summaryLine(report));
  return `${lines.join("\n")}\n`;
}

/** The stable JSON contract: `{summary, resources}` with exactly the documented fields. */
export function formatJson(unsafe: Report): string {
  // names, paths and messages come from the input: no control character reaches the output raw
  const report = sanitizeReport(unsafe);
  const resources = report.resources.map((r) => ({
    file: r.file,
    index: r.index,
    apiVersion: r.apiVersion,
    kind: r.kind,
    name: r.name,
    namespace: r.namespace,
    status: r.status,
    findings: r.findings.map((f: Finding) => ({ severity: f.severity, path: f.path, message: f.message, rule: f.rule })),
  }));
  return `${JSON.stringify({ summary: report.summary, resources }, null, 2)}\n`;
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** JUnit XML: one testsuite per file, one testcase per resource. */
export function formatJunit(unsafe: Report): string {
  // names, paths and messages come from the input: no control character reaches the output raw
  const report = sanitizeReport(unsafe);
  const byFile = new Map<string, ResourceResult[]>();
  for (const r of report.resources) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="eks-gitops validate" tests="${report.summary.resources}" failures="${report.summary.invalid}" errors="${report.summary.error}" skipped="${report.summary.skipped}">`];
  for (const [file, results] of byFile) {
    const count = (s: string) => results.filter((r) => r.status === s).length;
    out.push(`  <testsuite name="${xml(file)}" tests="${results.length}" failures="${count("invalid")}" errors="${count("error")}" skipped="${count("skipped")}">`);
    for (const r of results) {
      out.push(`    <testcase classname="${xml(file)}" name="${xml(`${where(r)} ${objectName(r)}`)}">`);
      const text = r.findings.map((f) => `${f.path || "/"}: ${f.message} [${f.rule}]`).join("\n");
      if (r.status === "invalid") out.push(`      <failure message="${xml(r.findings.find((f) => f.severity === "error")?.message ?? "invalid")}" type="invalid">${xml(text)}</failure>`);
      else if (r.status === "error") out.push(`      <error message="${xml(r.findings[0]?.message ?? "error")}" type="error">${xml(text)}</error>`);
      else if (r.status === "skipped") out.push(`      <skipped message="${xml(r.findings[0]?.message ?? "skipped")}"/>`);
      out.push("    </testcase>");
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return `${out.join("\n")}\n`;
}

/** SARIF 2.1.0: one result per finding, located by file (and the JSON path in the message). */
export function formatSarif(unsafe: Report): string {
  // names, paths and messages come from the input: no control character reaches the output raw
  const report = sanitizeReport(unsafe);
  const rules = new Map<string, { id: string }>();
  const results = report.resources.flatMap((r) =>
    r.findings.map((f) => {
      rules.set(f.rule, { id: f.rule });
      return {
        ruleId: f.rule,
        level: f.severity === "error" ? "error" : "warning",
        message: { text: `${objectName(r)} ${f.path || "/"}: ${f.message}${f.hint ? ` (fix: ${f.hint})` : ""}` },
        locations: [{ physicalLocation: { artifactLocation: { uri: r.file } }, logicalLocations: [{ fullyQualifiedName: `${objectName(r)}${f.path}` }] }],
      };
    }),
  );
  const sarif = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{ tool: { driver: { name: "eks-gitops validate", rules: [...rules.values()] } }, results }],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

// Workflow commands need %, CR and LF escaped in data and also : and , in properties.
const ghData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const ghProp = (s: string) => ghData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** GitHub Actions workflow annotations (`::error file=...::message`), then the summary line. */
export function formatGithub(unsafe: Report): string {
  // names, paths and messages come from the input: no control character reaches the output raw
  const report = sanitizeReport(unsafe);
  const lines: string[] = [];
  for (const r of report.resources) {
    for (const f of r.findings) {
      const level = f.severity === "error" ? "error" : "warning";
      lines.push(`::${level} file=${ghProp(r.file)},title=${ghProp(`${objectName(r)} ${f.rule}`)}::${ghData(`${f.path || "/"}: ${f.message}${f.hint ? ` (fix: ${f.hint})` : ""}`)}`);
    }
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

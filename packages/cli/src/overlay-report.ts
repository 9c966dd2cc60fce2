// A bad overlay reported as validate reports a bad manifest: one finding per problem at `cluster.ts:LINE:COL`,
// in any of validate's output formats (text, json, junit, sarif, github), so CI annotates the overlay's line.
import type { ConfigError } from "@eks-gitops/config/errors";
import type { Finding, OutputFormat, Report } from "@eks-gitops/validate";

/** The overlay's problems as a validate report: one resource (the overlay), one finding per problem. */
export function configErrorReport(err: ConfigError): Report {
  const name = /(?:^|\/)clusters\/([^/]+)\/cluster\.ts$/.exec(err.file.replace(/\\/g, "/"))?.[1] ?? err.file;
  const findings: Finding[] = err.problems.map((p) => ({
    severity: "error",
    path: p.path,
    message: p.message,
    rule: p.rule ?? "overlay:check",
    ...(p.hint ? { hint: p.hint } : {}),
    ...(p.line !== undefined ? { line: p.line, column: p.column ?? 1 } : {}),
  }));
  return {
    summary: { resources: 1, valid: 0, invalid: 1, error: 0, skipped: 0 },
    resources: [{ file: err.file, index: 0, apiVersion: "eks-gitops/v1", kind: "Cluster", name, namespace: "", status: "invalid", findings }],
    stats: { transitionRulesSkipped: 0, celRulesEvaluated: 0 },
  };
}

export interface ConfigErrorOutput {
  /** The report in the chosen format: stderr for text, stdout for the machine formats. */
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * What a command prints for a bad overlay; the exit code is 2. `outcome` ends the closing line: synth says
 * "nothing was written", a command that writes nothing says what it did not do.
 */
export async function formatConfigError(err: ConfigError, format: OutputFormat = "text", color = false, outcome = "nothing was written"): Promise<ConfigErrorOutput> {
  // the formatters alone, not the validator
  const n = err.problems.length;
  const closing = `${n} ${n === 1 ? "problem" : "problems"} in ${err.file}; ${outcome}.\n`;
  // a problem with no place in the source (no such overlay, an import that threw): one plain line says it better
  if (format === "text" && err.problems.every((p) => p.line === undefined)) return { stdout: "", stderr: `${err.message}\n${closing}` };
  const { formatReport } = await import("@eks-gitops/validate/output");
  const report = formatReport(configErrorReport(err), format, { color });
  return format === "text" ? { stdout: "", stderr: `${report}${closing}` } : { stdout: report, stderr: closing };
}

/** Prints a bad overlay's report (see formatConfigError) and returns exit code 2. */
export async function reportConfigError(err: ConfigError, format: OutputFormat, color: boolean, outcome?: string): Promise<number> {
  const { stdout, stderr } = await formatConfigError(err, format, color, outcome);
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  return 2;
}

/** Several overlays are bad at once (synth loads every one before it says anything): each is reported. */
export class ConfigErrors extends Error {
  constructor(readonly errors: readonly ConfigError[]) {
    super(errors.map((e) => e.message).join("\n"));
    this.name = "ConfigErrors";
  }
}

/** Every bad overlay's report as one (one finding per problem, one summary); exit code 2. */
export async function formatConfigErrors(errs: readonly ConfigError[], format: OutputFormat = "text", color = false): Promise<ConfigErrorOutput> {
  if (errs.length === 1) return formatConfigError(errs[0]!, format, color);
  const n = errs.reduce((k, e) => k + e.problems.length, 0);
  const closing = `${n} problems in ${errs.length} overlays (${errs.map((e) => e.file).join(", ")}); nothing was written.\n`;
  // as formatConfigError: in text, an overlay whose problems have no place in its source is said in plain lines
  const plain = format === "text" ? errs.filter((e) => e.problems.every((p) => p.line === undefined)) : [];
  const located = errs.filter((e) => !plain.includes(e));
  let report = "";
  if (located.length > 0) {
    const { formatReport } = await import("@eks-gitops/validate/output");
    const resources = located.map(configErrorReport).flatMap((r) => r.resources);
    const merged: Report = { summary: { resources: resources.length, valid: 0, invalid: resources.length, error: 0, skipped: 0 }, resources, stats: { transitionRulesSkipped: 0, celRulesEvaluated: 0 } };
    report = formatReport(merged, format, { color });
  }
  const lines = plain.map((e) => `${e.message}\n`).join("");
  return format === "text" ? { stdout: "", stderr: `${lines}${report}${closing}` } : { stdout: report, stderr: closing };
}

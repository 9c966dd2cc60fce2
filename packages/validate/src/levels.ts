// The last step of a run: acknowledged findings set aside, --strict applied, findings sorted by line, statuses and summary recounted.
import type { Finding, Report, ResourceResult, ResourceStatus } from "./types.ts";
import { summarize } from "./validate.ts";
import { lazyRows, reportOfRows } from "./result-store.ts";

/**
 * A finding someone looked at and accepts, with the reason (`.eks-gitops.yaml`, `validate.acknowledge`).
 * It stays in the report, marked acknowledged, and no longer makes its resource invalid (nor, by default,
 * appears in GitHub annotations or SARIF).
 */
export interface Acknowledgement {
  /** The finding's rule, exactly (`iam:RESOURCE_STAR_SCOPABLE`, `hpa-target-sets-replicas`). */
  readonly rule: string;
  /** Why the finding is accepted: shown with it. */
  readonly reason: string;
  /** A glob over the file's path relative to the repository root (`*` within a folder name, `**` across folders). @default every file */
  readonly file?: string;
  /** The finding's JSON Pointer, or a prefix of it ending at a segment. @default every path */
  readonly path?: string;
}

export interface LevelOptions {
  /** Warnings become errors (`--strict`, or `strict: true` in `.eks-gitops.yaml`). Info and acknowledged findings stay as they are. */
  readonly strict?: boolean;
  readonly acknowledge?: readonly Acknowledgement[];
  /** The path an acknowledgement's `file` glob is matched against (the repository-relative path). @default the shown path */
  readonly fileKey?: (shown: string) => string;
}

/** `**` any run of characters, `*` any run without `/`, `?` one character; everything else literal. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*" && glob[i + 1] === "*") {
      re += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

function matcher(acks: readonly Acknowledgement[]): (file: string, f: Finding) => Acknowledgement | undefined {
  const compiled = acks.map((a) => ({ a, file: a.file === undefined ? undefined : globToRegExp(a.file) }));
  return (file, f) =>
    compiled.find(({ a, file: re }) => a.rule === f.rule && (re === undefined || re.test(file)) && (a.path === undefined || f.path === a.path || f.path.startsWith(`${a.path}/`)))?.a;
}

/** Findings in reading order: line, column, then path and rule (findings without a position first: they are about the whole document). */
export function compareFindings(a: Finding, b: Finding): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
}

/** Whether a finding counts against its resource: an error not acknowledged. */
export const counts = (f: Finding) => f.severity === "error" && f.acknowledged === undefined;

function statusOf(r: ResourceResult, findings: readonly Finding[]): ResourceStatus {
  // error (unreadable, no schema) and skipped are about the document, not about its findings' levels
  if (r.status === "error" || r.status === "skipped") return r.status;
  return findings.some(counts) ? "invalid" : "valid";
}

/** Applies acknowledgements and --strict, sorts each resource's findings, and recounts statuses and the summary. */
export function applyLevels(report: Report, options: LevelOptions = {}): Report {
  const acknowledged = matcher(options.acknowledge ?? []);
  const fileKey = options.fileKey ?? ((file: string) => file);
  const level = (r: ResourceResult): ResourceResult => {
    if (r.findings.length === 0) return r;
    const findings = r.findings
      .map((f): Finding => {
        const ack = acknowledged(fileKey(r.file), f);
        if (ack) return { ...f, acknowledged: ack.reason };
        if (options.strict && f.severity === "warning" && r.status !== "skipped") return { ...f, severity: "error" };
        return f;
      })
      .sort(compareFindings);
    return { ...r, findings, status: statusOf(r, findings) };
  };
  // a run's report (result-store.ts): only the results with findings change, the others stay rows
  const lazy = lazyRows(report);
  if (lazy) return reportOfRows(lazy.mapFound(level), { stats: report.stats, notChecked: report.notChecked });
  const resources = report.resources.map(level);
  return { ...report, summary: summarize(resources), resources };
}

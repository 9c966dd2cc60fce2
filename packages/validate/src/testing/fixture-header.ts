// Reads a fixture's expected outcome from its leading comment (kubectl-validate style) and compares findings with it.
import { readFileSync } from "node:fs";
import type { Finding } from "../types.ts";

export type Expectation = "valid" | "invalid" | "error" | "skipped";

/** One finding the fixture expects; only the fields given are compared. */
export interface ExpectedFinding {
  readonly message?: string;
  readonly path?: string;
  /** Cross-object code, or a substring of the engine's rule (e.g. the CEL rule text). */
  readonly rule?: string;
  readonly severity?: "error" | "warning";
}

export interface FixtureHeader {
  readonly description: string;
  readonly expect: Expectation;
  readonly findings: readonly ExpectedFinding[];
  /** `old: <file>`: the previous object, for transition rules (oldSelf). Relative to the fixture. */
  readonly old?: string;
  /** `default: <pointer> = <json>`: values the schema defaults must produce. */
  readonly defaults: readonly { readonly path: string; readonly value: unknown }[];
}

/** Order of the keys within one expected finding: a key at or before the last one seen starts the next finding. */
const FINDING_KEYS: Readonly<Record<string, number>> = { rule: 0, message: 1, path: 2, severity: 3 };

/** Parses the leading `# key: value` comment block of a fixture (or of a `.expect` sidecar for JSON files). */
export function parseHeader(text: string, file: string): FixtureHeader {
  let description = "";
  let expect: Expectation | undefined;
  let old: string | undefined;
  const defaults: { path: string; value: unknown }[] = [];
  const findings: ExpectedFinding[] = [];
  let current: Record<string, string> = {};
  const flush = () => {
    if (Object.keys(current).length > 0) findings.push(current as ExpectedFinding);
    current = {};
  };
  for (const line of text.split("\n")) {
    if (!line.startsWith("#")) break;
    const body = line.replace(/^#\s?/, "");
    const m = /^(expect|message|path|rule|severity|old|default):\s?(.*)$/.exec(body);
    if (!m) {
      if (!description) description = body.trim();
      continue;
    }
    const [, key, value] = m as unknown as [string, string, string];
    const order = FINDING_KEYS[key];
    if (order !== undefined) {
      if (Object.keys(current).some((k) => (FINDING_KEYS[k] ?? 0) >= order)) flush();
      current[key] = value;
    } else if (key === "expect") {
      if (!["valid", "invalid", "error", "skipped"].includes(value)) throw new Error(`${file}: unknown expect '${value}'`);
      expect = value as Expectation;
    } else if (key === "old") {
      old = value;
    } else {
      const eq = value.indexOf(" = ");
      if (eq < 0) throw new Error(`${file}: 'default:' needs '<pointer> = <json>'`);
      defaults.push({ path: value.slice(0, eq), value: JSON.parse(value.slice(eq + 3)) });
    }
  }
  flush();
  if (!expect) throw new Error(`${file}: no '# expect: valid|invalid|error|skipped' line in the leading comment`);
  return { description, expect, findings, defaults, ...(old !== undefined ? { old } : {}) };
}

export function readHeader(file: string): FixtureHeader {
  return parseHeader(readFileSync(file, "utf8"), file);
}

/** The fixture's message is the rule's own text; the API server (and so the validator) may prefix it with `Invalid value: "<type>": `. */
function messageMatches(expected: string, actual: string): boolean {
  return actual === expected || actual.endsWith(`: ${expected}`);
}

function matches(e: ExpectedFinding, f: Finding): boolean {
  return (
    (e.message === undefined || messageMatches(e.message, f.message)) &&
    (e.path === undefined || f.path === e.path) &&
    (e.rule === undefined || f.rule === e.rule || f.rule.includes(e.rule)) &&
    (e.severity === undefined || f.severity === e.severity)
  );
}

/**
 * Problems between a fixture's header and the findings produced for it ([] when they agree):
 * `invalid` needs an error; `valid` allows none; every expected finding must occur; every error must be expected
 * (when the fixture lists any), so a fixture proves exactly the problems it names.
 */
export function compareFindings(header: FixtureHeader, findings: readonly Finding[]): string[] {
  const problems: string[] = [];
  const errors = findings.filter((f) => f.severity === "error");
  const show = (f: Finding) => `${f.severity} ${f.path} ${f.message} [${f.rule}]`;
  if (header.expect === "valid" && errors.length > 0) problems.push(`expected valid, got errors:\n  ${errors.map(show).join("\n  ")}`);
  if (header.expect === "invalid" && errors.length === 0) problems.push(`expected invalid, got no error (findings: ${findings.map(show).join("; ") || "none"})`);
  for (const e of header.findings) {
    if (!findings.some((f) => matches(e, f))) problems.push(`expected finding not produced: ${JSON.stringify(e)}\n  got: ${findings.map(show).join("\n       ") || "none"}`);
  }
  if (header.expect === "invalid" && header.findings.length > 0) {
    for (const f of errors) {
      if (!header.findings.some((e) => matches(e, f))) problems.push(`unexpected error: ${show(f)}`);
    }
  }
  return problems;
}

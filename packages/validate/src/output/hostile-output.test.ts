// Output from hostile input (issue 14 items 2 and 7): no Secret value and no raw control character in any format.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runValidation } from "../run.ts";
import { MIRROR, TEST_CACHE } from "../testing.ts";
import type { Report } from "../types.ts";
import { formatReport, OUTPUT_FORMATS } from "./format.ts";

const SECRET = `apiVersion: v1
kind: Secret
metadata: {name: db, namespace: default}
data:
  password: hunter2-PLAINTEXT!!
  ok: aHVudGVyMi1vaw==
stringData:
  token: 12345678
  pin: [1, 2]
`;

describe("Secret values are redacted (item 2)", () => {
  it("in findings of every format", async () => {
    const dir = mkdtempSync(join(tmpdir(), "redact-"));
    writeFileSync(join(dir, "secret.yaml"), SECRET);
    const { report } = await runValidation({ root: dir, paths: [dir], mirror: MIRROR, cacheDir: TEST_CACHE, crossObjectChecks: false, read: { cwd: dir } });
    expect(report.resources[0]?.findings.map((f) => [f.path, f.message])).toEqual([
      // the native stage's decode finding names the byte offset, never the value (findings in line order)
      ["/data/password", 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7'],
      ["/data/password", 'Invalid value: "<redacted: 19 bytes>": must be of format byte'],
      ["/stringData/token", "Invalid value: <redacted: 8 bytes>: must be of type string, not integer"],
      ["/stringData/pin", "Invalid value: array: must be of type string, not array"],
    ]);
    for (const format of OUTPUT_FORMATS) {
      const out = formatReport(report, format);
      expect(out, format).not.toContain("hunter2");
      expect(out, format).not.toContain("12345678");
      expect(out, format).toContain("redacted: 19 bytes");
    }
  });
});

const forged = "Thing\n::error file=x.yaml::forged\nSummary: 0 resources found - Valid: 0\u001b[31m\u0000\u202e";
const hostile: Report = {
  summary: { resources: 1, valid: 0, invalid: 1, error: 0, skipped: 0 },
  resources: [
    {
      file: "evil\n.yaml",
      index: 0,
      apiVersion: "v1",
      kind: forged,
      name: "n\r\u0007",
      namespace: "",
      status: "invalid",
      findings: [{ severity: "error", path: "/a\u0008", message: `bad\u001b]0;title\u0007 value\n::warning::x`, rule: "schema:type", hint: "fix\u0085it" }],
    },
  ],
  stats: { transitionRulesSkipped: 0, celRulesEvaluated: 0 },
};

describe("control characters (item 7)", () => {
  it("text: one line per finding plus the summary, no escape sequences", () => {
    const out = formatReport(hostile, "text");
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      "evil\\n.yaml#0 Thing\\n::error file=x.yaml::forged\\nSummary: 0 resources found - Valid: 0\\x1b[31m\\x00\\u202e/n\\r\\x07 invalid /a\\x08: bad\\x1b]0;title\\x07 value\\n::warning::x (fix: fix\\x85it) [schema:type]",
    );
    expect(lines[1]).toMatch(/^Summary: 1 resources found/);
  });

  it("github: no forged workflow command", () => {
    const lines = formatReport(hostile, "github").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]?.startsWith("::error file=evil\\n.yaml,title=")).toBe(true);
    expect(out(lines)).not.toMatch(CONTROL);
  });

  it.each(["junit", "sarif", "json"] as const)("%s: no raw control character, and it parses", (format) => {
    const text = formatReport(hostile, format);
    // XML 1.0 allows no C0 control except tab, LF and CR; we emit none inside values
    expect(text.replace(/\n/g, "")).not.toMatch(CONTROL);
    if (format !== "junit") expect(JSON.parse(text)).toBeTruthy();
    else expect(text).toContain('name="evil\\n.yaml"');
  });
});

const out = (lines: string[]) => lines.join("");
// C0, DEL, C1 and the right-to-left override
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202e]/;

// The admission kinds' findings word for word as kube-apiserver 1.36.5 printed them: the fixtures' `# server:` lines
// (multi-line CEL compile errors, which a `# message:` line cannot hold) are compared whole with the native findings.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ADMISSION_REGISTRATION } from "./admissionregistration.ts";
import { runNative } from "./testing.ts";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "native");
const files = readdirSync(FIXTURES).filter((f) => /^(admission-policy|mutating-admission-policy|valid-admission-policy|valid-mutating-admission|webhook-match-conditions)/.test(f));

/**
 * Where the wording cannot match: cel-go's ANTLR syntax errors, and the further errors cel-go reports after the first
 * (cel-js stops at the first). For these the finding's path and the first error's position must still match.
 */
const FIRST_LINE_ONLY = [/Syntax error: /, /\nERROR: <input>/];

const messagesOf = (object: Record<string, unknown>) => runNative(ADMISSION_REGISTRATION, object).map((l) => l.slice(l.indexOf(" ") + 1).replace(/ \[native:[^\]]+\]$/, ""));

describe("admission kinds against the server's own words", () => {
  it("covers the admission fixtures", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  for (const file of files) {
    it(file, () => {
      const text = readFileSync(join(FIXTURES, file), "utf8");
      const server = [...text.matchAll(/^# server: (".*")$/gm)].map((m) => JSON.parse(m[1] as string) as string);
      const ours = messagesOf(parse(text));
      for (const s of server) {
        if (FIRST_LINE_ONLY.some((re) => re.test(s))) {
          const head = (s.match(/^[^\n]*?: compilation failed: ERROR: <input>:\d+:\d+: /) ?? [""])[0];
          expect(head, s).not.toBe("");
          expect(ours.some((o) => o.startsWith(head)), `${head} in\n${ours.join("\n")}`).toBe(true);
        } else expect(ours).toContain(s);
      }
    });
  }
});

// checkSchema's pattern verdicts are memoised and answered by re2-fast.ts for the patterns it translates: the
// verdicts must stay RE2's, each time a pattern appears.
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { checkSchema } from "./check.ts";

const re2Message = (p: string): string => {
  try {
    RE2JS.compile(p);
    return "";
  } catch (err) {
    return (err as Error).message;
  }
};

describe("checkSchema patterns", () => {
  it("reports a bad pattern at every place it appears, with RE2's message, also once it is memoised", () => {
    const bad = "(?=a)a";
    const schema = { type: "object", properties: { a: { type: "string", pattern: bad }, b: { type: "string", pattern: bad } } };
    for (let run = 0; run < 2; run++) {
      const problems = checkSchema(schema, "/s");
      expect(problems.map((p) => p.pointer).sort()).toEqual(["/s/properties/a/pattern", "/s/properties/b/pattern"]);
      for (const p of problems) expect(p.message).toBe(`Invalid value: "${bad}": must be a valid regular expression, but isn't: ${re2Message(bad)}`);
    }
  });

  it("accepts translated and untranslated valid patterns, and refuses what RE2 refuses", () => {
    const patterns = ["^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "^(?i)abc$", "\\pL+", "a{1001}", "[z-a]", "x**", "(a"];
    for (const p of patterns) {
      const problems = checkSchema({ type: "string", pattern: p }, "");
      expect(problems.length === 0, p).toBe(re2Message(p) === "");
    }
  });
});

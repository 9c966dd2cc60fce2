// The README's table of cross-object check levels is the one the code uses.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_CODES, checkLevelsTable } from "./codes.ts";

describe("check levels", () => {
  it("are listed in the README, with what fails and when", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const block = /<!-- cross-object-levels:start -->\n([\s\S]*?)\n<!-- cross-object-levels:end -->/.exec(readme)?.[1];
    expect(block).toBe(checkLevelsTable());
  });

  it("are errors only where a failure is guaranteed (a reason given), opinions otherwise", () => {
    for (const [code, c] of Object.entries(CHECK_CODES)) {
      expect(c.failure.startsWith("none") ? "warning" : "error", code).toBe(c.severity);
    }
  });
});

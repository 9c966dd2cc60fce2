// mayNestDeeperThan against its definition (longest line plus every bracket and alias, counted character by character).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayNestDeeperThan } from "./json.ts";

function byDefinition(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let openers = 0;
  let longest = 0;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[" || c === "{" || c === "*") openers++;
    else if (c === "\n") {
      longest = Math.max(longest, i - lineStart);
      lineStart = i + 1;
    }
  }
  return Math.max(longest, text.length - lineStart) + openers > limit;
}

describe("mayNestDeeperThan", () => {
  it("is the longest line plus the brackets and aliases, compared with the limit", () => {
    const text = fc.array(fc.constantFrom("a", " ", "\n", "[", "]", "{", "}", "*", "- ", "key: "), { maxLength: 120 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 60 }), (t, limit) => {
        expect(mayNestDeeperThan(t, limit)).toBe(byDefinition(t, limit));
      }),
      { numRuns: 5000 },
    );
  });

  it("answers no for ordinary block YAML and yes for deep flow text", () => {
    const block = `apiVersion: v1\nkind: ConfigMap\ndata:\n${Array.from({ length: 200 }, (_, i) => `  k${i}: v`).join("\n")}\n`;
    expect(mayNestDeeperThan(block, 1000)).toBe(false);
    expect(mayNestDeeperThan(`${"[".repeat(600)}\n${"[".repeat(600)}`, 1000)).toBe(true);
  });
});

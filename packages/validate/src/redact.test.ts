// SecretIndex (a run's secret values indexed by their first two characters) against the reference that compares
// a finding's text with every value in turn: the same text for any values and texts, markers included.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactResults, redactTextByEachValue, SecretIndex, secretValues } from "./redact.ts";

// few characters, so that values overlap, contain each other, need JSON escapes and occur inside markers
const char = fc.constantFrom("a", "b", "y", "t", "e", "s", " ", '"', "\\", "<", ">", ":", "1", "3", "\n", "é");
const value = fc.array(char, { minLength: 1, maxLength: 9 }).map((cs) => cs.join(""));
const secret = fc.dictionary(fc.constantFrom("k", "key", "a/b", "t~"), value, { minKeys: 1, maxKeys: 4 });

describe("SecretIndex", () => {
  it("redacts a text as comparing it with each value in turn does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ data: secret, stringData: secret }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.oneof(char, value, value.map((v) => JSON.stringify(v)), fc.constantFrom("<redacted: 3 bytes>", "bytes", '"')), { maxLength: 12 }),
        fc.constantFrom("", "/data/k", "/data/key", "/stringData/a~1b", "/data/k/x"),
        fc.boolean(),
        (objects, pieces, pointer, own) => {
          const values = secretValues(objects.map((object) => ({ apiVersion: "v1", kind: "Secret", object })));
          const text = pieces.join("");
          expect(new SecretIndex(values).redact(text, pointer, own)).toBe(redactTextByEachValue(text, values, pointer, own));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("replaces a value in a finding of another object, quoted, and leaves texts without one as they are", () => {
    const secrets = [{ file: "s.yaml", index: 0, apiVersion: "v1", kind: "Secret", object: { stringData: { password: "hunter2-PLAINTEXT" } } }];
    const finding = (message: string) => ({ severity: "error" as const, path: "/spec/x", message, rule: "schema:type" });
    const results = [{ file: "d.yaml", index: 0, apiVersion: "v1", kind: "ConfigMap", name: "c", namespace: "", status: "invalid" as const, findings: [finding('must be "hunter2-PLAINTEXT"'), finding("nothing secret")] }];
    const [r] = redactResults(secrets, results);
    expect(r?.findings.map((f) => f.message)).toEqual(['must be "<redacted: 17 bytes>"', "nothing secret"]);
    expect(r?.findings[1]).toBe(results[0]?.findings[1]);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonErrorOffset, jsonSyntaxMessage } from "./json-position.ts";
import { loadDocuments } from "./reader.ts";

const messageOf = (text: string) => {
  try {
    JSON.parse(text);
  } catch (err) {
    return jsonSyntaxMessage(text, err as Error);
  }
  throw new Error("parsed");
};

describe("IAM JSON syntax errors", () => {
  it("name the line and column of the rendered/iam file, not a character offset", () => {
    const dir = mkdtempSync(join(tmpdir(), "json-position-"));
    try {
      mkdirSync(join(dir, "rendered", "iam"), { recursive: true });
      writeFileSync(join(dir, "rendered", "iam", "Role.trust-policy.json"), '{\n  "Version": "2012-10-17",\n  "Statement": [\n    { "Effect": "Allow" }\n  ],\n}\n');
      const loaded = loadDocuments([dir], { cwd: dir });
      expect(loaded.unreadable.map((u) => [u.file, u.findings[0]?.rule, u.findings[0]?.message])).toEqual([
        ["rendered/iam/Role.trust-policy.json", "parse:syntax", "invalid JSON at line 6, column 1: Expected double-quoted property name"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts columns in characters from 1, also after CRLF line ends and on the first line", () => {
    expect(messageOf('{"a" 1}')).toBe("invalid JSON at line 1, column 6: Expected ':' after property name");
    expect(messageOf('{\r\n"a":\r\n tru}')).toBe("invalid JSON at line 3, column 5: Unexpected token '}'");
    expect(messageOf("[1,\n  2")).toBe("invalid JSON at line 2, column 4: Expected ',' or ']' after array element");
  });

  it("puts the end of the text for an input that ends too early", () => {
    expect(messageOf('{\n  "a": [1,')).toBe("invalid JSON at line 2, column 11: Unexpected end of JSON input");
    expect(messageOf("")).toBe("invalid JSON at line 1, column 1: Unexpected end of JSON input");
  });
});

describe("jsonErrorOffset", () => {
  it("finds the offset V8 reports, for every one-character deletion and insertion in a policy", () => {
    const doc = JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:Get*"], Resource: "*", Condition: { NumericLessThan: { "aws:x": -1.5e3 } }, Flag: true, None: null }] }, null, 1);
    let compared = 0;
    for (let i = 0; i < doc.length; i++) {
      for (const text of [doc.slice(0, i) + doc.slice(i + 1), `${doc.slice(0, i)}@${doc.slice(i)}`]) {
        let message = "";
        try {
          JSON.parse(text);
          continue;
        } catch (err) {
          message = (err as Error).message;
        }
        const at = /at position (\d+)/.exec(message);
        if (!at) continue;
        expect({ text, offset: jsonErrorOffset(text) }).toEqual({ text, offset: Number(at[1]) });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});

// Go's base64 error offsets (answers of go1.25 encoding/base64 StdEncoding.DecodeString for the same inputs).
import { describe, expect, it } from "vitest";
import { base64ErrorOffset } from "./base64.ts";

describe("base64ErrorOffset", () => {
  it.each([
    ["cGFzc3dvcmQ=", undefined],
    ["eA==", undefined],
    ["", undefined],
    ["eA==\n", undefined],
    ["abc", 0],
    ["not base64!", 3],
    ["eA=", 3],
    ["e===", 1],
    ["eA==x", 4],
    ["eA=x", 2],
    ["ab\ncd", undefined],
  ])("%j -> %s", (text, offset) => {
    expect(base64ErrorOffset(text)).toBe(offset);
  });
});

// FAST_CORE_SCHEMA must read every document exactly as js-yaml's CORE_SCHEMA does.
import { CORE_SCHEMA, load, loadAll } from "js-yaml";
import { describe, expect, it } from "vitest";
import { FAST_CORE_SCHEMA } from "./yaml-schema.ts";

const same = (text: string) => {
  let core: unknown;
  let coreError: string | undefined;
  try {
    core = loadAll(text, undefined, { schema: CORE_SCHEMA });
  } catch (err) {
    coreError = (err as Error).message;
  }
  if (coreError !== undefined) expect(() => loadAll(text, undefined, { schema: FAST_CORE_SCHEMA })).toThrow();
  else expect(loadAll(text, undefined, { schema: FAST_CORE_SCHEMA })).toEqual(core);
};

const TRICKY = [
  "", "~", "null", "Null", "NULL", "nULL", "true", "True", "TRUE", "tRUE", "false", "False", "no", "yes", "on", "off", "y", "n",
  "0", "-0", "+0", "007", "0x1F", "0X1f", "0o17", "0b101", "1_000", "+12", "-12", "1e3", "1E+3", "-1.5e-3", ".5", "-.5", "+.5",
  ".inf", "-.inf", "+.Inf", ".INF", ".nan", ".NaN", ".NAN", "1.", "1.0", "12:30", "0.1.2", "4Gi", "100m", "v1", "-", "+", ".",
  "karpenter.sh/capacity-type", "nginx:1.27", "é", "０", "٣", "Infinity", "NaN", "0x", "1__0", "_1", "1e", "true ", "1 ",
];

describe("FAST_CORE_SCHEMA", () => {
  it("resolves plain scalars exactly like CORE_SCHEMA, including tricky ones", () => {
    for (const s of TRICKY) {
      same(`v: ${s}\n`);
      same(`${s === "" ? "k" : s}: x\n`);
      same(`- ${s}\n- "${s}"\n- '${s}'\n`);
    }
  });

  it("agrees on random scalars built from the characters that matter", () => {
    const alphabet = "0123456789+-._eExXoObBinfINFaAlsStTrRuUeNn~:. ";
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 5000; i++) {
      let s = "";
      const len = 1 + rand(6);
      for (let j = 0; j < len; j++) s += alphabet[rand(alphabet.length)];
      same(`v: ${s.trim() || "x"}\n`);
    }
  });

  it("keeps explicit core tags and rejects what CORE_SCHEMA rejects", () => {
    expect(load("a: !!int '12'\nb: !!float '1.5'\nc: !!bool 'true'\nd: !!null '~'\ne: !!str 12\n", { schema: FAST_CORE_SCHEMA })).toEqual({ a: 12, b: 1.5, c: true, d: null, e: "12" });
    same("d: !!null ''\n");
    same("a: !!int 'x'\n");
    same("a: !!timestamp 2001-12-14\n");
    same("<<: {a: 1}\nb: 2\n");
  });
});

// Plain YAML scalars resolved as kubectl sends them: sigs.k8s.io/yaml decodes with go.yaml.in/yaml/v2, which follows
// YAML 1.1 (resolve.go): `yes`/`no`/`on`/`off`/`y`/`n` are booleans, `0755` is octal (493), `012345678901` a float,
// `1_000` is 1000, `2024-01-02` a timestamp sent as "2024-01-02T00:00:00Z". A YAML 1.2 parser reads these as
// strings or other numbers, so a file would validate differently from what the API server receives.
// Our own implementation of those rules (read from go.yaml.in/yaml/v2@v2.4.3 resolve.go), for js-yaml and `yaml`.
import * as jsYaml from "js-yaml";
import { FAILSAFE_SCHEMA, type Schema, Type } from "js-yaml";

const BOOL_NULL_FLOAT = new Map<string, unknown>();
for (const s of ["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]) BOOL_NULL_FLOAT.set(s, true);
for (const s of ["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"]) BOOL_NULL_FLOAT.set(s, false);
for (const s of ["", "~", "null", "Null", "NULL"]) BOOL_NULL_FLOAT.set(s, null);
for (const s of [".nan", ".NaN", ".NAN"]) BOOL_NULL_FLOAT.set(s, Number.NaN);
for (const s of [".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"]) BOOL_NULL_FLOAT.set(s, Number.POSITIVE_INFINITY);
for (const s of ["-.inf", "-.Inf", "-.INF"]) BOOL_NULL_FLOAT.set(s, Number.NEGATIVE_INFINITY);

/** First characters go-yaml looks at further (its resolveTable): signs, digits, `.`, and the first letters of the words above. */
const MAY_RESOLVE = new Uint8Array(128);
for (const c of "+-0123456789.yYnNtTfFoO~") MAY_RESOLVE[c.charCodeAt(0)] = 1;

// strconv.ParseInt(s, 0, 64): Go integer literal syntax (prefixes 0x, 0o, 0b, and a leading 0 for octal)
const GO_INT = /^([-+]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]?([0-7]+)|0[bB]([01]+)|([1-9][0-9]*|0))$/;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})|[ ](\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?)$/;

const pad = (n: string | number, w = 2) => String(n).padStart(w, "0");

/** go-yaml's timestamp formats, printed as encoding/json prints a time.Time (RFC 3339, fraction trimmed). */
export function timestamp(s: string): string | undefined {
  const d = DATE.exec(s) ?? DATE_TIME.exec(s);
  if (!d) return undefined;
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const [h, m, sec] = [d[4] ?? d[9] ?? "0", d[5] ?? d[10] ?? "0", d[6] ?? d[11] ?? "0"].map(Number) as [number, number, number];
  if (h > 23 || m > 59 || sec > 59) return undefined;
  const fraction = (d[7] ?? d[12] ?? "").slice(0, 10).replace(/0+$/, "");
  const zone = d[8] === undefined || d[8] === "Z" || d[8] === "+00:00" || d[8] === "-00:00" ? "Z" : d[8];
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(h)}:${pad(m)}:${pad(sec)}${fraction === "." ? "" : fraction}${zone}`;
}

// go-yaml's fast cases, answered before the general rules below (issue 19: resolve is asked for every plain
// scalar, keys included): words longer than the longest of BOOL_NULL_FLOAT's, and decimal integers short
// enough to be exact as a double (what BigInt then Number would give; `-0` is 0 there too)
const LONGEST_WORD = Math.max(...[...BOOL_NULL_FLOAT.keys()].map((w) => w.length));
const SHORT_DECIMAL = /^[-+]?(?:0|[1-9][0-9]{0,14})$/;
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;

/** Whether a character can end an integer or float literal (a hex digit, or `.` as in `1.`). */
const mayEndNumber = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46) || c === 0x2e;

/** The value kubectl sends for a plain (unquoted, untagged) scalar. Strings it would keep come back unchanged. */
export function resolveYaml11(s: string): unknown {
  if (s.length === 0) return null;
  const c = s.charCodeAt(0);
  if (c >= 128 || MAY_RESOLVE[c] === 0) return s;
  if (s.length <= LONGEST_WORD) {
    const word = BOOL_NULL_FLOAT.get(s);
    if (word !== undefined) return word;
  }
  if (c === 0x2e) return DOT_FLOAT.test(s) ? Number(s) : s;
  if (c !== 0x2b && c !== 0x2d && (c < 0x30 || c > 0x39)) return s;
  if (SHORT_DECIMAL.test(s)) return Number(s) + 0;
  // both timestamp forms start with four digits and `-`
  if (s.length >= 8 && s.charCodeAt(4) === 0x2d) {
    const t = timestamp(s);
    if (t !== undefined) return t;
  }
  const plain = s.includes("_") ? s.replace(/_/g, "") : s;
  // `4Gi`, `100m`, `1:20`: no number ends so
  if (!mayEndNumber(plain.charCodeAt(plain.length - 1))) return s;
  const int = GO_INT.exec(plain);
  if (int) {
    const [, sign, hex, oct, bin, dec] = int;
    const digits = hex !== undefined ? `0x${hex}` : oct !== undefined ? `0o${oct}` : bin !== undefined ? `0b${bin}` : (dec as string);
    const abs = BigInt(digits);
    const v = sign === "-" ? -abs : abs;
    // ParseInt (int64), then ParseUint (no sign allowed) up to 2^64-1
    if (v >= INT64_MIN && (v < 2n ** 63n || (sign === "" && v <= UINT64_MAX))) return Number(v);
  }
  if (YAML_STYLE_FLOAT.test(plain)) return Number(plain);
  return s;
}

/**
 * Whether kubectl reads this plain scalar as something else than its text: a boolean, null or number. YAML 1.2
 * parsers differ from it on `yes`/`no`/`on`/`off`/`y`/`n` and on leading-zero numbers.
 */
export const isYaml11NonString = (s: string): boolean => typeof resolveYaml11(s) !== "string";

// js-yaml calls construct() right after a successful resolve() of the same scalar
let resolved: unknown;

const yaml11Scalar = new Type("tag:yaml.org,2002:eks-gitops-yaml11-scalar", {
  kind: "scalar",
  resolve(data: string | null): boolean {
    const v = resolveYaml11(data ?? "");
    if (typeof v === "string" && v === (data ?? "")) return false;
    resolved = v;
    return true;
  },
  construct(): unknown {
    const v = resolved;
    resolved = undefined;
    return v;
  },
});

// js-yaml exports its built-in types at run time; @types/js-yaml does not declare them
const { types } = jsYaml as unknown as { types: Record<"null" | "bool" | "int" | "float" | "merge", Type> };

/**
 * js-yaml schema: plain scalars as kubectl resolves them, and YAML 1.1 merge keys (`<<: *defaults`, which
 * go-yaml v2 merges too); explicit `!!null`, `!!bool`, `!!int`, `!!float`, `!!str` tags work.
 */
export const YAML11_SCHEMA: Schema = FAILSAFE_SCHEMA.extend({ implicit: [yaml11Scalar, types.merge], explicit: [types.null, types.bool, types.int, types.float] });

/** The same rules as a custom tag of the `yaml` library (used where js-yaml cannot read a text). */
export const yaml11Tag = {
  default: true,
  tag: "tag:yaml.org,2002:eks-gitops-yaml11",
  test: /^(?:[-+.0-9~yYnNtTfFoO]|$)/,
  resolve: (s: string) => resolveYaml11(s),
};

const STRING_GOT_SCALAR = /must be of type (?:[a-z]+ or )*string(?: or [a-z]+)*, not (boolean|integer|number)$/;

/**
 * A type error where a string field got a boolean or number gets the hint to quote the value: kubectl sends
 * `yes`, `on`, `n`, `0755` or `1.10` unquoted as a boolean or number (YAML 1.1), whatever a YAML 1.2 editor shows.
 */
export function withQuoteHint<F extends { readonly rule: string; readonly message: string; readonly hint?: string }>(finding: F): F {
  if (finding.rule !== "schema:type" || finding.hint) return finding;
  const m = STRING_GOT_SCALAR.exec(finding.message);
  if (!m) return finding;
  return {
    ...finding,
    hint: `quote the value: kubectl reads YAML 1.1, where unquoted yes/no/on/off/y/n/true/false are booleans and 0755, 1_000 or 1.10 are numbers (write "${m[1] === "boolean" ? "yes" : "0755"}" in quotes)`,
  };
}

// resource.Quantity as the API server decodes, compares and prints it: parse errors are decode errors (HTTP 400),
// values are exact decimals rounded up to nano units, String() is the canonical form used in messages.
// After k8s.io/apimachinery@v0.36.5/pkg/api/resource/{quantity,suffix,amount}.go; hand-written (no JS library
// reproduces Go's suffixes, rounding and canonical form).

export type QuantityFormat = "DecimalExponent" | "BinarySI" | "DecimalSI";

/** An exact value `unscaled × 10^-scale` (scale ≤ 9 after rounding), its format, and the text Go keeps, if any. */
export interface Quantity {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
  /** Go keeps the input text as String() when it is already canonical enough (see ParseQuantity). */
  readonly text?: string;
}

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_NUMERIC_ERROR = "unable to parse numeric part of quantity";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

export class QuantityError extends Error {}

const SUFFIX_CHARS = "eEinumkKMGTP";
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

interface Parts {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** Go's parseQuantityString: sign, integer digits (leading zeros dropped), fraction, suffix. */
function splitQuantity(str: string): Parts {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end && (str[0] === "-" || str[0] === "+")) {
    positive = str[0] !== "-";
    pos++;
  }
  while (pos < end && str[pos] === "0") pos++;
  if (pos >= end) return { positive, value: "0", num: "0", denom: "", suffix: "" };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: "", suffix: "" };
  let num = str.slice(pos, i);
  pos = i;
  if (num.length === 0) num = "0";
  let denom = "";
  if (pos < end && str[pos] === ".") {
    pos++;
    let j = pos;
    while (j < end && isDigit(str[j])) j++;
    denom = str.slice(pos, j);
    if (j >= end) return { positive, value: str, num, denom, suffix: "" };
    pos = j;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  let k = pos;
  while (k < end && SUFFIX_CHARS.includes(str[k] as string)) k++;
  if (k >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  pos = k;
  if (str[pos] === "-" || str[pos] === "+") pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityError(QUANTITY_FORMAT_ERROR);
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

function interpretSuffix(s: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  const dec = DECIMAL_SUFFIXES[s];
  if (dec !== undefined) return { base: 10, exponent: dec, format: "DecimalSI" };
  const bin = BINARY_SUFFIXES[s];
  if (bin !== undefined) return { base: 2, exponent: bin, format: "BinarySI" };
  if (s.length > 1 && (s[0] === "e" || s[0] === "E") && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    const e = BigInt(s.slice(1));
    // Go parses an int64 and truncates it to int32
    if (e > 9223372036854775807n || e < -9223372036854775808n) throw new QuantityError(QUANTITY_SUFFIX_ERROR);
    return { base: 10, exponent: Number(BigInt.asIntN(32, e)), format: "DecimalExponent" };
  }
  throw new QuantityError(QUANTITY_SUFFIX_ERROR);
}

// the small powers (scales of real quantities) are made once: every quantity of every object asks for some
const POW10: readonly bigint[] = Array.from({ length: 64 }, (_, i) => 10n ** BigInt(i));
const pow10 = (n: number): bigint => (n >= 0 && n < 64 ? (POW10[n] as bigint) : 10n ** BigInt(n));
const MAX_INT64 = 9223372036854775807n;
const NANO = 9;

/** ParseQuantity; throws QuantityError with Go's message. */
export function parseQuantity(input: string): Quantity {
  const str = input;
  if (str.length === 0) throw new QuantityError(QUANTITY_FORMAT_ERROR);
  if (str === "0") return { unscaled: 0n, scale: 0, format: "DecimalSI", text: "0" };
  const { positive, num, denom, suffix } = splitQuantity(str);
  const { base, exponent, format: parsedFormat } = interpretSuffix(suffix);
  let format = parsedFormat;
  // Does Go keep the input text? (its int64 fast path, with its conditions)
  let text: string | undefined;
  const shifted = num + denom;
  if (format === "BinarySI") {
    if (exponent >= 0 && denom.length === 0) {
      const precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
      const v = BigInt(shifted);
      if (precision >= 0 && v <= MAX_INT64 && v << BigInt(exponent) <= MAX_INT64 && exponent % 10 === 0 && (v & 7n) !== 0n) text = str;
    }
  } else {
    const precision = 18 - (num.length + denom.length);
    const scale = exponent - denom.length;
    if (precision >= 0 && scale >= -NANO && shifted.length > 0 && BigInt(shifted) <= MAX_INT64) {
      if (((scale % 3) + 3) % 3 === 0 && !shifted.endsWith("000") && shifted[0] !== "0") text = str;
    }
  }
  // the exact value: digits × 10^-(len(denom)) × base^exponent
  let unscaled = BigInt(shifted);
  let scale = denom.length;
  if (base === 10) scale -= exponent;
  else unscaled <<= BigInt(exponent);
  if (scale < 0) {
    // keep huge exponents symbolic only as far as needed: 10^|scale| is exact but bounded by the input size
    unscaled *= pow10(Math.min(-scale, 4000));
    scale = 0;
  }
  if (scale > NANO) {
    // rounded up (away from zero) to nano units
    const div = pow10(scale - NANO);
    const q = unscaled / div;
    unscaled = unscaled % div === 0n ? q : q + 1n;
    scale = NANO;
  }
  if (format === "BinarySI" && unscaled > MAX_INT64 * pow10(scale)) {
    unscaled = MAX_INT64;
    scale = 0;
  }
  if (format === "BinarySI" && unscaled > 0n && unscaled < pow10(scale)) format = "DecimalSI";
  if (!positive) unscaled = -unscaled;
  return text === undefined ? { unscaled, scale, format } : { unscaled, scale, format, text };
}

/** Cmp: -1, 0, 1. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.unscaled * pow10(s - a.scale);
  const y = b.unscaled * pow10(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const quantitySign = (q: Quantity): number => (q.unscaled < 0n ? -1 : q.unscaled > 0n ? 1 : 0);

/** ScaledValue(scale): the value in units of 10^scale, its magnitude rounded up (Go's MilliValue is scaledValue(-3)). */
export function scaledValue(q: Quantity, unitScale: number): bigint {
  // value = unscaled × 10^-q.scale; in units of 10^unitScale: unscaled × 10^-(q.scale + unitScale)
  const shift = q.scale + unitScale;
  if (shift <= 0) return q.unscaled * pow10(-shift);
  const div = pow10(shift);
  const t = q.unscaled / div;
  // the magnitude is rounded up (Go: -1.5 has Value() -2)
  if (q.unscaled % div === 0n) return t;
  return q.unscaled < 0n ? t - 1n : t + 1n;
}

export const milliValue = (q: Quantity): bigint => scaledValue(q, -3);
export const quantityValue = (q: Quantity): bigint => scaledValue(q, 0);

function stripFactors(v: bigint, base: bigint): [bigint, number] {
  let times = 0;
  if (v === 0n) return [v, 0];
  while (v % base === 0n) {
    v /= base;
    times++;
  }
  return [v, times];
}

const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));

/** Quantity.String(): the kept input text, or the canonical form (CanonicalizeBytes). */
export function quantityString(q: Quantity): string {
  if (q.text !== undefined) return q.text;
  if (q.unscaled === 0n) return "0";
  let format = q.format;
  if (format === "BinarySI") {
    const one024 = 1024n * pow10(q.scale);
    const isInteger = q.unscaled % pow10(q.scale) === 0n;
    if ((q.unscaled > -one024 && q.unscaled < one024) || !isInteger) format = "DecimalSI";
  }
  if (format === "BinarySI") {
    const [amount, times] = stripFactors(q.unscaled / pow10(q.scale), 1024n);
    return `${amount}${BINARY_BY_EXPONENT.get(times * 10) ?? ""}`;
  }
  let [amount, times] = stripFactors(q.unscaled, 10n);
  let exponent = -q.scale + times;
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  const suffix = format === "DecimalExponent" ? (exponent === 0 ? "" : `e${exponent}`) : (DECIMAL_BY_EXPONENT.get(exponent) ?? "");
  return `${amount}${suffix}`;
}

// Manifests repeat the same few quantities ("100m", "128Mi"): parses are memoised (results are immutable).
const parsed = new Map<string, Quantity | QuantityError>();
const MAX_MEMO = 4096;

function parseMemo(text: string): Quantity {
  let q = parsed.get(text);
  if (q === undefined) {
    try {
      q = parseQuantity(text);
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      q = err;
    }
    if (parsed.size >= MAX_MEMO) parsed.clear();
    parsed.set(text, q);
  }
  if (q instanceof QuantityError) throw q;
  return q;
}

/** How UnmarshalJSON reads a quantity field: a JSON string (trimmed) or a JSON number's text. */
export function decodeQuantity(raw: unknown): Quantity {
  if (typeof raw === "string") return parseMemo(raw.trim());
  if (typeof raw === "number") return parseMemo(String(raw));
  throw new QuantityError(QUANTITY_FORMAT_ERROR);
}

/** The quantity at a field, or undefined when absent/not decodable (decode errors are reported elsewhere). */
export function readQuantity(raw: unknown): Quantity | undefined {
  if (raw === undefined || raw === null) return undefined;
  try {
    return decodeQuantity(raw);
  } catch (err) {
    if (err instanceof QuantityError) return undefined;
    throw err;
  }
}

// Go's time.ParseDuration and time.Time.MarshalBinary (after go1.26 src/time/format.go and time.go), for hashing
// durations and timestamps exactly as Karpenter's Go structs hold them. Our own code.

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["\u00b5s", 1_000n], // U+00B5 micro sign
  ["\u03bcs", 1_000n], // U+03BC Greek mu
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);

const MAX = 1n << 63n;
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/** time.ParseDuration: nanoseconds as int64, or an Error with Go's message. */
export function parseGoDuration(orig: string): bigint {
  let s = orig;
  let neg = false;
  const bad = () => new Error(`time: invalid duration ${JSON.stringify(orig)}`);
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") throw bad();
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigit(s[0]))) throw bad();
    // leadingInt
    let i = 0;
    let v = 0n;
    for (; i < s.length && isDigit(s[i]); i++) {
      if (v > (MAX - 1n) / 10n) throw bad();
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > MAX) throw bad();
    }
    const pre = i > 0;
    s = s.slice(i);
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === ".") {
      s = s.slice(1);
      // leadingFraction: digits past int64 precision are consumed but ignored.
      let j = 0;
      let overflow = false;
      for (; j < s.length && isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (MAX - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > MAX) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw bad();
    let u = 0;
    while (u < s.length && s[u] !== "." && !isDigit(s[u])) u++;
    if (u === 0) throw new Error(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const unitText = s.slice(0, u);
    s = s.slice(u);
    const unit = UNITS.get(unitText);
    if (unit === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unitText)} in duration ${JSON.stringify(orig)}`);
    if (v > MAX / unit) throw bad();
    v *= unit;
    if (f > 0n) {
      // Go: v += uint64(float64(f) * (float64(unit) / scale)), in float64 arithmetic like here.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX) throw bad();
    }
    d += v;
    if (d > MAX) throw bad();
  }
  if (neg) return -d;
  if (d > MAX - 1n) throw bad();
  return d;
}

/** Seconds from 0001-01-01 to 1970-01-01 (time.go unixToInternal). */
const UNIX_TO_INTERNAL = 62135596800n;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * time.Parse(time.RFC3339, s).Local().MarshalBinary() with the Local zone at offset 0 (not the UTC location, so the
 * zone offset is written as 0 minutes rather than -1): version 1, seconds since year 1 and nanoseconds big-endian.
 */
export function parseRfc3339(s: string): Uint8Array {
  const m = RFC3339.exec(s);
  if (!m) throw new Error(`parsing time ${JSON.stringify(s)} as RFC 3339`);
  const [, y, mo, d, h, mi, se, frac, sign, oh, om] = m;
  // Date.UTC maps years 0..99 to 19xx: such timestamps are refused rather than hashed wrong.
  if (Number(y) < 100) throw new Error(`parsing time ${JSON.stringify(s)}: years before 100 are not supported`);
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  if (Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(se) > 59) {
    throw new Error(`parsing time ${JSON.stringify(s)}: value out of range`);
  }
  let unix = BigInt(Math.floor(ms / 1000));
  if (sign) unix -= BigInt((sign === "-" ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60));
  const sec = unix + UNIX_TO_INTERNAL;
  const nsec = frac ? Number(frac.padEnd(9, "0")) : 0;
  const out = new Uint8Array(15);
  out[0] = 1;
  let x = BigInt.asUintN(64, sec);
  for (let i = 8; i >= 1; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  out[9] = (nsec >>> 24) & 0xff;
  out[10] = (nsec >>> 16) & 0xff;
  out[11] = (nsec >>> 8) & 0xff;
  out[12] = nsec & 0xff;
  out[13] = 0;
  out[14] = 0;
  return out;
}

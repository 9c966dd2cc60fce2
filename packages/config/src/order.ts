// One order for the text the product sorts and shows (files, findings, groups, discovered resources): a fixed
// collation, never the user's locale. String.prototype.localeCompare follows LANG / LC_ALL: under sv_SE
// "ä.yaml" sorts after "z.yaml", under en_US before it, so the same input gave a report in another order on
// another machine. "en" is the order CI (LANG=C, which Node reads as en-US) has always produced, so no committed
// output or expectation changes. One Intl.Collator, made once: localeCompare finds the locale's collator again on
// every call.
//
// The collators are made on first need only: creating the first one loads ICU's collation data, ~6 ms of every
// run (a one-file `validate` takes ~130 ms), and most comparisons never need it. Printable ASCII text (file names,
// rule ids, paths, IAM names) is compared here as the "en" collation compares it: each of those characters has a
// primary weight of its own, upper-case letters sharing the lower-case ones' (FAST_ORDER), so the first character
// whose weight differs decides; failing that the shorter string sorts first; failing that (the same letters, in
// another case) the first letter whose case differs, the lower-case one first. No library exposes ICU's weights;
// order.test.ts holds FAST_ORDER and both comparisons against Intl.Collator itself.

/** The printable ASCII characters but upper-case letters, in the "en" collation's order (of their primary weights). */
export const FAST_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz";

/** Each printable ASCII character's 1-based primary rank (an upper-case letter its lower-case letter's); 0 for others, which ICU compares. */
const RANK = new Uint8Array(128);
for (let i = 0; i < FAST_ORDER.length; i++) RANK[FAST_ORDER.charCodeAt(i)] = i + 1;
for (let upper = 0x41; upper <= 0x5a; upper++) RANK[upper] = RANK[upper + 0x20] as number;

let collator: Intl.Collator | undefined;
let numeric: Intl.Collator | undefined;

/** compareText by ICU, for text with a character the comparison below cannot weigh. */
function byCollator(a: string, b: string): number {
  collator ??= new Intl.Collator("en");
  return collator.compare(a, b);
}

/** Compares two strings in the product's one order (see above); a comparator for Array.prototype.sort. */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  // primary weights, up to the first that differs; every character up to there is printable ASCII, so no ICU
  // contraction or ignorable character can span it
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const rx = x < 128 ? (RANK[x] as number) : 0;
    const y = b.charCodeAt(i);
    const ry = y < 128 ? (RANK[y] as number) : 0;
    if (rx === 0 || ry === 0) return byCollator(a, b);
    if (rx !== ry) return rx < ry ? -1 : 1;
  }
  // one begins the other: the longer sorts after, when what it adds is printable ASCII (an ignorable character, such
  // as a control character, would leave the two equal)
  if (a.length !== b.length) {
    const longer = a.length > n ? a : b;
    for (let i = n; i < longer.length; i++) {
      const z = longer.charCodeAt(i);
      if (z >= 128 || RANK[z] === 0) return byCollator(a, b);
    }
    return a.length > b.length ? 1 : -1;
  }
  // the same letters: the first that differs in case, the lower-case one first (its code is the larger)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x > y ? -1 : 1;
  }
  return 0;
}

/** A dotted version (`1.36.10`): numbers without leading zeros, short enough to be read exactly. */
const VERSION = /^(?:0|[1-9][0-9]{0,14})(?:\.(?:0|[1-9][0-9]{0,14}))*$/;

/** compareText with runs of digits compared as numbers ("1.36.10" after "1.36.9"): for versions of pinned files. */
export function compareNumeric(a: string, b: string): number {
  if (!VERSION.test(a) || !VERSION.test(b)) {
    numeric ??= new Intl.Collator("en", { numeric: true });
    return numeric.compare(a, b);
  }
  // as the numeric collation reads two versions: number by number, then the one with fewer numbers first
  const x = a.split(".");
  const y = b.split(".");
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const p = Number(x[i]);
    const q = Number(y[i]);
    if (p !== q) return p < q ? -1 : 1;
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}

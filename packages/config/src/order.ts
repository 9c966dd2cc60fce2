// One order for the text the product sorts and shows (files, findings, groups, discovered resources): a fixed
// collation, never the user's locale. String.prototype.localeCompare follows LANG / LC_ALL: under sv_SE
// "ä.yaml" sorts after "z.yaml", under en_US before it, so the same input gave a report in another order on
// another machine. "en" is the order CI (LANG=C, which Node reads as en-US) has always produced, so no committed
// output or expectation changes. One Intl.Collator, made once: localeCompare finds the locale's collator again on
// every call.
const collator = new Intl.Collator("en");

/** Compares two strings in the product's one order (see above); a comparator for Array.prototype.sort. */
export const compareText = (a: string, b: string): number => collator.compare(a, b);

const numeric = new Intl.Collator("en", { numeric: true });

/** compareText with runs of digits compared as numbers ("1.36.10" after "1.36.9"): for versions of pinned files. */
export const compareNumeric = (a: string, b: string): number => numeric.compare(a, b);

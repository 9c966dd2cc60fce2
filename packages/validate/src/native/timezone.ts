// Time zone names as Go's time.LoadLocation resolves them (the API server embeds the IANA database), using the
// IANA database of Node's ICU. Go's lookup is case-sensitive, ICU's is not: a case variant of a zone is refused.
import { goQuote } from "./report.ts";

/** Go's LoadLocation error for `zone`, or undefined when it loads ("" and "UTC" are UTC, "Local" the local zone). */
export function loadLocationError(zone: string): string | undefined {
  if (zone === "" || zone === "UTC" || zone === "Local") return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return `unknown time zone ${zone}`;
  }
  if (resolved !== zone && resolved.toLowerCase() === zone.toLowerCase()) return `unknown time zone ${zone}`;
  return undefined;
}

export { goQuote };

// A failed CEL rule made readable: the offending value where the API server prints only its type
// (`Invalid value: "string"`), and for Karpenter's restricted label domains the nearest well-known key as a hint.
import { editDistance } from "../edit-distance.ts";

const MAX_VALUE = 80;

/** A scalar as field.Invalid prints a value: strings quoted (clipped), numbers and booleans bare. */
function shown(value: unknown): string | undefined {
  if (typeof value === "string") return JSON.stringify(value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE - 1)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return undefined;
}

/** The value at a JSON Pointer (a rule's fieldPath) below `self`. */
function at(self: unknown, pointer: string | undefined): unknown {
  if (!pointer) return self;
  let cur = self;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The string literals of a rule's source (`"karpenter.sh/capacity-type"`). */
function literals(rule: string): string[] {
  return [...rule.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1] ?? m[2] ?? "");
}

const domainOf = (key: string) => (key.includes("/") ? key.slice(0, key.indexOf("/")) : "");

/** The label keys of `value` a "label domain D is restricted" rule refuses: in domain D and not listed in the rule. */
function refusedKeys(value: unknown, domain: string, allowed: ReadonlySet<string>): string[] {
  const keys = typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : value && typeof value === "object" ? Object.keys(value) : [];
  return keys.filter((k) => domainOf(k).endsWith(domain) && !allowed.has(k));
}

export interface ReadableCel {
  readonly message: string;
  readonly hint?: string;
}

/**
 * `message` is the finding's text as the API server words it (`Invalid value: "string": <rule message>`);
 * `self` the value the rule ran on, `pointer` the rule's fieldPath below it, `rule` its source.
 */
export function readableCel(message: string, self: unknown, pointer: string | undefined, rule: string, type: string): ReadableCel {
  const value = at(self, pointer);
  const placeholder = `Invalid value: "${type}": `;
  const restricted = /label domain "([^"]+)" is restricted/.exec(message);
  if (restricted) {
    const domain = restricted[1] as string;
    const allowed = [...new Set(literals(rule).filter((l) => l.includes("/") && domainOf(l).endsWith(domain)))];
    const refused = refusedKeys(value, domain, new Set(allowed));
    const key = refused[0];
    if (key !== undefined) {
      const text = message.startsWith(placeholder) ? `Invalid value: ${shown(key)}: ${message.slice(placeholder.length)}` : message;
      return { message: text, hint: restrictedHint(key, domain, allowed) };
    }
  }
  const v = shown(value);
  if (v !== undefined && message.startsWith(placeholder)) return { message: `Invalid value: ${v}: ${message.slice(placeholder.length)}` };
  return { message };
}

function restrictedHint(key: string, domain: string, allowed: readonly string[]): string {
  // distance between the names after the domain: a typo in the name, not a different name
  const name = key.slice(key.indexOf("/") + 1);
  const nameOf = (k: string) => k.slice(k.indexOf("/") + 1);
  const ranked = allowed.map((k) => ({ k, d: editDistance(name, nameOf(k)) })).sort((a, b) => a.d - b.d || (a.k < b.k ? -1 : 1));
  const best = ranked[0];
  const own = `a label of your own needs a domain you own (e.g. example.com/${name})`;
  if (best === undefined) return `the ${domain} domain is reserved for Karpenter; ${own}`;
  const close = best.d <= Math.max(2, Math.floor(name.length / 5));
  const nearest = ranked.slice(0, 3).map((r) => r.k);
  return close
    ? `did you mean ${best.k}? The ${domain} domain allows only its ${allowed.length} well-known keys; ${own}`
    : `the ${domain} domain allows only its ${allowed.length} well-known keys (nearest: ${nearest.join(", ")}); ${own}`;
}

// Comparing policy documents as IAM does: key order, the order inside Action/Resource/Principal/Condition
// value lists, and "x" vs ["x"] do not matter; statement order is kept.

const SET_KEYS = new Set(["Action", "NotAction", "Resource", "NotResource"]);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const asSet = (v: unknown): string[] => [...new Set((Array.isArray(v) ? v : [v]).map(String))].sort();

function sortKeys(v: unknown): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
  }
  return v as Json;
}

function mapSorted(o: unknown, f: (v: unknown) => Json): Json {
  if (o === null || typeof o !== "object" || Array.isArray(o)) return sortKeys(o);
  const r = o as Record<string, unknown>;
  return Object.fromEntries(Object.keys(r).sort().map((k) => [k, f(r[k])]));
}

function normalizeStatement(s: unknown): Json {
  if (s === null || typeof s !== "object" || Array.isArray(s)) return sortKeys(s);
  const st = s as Record<string, unknown>;
  const out: Record<string, Json> = {};
  for (const k of Object.keys(st).sort()) {
    const v = st[k];
    if (SET_KEYS.has(k)) out[k] = asSet(v);
    else if (k === "Principal" || k === "NotPrincipal") out[k] = typeof v === "string" ? v : mapSorted(v, asSet);
    else if (k === "Condition") out[k] = mapSorted(v, (op) => mapSorted(op, asSet));
    else out[k] = sortKeys(v);
  }
  return out;
}

/** A canonical copy of a policy document (see the file comment for what is ignored). */
export function normalizePolicy(doc: unknown): Json {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return sortKeys(doc);
  const d = doc as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(d)
      .sort()
      .map((k) => {
        const v = d[k];
        if (k !== "Statement") return [k, sortKeys(v)];
        return [k, (Array.isArray(v) ? v : [v]).map(normalizeStatement)];
      }),
  );
}

/** True when two policy documents mean the same to IAM. */
export function samePolicy(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalizePolicy(a)) === JSON.stringify(normalizePolicy(b));
}

/** IAM returns documents URL-encoded; SQS returns plain JSON. */
export function parsePolicyText(text: string | undefined): unknown {
  if (text === undefined || text === "") return undefined;
  const plain = text.trimStart().startsWith("{") ? text : decodeURIComponent(text);
  return JSON.parse(plain);
}

// Type-guarded reads of decoded JSON: native checks run on objects whose types the schema stage may have
// already rejected, so every read tolerates any shape (a wrong type reads as absent).
export type Obj = Readonly<Record<string, unknown>>;

export const asObj = (v: unknown): Obj | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
export const asArr = (v: unknown): readonly unknown[] | undefined => (Array.isArray(v) ? v : undefined);
export const asStr = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const asNum = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
export const asBool = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);
/** A map of strings (labels, annotations, nodeSelector); non-string values are skipped. */
export function stringEntries(v: unknown): [string, string][] {
  const o = asObj(v);
  if (!o) return [];
  const out: [string, string][] = [];
  for (const k in o) {
    const x = o[k];
    if (typeof x === "string") out.push([k, x]);
  }
  return out;
}
// Most optional lists are absent: they share one empty answer (read-only, so no caller can change it for the others).
const NO_ITEMS: readonly (readonly [number, Obj])[] = Object.freeze([]);

/** Entries of a list that are objects, with their index. */
export function objItems(v: unknown): readonly (readonly [number, Obj])[] {
  const a = asArr(v);
  if (!a || a.length === 0) return NO_ITEMS;
  const out: [number, Obj][] = [];
  for (let i = 0; i < a.length; i++) {
    const o = asObj(a[i]);
    if (o) out.push([i, o]);
  }
  return out;
}

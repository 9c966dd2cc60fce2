// Built-in objects as Go decodes them: a JSON null becomes the field's zero value.
/**
 * Copy for built-in kinds: Go's decoder turns a JSON null into the field's zero value, so an object
 * property set to null is as good as absent.
 */
export function cloneWithoutNulls(v: unknown): unknown {
  // most objects have no null at all: then the object itself serves (nothing changes validated objects)
  if (!hasNullProperty(v)) return v;
  return copyWithoutNulls(v);
}

function hasNullProperty(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return false;
  if (Array.isArray(v)) return v.some(hasNullProperty);
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x === null || hasNullProperty(x)) return true;
  }
  return false;
}

function copyWithoutNulls(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return v.map(copyWithoutNulls);
  const out: Record<string, unknown> = {};
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== null) out[k] = copyWithoutNulls(x);
  }
  return out;
}

// Built-in objects as Go decodes them: a JSON null becomes the field's zero value.
/**
 * Copy for built-in kinds: Go's decoder turns a JSON null into the field's zero value, so an object
 * property set to null is as good as absent.
 */
export function cloneWithoutNulls(v: unknown): unknown {
  // most objects have no null at all: then the object itself serves (nothing changes validated objects)
  if (typeof v !== "object" || v === null || !hasNullProperty(v)) return v;
  return copyWithoutNulls(v);
}

// Called on every built-in object before its schema check. Scalars are tested before recursing (most values are
// strings and numbers: a call each would cost more than the test), and arrays by index, not with a callback.
function hasNullProperty(v: object): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === "object" && x !== null && hasNullProperty(x)) return true;
    }
    return false;
  }
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x === null) return true;
    if (typeof x === "object" && hasNullProperty(x)) return true;
  }
  return false;
}

function copyWithoutNulls(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return v.map(copyWithoutNulls);
  const out: Record<string, unknown> = {};
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x === null) continue;
    // `out.__proto__ = …` would set the copy's prototype, not copy the key (a manifest may hold one: the readers
    // keep it as an own property, and the schema check must then see it as an unknown field)
    if (k === "__proto__") Object.defineProperty(out, k, { value: copyWithoutNulls(x), enumerable: true, writable: true, configurable: true });
    else out[k] = copyWithoutNulls(x);
  }
  return out;
}

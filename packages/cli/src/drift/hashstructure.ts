// github.com/mitchellh/hashstructure/v2 v2.0.2 (hashstructure.go) over Go values decoded from JSON: FNV-1 64, FormatV2,
// with the options Karpenter passes (SlicesAsSets, IgnoreZeroValue, ZeroNil). Our own code after that file.
//
// Go values are described by a small type model (GoType) because the hash depends on Go's view of the object: struct
// type and field names, declaration order, pointer vs value, nil vs empty, int32 vs int64 widths and `hash:` tags.
import { type Quantity, QuantityError, decodeQuantity, quantityString } from "@eks-gitops/validate/quantity";
import { parseGoDuration, parseRfc3339 } from "./go-time.ts";

export type GoType =
  | { readonly kind: "string" }
  /** Signed integer of `bytes` width as binary.Write writes it (Go `int` is widened to int64 by the walker). */
  | { readonly kind: "int"; readonly bytes: 1 | 2 | 4 | 8 }
  | { readonly kind: "bool" }
  | { readonly kind: "ptr"; readonly elem: GoType }
  | { readonly kind: "slice"; readonly elem: GoType }
  | { readonly kind: "map"; readonly value: GoType }
  | { readonly kind: "struct"; readonly name: string; readonly fields: readonly GoField[] }
  /** time.Duration (int64 nanoseconds), inside metav1.Duration and NillableDuration. */
  | { readonly kind: "duration" }
  /** time.Time, hashed through MarshalBinary (inside metav1.Time). */
  | { readonly kind: "time" }
  /** metav1.Duration (struct Duration{Duration time.Duration}) read from a Go duration string. */
  | { readonly kind: "metaDuration" }
  /**
   * metav1.Time (struct Time{time.Time}) read from RFC 3339 text. Its UnmarshalJSON converts to the Local zone: the
   * hash is taken with Local = UTC, as in Karpenter's distroless image (no TZ).
   */
  | { readonly kind: "metaTime" }
  /** *resource.Quantity hashed through its String() (`hash:"string"`). */
  | { readonly kind: "quantity" }
  /** karpenter's NillableDuration: "Never" is the zero value, any other text a *time.Duration. */
  | { readonly kind: "nillableDuration" }
  /** A field the hash ignores: only whether Go would hold its zero value matters (for the parent's IsZero). */
  | { readonly kind: "opaque" };

export interface GoField {
  /** The Go field name (hashed as the field's key). */
  readonly go: string;
  /** The JSON key it is decoded from. */
  readonly json: string;
  readonly type: GoType;
  readonly tag?: "ignore" | "string";
}

export class GoDecodeError extends Error {
  override readonly name = "GoDecodeError";
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

/** A decoded Go value. `nil` pointers, slices and maps are `null`. */
type GoValue =
  | null
  | string
  | bigint
  | boolean
  | GoValue[]
  | Map<string, GoValue>
  | { readonly ptr: GoValue }
  | { readonly fields: ReadonlyMap<string, GoValue> }
  | { readonly time: Uint8Array }
  | { readonly quantity: Quantity }
  | { readonly opaque: boolean };

const INT_RANGE: Record<number, [bigint, bigint]> = {
  1: [-(2n ** 7n), 2n ** 7n - 1n],
  2: [-(2n ** 15n), 2n ** 15n - 1n],
  4: [-(2n ** 31n), 2n ** 31n - 1n],
  8: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** JSON -> Go value as sigs.k8s.io/json (case-sensitive keys, unknown keys dropped) decodes into the typed struct. */
export function decodeGo(json: unknown, type: GoType, path = ""): GoValue {
  switch (type.kind) {
    case "opaque":
      return { opaque: json !== undefined && json !== null && json !== "" && json !== false && json !== 0 };
    case "ptr":
      return json === null || json === undefined ? null : { ptr: decodeGo(json, type.elem, path) };
    case "slice":
      if (json === null || json === undefined) return null;
      if (!Array.isArray(json)) throw new GoDecodeError(path, "expected an array");
      return json.map((v, i) => decodeGo(v, type.elem, `${path}[${i}]`));
    case "map": {
      if (json === null || json === undefined) return null;
      if (typeof json !== "object" || Array.isArray(json)) throw new GoDecodeError(path, "expected an object");
      const m = new Map<string, GoValue>();
      for (const [k, v] of Object.entries(json as Record<string, unknown>)) m.set(k, v === null ? zeroOf(type.value) : decodeGo(v, type.value, `${path}.${k}`));
      return m;
    }
    case "struct": {
      if (json === null || json === undefined) return zeroOf(type);
      if (typeof json !== "object" || Array.isArray(json)) throw new GoDecodeError(path, "expected an object");
      const o = json as Record<string, unknown>;
      const fields = new Map<string, GoValue>();
      for (const f of type.fields) {
        const raw = Object.hasOwn(o, f.json) ? o[f.json] : undefined;
        fields.set(f.go, raw === undefined || (raw === null && f.type.kind !== "ptr" && f.type.kind !== "slice" && f.type.kind !== "map") ? zeroOf(f.type) : decodeGo(raw, f.type, `${path}.${f.json}`));
      }
      return { fields };
    }
    case "string":
      if (json === null || json === undefined) return "";
      if (typeof json !== "string") throw new GoDecodeError(path, "expected a string");
      return json;
    case "bool":
      if (json === null || json === undefined) return false;
      if (typeof json !== "boolean") throw new GoDecodeError(path, "expected a boolean");
      return json;
    case "int": {
      if (json === null || json === undefined) return 0n;
      const n = typeof json === "bigint" ? json : typeof json === "number" && Number.isInteger(json) ? BigInt(json) : undefined;
      const [lo, hi] = INT_RANGE[type.bytes]!;
      if (n === undefined || n < lo || n > hi) throw new GoDecodeError(path, `expected an integer of ${type.bytes * 8} bits`);
      return n;
    }
    case "duration":
    case "time":
      throw new GoDecodeError(path, `a bare ${type.kind} is never decoded from JSON`);
    case "metaDuration":
      if (typeof json !== "string") throw new GoDecodeError(path, "expected a duration string");
      return { fields: new Map<string, GoValue>([["Duration", wrap(() => parseGoDuration(json), path)]]) };
    case "nillableDuration": {
      if (typeof json !== "string") throw new GoDecodeError(path, "expected a duration string");
      if (json === "Never") return zeroOf(type);
      return { fields: new Map<string, GoValue>([["Duration", { ptr: wrap(() => parseGoDuration(json), path) }], ["Raw", { opaque: true }]]) };
    }
    case "metaTime":
      if (typeof json !== "string") throw new GoDecodeError(path, "expected an RFC 3339 time");
      return { fields: new Map<string, GoValue>([["Time", { time: wrap(() => parseRfc3339(json), path) }]]) };
    case "quantity":
      try {
        return { quantity: decodeQuantity(json) };
      } catch (e) {
        if (e instanceof QuantityError) throw new GoDecodeError(path, e.message);
        throw e;
      }
  }
}

function wrap<T>(f: () => T, path: string): T {
  try {
    return f();
  } catch (e) {
    throw new GoDecodeError(path, (e as Error).message);
  }
}

function zeroOf(type: GoType): GoValue {
  switch (type.kind) {
    case "string":
      return "";
    case "int":
      return 0n;
    case "bool":
      return false;
    case "struct":
      return { fields: new Map(type.fields.map((f) => [f.go, zeroOf(f.type)])) };
    case "nillableDuration":
      return { fields: new Map<string, GoValue>([["Duration", null], ["Raw", { opaque: false }]]) };
    case "opaque":
      return { opaque: false };
    case "duration":
      return 0n;
    case "metaDuration":
      return { fields: new Map<string, GoValue>([["Duration", 0n]]) };
    case "metaTime":
      return { fields: new Map<string, GoValue>([["Time", null]]) };
    default:
      // ptr, slice, map; time and quantity only occur behind pointers here.
      return null;
  }
}

/** reflect.Value.IsZero. */
function isZero(v: GoValue): boolean {
  if (v === null) return true;
  if (typeof v === "string") return v === "";
  if (typeof v === "bigint") return v === 0n;
  if (typeof v === "boolean") return !v;
  if (Array.isArray(v) || v instanceof Map) return false; // non-nil, even when empty
  if ("ptr" in v) return false;
  if ("opaque" in v) return !v.opaque;
  if ("fields" in v) return [...v.fields.values()].every(isZero);
  if ("time" in v) return false;
  return false;
}

// FNV-1 64 (hash/fnv New64), the walker's default hasher.
const OFFSET = 14695981039346656037n;
const PRIME = 1099511628211n;
const MASK = (1n << 64n) - 1n;

function fnv(bytes: Uint8Array): bigint {
  let h = OFFSET;
  for (const b of bytes) h = ((h * PRIME) & MASK) ^ BigInt(b);
  return h;
}

function le(n: bigint, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let x = BigInt.asUintN(bytes * 8, n);
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

const encoder = new TextEncoder();
const hashString = (s: string) => fnv(encoder.encode(s));

function updateOrdered(a: bigint, b: bigint): bigint {
  const buf = new Uint8Array(16);
  buf.set(le(a, 8), 0);
  buf.set(le(b, 8), 8);
  return fnv(buf);
}

const finishUnordered = (a: bigint) => fnv(le(a, 8));

/** walker.visit with SlicesAsSets, IgnoreZeroValue and ZeroNil, FormatV2. */
export function visitGo(v: GoValue, type: GoType): bigint {
  switch (type.kind) {
    case "ptr":
      // ZeroNil: a nil pointer hashes as the zero value of its element type.
      return visitGo(v === null ? zeroOf(type.elem) : (v as { ptr: GoValue }).ptr, type.elem);
    case "string":
      return hashString(v as string);
    case "int":
    case "duration":
      return fnv(le(v as bigint, type.kind === "duration" ? 8 : type.bytes));
    case "bool":
      return fnv(le(v ? 1n : 0n, 1));
    case "time":
      return fnv((v as { time: Uint8Array }).time);
    case "quantity":
      return hashString(quantityString((v as { quantity: Quantity }).quantity));
    case "slice": {
      // SlicesAsSets: XOR of the elements, and (a quirk of v2.0.2) no hashFinishUnordered unless a `set` tag asked for it.
      let h = 0n;
      for (const e of (v as GoValue[] | null) ?? []) h ^= visitGo(e, type.elem);
      return h;
    }
    case "map": {
      let h = 0n;
      for (const [k, e] of (v as Map<string, GoValue> | null) ?? []) h ^= updateOrdered(hashString(k), visitGo(e, type.value));
      return finishUnordered(h);
    }
    case "nillableDuration":
      return visitStruct(v, NILLABLE_DURATION);
    case "metaDuration":
      return visitStruct(v, META_DURATION);
    case "metaTime":
      return visitStruct(v, META_TIME);
    case "struct":
      return visitStruct(v, type);
    case "opaque":
      throw new Error("an ignored field is never hashed");
  }
}

const NILLABLE_DURATION: GoType & { kind: "struct" } = {
  kind: "struct",
  name: "NillableDuration",
  fields: [
    { go: "Duration", json: "", type: { kind: "ptr", elem: { kind: "duration" } } },
    { go: "Raw", json: "", type: { kind: "opaque" }, tag: "ignore" },
  ],
};

const META_DURATION: GoType & { kind: "struct" } = { kind: "struct", name: "Duration", fields: [{ go: "Duration", json: "", type: { kind: "duration" } }] };
const META_TIME: GoType & { kind: "struct" } = { kind: "struct", name: "Time", fields: [{ go: "Time", json: "", type: { kind: "time" } }] };

function visitStruct(v: GoValue, type: GoType & { kind: "struct" }): bigint {
  const fields = (v as { fields: ReadonlyMap<string, GoValue> }).fields;
  let h = hashString(type.name);
  for (const f of type.fields) {
    if (f.tag === "ignore") continue;
    const value = fields.get(f.go) ?? null;
    if (isZero(value)) continue;
    const vh = visitGo(value, f.type);
    h = finishUnordered(h ^ updateOrdered(hashString(f.go), vh));
  }
  return h;
}

/** hashstructure.Hash of a list of values (`[]any{...}`): with SlicesAsSets, the XOR of the elements' hashes. */
export function hashList(items: readonly { value: GoValue; type: GoType }[]): bigint {
  let h = 0n;
  for (const i of items) h ^= visitGo(i.value, i.type);
  return h;
}

// Small helpers shared by the cross-object checks: safe field access, JSON Pointers, finding construction.
import type { CrossObjectFinding, ParsedResource, Severity } from "../types.ts";
import { CHECK_CODES, type CheckCodeName } from "./codes.ts";

export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at `keys` below `value`, or undefined when any step is missing or of the wrong type. */
export function dig(value: unknown, ...keys: (string | number)[]): unknown {
  let cur = value;
  for (const key of keys) {
    if (typeof key === "number") {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[key];
    } else {
      if (!isObject(cur)) return undefined;
      cur = cur[key];
    }
  }
  return cur;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function arr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** RFC 6901 JSON Pointer from path segments. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((s) => `/${String(s).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** The API group of an apiVersion (`apps/v1` -> `apps`, `v1` -> ""). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/** `Kind namespace/name` (or `Kind name` when cluster-scoped), as messages name objects. */
export function describe(r: Pick<ParsedResource, "kind" | "name" | "namespace">): string {
  return r.namespace ? `${r.kind} ${r.namespace}/${r.name}` : `${r.kind} ${r.name}`;
}

export function finding(
  at: { readonly file: string; readonly index: number; readonly pointer?: string },
  rule: CheckCodeName,
  path: string,
  message: string,
  severity: Severity = CHECK_CODES[rule].severity,
): CrossObjectFinding {
  return { file: at.file, index: at.index, ...(at.pointer ? { pointer: at.pointer } : {}), severity, path, message, rule, hint: CHECK_CODES[rule].hint };
}

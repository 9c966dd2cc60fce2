// Deterministic serialisation of rendered objects: canonical key order, stable file names, fixed YAML style.
import { stringify } from "yaml";
import { emitYaml, YAML_OPTIONS } from "./yaml-emit.ts";

const TOP_LEVEL_ORDER = ["apiVersion", "kind", "metadata"];

/** Copies a JSON value with object keys sorted (top level: apiVersion, kind, metadata first) and undefined dropped. */
export function canonicalize(value: unknown, topLevel = true): unknown {
  if (Array.isArray(value)) return value.map((v) => canonicalize(v, false));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const rank = (k: string) => (topLevel ? TOP_LEVEL_ORDER.indexOf(k) : -1);
  entries.sort(([a], [b]) => {
    const ra = rank(a);
    const rb = rank(b);
    if (ra !== -1 || rb !== -1) return (ra === -1 ? 99 : ra) - (rb === -1 ? 99 : rb);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return Object.fromEntries(entries.map(([k, v]) => [k, canonicalize(v, false)]));
}

export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}

/** `<group>_<version>_<kind>[_<namespace>]_<name>.yaml`; the core group is written `core`. */
export function objectFileName(o: ObjectIdentity): string {
  const [group, version] = o.apiVersion.includes("/") ? o.apiVersion.split("/") : ["core", o.apiVersion];
  const parts = [group, version, o.kind.toLowerCase(), ...(o.metadata.namespace ? [o.metadata.namespace] : []), o.metadata.name];
  return `${parts.join("_")}.yaml`;
}

/** One object as a YAML document with a provenance header. YAML 1.1 rules, as kubectl reads it: a string such as "on", "y" or "2024-01-02" is quoted, so it is never sent as a bool or a date. */
export function toYaml(o: unknown, header: string): string {
  const value = canonicalize(o);
  // the same bytes either way (yaml-emit.test.ts); the library for what the fast writer does not cover
  return `# ${header}\n${emitYaml(value) ?? stringify(value, YAML_OPTIONS)}`;
}

/** A JSON document, two-space indented, with a trailing newline. */
export function toJson(o: unknown): string {
  return `${JSON.stringify(o, null, 2)}\n`;
}

// compactForCrossObject(): the few fields of a resource the cross-object checks read, so a streaming run keeps
// facts, not whole objects, until every file has been seen.
import type { ParsedResource } from "../types.ts";
import { arr, dig, isObject, type JsonObject } from "./util.ts";

/** Copies `keys` of `from` that are present (values shared, not cloned: nothing changes parsed objects). */
function pick(from: unknown, keys: readonly string[]): Record<string, unknown> | undefined {
  if (!isObject(from)) return undefined;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const k of keys) {
    if (from[k] !== undefined) {
      out[k] = from[k];
      any = true;
    }
  }
  return any ? out : undefined;
}

/**
 * The projection of `object` that the checks of this folder read (hpa.ts, karpenter.ts, identity.ts,
 * overlay.ts, chart-values.ts). A check that starts reading another field must add it here; compact.test.ts
 * runs every check on whole and compacted resources and requires the same findings.
 */
export function compactObject(object: JsonObject, kind: string): JsonObject {
  const metadata = pick(object.metadata, ["name", "namespace"]);
  const out: Record<string, unknown> = { apiVersion: object.apiVersion, kind: object.kind };
  if (metadata) out.metadata = metadata;
  const spec = compactSpec(object, kind);
  if (spec !== undefined) out.spec = spec;
  return out;
}

/** The `spec` of compactObject(object, kind), or undefined when it has none. */
function compactSpec(object: JsonObject, kind: string): Record<string, unknown> | undefined {
  const spec = object.spec;
  if (!isObject(spec)) return undefined;
  let compact: Record<string, unknown> = {};
  switch (kind) {
    case "HorizontalPodAutoscaler":
      compact = { ...spec }; // scaleTargetRef and metrics: small
      break;
    case "NodePool": {
      const ref = dig(spec, "template", "spec", "nodeClassRef");
      if (ref !== undefined) compact.template = { spec: { nodeClassRef: ref } };
      const policy = dig(spec, "disruption", "consolidationPolicy");
      if (policy !== undefined) compact.disruption = { consolidationPolicy: policy };
      break;
    }
    case "EC2NodeClass":
      compact = pick(spec, ["role", "subnetSelectorTerms", "securityGroupSelectorTerms"]) ?? {};
      break;
    case "Application":
      compact = pick(spec, ["source", "sources", "destination"]) ?? {};
      break;
  }
  // any workload an HPA may target: its replicas and what each container requests
  if (spec.replicas !== undefined) compact.replicas = spec.replicas;
  const containers = dig(spec, "template", "spec", "containers");
  if (Array.isArray(containers) && compact.template === undefined) {
    compact.template = { spec: { containers: arr(containers).map((c) => pick(c, ["name", "resources"]) ?? {}) } };
  }
  return Object.keys(compact).length > 0 ? compact : undefined;
}

export function compactForCrossObject(r: ParsedResource): ParsedResource {
  return { file: r.file, index: r.index, ...(r.pointer ? { pointer: r.pointer } : {}), apiVersion: r.apiVersion, kind: r.kind, name: r.name, namespace: r.namespace, object: compactObject(r.object, r.kind) };
}

/** A resource's identity: what a run keeps of every document anyway (its result). */
export type Identity = Pick<ParsedResource, "file" | "index" | "pointer" | "apiVersion" | "kind" | "name" | "namespace">;

/**
 * What compactObject keeps that `identity` cannot give back: `{spec}` (or nothing, for the many objects the
 * checks read no spec of) when apiVersion, kind and metadata are the identity's own; else the whole compact
 * object (a list item that takes its type from the list, a name that is not a string...). restoreFact() turns it
 * back into what compactForCrossObject returns.
 */
export function factExtra(r: ParsedResource): { readonly spec?: unknown; readonly whole?: JsonObject } | undefined {
  const { object } = r;
  if (object.apiVersion !== r.apiVersion || object.kind !== r.kind || !sameMetadata(object.metadata, r)) return { whole: compactObject(object, r.kind) };
  const spec = compactSpec(object, r.kind);
  return spec === undefined ? undefined : { spec };
}

/**
 * Whether compactObject's `metadata` (the name and namespace `metadata` holds, when not undefined) is identityObject's
 * (the identity's name and namespace, when not ""), key for key. Compared in place: building both objects to
 * compare them was ~2 us of every object (crd-heavy 50,000: ~80 ms of the main thread, CPU profiles).
 */
function sameMetadata(metadata: unknown, r: Pick<ParsedResource, "name" | "namespace">): boolean {
  const name = isObject(metadata) ? metadata.name : undefined;
  const namespace = isObject(metadata) ? metadata.namespace : undefined;
  return (name === undefined ? r.name === "" : name === r.name && r.name !== "") && (namespace === undefined ? r.namespace === "" : namespace === r.namespace && r.namespace !== "");
}

/** compactForCrossObject(r), from r's identity and factExtra(r). */
export function restoreFact(identity: Identity, extra: ReturnType<typeof factExtra>): ParsedResource {
  const { file, index, pointer, apiVersion, kind, name, namespace } = identity;
  let object = extra?.whole;
  if (!object) {
    const out = identityObject(identity);
    if (extra?.spec !== undefined) out.spec = extra.spec;
    object = out;
  }
  return { file, index, ...(pointer ? { pointer } : {}), apiVersion, kind, name, namespace, object };
}

/** `{apiVersion, kind, metadata: {name, namespace}}` as compactObject makes it for an object whose identity this is. */
function identityObject(r: Pick<ParsedResource, "apiVersion" | "kind" | "name" | "namespace">): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: r.apiVersion, kind: r.kind };
  if (r.name !== "" || r.namespace !== "") out.metadata = { ...(r.name !== "" ? { name: r.name } : {}), ...(r.namespace !== "" ? { namespace: r.namespace } : {}) };
  return out;
}


/** Whether JSON text gives `value` back exactly (finite numbers other than -0, plain objects, no holes, no `__proto__` key). */
export function jsonExact(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !jsonExact(value[i])) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const k of Object.keys(value)) if (k === "__proto__" || !jsonExact((value as Record<string, unknown>)[k])) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A fact's extra (factExtra) as a JSON string when the text gives it back exactly: one flat string of its own
 * (~4x smaller than the small objects of a workload's containers and requests, and sharing nothing with the
 * text it was parsed from), else as it is. unpackExtra() gives it back. `flat: false` for a string that is posted
 * to another thread at once (the read-ahead worker's): the copy a MessagePort makes is flat already.
 */
export function packExtra(extra: NonNullable<ReturnType<typeof factExtra>>, flat = true): string | NonNullable<ReturnType<typeof factExtra>> {
  if (!jsonExact(extra)) return extra;
  // JSON.stringify's result is a tree of the pieces V8 built it from (a cons string: ~100 B more per fact than
  // its characters, measured on 100,000 workload facts of ~170 characters); read back from UTF-8 it is one flat
  // string. Exact: JSON.stringify writes lone surrogates as escapes, so the text is well-formed UTF-16.
  return flat ? Buffer.from(JSON.stringify(extra), "utf8").toString("utf8") : JSON.stringify(extra);
}

export function unpackExtra(packed: string | NonNullable<ReturnType<typeof factExtra>>): NonNullable<ReturnType<typeof factExtra>> {
  return typeof packed === "string" ? (JSON.parse(packed) as NonNullable<ReturnType<typeof factExtra>>) : packed;
}

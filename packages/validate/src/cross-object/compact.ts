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
  const spec = object.spec;
  const out: Record<string, unknown> = { apiVersion: object.apiVersion, kind: object.kind };
  if (metadata) out.metadata = metadata;
  if (!isObject(spec)) return out;
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
  if (Object.keys(compact).length > 0) out.spec = compact;
  return out;
}

export function compactForCrossObject(r: ParsedResource): ParsedResource {
  return { file: r.file, index: r.index, ...(r.pointer ? { pointer: r.pointer } : {}), apiVersion: r.apiVersion, kind: r.kind, name: r.name, namespace: r.namespace, object: compactObject(r.object, r.kind) };
}

// HPA checks: the scale target exists, requests what Utilization metrics divide by, and leaves replicas to the HPA.
import type { CrossObjectFinding, ParsedResource } from "../types.ts";
import { arr, describe, dig, finding, groupOf, isObject, pointer, str } from "./util.ts";

/** Kinds whose pod template sits at spec.template (where requests are read). */
const POD_TEMPLATE_KINDS = new Set(["apps/Deployment", "apps/StatefulSet", "apps/ReplicaSet"]);

interface UtilizationMetric {
  /** `cpu`, `memory`, ... */
  readonly resource: string;
  /** A ContainerResource metric names one container; a Resource metric covers them all. */
  readonly container: string | undefined;
  /** Where it is declared, for the message (`spec.metrics[0]`, or the default). */
  readonly declared: string;
}

/**
 * `partial`: the files are not a whole overlay (loose files given on the command line), so a missing target
 * is not an error: the run may not hold it. It is handed to `notChecked` instead (said once, in the summary).
 */
export function hpaChecks(resources: readonly ParsedResource[], partial = false, notChecked?: (what: string) => void): CrossObjectFinding[] {
  const out: CrossObjectFinding[] = [];
  const byKey = new Map<string, ParsedResource>();
  for (const r of resources) {
    const k = resourceKey(r);
    if (!byKey.has(k)) byKey.set(k, r);
  }
  for (const hpa of resources) {
    if (!isHpa(hpa)) continue;
    const ref = hpaTarget(hpa);
    if (!ref) continue; // structurally invalid: the schema check reports it
    const { kind, name, group, namespace } = ref;
    const target = byKey.get(ref.key);
    if (!target) {
      if (partial) {
        notChecked?.(`${describe(hpa)} -> ${kind} ${namespace}/${name}`);
        continue;
      }
      out.push(
        finding(
          hpa,
          "hpa-target-missing",
          "/spec/scaleTargetRef/name",
          `${describe(hpa)} scales ${kind} ${name} (group '${group || "core"}') in namespace ${namespace}, which is not among the rendered resources`,
        ),
      );
      continue;
    }
    if (dig(target.object, "spec", "replicas") !== undefined) {
      out.push(
        finding(
          target,
          "hpa-target-sets-replicas",
          "/spec/replicas",
          `${describe(target)} sets spec.replicas (${JSON.stringify(dig(target.object, "spec", "replicas"))}) but ${describe(hpa)} owns its replica count`,
        ),
      );
    }
    if (!POD_TEMPLATE_KINDS.has(`${group}/${kind}`)) continue;
    const containers = arr(dig(target.object, "spec", "template", "spec", "containers"));
    for (const metric of utilizationMetrics(hpa.object)) {
      containers.forEach((c, i) => {
        const cname = str(dig(c, "name")) ?? `#${i}`;
        if (metric.container !== undefined && metric.container !== cname) return;
        // The API server defaults a missing request to the limit, so a limit alone is enough.
        const requested = dig(c, "resources", "requests", metric.resource) ?? dig(c, "resources", "limits", metric.resource);
        if (requested !== undefined) return;
        out.push(
          finding(
            target,
            "hpa-target-no-request",
            pointer("spec", "template", "spec", "containers", i, "resources", "requests", metric.resource),
            `container '${cname}' of ${describe(target)} has no ${metric.resource} request (nor a ${metric.resource} limit), but ${describe(hpa)} scales on ${metric.resource} utilization (${metric.declared})`,
          ),
        );
      });
      if (metric.container !== undefined && !containers.some((c) => str(dig(c, "name")) === metric.container)) {
        out.push(
          finding(
            hpa,
            "hpa-target-no-request",
            "/spec/metrics",
            `${describe(hpa)} scales on ${metric.resource} utilization of container '${metric.container}' (${metric.declared}), but ${describe(target)} has no such container`,
          ),
        );
      }
    }
  }
  return out;
}

const key = (group: string, kind: string, namespace: string, name: string) => `${group}/${kind}/${namespace || "default"}/${name}`;

/** What an HPA's scaleTargetRef is matched on: API group, kind, namespace (default: "default") and name. */
export const resourceKey = (r: Pick<ParsedResource, "apiVersion" | "kind" | "namespace" | "name">): string => key(groupOf(r.apiVersion), r.kind, r.namespace, r.name);

/** Whether hpaChecks reads `r` as an HPA. */
export const isHpa = (r: Pick<ParsedResource, "apiVersion" | "kind">): boolean => r.kind === "HorizontalPodAutoscaler" && groupOf(r.apiVersion) === "autoscaling";

/** The object an HPA scales, as resourceKey() gives its key (undefined: the reference is incomplete). */
export function hpaTarget(hpa: ParsedResource): { key: string; group: string; kind: string; namespace: string; name: string } | undefined {
  const ref = dig(hpa.object, "spec", "scaleTargetRef");
  const kind = str(dig(ref, "kind"));
  const name = str(dig(ref, "name"));
  if (!kind || !name) return undefined;
  const group = groupOf(str(dig(ref, "apiVersion")) ?? "");
  const namespace = hpa.namespace || "default";
  return { key: key(group, kind, namespace, name), group, kind, namespace, name };
}

/** The Utilization metrics of an autoscaling/v2 (or v1) HPA, with the API server's default when none is given. */
function utilizationMetrics(hpa: unknown): UtilizationMetric[] {
  const spec = dig(hpa, "spec");
  if (dig(spec, "targetCPUUtilizationPercentage") !== undefined) {
    return [{ resource: "cpu", container: undefined, declared: "spec.targetCPUUtilizationPercentage" }];
  }
  const metrics = arr(dig(spec, "metrics"));
  // autoscaling/v2 defaulting: no metrics means 80% average CPU utilization.
  if (metrics.length === 0) return [{ resource: "cpu", container: undefined, declared: "the default metric, 80% cpu, as spec.metrics is empty" }];
  const out: UtilizationMetric[] = [];
  metrics.forEach((m, i) => {
    if (!isObject(m)) return;
    const type = str(m.type);
    if (type === "Resource" && str(dig(m, "resource", "target", "type")) === "Utilization") {
      const resource = str(dig(m, "resource", "name"));
      if (resource) out.push({ resource, container: undefined, declared: `spec.metrics[${i}]` });
    } else if (type === "ContainerResource" && str(dig(m, "containerResource", "target", "type")) === "Utilization") {
      const resource = str(dig(m, "containerResource", "name"));
      const container = str(dig(m, "containerResource", "container"));
      if (resource && container) out.push({ resource, container, declared: `spec.metrics[${i}]` });
    }
  });
  return out;
}

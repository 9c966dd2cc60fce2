// kube-scheduler onto the existing nodes (managed node groups): taints, node selector and affinity, fit, scoring.
import type { Amounts } from "./instance-types.ts";
import type { NodeSelectorTerm, Taint, Toleration } from "./types.ts";

// ---------------------------------------------------------------------------------------------------------------
// Taints and node labels (kube-scheduler semantics: k8s.io/component-helpers/scheduling/corev1 and nodeaffinity)

export function tolerates(tolerations: readonly Toleration[], taint: Taint): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === "Exists") return t.key === undefined || t.key === "" || t.key === taint.key;
    return t.key === taint.key && (t.value ?? "") === (taint.value ?? "");
  });
}

/** The first NoSchedule / NoExecute taint the tolerations miss (PreferNoSchedule never blocks). */
export function untolerated(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  return taints.find((t) => t.effect !== "PreferNoSchedule" && !tolerates(tolerations, t));
}

/** The first taint of any effect the tolerations miss, as Karpenter checks NodePool taints; `tolerateSoft` adds its PreferNoSchedule relaxation. */
export function untoleratedByKarpenter(taints: readonly Taint[], tolerations: readonly Toleration[], tolerateSoft = false): Taint | undefined {
  return taints.find((t) => !(tolerateSoft && t.effect === "PreferNoSchedule") && !tolerates(tolerations, t));
}

export function taintText(t: Taint): string {
  return `${t.key}${t.value ? `=${t.value}` : ""}:${t.effect}`;
}

export function labelsMatch(labels: ReadonlyMap<string, string>, selector: Readonly<Record<string, string>>, affinity: readonly NodeSelectorTerm[] | undefined): boolean {
  for (const [k, v] of Object.entries(selector)) if (labels.get(k) !== v) return false;
  if (!affinity || affinity.length === 0) return true;
  return affinity.some((term) => {
    const exprs = term.matchExpressions ?? [];
    if (exprs.length === 0) return false;
    return exprs.every((e) => {
      const v = labels.get(e.key);
      const values = e.values ?? [];
      switch (e.operator) {
        case "In":
          return v !== undefined && values.includes(v);
        case "NotIn":
          return v === undefined || !values.includes(v);
        case "Exists":
          return v !== undefined;
        case "DoesNotExist":
          return v === undefined;
        default: {
          if (v === undefined || !/^[+-]?\d+$/.test(v) || !/^[+-]?\d+$/.test(values[0] ?? "")) return false;
          const n = Number(v);
          const bound = Number(values[0]);
          return e.operator === "Gt" ? n > bound : e.operator === "Lt" ? n < bound : e.operator === "Gte" ? n >= bound : n <= bound;
        }
      }
    });
  });
}

export function fitsIn(requested: Amounts, add: Amounts, allocatable: Amounts): boolean {
  for (const [name, n] of Object.entries(add)) {
    if ((requested[name] ?? 0) + n > (allocatable[name] ?? 0)) return false;
  }
  return true;
}

export function addInto(target: Amounts, add: Amounts): void {
  for (const [name, n] of Object.entries(add)) target[name] = (target[name] ?? 0) + n;
}

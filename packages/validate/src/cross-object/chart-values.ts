// Helm values of the Karpenter Application checked against the pinned chart's values.yaml: a key the chart
// does not have is ignored by Helm without a word (e.g. `settings.aws.clusterName`, removed in Karpenter 1.x),
// so the controller starts without the setting the overlay meant to give it.
import type { ChartValuesIndex } from "../catalog/charts.ts";
import { editDistance } from "../config-file.ts";
import type { CrossObjectFinding } from "../types.ts";
import type { KarpenterChartApp } from "./overlay.ts";
import { describe, finding, isObject, pointer } from "./util.ts";

/** Every path below `value` that ends in a non-map (or an empty map): what an unknown subtree sets. */
function leaves(value: unknown, path: readonly string[]): string[][] {
  if (!isObject(value) || Object.keys(value).length === 0) return [[...path]];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
}

/**
 * The chart key closest to an unknown one, in this order: a key with the same last name (a moved key, e.g.
 * `settings.aws.clusterName` → `settings.clusterName`); a sibling whose name contains the unknown one or is
 * contained in it (`spotToSpot` → `spotToSpotConsolidation`, `replica` → `replicas`); else the smallest edit
 * distance over the whole dotted path. Ties go to the smaller distance, then the name.
 */
export function closestKey(unknown: string, keys: Iterable<string>): string | undefined {
  const all = [...keys];
  const split = (k: string) => {
    const dot = k.lastIndexOf(".");
    return { parent: dot < 0 ? "" : k.slice(0, dot), name: k.slice(dot + 1).toLowerCase() };
  };
  const u = split(unknown);
  const tiers = [
    all.filter((k) => split(k).name === u.name),
    all.filter((k) => {
      const c = split(k);
      return c.parent === u.parent && (c.name.includes(u.name) || u.name.includes(c.name));
    }),
    all,
  ];
  const pool = tiers.find((t) => t.length > 0) ?? [];
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of pool) {
    const d = editDistance(unknown, k);
    if (d < bestDistance || (d === bestDistance && best !== undefined && k < best)) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Each key of the Application's helm values must exist in values.yaml of the chart version it installs.
 * `chartValues` holds the pinned values, keyed `chart@version`; a version without pinned values is a warning.
 */
export function chartValuesChecks(app: KarpenterChartApp, chartValues: ReadonlyMap<string, ChartValuesIndex>, fallbackVersion?: string): CrossObjectFinding[] {
  const version = (app.targetRevision ?? fallbackVersion)?.replace(/^v/, "");
  if (version === undefined) return [];
  const index = chartValues.get(`karpenter@${version}`);
  const versionPath = app.targetRevision !== undefined ? `${app.sourcePath}/targetRevision` : app.sourcePath;
  if (!index) {
    const pinned = [...chartValues.values()].filter((c) => c.chart === "karpenter").map((c) => c.version);
    return [
      finding(
        app.resource,
        "helm-values-unknown-key",
        versionPath,
        `${describe(app.resource)} installs Karpenter chart ${version}, whose values.yaml is not pinned (pinned: ${pinned.join(", ") || "none"}), so its helm values are not checked`,
        "warning",
      ),
    ];
  }
  const out: CrossObjectFinding[] = [];
  const visit = (value: unknown, path: string[]) => {
    if (!isObject(value)) return;
    for (const [key, sub] of Object.entries(value)) {
      const here = [...path, key];
      const dotted = here.join(".");
      const freeForm = index.keys.get(dotted);
      if (freeForm === true || Array.isArray(sub)) continue;
      if (freeForm === false) {
        visit(sub, here);
        continue;
      }
      for (const leaf of leaves(sub, here)) {
        const name = leaf.join(".");
        const hint = closestKey(name, index.keys.keys());
        out.push({
          ...finding(
            app.resource,
            "helm-values-unknown-key",
            `${app.valuesPath}${pointer(...leaf)}`,
            `${describe(app.resource)} sets helm value ${name}, which the Karpenter chart ${index.version} does not have (its values.yaml has no ${dotted}); Helm ignores it silently`,
          ),
          hint: hint ? `use ${hint} (the closest key of the chart's values.yaml), or remove ${name}` : `remove ${name}`,
        });
      }
    }
  };
  visit(app.values, []);
  return out;
}

// crossObjectChecks(): the checks no single-object validator can do, run per overlay over the whole rendered output.
import type { CrossObjectContext, CrossObjectFinding, CrossObjectRows, ParsedResource } from "../types.ts";
import type { ChartValuesIndex } from "../catalog/charts.ts";
import { chartValuesChecks } from "./chart-values.ts";
import { karpenterCompatibility } from "./compatibility.ts";
import { hpaChecks, hpaTarget, isHpa, resourceKey } from "./hpa.ts";
import { clusterNameChecks, passRoleChecks, serviceAccountChecks } from "./identity.ts";
import { deprecatedApiChecks, discoveryTagChecks, isRemovedApiVersion, nodeClassRefChecks, nodeClassRoleChecks } from "./karpenter.ts";
import { findKarpenterChartApps, groupByOverlay, type KarpenterChartApp, type OverlayFacts, readIamFacts } from "./overlay.ts";
import { describe, dig, finding, str } from "./util.ts";
import { compareText } from "@eks-gitops/config/order";

export { CHECK_CODES, type CheckCode, type CheckCodeName } from "./codes.ts";
export { KARPENTER_MIN_VERSION_FOR_KUBERNETES, karpenterCompatibility, kubernetesMinor } from "./compatibility.ts";
export { loadOverlayFacts } from "./facts.ts";
export { groupByOverlay, type OverlayFacts, overlayOf } from "./overlay.ts";

export interface CrossObjectOptions extends CrossObjectContext {
  /**
   * Facts from the overlays' cluster.ts, keyed by overlay name (`clusters/<name>/rendered/...`), "" for
   * files outside any overlay. Without them the cluster name is read from the Karpenter chart values and
   * the Kubernetes version is unknown (the compatibility check is then skipped).
   */
  readonly overlays?: Readonly<Record<string, OverlayFacts>>;
  /** The overlay a file belongs to (undefined or "" = none). @default `clusters/<name>/rendered/` in the file's path */
  readonly overlayOf?: (file: string) => string | undefined;
  /** Pinned chart values (catalog/charts.ts), keyed `chart@version`; without them the helm values are not checked. */
  readonly chartValues?: ReadonlyMap<string, ChartValuesIndex>;
}

/** Runs every cross-object check over each overlay of the run; findings are sorted by file, index, path. */
export function crossObjectChecks(resources: readonly ParsedResource[], context: CrossObjectOptions): CrossObjectFinding[] {
  const out: CrossObjectFinding[] = [];
  for (const group of groupByOverlay(resources, context.iam, context.overlayOf)) {
    const facts = context.overlays?.[group.name] ?? {};
    const iam = readIamFacts(group.iam);
    const apps = findKarpenterChartApps(group.resources);
    // The overlay is the source of truth for the name; otherwise the chart's settings (then the discovery check compares to it),
    // only when they name one cluster: loose files from several places may hold charts for different clusters.
    const chartNames = new Set(apps.map((a) => str(dig(a.values, "settings", "clusterName"))).filter((n) => n !== undefined));
    const clusterName = facts.clusterName ?? (chartNames.size === 1 ? [...chartNames][0] : undefined);

    const partial = group.name === "";
    out.push(...hpaChecks(group.resources, partial, context.notChecked));
    out.push(...nodeClassRefChecks(group.resources, partial, context.notChecked));
    out.push(...nodeClassRoleChecks(group.resources, iam));
    if (clusterName !== undefined) out.push(...discoveryTagChecks(group.resources, clusterName));
    for (const app of apps) {
      out.push(...clusterNameChecks(app, facts.clusterName));
      out.push(...serviceAccountChecks(app, iam));
      if (context.chartValues) out.push(...chartValuesChecks(app, context.chartValues, facts.karpenterVersion));
    }
    out.push(...passRoleChecks(iam));
    out.push(...compatibilityChecks(apps, facts));
    out.push(...deprecatedApiChecks(group.resources));
  }
  return out.sort((a, b) => compareText(a.file, b.file) || a.index - b.index || compareText(a.path, b.path) || compareText(a.rule, b.rule));
}

/** Kinds whose objects a check below reads beyond their identity (hpa.ts, karpenter.ts, overlay.ts). */
const READ_KINDS = new Set(["HorizontalPodAutoscaler", "NodePool", "EC2NodeClass", "Application"]);

/**
 * The resources crossObjectChecks needs, ascending (CrossObjectChecks.subjects): every HPA, NodePool,
 * EC2NodeClass and Argo CD Application, every object of a removed API version, and every object an HPA may
 * target (all that share an HPA target's group, kind, namespace and name, so hpaChecks still meets the first
 * one first). The rest can neither hold a finding nor change one: the checks read nothing else of any object
 * but which overlay its file is in (an overlay with no needed object has no finding either). A streaming run makes
 * only those objects again (on the 50,000-object bench corpus of ~20 kinds, 26% of them, most of them HPAs and
 * their targets; a real overlay has far fewer).
 * compact.test.ts requires the same findings with and without this selection.
 */
export function crossObjectSubjects(rows: CrossObjectRows): number[] {
  const picked = new Uint8Array(rows.size);
  const targets = new Set<string>();
  const targetNames = new Set<string>();
  for (let i = 0; i < rows.size; i++) {
    const kind = rows.kind(i);
    if (!READ_KINDS.has(kind) && !isRemovedApiVersion(rows.apiVersion(i))) continue;
    picked[i] = 1;
    if (kind !== "HorizontalPodAutoscaler" || !isHpa({ kind, apiVersion: rows.apiVersion(i) })) continue;
    const target = hpaTarget(rows.resource(i));
    if (!target) continue;
    targets.add(target.key);
    targetNames.add(target.name);
  }
  const out: number[] = [];
  for (let i = 0; i < rows.size; i++) {
    if (picked[i] === 1) out.push(i);
    // the name first: a key string is made only for an object named as a target
    else if (targets.size > 0 && targetNames.has(rows.name(i)) && targets.has(resourceKey({ apiVersion: rows.apiVersion(i), kind: rows.kind(i), namespace: rows.namespace(i), name: rows.name(i) }))) out.push(i);
  }
  return out;
}
crossObjectChecks.subjects = crossObjectSubjects;

function compatibilityChecks(apps: readonly KarpenterChartApp[], facts: OverlayFacts): CrossObjectFinding[] {
  const kubernetes = facts.kubernetesVersion;
  if (kubernetes === undefined) return [];
  const out: CrossObjectFinding[] = [];
  for (const app of apps) {
    // The rendered chart version is what Argo CD installs; the overlay's version is only a fallback.
    const version = app.targetRevision ?? facts.karpenterVersion;
    if (version === undefined) continue;
    const path = app.targetRevision !== undefined ? `${app.sourcePath}/targetRevision` : app.sourcePath;
    let result: ReturnType<typeof karpenterCompatibility>;
    try {
      result = karpenterCompatibility(kubernetes, version);
    } catch {
      out.push(finding(app.resource, "karpenter-unsupported-kubernetes", path, `${describe(app.resource)} installs Karpenter chart version '${version}', which is not a release version (x.y.z), so its support for Kubernetes ${kubernetes} cannot be checked`, "warning"));
      continue;
    }
    if (result.status === "unsupported") {
      out.push(
        finding(app.resource, "karpenter-unsupported-kubernetes", path, `${describe(app.resource)} installs Karpenter ${version}, but Kubernetes ${kubernetes} needs Karpenter >= ${result.minimum}`),
      );
    } else if (result.status === "unknown") {
      out.push(
        finding(
          app.resource,
          "karpenter-unsupported-kubernetes",
          path,
          `Kubernetes ${kubernetes} is not in the Karpenter compatibility table (known: ${result.known.join(", ")}), so Karpenter ${version} cannot be confirmed as supported`,
          "warning",
        ),
      );
    }
  }
  return out;
}

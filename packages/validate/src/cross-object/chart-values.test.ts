// Karpenter chart values checked against the pinned chart's values.yaml: which keys exist, which are free-form, and the hint.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_VALUES, type ChartValuesIndex, indexChartValues, loadChartValues } from "../catalog/charts.ts";
import type { ParsedResource } from "../types.ts";
import { chartValuesChecks, closestKey } from "./chart-values.ts";
import { findKarpenterChartApps } from "./overlay.ts";

let pinned: Map<string, ChartValuesIndex>;
const temps: string[] = [];
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
beforeAll(async () => {
  // the product's path (the cache, else EKS_GITOPS_MIRROR, else the pinned upstream URL; SHA-256 checked), into a
  // cache of this test's own: an index kept in the default cache would answer for indexChartValues otherwise
  pinned = await loadChartValues({ cacheDir: tempDir("chart-pinned-") });
});

const app = (values: Record<string, unknown>, targetRevision = "1.14.1"): ParsedResource => ({
  file: "karpenter.yaml",
  index: 0,
  apiVersion: "argoproj.io/v1alpha1",
  kind: "Application",
  name: "k",
  namespace: "argocd",
  object: { apiVersion: "argoproj.io/v1alpha1", kind: "Application", metadata: { name: "k", namespace: "argocd" }, spec: { source: { chart: "karpenter", targetRevision, helm: { valuesObject: values } } } },
});
const check = (values: Record<string, unknown>, targetRevision?: string) => chartValuesChecks(findKarpenterChartApps([app(values, targetRevision)])[0]!, pinned);

describe("loadChartValues", () => {
  it("is pinned like the CRDs: a mirror file with other bytes is refused, a verified one is cached by its hash", async () => {
    const pin = CHART_VALUES[0]!;
    const mirror = tempDir("chart-mirror-");
    const cacheDir = tempDir("chart-cache-");
    mkdirSync(dirname(join(mirror, pin.file.path)), { recursive: true });
    writeFileSync(join(mirror, pin.file.path), "settings:\n  aws: {}\n");
    await expect(loadChartValues({ mirror, cacheDir })).rejects.toThrow(`SHA-256 mismatch for ${mirror}/${pin.file.path}: expected ${pin.file.sha256}`);
    const index = await loadChartValues({ cacheDir });
    expect(existsSync(join(cacheDir, pin.file.sha256))).toBe(true);
    expect(index.get("karpenter@1.14.1")?.keys.get("settings.clusterName")).toBe(false);
  });
});

describe("loadChartValues' kept index", () => {
  it("keeps what it made of values.yaml beside the file: a later run reads the index alone, the same keys; a damaged index is made again", async () => {
    const pin = CHART_VALUES[0]!;
    const cacheDir = tempDir("chart-index-");
    const first = await loadChartValues({ cacheDir });
    const kept = readdirSync(join(cacheDir, "derived")).filter((f) => f.endsWith(".json"));
    expect(kept).toHaveLength(1);
    const keptFile = join(cacheDir, "derived", kept[0]!);
    // the values file gone (and no mirror to fetch it from): the kept index answers alone, with the same keys
    rmSync(join(cacheDir, pin.file.sha256));
    const again = await loadChartValues({ cacheDir, mirror: join(cacheDir, "no-mirror") });
    expect([...(again.get("karpenter@1.14.1")?.keys ?? [])]).toEqual([...(first.get("karpenter@1.14.1")?.keys ?? [])]);
    // damaged, made for something else (other bytes, another version of the indexing code: another id), or not an
    // index: not used; the file is fetched and indexed again
    const stored = JSON.parse(readFileSync(keptFile, "utf8")) as { id: string; value: unknown };
    for (const damaged of ["{", JSON.stringify({ ...stored, id: "0".repeat(64) }), JSON.stringify({ value: stored.value }), JSON.stringify({ ...stored, value: [["settings.x", "yes"]] })]) {
      writeFileSync(keptFile, damaged);
      rmSync(join(cacheDir, pin.file.sha256), { force: true });
      await expect(loadChartValues({ cacheDir, mirror: join(cacheDir, "no-mirror") })).rejects.toThrow(/cannot read/);
      const made = await loadChartValues({ cacheDir });
      expect([...(made.get("karpenter@1.14.1")?.keys ?? [])]).toEqual([...(first.get("karpenter@1.14.1")?.keys ?? [])]);
    }
  });
});

describe("indexChartValues", () => {
  it("derives free-form keys from the 1.14.1 values.yaml: empty maps, lists, empty values, and blocks documented as one value", () => {
    const keys = pinned.get("karpenter@1.14.1")?.keys;
    const freeForm = ["podAnnotations", "nodeSelector", "tolerations", "extraVolumes", "serviceAccount.annotations", "affinity", "strategy", "podSecurityContext", "controller.resources", "controller.env", "terminationGracePeriodSeconds", "serviceMonitor.sampleLimit"];
    for (const k of freeForm) expect([k, keys?.get(k)]).toEqual([k, true]);
    const listed = ["settings", "settings.featureGates", "controller", "controller.image", "serviceAccount", "podDisruptionBudget", "settings.clusterName", "replicas"];
    for (const k of listed) expect([k, keys?.get(k)]).toEqual([k, false]);
    expect(keys?.has("settings.aws")).toBe(false);
    expect(keys?.has("nodeSelector.kubernetes.io/os")).toBe(false);
  });

  it("reads the helm-docs convention from comments", () => {
    const text = "# -- one value\nblock:\n  a: 1\nsettings:\n  # -- documented\n  x: 1\n# -- documented as one, but its sub-keys too\nmixed:\n  # -- b\n  b: 2\n";
    expect([...indexChartValues("c", "1", text).keys]).toEqual([
      ["block", true],
      ["settings", false],
      ["settings.x", false],
      ["mixed", false],
      ["mixed.b", false],
    ]);
  });
});

describe("chartValuesChecks", () => {
  it("reports settings.aws.clusterName as a warning (Helm ignores it: nothing fails) with settings.clusterName as the hint", () => {
    expect(check({ settings: { aws: { clusterName: "eksworkshop", interruptionQueueName: "q" }, clusterName: "eksworkshop" } })).toEqual([
      {
        file: "karpenter.yaml",
        index: 0,
        severity: "warning",
        path: "/spec/source/helm/valuesObject/settings/aws/clusterName",
        message: "Application argocd/k sets helm value settings.aws.clusterName, which the Karpenter chart 1.14.1 does not have (its values.yaml has no settings.aws); Helm ignores it silently",
        rule: "helm-values-unknown-key",
        hint: "use settings.clusterName (the closest key of the chart's values.yaml), or remove settings.aws.clusterName",
      },
      {
        file: "karpenter.yaml",
        index: 0,
        severity: "warning",
        path: "/spec/source/helm/valuesObject/settings/aws/interruptionQueueName",
        message: "Application argocd/k sets helm value settings.aws.interruptionQueueName, which the Karpenter chart 1.14.1 does not have (its values.yaml has no settings.aws); Helm ignores it silently",
        rule: "helm-values-unknown-key",
        hint: "use settings.interruptionQueue (the closest key of the chart's values.yaml), or remove settings.aws.interruptionQueueName",
      },
    ]);
  });

  it("accepts any sub-keys of free-form values and any list, and checks the rest key by key", () => {
    expect(
      check({
        podAnnotations: { "example.com/a": "b" },
        nodeSelector: { team: "x" },
        tolerations: [{ key: "k", operator: "Exists" }],
        extraVolumes: [{ name: "v" }],
        serviceAccount: { annotations: { "eks.amazonaws.com/role-arn": "arn" }, name: "karpenter" },
        controller: { resources: { requests: { cpu: "1" } }, image: { tag: "1.14.1" } },
        settings: { clusterName: "c", featureGates: { spotToSpotConsolidation: true } },
      }),
    ).toEqual([]);
    expect(check({ settings: { featureGates: { spotToSpot: true } }, replica: 2 }).map((f) => [f.path, f.hint])).toEqual([
      ["/spec/source/helm/valuesObject/settings/featureGates/spotToSpot", "use settings.featureGates.spotToSpotConsolidation (the closest key of the chart's values.yaml), or remove settings.featureGates.spotToSpot"],
      ["/spec/source/helm/valuesObject/replica", "use replicas (the closest key of the chart's values.yaml), or remove replica"],
    ]);
  });

  it("warns when the chart version has no pinned values.yaml", () => {
    expect(check({ settings: { clusterName: "c" } }, "1.9.0")).toEqual([
      {
        file: "karpenter.yaml",
        index: 0,
        severity: "warning",
        path: "/spec/source/targetRevision",
        message: "Application argocd/k installs Karpenter chart 1.9.0, whose values.yaml is not pinned (pinned: 1.14.1), so its helm values are not checked",
        rule: "helm-values-unknown-key",
        hint: "use the chart's key (see the closest one named in the finding) or remove the value; Helm ignores keys the chart does not read",
      },
    ]);
  });

  it("prefers a key with the same last name (a moved key)", () => {
    expect(closestKey("settings.aws.clusterName", ["settings.clusterName", "settings.clusterCABundle", "clusterName2"])).toBe("settings.clusterName");
  });
});

// Pinned Helm chart values.yaml files (downloaded, SHA-256-checked, cached and mirrored like the CRDs), and
// what they say about which keys a chart has.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Document, Pair, YAMLMap } from "yaml";
import { readDerived, writeDerived } from "../derived-cache.ts";
import { yamlLib } from "../yaml-lib.ts";
import { CatalogError, defaultCacheDir, type FetchOptions, fetchPinned } from "./fetch.ts";
import type { PinnedFile } from "./pins.ts";

export interface PinnedChartValues {
  readonly chart: string;
  readonly version: string;
  readonly file: Pick<PinnedFile, "path" | "sha256">;
}

/**
 * The released 1.14.1 chart's values.yaml is the one of the release job's commit after the tag (the tag's copy
 * still says image tag 1.13.0; see ../shared/mirror/README.md), so it is pinned by that commit.
 */
export const CHART_VALUES: readonly PinnedChartValues[] = [
  {
    chart: "karpenter",
    version: "1.14.1",
    file: { path: "aws/karpenter-provider-aws/c88abbbad455186e69e30296c595e474123e9bc1/charts/karpenter/values.yaml", sha256: "38652eae97bec5bf709a394d1f4260398ed8c564f567927bb19fe46f7a6fa4ab" },
  },
];

/** The keys of a chart's values, as dotted paths (`settings.clusterName`). */
export interface ChartValuesIndex {
  readonly chart: string;
  readonly version: string;
  /** Every key of values.yaml; `true` when the key accepts any sub-keys (free-form), `false` when its sub-keys are listed. */
  readonly keys: ReadonlyMap<string, boolean>;
}

// helm-docs convention, which the chart's values.yaml follows: `# -- text` documents the key below it.
const DOC_COMMENT = /^ ?-- /m;

/**
 * Which keys accept sub-keys the chart does not list. Derived from the chart's own values.yaml, not from a
 * hand-kept list:
 * - a key whose default is an empty map (`podAnnotations: {}`), a list (`tolerations`, `extraVolumes`), or
 *   empty (`terminationGracePeriodSeconds:`): nothing to compare with, and Helm passes such values through
 *   (`toYaml`), so any content is the user's;
 * - a key with a non-empty map default that is documented as one value (a `# --` comment on the key and none
 *   on its sub-keys: `nodeSelector`, `affinity`, `strategy`, `podSecurityContext`): helm-docs documents a
 *   block this way when the block is a Kubernetes structure handed to a template whole, so the listed
 *   sub-keys are an example default, not the only ones allowed. Blocks whose sub-keys are documented one by
 *   one (`settings`, `controller.image`) are the chart's own settings, and only the listed sub-keys exist.
 */
export function indexChartValues(chart: string, version: string, text: string): ChartValuesIndex {
  const lib = yamlLib();
  const doc = lib.parseDocument(text, { uniqueKeys: true }) as Document;
  if (doc.errors.length > 0) throw new CatalogError(`${chart} ${version} values.yaml: ${doc.errors[0]?.message.split("\n")[0]}`);
  const keys = new Map<string, boolean>();
  // the comment before the first key of a nested map is the map's, not the key's
  const commentOf = (map: YAMLMap, i: number): string => `${i === 0 ? (map.commentBefore ?? "") : ""}\n${(map.items[i]?.key as { commentBefore?: string } | null)?.commentBefore ?? ""}`;
  const walk = (map: YAMLMap, prefix: string) => {
    map.items.forEach((pair: Pair, i) => {
      const key = `${prefix}${lib.isScalar(pair.key) ? String(pair.key.value) : String(pair.key)}`;
      const value = pair.value;
      if (lib.isMap(value) && value.items.length > 0) {
        const documentedAsOne = DOC_COMMENT.test(commentOf(map, i)) && value.items.every((_, j) => !DOC_COMMENT.test(commentOf(value, j)));
        keys.set(key, documentedAsOne);
        if (!documentedAsOne) walk(value, `${key}.`);
      } else {
        const empty = value === null || (lib.isScalar(value) && value.value === null);
        keys.set(key, lib.isMap(value) || lib.isSeq(value) || empty);
      }
    });
  };
  if (lib.isMap(doc.contents)) walk(doc.contents, "");
  return { chart, version, keys };
}

/**
 * What indexChartValues makes of a pinned file is kept in the cache (derived-cache.ts), so that later runs read a
 * small JSON file instead of loading the `yaml` library and parsing values.yaml: ~75 ms of every `validate` of a
 * rendered overlay (an Argo CD Application of the Karpenter chart). INDEX_VERSION must change whenever
 * indexChartValues would answer otherwise for the same file.
 */
const INDEX_VERSION = 1;

let indexCode: string | undefined;
/**
 * What the kept index depends on besides the file: INDEX_VERSION, the indexing code itself (its source text, so that
 * a change that forgets the version still makes a new file) and the `yaml` library's version (comments are
 * attributed to keys by it).
 */
function chartIndexCode(): string {
  if (indexCode === undefined) {
    let yamlVersion = "unknown";
    try {
      yamlVersion = String((createRequire(import.meta.url)("yaml/package.json") as { version?: unknown }).version);
    } catch {
      // a layout where the package's manifest cannot be resolved: the code's own text still keys it
    }
    indexCode = `${INDEX_VERSION}\n${indexChartValues.toString()}\nyaml@${yamlVersion}`;
  }
  return indexCode;
}

const indexId = (pin: PinnedChartValues): string => createHash("sha256").update(`chart-values\n${chartIndexCode()}\n${pin.file.sha256}`).digest("hex");

/** The index kept for `pin`, or undefined when there is none (or its keys are not pairs of a key and a flag). */
function storedIndex(dir: string, pin: PinnedChartValues): ChartValuesIndex | undefined {
  const keys = readDerived(dir, indexId(pin))?.value;
  if (!Array.isArray(keys) || !keys.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && typeof e[1] === "boolean")) return undefined;
  return { chart: pin.chart, version: pin.version, keys: new Map(keys as [string, boolean][]) };
}

/** The pinned values of every chart version (fetched or read from the cache/mirror, hash-checked), keyed `chart@version`. */
export async function loadChartValues(fetch: FetchOptions): Promise<Map<string, ChartValuesIndex>> {
  const out = new Map<string, ChartValuesIndex>();
  const dir = join(fetch.cacheDir ?? defaultCacheDir(), "derived");
  for (const pin of CHART_VALUES) {
    let index = storedIndex(dir, pin);
    if (!index) {
      const bytes = await fetchPinned(pin.file, fetch);
      index = indexChartValues(pin.chart, pin.version, bytes.toString("utf8"));
      writeDerived(dir, indexId(pin), [...index.keys]);
    }
    out.set(`${pin.chart}@${pin.version}`, index);
  }
  return out;
}

// `eks-gitops synth`: render overlays to clusters/<name>/rendered (or, with --check, compare).
import { join } from "node:path";
import { CLUSTERS_DIR, listClusters, loadCluster, RENDERED_DIR, SYNTH_COMMAND, type ClusterConfig } from "@eks-gitops/config";
import { parseCommandArgs } from "../args.ts";
import { EXIT, UsageError } from "../exit-codes.ts";
import { renderCluster, type RenderedTree } from "../render.ts";
import { findRepoRoot } from "../repo.ts";
import { compareTrees, isEmptyDifference, readTree, replaceTree } from "../tree.ts";

export const synthUsage = `Usage: eks-gitops synth [--cluster NAME]... [--check] [--root DIR]

Renders every overlay (or the named ones) into clusters/<name>/rendered/.
  --cluster NAME  only this overlay (repeatable)
  --check         render in memory and exit 1 if the committed output differs
  --root DIR      repository root (default: found from the current directory)`;

export interface SynthOptions {
  readonly root: string;
  readonly clusters?: readonly string[];
  readonly check?: boolean;
  readonly out?: (line: string) => void;
}

/** Loads and renders every selected overlay before writing any (all-or-nothing), then writes or compares. */
export async function synth(options: SynthOptions): Promise<number> {
  const out = options.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const names = options.clusters && options.clusters.length > 0 ? [...options.clusters] : listClusters(options.root);
  if (names.length === 0) throw new UsageError(`no overlays found under ${join(options.root, CLUSTERS_DIR)}`);

  const rendered: { config: ClusterConfig; tree: RenderedTree; dir: string }[] = [];
  for (const name of names) {
    const config = await loadCluster(options.root, name);
    rendered.push({ config, tree: renderCluster(config), dir: join(options.root, CLUSTERS_DIR, name, RENDERED_DIR) });
  }

  let stale = 0;
  for (const { config, tree, dir } of rendered) {
    const diff = compareTrees(readTree(dir), tree);
    const where = `${CLUSTERS_DIR}/${config.name}/${RENDERED_DIR}`;
    if (options.check) {
      if (isEmptyDifference(diff)) {
        out(`ok      ${where} (${tree.size} files up to date)`);
        continue;
      }
      stale++;
      const n = diff.changed.length + diff.added.length + diff.removed.length;
      out(`stale   ${where}: ${n} files differ (${diff.changed.length} changed, ${diff.added.length} missing, ${diff.removed.length} extra)`);
      for (const p of diff.changed) out(`  [~] ${where}/${p}`);
      for (const p of diff.added) out(`  [+] ${where}/${p}`);
      for (const p of diff.removed) out(`  [-] ${where}/${p}`);
      out(`  fix: ${SYNTH_COMMAND} --cluster ${config.name}`);
      continue;
    }
    if (!isEmptyDifference(diff)) replaceTree(dir, tree);
    out(`wrote   ${where}: ${tree.size} files (${diff.changed.length} changed, ${diff.added.length} added, ${diff.removed.length} removed)`);
  }
  if (options.check && stale > 0) {
    out(`${stale} of ${rendered.length} overlays have stale rendered output; run \`${SYNTH_COMMAND}\` and commit the result.`);
    return EXIT.invalid;
  }
  return EXIT.ok;
}

export async function synthCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs("synth", argv, {
    options: {
      cluster: { type: "string", multiple: true },
      check: { type: "boolean", default: false },
      root: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${synthUsage}\n`);
    return EXIT.ok;
  }
  return synth({ root: values.root ?? findRepoRoot(), clusters: values.cluster, check: values.check });
}

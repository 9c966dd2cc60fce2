// `eks-gitops synth`: render overlays to clusters/<name>/rendered (or, with --check, compare).
import { join } from "node:path";
import { CLUSTERS_DIR, listClusters, loadCluster, RENDERED_DIR, SYNTH_COMMAND, type ClusterConfig } from "@eks-gitops/config";
import { ConfigError } from "@eks-gitops/config/errors";
import { createTwoFilesPatch } from "diff";
import { createColors } from "picocolors";
import { parseCommandArgs } from "../args.ts";
import { ConfigErrors, formatConfigErrors, reportConfigError } from "../overlay-report.ts";
import { EXIT, exitCodeHelp, UsageError } from "../exit-codes.ts";
import { MIRROR_ENV } from "@eks-gitops/validate";
import { OUTPUT_FORMATS, type OutputFormat } from "@eks-gitops/validate/output";
import { renderClusterTraced, type RenderedTree, type RenderSources } from "../render.ts";
import { colorEnabled } from "../color.ts";
import { progressLine, schemaDownloadProgress } from "../progress.ts";
import { findRepoRoot } from "../repo.ts";
import { type SynthValidateOptions, validateBeforeWrite } from "../synth-validate.ts";
import { onInterrupt } from "../interrupt.ts";
import { asWriteError, hasLeftovers, lockRenderedWaiting } from "../swap.ts";
import { compareTrees, isEmptyDifference, readTree, recoverRendered, removePrevious, replaceTree } from "../tree.ts";

export const synthUsage = `Usage: eks-gitops synth [--cluster NAME]... [--check] [--no-validate] [--output FORMAT] [--mirror DIR|URL] [--timings] [--root DIR]

Renders every overlay (or the named ones) into clusters/<name>/rendered/. The render is first validated
in memory as \`eks-gitops validate\` does (schemas, CEL, cross-object, IAM): an invalid one is not
written (exit 1, with the findings).
  --cluster NAME  only this overlay (repeatable)
  --check         render in memory and exit 1 if the committed output differs
  --no-validate   write without validating first
  -o, --output FORMAT  how a bad overlay or an invalid render is reported: text (default), json, junit,
                  sarif, github (findings at clusters/<name>/cluster.ts:LINE:COL)
  --mirror DIR|URL  read the pinned schemas from a mirror of their upstream URLs (env ${MIRROR_ENV}; offline)
  --timings       print the time spent loading overlays, rendering and validating (stderr)
  --root DIR      repository root (default: found from the current directory)

${exitCodeHelp("synth")}`;

export interface SynthOptions {
  readonly root: string;
  readonly clusters?: readonly string[];
  readonly check?: boolean;
  /** Validate what would be written before writing it. @default true */
  readonly validate?: boolean;
  readonly out?: (line: string) => void;
  /** Where the findings of a rejected render go. @default stderr */
  readonly err?: (text: string) => void;
  readonly color?: boolean;
  /** Print the time spent loading overlays, rendering and validating on stderr. @default false */
  readonly timings?: boolean;
  /** Colour the --check diffs (stdout is a terminal). @default false */
  readonly diffColor?: boolean;
  /** How findings are reported. @default "text" */
  readonly format?: OutputFormat;
  readonly onProgress?: SynthValidateOptions["onProgress"];
  /** A mirror of the pinned schema URLs (`--mirror`). @default the environment's, else upstream */
  readonly mirror?: string;
}

/** Loads and renders every selected overlay before writing any (all-or-nothing), then writes or compares. */
export async function synth(options: SynthOptions): Promise<number> {
  const out = options.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const names = options.clusters && options.clusters.length > 0 ? [...options.clusters] : listClusters(options.root);
  if (names.length === 0) throw new UsageError(`no overlays found under ${join(options.root, CLUSTERS_DIR)}`);

  const timings = { overlays: 0, render: 0, validate: 0 };
  const rendered: { config: ClusterConfig; tree: RenderedTree; sources: RenderSources; dir: string }[] = [];
  // every overlay is loaded and rendered before a bad one is reported, so one run names every bad overlay
  const bad: ConfigError[] = [];
  for (const name of names) {
    const loading = performance.now();
    try {
      const config = await loadCluster(options.root, name);
      const rendering = performance.now();
      rendered.push({ config, ...renderClusterTraced(config), dir: join(options.root, CLUSTERS_DIR, name, RENDERED_DIR) });
      timings.overlays += rendering - loading;
      timings.render += performance.now() - rendering;
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      bad.push(err);
    }
  }
  if (bad.length === 1) throw bad[0];
  if (bad.length > 1) throw new ConfigErrors(bad);
  const report = (): void => {
    if (!options.timings) return;
    const all = Object.entries(timings).map(([phase, ms]) => `${phase} ${ms.toFixed(0)} ms`);
    process.stderr.write(`timings: ${all.join(", ")} (${plural(names.length, "overlay", "overlays")}); process ${(performance.now() / 1000).toFixed(2)} s since start\n`);
  };

  // what a killed synth left (see ../swap.ts) is finished or rolled back before the output is read
  if (!options.check) {
    for (const r of rendered) {
      // nothing beside rendered/ (the usual case): nothing to recover, and no lock taken and released for it
      if (!hasLeftovers(r.dir)) continue;
      const notes: string[] = [];
      const release = await lockForWriting(r.dir, (l) => notes.push(l), options.err);
      try {
        notes.push(...recoverRendered(r.dir, { locked: true }));
      } finally {
        release();
      }
      for (const note of notes) out(`recovered ${CLUSTERS_DIR}/${r.config.name}: ${note}`);
    }
  }
  if (!options.check && options.validate !== false) {
    // every render validated before anything is written (also an unchanged one: exit 0 means valid output)
    const validating = performance.now();
    const result = await validateBeforeWrite(
      rendered.map((r) => ({ cluster: r.config.name, tree: r.tree, config: r.config, sourceFile: r.config.sourceFile, sources: r.sources })),
      { root: options.root, color: options.color, format: options.format, onProgress: options.onProgress, ...(options.mirror !== undefined ? { mirror: options.mirror } : {}) },
    );
    timings.validate = performance.now() - validating;
    report();
    if (!result.ok) {
      const err = options.err ?? ((t: string) => process.stderr.write(t));
      const closing = `the render is invalid: nothing was written. Fix the overlay, or write it anyway with \`${SYNTH_COMMAND} --no-validate\`.\n`;
      // text is for people (stderr); a machine format is the command's output (stdout), the closing line still on stderr
      if ((options.format ?? "text") === "text") err(`${result.text()}${closing}`);
      else {
        process.stdout.write(result.text());
        err(closing);
      }
      return EXIT.invalid;
    }
  }

  let stale = 0;
  // The previous trees are removed once every overlay is swapped, each under its lock held until then (see
  // keepPrevious in ../tree.ts: a removal before the next overlay's files are made slows making them).
  const previous: { old: string; release: () => void; forget: () => void }[] = [];
  try {
    for (const { config, tree, dir } of rendered) {
      const diff = compareTrees(readTree(dir), tree);
      const where = `${CLUSTERS_DIR}/${config.name}/${RENDERED_DIR}`;
      if (options.check) {
        if (isEmptyDifference(diff)) {
          out(`ok      ${where} (${plural(tree.size, "file", "files")} up to date)`);
          continue;
        }
        stale++;
        const n = diff.changed.length + diff.added.length + diff.removed.length;
        out(`stale   ${where}: ${plural(n, "file differs", "files differ")} (${diff.changed.length} changed, ${diff.added.length} missing, ${diff.removed.length} extra)`);
        const committed = readTree(dir);
        for (const p of diff.changed) {
          out(`  [~] ${where}/${p}`);
          out(unifiedDiff(`${where}/${p}`, committed.get(p) ?? "", tree.get(p) ?? "", options.diffColor === true));
        }
        for (const p of diff.added) out(`  [+] ${where}/${p}`);
        for (const p of diff.removed) out(`  [-] ${where}/${p}`);
        out(`  fix: ${SYNTH_COMMAND} --cluster ${config.name}`);
        continue;
      }
      if (!isEmptyDifference(diff)) {
        const release = await lockForWriting(dir, (l) => out(`recovered ${where}: ${l}`), options.err);
        let old: string;
        try {
          old = replaceTree(dir, tree, { locked: true, keepPrevious: true }) as string;
        } catch (err) {
          release();
          throw err;
        }
        // interrupted before the end (a signal is handled while the next lock is awaited): nothing left beside rendered/
        const forget = onInterrupt(() => {
          removePrevious(old, () => {});
          return undefined;
        });
        previous.push({ old, release, forget });
      }
      out(`wrote   ${where}: ${plural(tree.size, "file", "files")} (${diff.changed.length} changed, ${diff.added.length} added, ${diff.removed.length} removed)`);
    }
  } finally {
    for (const p of previous) {
      try {
        removePrevious(p.old);
      } finally {
        p.forget();
        p.release();
      }
    }
  }
  if (options.validate === false || options.check) report();
  if (options.check && stale > 0) {
    out(`${stale} of ${plural(rendered.length, "overlay", "overlays")} ${stale === 1 ? "has" : "have"} stale rendered output; run \`${SYNTH_COMMAND}\` and commit the result.`);
    return EXIT.invalid;
  }
  return EXIT.ok;
}

/**
 * `<dir>.lock` for a swap: waits while a validate reads the folder (it holds the lock to see one whole tree);
 * fails at once while another synth writes it.
 */
async function lockForWriting(dir: string, note: (line: string) => void, err: ((text: string) => void) | undefined): Promise<() => void> {
  try {
    return await lockRenderedWaiting(dir, {
      command: "synth",
      note,
      waitWhile: (owner) => owner.command === "validate",
      onWait: (message) => (err ?? ((t: string) => process.stderr.write(t)))(`${message}\n`),
    });
  } catch (e) {
    throw asWriteError(dir, e);
  }
}

/** `1 file`, `3 files`. */
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The unified diff committed -> rendered of one file (three lines of context), indented under its `[~]` line. */
function unifiedDiff(path: string, committed: string, rendered: string, color: boolean): string {
  const c = createColors(color);
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, committed, rendered, "committed", "rendered", { context: 3 });
  return patch
    .split("\n")
    .slice(1) // the "Index:"/"===" header of createTwoFilesPatch's first line is not part of a unified diff
    .filter((l) => l !== "" && !/^=+$/.test(l))
    .map((l) => {
      const painted = l.startsWith("@@") ? c.cyan(l) : l.startsWith("+") && !l.startsWith("+++") ? c.green(l) : l.startsWith("-") && !l.startsWith("---") ? c.red(l) : l;
      return `      ${painted}`;
    })
    .join("\n");
}

export async function synthCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseCommandArgs("synth", argv, {
    options: {
      cluster: { type: "string", multiple: true },
      check: { type: "boolean", default: false },
      // Node 20's parseArgs has no --no-<flag> negation
      "no-validate": { type: "boolean", default: false },
      output: { type: "string", short: "o", default: "text" },
      timings: { type: "boolean", default: false },
      mirror: { type: "string" },
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
  const output = values.output as OutputFormat;
  if (!OUTPUT_FORMATS.includes(output)) throw new UsageError(`--output ${values.output}: must be one of ${OUTPUT_FORMATS.join(", ")}`);
  const download = schemaDownloadProgress(progressLine());
  try {
    return await synth({
      root: values.root ?? findRepoRoot(),
      clusters: values.cluster,
      check: values.check,
      validate: !values["no-validate"],
      format: output,
      timings: values.timings,
      color: colorEnabled(process.stderr),
      diffColor: colorEnabled(process.stdout),
      onProgress: download.onProgress,
      ...(values.mirror !== undefined ? { mirror: values.mirror } : {}),
    });
  } catch (err) {
    if (err instanceof ConfigError) return reportConfigError(err, output, colorEnabled(output === "text" ? process.stderr : process.stdout));
    if (err instanceof ConfigErrors) {
      const { stdout, stderr } = await formatConfigErrors(err.errors, output, colorEnabled(output === "text" ? process.stderr : process.stdout));
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      return EXIT.usage;
    }
    // the pinned schemas could not be had (offline without a mirror, a bad mirror): a setup problem, not a bug
    if (err instanceof Error && err.name === "CatalogError") {
      throw new UsageError(`synth: cannot validate the render: ${err.message}; nothing was written (--no-validate writes without validating)`);
    }
    throw err;
  } finally {
    download.finish();
  }
}

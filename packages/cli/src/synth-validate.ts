// synth's check before it writes: the render, still in memory, through the same validation as `pnpm validate`
// (schema, defaults, CEL, cross-object, IAM lint), so clusters/*/rendered never holds output validate rejects.
import { formatReport, provideYamlLib, validateRender, type DownloadProgress, type OutputFormat, type RenderedOverlay, type Report } from "@eks-gitops/validate";
import * as yaml from "yaml";
import { findingsInOverlay } from "./overlay-findings.ts";
import type { RenderedTree, RenderSources } from "./render.ts";

export interface RenderToValidate {
  readonly cluster: string;
  readonly tree: RenderedTree;
  /** The overlay as synth loaded it (not loaded again for validation). */
  readonly config?: RenderedOverlay["config"];
  /** With both: findings are reported at the overlay field of `sourceFile` that produced the value. */
  readonly sourceFile?: string;
  readonly sources?: RenderSources;
}

export interface SynthValidation {
  /** No invalid resource and no error (warnings allowed, as for `pnpm validate`). */
  readonly ok: boolean;
  /**
   * The findings as `pnpm validate` prints them (errors and warnings, then the summary line), located in the
   * overlays. Computed on demand: locating parses cluster.ts with the TypeScript compiler (~0.3 s to load), which
   * a valid render, whose findings synth does not print, never needs.
   */
  readonly text: () => string;
  readonly resources: number;
}

export interface SynthValidateOptions {
  readonly root: string;
  readonly color?: boolean;
  /** @default "text" */
  readonly format?: OutputFormat;
  readonly onProgress?: (p: DownloadProgress) => void;
  /** A mirror of the pinned schema URLs (folder or URL); without it, the environment's or upstream. */
  readonly mirror?: string;
}

export async function validateBeforeWrite(renders: readonly RenderToValidate[], options: SynthValidateOptions): Promise<SynthValidation> {
  // synth has the yaml library loaded already (it writes the render with it): validation uses the same copy
  provideYamlLib(yaml);
  const run = (positions: boolean) =>
    validateRender(
      renders.map((r) => ({ cluster: r.cluster, files: r.tree, ...(r.config ? { config: r.config } : {}) })),
      { root: options.root, onProgress: options.onProgress, positions, ...(options.mirror !== undefined ? { mirror: options.mirror } : {}) },
    );
  const isOk = (report: Report) => report.summary.invalid + report.summary.error === 0;
  // a valid render's findings are not shown: the first pass leaves them unlocated (locating parses each file
  // with findings again), and only a rejected render is validated once more with lines and columns
  const first = await run(false);
  const report = isOk(first) ? first : await run(true);
  return {
    ok: isOk(report),
    text: () => formatReport(findingsInOverlay(report, traced(renders), options.root), options.format ?? "text", { color: options.color === true }),
    resources: report.summary.resources,
  };
}

const traced = (renders: readonly RenderToValidate[]) =>
  renders.flatMap((r) => (r.sourceFile !== undefined && r.sources !== undefined ? [{ cluster: r.cluster, sourceFile: r.sourceFile, sources: r.sources, tree: r.tree }] : []));

// synth's check before it writes: the render, still in memory, through the same validation as `pnpm validate`
// (schema, defaults, CEL, cross-object, IAM lint), so clusters/*/rendered never holds output validate rejects.
import { formatText, validateRender, type DownloadProgress, type RenderedOverlay } from "@eks-gitops/validate";
import type { RenderedTree } from "./render.ts";

export interface RenderToValidate {
  readonly cluster: string;
  readonly tree: RenderedTree;
  /** The overlay as synth loaded it (not loaded again for validation). */
  readonly config?: RenderedOverlay["config"];
}

export interface SynthValidation {
  /** No invalid resource and no error (warnings allowed, as for `pnpm validate`). */
  readonly ok: boolean;
  /** The findings as `pnpm validate` prints them (errors and warnings, then the summary line). */
  readonly text: string;
  readonly resources: number;
}

export interface SynthValidateOptions {
  readonly root: string;
  readonly color?: boolean;
  readonly onProgress?: (p: DownloadProgress) => void;
}

export async function validateBeforeWrite(renders: readonly RenderToValidate[], options: SynthValidateOptions): Promise<SynthValidation> {
  const report = await validateRender(
    renders.map((r) => ({ cluster: r.cluster, files: r.tree, ...(r.config ? { config: r.config } : {}) })),
    { root: options.root, onProgress: options.onProgress },
  );
  return {
    ok: report.summary.invalid + report.summary.error === 0,
    text: formatText(report, { color: options.color === true }),
    resources: report.summary.resources,
  };
}

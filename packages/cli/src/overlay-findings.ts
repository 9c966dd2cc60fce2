// Findings on a render synth has not written, moved to where they can be fixed: the overlay field of cluster.ts
// that produced the value (from the render's side table, see render.ts), then the rendered file and field.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLUSTERS_DIR, formatPath, isOverlayField, parseOverlay, RENDERED_DIR } from "@eks-gitops/config";
import { overlayPathOf, type OverlayPath } from "@eks-gitops/manifests";
import type { Finding, Report, ResourceResult } from "@eks-gitops/validate";
import type { RenderSources } from "./render.ts";

export interface TracedRender {
  readonly cluster: string;
  /** The overlay as shown (`clusters/<name>/cluster.ts`), relative to `root`. */
  readonly sourceFile: string;
  readonly sources: RenderSources;
}

/** The report with every finding on a traced render located in its overlay's cluster.ts. */
export function findingsInOverlay(report: Report, renders: readonly TracedRender[], root: string): Report {
  const byCluster = new Map(renders.map((r) => [r.cluster, { render: r, source: undefined as ReturnType<typeof parseOverlay> | undefined }]));
  const resources = report.resources.map((r): ResourceResult => {
    const m = new RegExp(`^${CLUSTERS_DIR}/([^/]+)/${RENDERED_DIR}/(.+)$`).exec(r.file);
    const entry = m ? byCluster.get(m[1] as string) : undefined;
    if (!m || !entry || r.findings.length === 0) return r;
    const rendered = m[2] as string;
    entry.source ??= parseOverlay(entry.render.sourceFile, readFileSync(join(root, entry.render.sourceFile), "utf8"));
    const source = entry.source;
    const traced = entry.render.sources.get(rendered) ?? { "": [] };
    const findings = r.findings.map((f): Finding => {
      const path: OverlayPath = overlayPathOf(traced, f.path) ?? [];
      const at = source.locate(path, "value");
      const written = path.slice(0, at?.depth ?? 0);
      const unset = at && at.depth < path.length ? path[at.depth] : undefined;
      const byDefault = unset !== undefined && isOverlayField(written, unset) ? `${formatPath([...written, unset])}` : undefined;
      const renderedAt = `${r.file}${f.line !== undefined ? `:${f.line}:${f.column ?? 1}` : ""} ${f.path || "/"}`;
      const hint = [byDefault ? `the value is the default of \`${byDefault}\`, which ${entry.render.sourceFile} does not set: set it` : undefined, f.hint]
        .filter((h) => h !== undefined)
        .join("; ");
      return {
        severity: f.severity,
        path: `${byDefault ?? (formatPath(written) || "(root)")} -> ${renderedAt}`,
        message: f.message,
        rule: f.rule,
        ...(hint ? { hint } : {}),
        ...(at ? { line: at.line, column: at.column } : {}),
      };
    });
    return { ...r, file: entry.render.sourceFile, findings };
  });
  return { ...report, resources };
}

// Findings on a render synth has not written, moved to where they can be fixed: the overlay field of cluster.ts
// that produced the value (from the render's side table, see render.ts), then the rendered file and field.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLUSTERS_DIR, formatPath, isOverlayField, parseOverlay, RENDERED_DIR } from "@eks-gitops/config";
import { overlayPathOf, type OverlayPath } from "@eks-gitops/manifests";
import type { Finding, Report, ResourceResult } from "@eks-gitops/validate";
import { parse } from "yaml";
import { closest } from "@eks-gitops/config/suggest";
import type { RenderedTree, RenderSources } from "./render.ts";

export interface TracedRender {
  readonly cluster: string;
  /** The overlay as shown (`clusters/<name>/cluster.ts`), relative to `root`. */
  readonly sourceFile: string;
  readonly sources: RenderSources;
  /** The render's text: the offending value of a CEL finding is read from it. */
  readonly tree?: RenderedTree;
}

/** The value at a JSON Pointer of a rendered YAML file. */
function renderedValue(tree: RenderedTree | undefined, file: string, pointer: string): unknown {
  const text = tree?.get(file);
  if (text === undefined) return undefined;
  let v: unknown = parse(text);
  for (const raw of pointer.split("/").slice(1)) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return v;
}

/**
 * The API server's CEL message names a string by its type (`Invalid value: "string"`): the value written instead,
 * and, for a rule that allows a list of values (`self in [...]`), the nearest of them.
 */
function celWithValue(f: Finding, value: unknown): { message: string; hint?: string } {
  if (!f.rule.startsWith("cel:") || typeof value !== "string") return { message: f.message };
  // validate may already say it (the value in place of the placeholder, its own suggestion): never twice
  if (f.hint !== undefined) return { message: f.message.replace('Invalid value: "string"', `Invalid value: ${JSON.stringify(value)}`) };
  const message = f.message.replace('Invalid value: "string"', `Invalid value: ${JSON.stringify(value)}`);
  const list = /\bin \[([^\]]*)\]/.exec(f.rule)?.[1];
  const allowed = list ? [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1] as string) : [];
  const near = closest(value, allowed);
  return { message, ...(near && near !== value ? { hint: `did you mean \`${near}\`?` } : {}) };
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
      const cel = celWithValue(f, renderedValue(entry.render.tree, rendered, f.path));
      const hint = [cel.hint, byDefault ? `the value is the default of \`${byDefault}\`, which ${entry.render.sourceFile} does not set: set it` : undefined, f.hint]
        .filter((h) => h !== undefined)
        .join("; ");
      return {
        severity: f.severity,
        path: `${byDefault ?? (formatPath(written) || "(root)")} -> ${renderedAt}`,
        message: cel.message,
        rule: f.rule,
        ...(hint ? { hint } : {}),
        ...(at ? { line: at.line, column: at.column } : {}),
      };
    });
    return { ...r, file: entry.render.sourceFile, findings };
  });
  return { ...report, resources };
}

// validateRender(): `eks-gitops validate` on a render that is still in memory (synth checks its output
// before writing it): the same pipeline as runValidation, with documents instead of files.
import { CLUSTERS_DIR, RENDERED_DIR } from "@eks-gitops/config/layout";
import { iamKindOf, parseText } from "./reader.ts";
import { type LoadedOverlay, type RunOptions, runValidation } from "./run.ts";
import type { IamDocument, LoadedDocuments, ParsedResource, Report, UnreadableDocument } from "./types.ts";

/** One overlay's render: file paths under its rendered/ folder (`iam/index.json`) and their text. */
export interface RenderedOverlay {
  readonly cluster: string;
  readonly files: ReadonlyMap<string, string>;
  /** The overlay as the caller loaded it: validation then does not load `cluster.ts` again. */
  readonly config?: LoadedOverlay;
}

export interface ValidateRenderOptions extends Omit<RunOptions, "paths" | "documents" | "texts" | "base" | "read" | "loadedOverlays"> {
  /**
   * Locate findings (line and column in the rendered text). synth leaves it off on its first pass, where a valid
   * render's findings are never shown, and validates again with it when the render is rejected. @default true
   */
  readonly positions?: boolean;
}

/**
 * Parses each overlay's files as if they were `clusters/<name>/rendered/<path>` under `root` (so the overlay's
 * catalog versions, cross-object checks and IAM lint apply as for the committed files) and validates them.
 */
export async function validateRender(overlays: readonly RenderedOverlay[], options: ValidateRenderOptions): Promise<Report> {
  const resources: ParsedResource[] = [];
  const unreadable: UnreadableDocument[] = [];
  const iam: IamDocument[] = [];
  const texts = new Map<string, string>();
  for (const { cluster, files } of overlays) {
    for (const [path, text] of files) {
      const file = `${CLUSTERS_DIR}/${cluster}/${RENDERED_DIR}/${path}`;
      texts.set(file, text);
      const iamKind = iamKindOf(file);
      if (iamKind) {
        // rendered by our own serializer: JSON that does not parse is a bug, not a finding
        iam.push({ file, index: 0, iamKind, object: JSON.parse(text) });
        continue;
      }
      const parsed = parseText({ file, text });
      resources.push(...parsed.resources);
      unreadable.push(...parsed.unreadable);
    }
  }
  const documents: LoadedDocuments = { resources, unreadable, iam };
  const loadedOverlays = new Map(overlays.flatMap((o) => (o.config ? [[o.cluster, o.config] as const] : [])));
  // every overlay in one run: one catalog and one set of compiled validators for all of them
  const { positions, ...run } = options;
  return (await runValidation({ ...run, documents, texts: positions === false ? new Map() : texts, loadedOverlays })).report;
}

// validateDocuments(): documents already in memory through the streaming pipeline (stream.ts): every document
// through the per-object stages (validate.ts), then the cross-object checks. Apart from validate.ts so that
// stream.ts, which runs ObjectValidator, and this entry point, which runs stream.ts, form no import cycle.
import type { SchemaRegistry } from "./schema/registry.ts";
import { CHECKS, compileSelection } from "./selection.ts";
import { validateFiles } from "./stream.ts";
import type { CrossObjectChecks, LoadedDocuments, ParsedResource, Report } from "./types.ts";
import { ObjectValidator } from "./validate.ts";

export interface ValidateOptions {
  /** Where schemas come from; a function lets each overlay use its own catalog versions. */
  readonly registry: SchemaRegistry | ((resource: ParsedResource) => SchemaRegistry);
  /** The previously committed version of a resource, for `oldSelf` rules (`--base`). */
  readonly previous?: (resource: ParsedResource) => Record<string, unknown> | undefined;
  readonly crossObjectChecks?: CrossObjectChecks;
  /** Extra context handed to the cross-object checks (e.g. overlay facts). */
  readonly crossObjectContext?: Record<string, unknown>;
  /** Lint IAM documents with the policies package. @default true */
  readonly iamLint?: boolean;
  /** Run the native stage (the API server's Go validation of built-in kinds and ObjectMeta; src/native/). @default true */
  readonly native?: boolean;
}

/**
 * Validates documents already in memory and returns the report (results sorted by file, then index): the
 * streaming pipeline of runValidation (stream.ts) over one in-memory batch, so both give the same results.
 * Findings get no line and column (there is no text to locate them in).
 */
export async function validateDocuments(docs: LoadedDocuments, options: ValidateOptions, validator = new ObjectValidator()): Promise<Report> {
  const registryFor = typeof options.registry === "function" ? options.registry : () => options.registry as SchemaRegistry;
  const checks = CHECKS.filter(
    (c) => !(c === "native" && options.native === false) && !(c === "iam" && options.iamLint === false) && !(c === "cross-object" && !options.crossObjectChecks),
  );
  return validateFiles({
    files: [],
    documents: docs,
    read: { cwd: process.cwd() },
    selection: compileSelection({ checks }),
    registryFor,
    ...(options.previous ? { previous: options.previous } : {}),
    ...(options.crossObjectChecks ? { crossObjectChecks: options.crossObjectChecks } : {}),
    ...(options.crossObjectContext ? { crossObjectContext: options.crossObjectContext } : {}),
    validator,
    readText: () => undefined,
  });
}

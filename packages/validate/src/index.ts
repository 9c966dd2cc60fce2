// Public API of @eks-gitops/validate.
export type * from "./types.ts";
export { loadDocuments, parseText, expandPaths } from "./reader.ts";
export type { ReadOptions } from "./reader.ts";
export { ObjectValidator, validateDocuments, summarize, CEL_SKIPPED_MESSAGE } from "./validate.ts";
export type { ValidateOptions } from "./validate.ts";
export { SchemaRegistry, typesFromPaths, typesFromDocuments, catalogLayer } from "./schema/registry.ts";
export type { SchemaLayer } from "./schema/registry.ts";
export type { TypeSchema, Gvk } from "./schema/model.ts";
export { typesFromCrd, typesFromOpenApi } from "./schema/sources.ts";
export * from "./catalog/index.ts";
export { lintIamDocument, loadPolicyLinter } from "./iam.ts";
export type { IamLinter } from "./iam.ts";
export { runValidation, defaultPaths, RunUsageError } from "./run.ts";
export type { RunOptions } from "./run.ts";
export { formatReport, formatText, formatJson, formatJunit, formatSarif, formatGithub, OUTPUT_FORMATS } from "./output/format.ts";
export type { OutputFormat, FormatOptions } from "./output/format.ts";
export { clusterLayer, ClusterSchemaError } from "./schema/cluster.ts";

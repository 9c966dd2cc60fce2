// The shared vocabulary of the validator: parsed documents, findings and the report (the stable JSON contract).

/**
 * Severity of one finding; only errors make a resource invalid. `info` is something nobody needs to act on
 * (shown in text and JSON, left out of GitHub annotations and SARIF).
 */
export type Severity = "error" | "warning" | "info";

/** The closed set of per-document outcomes (as kubeconform's). */
export type ResourceStatus = "valid" | "invalid" | "error" | "skipped";

/** One problem found in one document. Matches `resources[].findings[]` of the JSON output. */
export interface Finding {
  readonly severity: Severity;
  /** JSON Pointer into the document, e.g. `/spec/template/spec/nodeClassRef/kind`; "" for the whole document. */
  readonly path: string;
  readonly message: string;
  /**
   * What produced the finding: a JSON Schema keyword (`schema:required`), a CEL rule (`cel:<rule text>`),
   * a cross-object check code (e.g. `hpa-target-missing`), `parse:*`, `schema:missing`, `iam:*`.
   */
  readonly rule: string;
  /** How to fix it, when the check knows (cross-object checks always say). Not part of `path`/`message`. */
  readonly hint?: string;
  /** 1-based line and column of the node `path` names (or of its nearest existing parent), when known. */
  readonly line?: number;
  readonly column?: number;
  /** The reason given when the finding was acknowledged (`.eks-gitops.yaml` `validate.acknowledge`); it then counts as nothing. */
  readonly acknowledged?: string;
}

/** Where a document came from: a file (or "-" for stdin) and its position in a multi-document stream. */
export interface DocumentSource {
  /** Path as given / relative to the working directory, or "-" for stdin. */
  readonly file: string;
  /** 0-based index of the document within the file. */
  readonly index: number;
  /**
   * Where the object is inside its document when it is an item of a list (`kind: List`, `RoleList`...):
   * `/items/N` (`/items/N/items/M` for a list in a list). Findings are relative to the object; their `path` in
   * a result is prefixed with this. Absent for a document that is itself the object.
   */
  readonly pointer?: string;
}

/** A document that parsed into an object with apiVersion and kind (input of schema and cross-object checks). */
export interface ParsedResource extends DocumentSource {
  readonly apiVersion: string;
  readonly kind: string;
  /** `metadata.name` ("" when absent, e.g. generateName). */
  readonly name: string;
  /** `metadata.namespace` ("" when absent). */
  readonly namespace: string;
  /** The object as written (never mutated; defaults are applied to a copy). */
  readonly object: Readonly<Record<string, unknown>>;
}

/** A document that could not be read as a Kubernetes object (syntax error, duplicate key, not an object...). */
export interface UnreadableDocument extends DocumentSource {
  readonly findings: readonly Finding[];
  /** Whatever of apiVersion/kind/name could still be read, for the report. */
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** A non-Kubernetes file the validator lints another way (IAM JSON under rendered/iam/). */
export interface IamDocument extends DocumentSource {
  /** `trust-policy` | `policy` | `index` (from the file name). */
  readonly iamKind: "trust-policy" | "policy" | "index";
  readonly object: unknown;
}

/** What the reader produced: resources to validate, documents that failed to parse, IAM files. */
export interface LoadedDocuments {
  readonly resources: readonly ParsedResource[];
  readonly unreadable: readonly UnreadableDocument[];
  readonly iam: readonly IamDocument[];
  /**
   * The file's whole text is one plain JSON value, read by JSON.parse (json-fast.ts): one flow document from its
   * first character to its last, whose resources are the value itself or its list's items. Its findings are then
   * located by the flow scanner without first scanning the whole text to check it is one (see locateFindings).
   */
  readonly json?: boolean;
}

/** One entry of `resources[]` in the JSON output. */
export interface ResourceResult {
  readonly file: string;
  readonly index: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly status: ResourceStatus;
  readonly findings: readonly Finding[];
}

export interface Summary {
  readonly resources: number;
  readonly valid: number;
  readonly invalid: number;
  readonly error: number;
  readonly skipped: number;
}

/** The whole result; `JSON.stringify({summary, resources})` is the `--output json` contract. */
export interface Report {
  readonly summary: Summary;
  readonly resources: readonly ResourceResult[];
  /** Counters that are not per-resource (not part of the JSON contract). */
  readonly stats: {
    /** CEL rules that use `oldSelf` and were skipped because there was no previous object. */
    readonly transitionRulesSkipped: number;
    readonly celRulesEvaluated: number;
  };
  /**
   * References the cross-object checks could not follow because the run holds loose files, not a whole overlay
   * (`HorizontalPodAutoscaler shop/web -> Deployment shop/web`), sorted; said once after the summary.
   */
  readonly notChecked?: readonly string[];
}

/**
 * The cross-object hook: gets every parsed resource of a run (all overlays) and returns findings
 * attributed to a resource by file+index. Implemented in ./cross-object/index.ts.
 */
export interface CrossObjectFinding extends Finding {
  /** The resource the finding is about (its file and index). */
  readonly file: string;
  readonly index: number;
  /** When the resource is an item of a list document: its pointer there (`/items/N`), as DocumentSource.pointer. */
  readonly pointer?: string;
}
/** Everything else a cross-object check may need besides the Kubernetes resources. */
export interface CrossObjectContext {
  /** IAM files (rendered/iam/*.json) of the same run, parsed. */
  readonly iam: readonly IamDocument[];
  /**
   * Told each reference a check could not follow because the run holds loose files, not a whole overlay
   * (`HorizontalPodAutoscaler shop/web -> Deployment shop/web`): not an error, said once in the report.
   */
  readonly notChecked?: (reference: string) => void;
}
/**
 * The identities of the resources a run holds for the cross-object checks (kept as columns, see result-store.ts),
 * and each one as a ParsedResource on request: what CrossObjectChecks.subjects reads.
 */
export interface CrossObjectRows {
  readonly size: number;
  apiVersion(i: number): string;
  kind(i: number): string;
  name(i: number): string;
  namespace(i: number): string;
  /** The i-th resource as the checks would get it. */
  resource(i: number): ParsedResource;
}
export type CrossObjectChecks = ((resources: readonly ParsedResource[], context: CrossObjectContext) => CrossObjectFinding[]) & {
  /**
   * Which of `rows` the checks need (ascending): given only those, in the same order, they must find what they find
   * given all of them. A run then never makes the others objects again. @default every resource
   */
  readonly subjects?: (rows: CrossObjectRows) => number[];
};

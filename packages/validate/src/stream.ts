// validateFiles(): the streaming pipeline behind runValidation — read, validate and locate one file at a time,
// keeping only compact results and the few facts the cross-object checks need, so peak memory does not grow
// with the size of the objects read (issue 11: 50,000 objects under 250 MB).

import { compactForCrossObject, factExtra, packExtra, restoreFact, unpackExtra } from "./cross-object/compact.ts";
import { HeapGuard } from "./heap-guard.ts";
import { lintIamDocuments } from "./iam.ts";
import type { NativeAhead } from "./native-ahead.ts";
import { locateAll } from "./positions.ts";
import { ReadAhead } from "./read-ahead.ts";
import type { ReadOptions } from "./reader.ts";
import { redactResults } from "./redact.ts";
import { ownString } from "./own-string.ts";
import { ResultStore, reportOfRows, SortedRows } from "./result-store.ts";
import type { SchemaRegistry } from "./schema/registry.ts";
import type { CompiledSelection } from "./selection.ts";
import { Int32Column } from "./columns.ts";
import { type FileList, type SpillBudget, SpillColumn } from "./spill.ts";
import type { CrossObjectChecks, CrossObjectRows, Finding, IamDocument, LoadedDocuments, ParsedResource, Report, ResourceResult, ResourceStatus, UnreadableDocument } from "./types.ts";
import { missingSchema, type ObjectValidator, type ValidationStages, validateWithSchema, withCrdProblems } from "./validate.ts";

export interface StreamOptions {
  /** Files (already expanded and filtered) or `-`. */
  readonly files: FileList;
  /** Documents already in memory (synth's render), validated after the files. */
  readonly documents?: LoadedDocuments;
  /** Problems found before reading (paths that cannot be read, overlays without rendered output): one error each. */
  readonly unreadable?: readonly UnreadableDocument[];
  readonly read: ReadOptions & { readonly cwd: string };
  readonly selection: CompiledSelection;
  /** The registry for a resource; may load schemas the first time a kind is seen. */
  readonly registryFor: (resource: ParsedResource) => SchemaRegistry | Promise<SchemaRegistry>;
  readonly previous?: (resource: ParsedResource) => Record<string, unknown> | undefined;
  readonly crossObjectChecks?: CrossObjectChecks;
  readonly crossObjectContext?: Record<string, unknown>;
  /** Documents the cross-object checks see besides the validated ones (an overlay's other files); nothing is reported on them. */
  readonly crossObjectOnly?: LoadedDocuments;
  readonly validator: ObjectValidator;
  /** Reads `files` ahead in a worker (see read-ahead.ts), started by the caller as early as it can; closed here. @default read on this thread */
  readonly readAhead?: ReadAhead;
  /** Rows (and cross-object facts) whose strings stay in memory; those past it are written to a temporary file (spill.ts). */
  readonly spill?: SpillBudget;
  /**
   * Called once, when the first WARM_FILES files (all of them, when fewer) are validated, with their count: the CLI
   * writes V8's code cache at the end of a run that got further than the run that wrote it (packages/cli/bin/bundle.js).
   */
  readonly onWarm?: (files: number) => void;
  /** Text of a file again (for finding positions of a file whose text the read did not give, and of cross-object findings); undefined when it cannot be read again. */
  readonly readText: (file: string) => string | undefined;
}

/** Files a run validates before its code cache is as good as it gets (SAVE_AFTER_FILES of read-ahead-worker.ts is the worker's). */
export const WARM_FILES = 64;

const resultOf = (d: { file: string; index: number; pointer?: string; apiVersion?: string; kind?: string; name?: string; namespace?: string }, status: ResourceStatus, findings: Finding[]): ResourceResult => ({
  file: d.file,
  index: d.index,
  apiVersion: d.apiVersion ?? "",
  kind: d.kind ?? "",
  name: d.name ?? "",
  namespace: d.namespace ?? "",
  status,
  // an item of a list: its findings point into the document (`/items/N/...`), where they are located
  findings: d.pointer ? findings.map((f) => ({ ...f, path: `${d.pointer}${f.path}` })) : findings,
});

/**
 * Kept strings must share nothing with the parsed text: js-yaml's strings are slices of a file's text, and V8
 * keeps a whole text alive while any slice of it lives (a kept `apiVersion` would hold every file read).
 * Concatenating and slicing again makes V8 copy the characters into a string of their own; repeated strings
 * (files, apiVersions, kinds, namespaces: ResultStore) are kept once. Findings and cross-object facts (nested
 * data) are copied with their strings kept once.
 */
class Detacher {
  private readonly strings = new Map<string, string>();

  intern(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    const own = ownString(s);
    this.strings.set(own, own);
    return own;
  }

  /** A result whose findings are copied (its other strings are copied by the ResultStore). */
  result(r: ResourceResult): ResourceResult {
    return r.findings.length === 0 ? r : { ...r, findings: this.data(r.findings) };
  }

  /**
   * Data whose strings are already its own (documents the read-ahead worker posted: structured clone copies
   * them), with each string replaced in place by the one kept: no copy of the objects, only of nothing.
   * Nothing reads a document's objects once its facts are taken, so sharing them is safe.
   */
  adopt<T>(value: T): T {
    if (typeof value === "string") return this.internOwned(value) as T;
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.adopt(value[i]);
      return value;
    }
    const o = value as Record<string, unknown>;
    for (const k in o) {
      const v = o[k];
      if (v !== null && (typeof v === "string" || typeof v === "object")) o[k] = this.adopt(v);
    }
    return value;
  }

  private internOwned(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    this.strings.set(s, s);
    return s;
  }

  /** A deep copy of plain data whose strings are owned and kept once (cheaper than a JSON round trip on small values). */
  data<T>(value: T): T {
    if (typeof value === "string") return this.intern(value) as T;
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) return value.map((v) => this.data(v)) as T;
    const out: Record<string, unknown> = {};
    for (const k in value) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = this.data(v);
    }
    return out as T;
  }
}


/** One resource through the selection, schema lookup and the per-object stages (asynchronous only when schemas must be loaded). */
function validateOne(r: ParsedResource, options: StreamOptions, ahead?: NativeAhead): ResourceResult | Promise<ResourceResult> {
  const { selection } = options;
  const verdict = selection.verdict(r);
  if (verdict) return resultOf(r, verdict.status, verdict.findings);
  const stages = { schema: selection.checks.has("schema"), cel: selection.checks.has("cel"), native: selection.checks.has("native") };
  if (!stages.schema && !stages.cel && !stages.native) return resultOf(r, "valid", []);
  const registry = options.registryFor(r);
  return registry instanceof Promise ? registry.then((reg) => validateWith(r, reg, stages, options, ahead)) : validateWith(r, registry, stages, options, ahead);
}

function validateWith(r: ParsedResource, registry: SchemaRegistry, stages: ValidationStages, options: StreamOptions, ahead?: NativeAhead): ResourceResult {
  const { selection, validator } = options;
  const type = registry.lookup(r.apiVersion, r.kind);
  if (!type) {
    const missing = missingSchema(r, registry);
    if (selection.ignoreMissingSchemas) return resultOf(r, "skipped", [{ ...missing, severity: "warning", message: `${missing.message.replace(/; supply it.*$/, "")}; skipped (--ignore-missing-schemas)` }]);
    return resultOf(r, "error", [missing]);
  }
  const outcome = validateWithSchema(validator, r.object, type, registry, options.previous?.(r), stages, ahead);
  // a CRD document the API server would refuse: part of what the schema stage reports
  const { findings, status } = stages.schema ? withCrdProblems(r, validator, outcome, registry) : outcome;
  return resultOf(r, status, findings);
}

/** What redaction needs of a Secret (its data and stringData), kept after its document is dropped. */
function secretFacts(r: ParsedResource, detacher: Detacher): ParsedResource | undefined {
  if (r.kind !== "Secret") return undefined;
  const { data, stringData } = r.object;
  return detacher.data({ ...r, object: { ...(data !== undefined ? { data } : {}), ...(stringData !== undefined ? { stringData } : {}) } });
}

/**
 * A cross-object subject whose `object` is made from its packed fact (restoreFact) each time it is read, so that
 * what a subject holds is its identity (~0.1 KB), not its object. `object` is a getter of the class, not an own
 * property: an own accessor (defineProperty, or a getter in an object literal) gives every instance a dictionary
 * of properties (~0.45 KB, measured). The checks read properties, never spread or list a resource's keys.
 */
class LazyFact implements ParsedResource {
  readonly file: string;
  readonly index: number;
  readonly pointer?: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;

  constructor(
    identity: Omit<ParsedResource, "object">,
    /** Its fact, and where facts are (shared by every subject: no closure each). */
    private readonly fact: number,
    private readonly extraOf: (fact: number) => ReturnType<typeof unpackExtra> | undefined,
  ) {
    this.file = identity.file;
    this.index = identity.index;
    if (identity.pointer) this.pointer = identity.pointer;
    this.apiVersion = identity.apiVersion;
    this.kind = identity.kind;
    this.name = identity.name;
    this.namespace = identity.namespace;
  }

  get object(): ParsedResource["object"] {
    return restoreFact(this, this.extraOf(this.fact)).object;
  }
}

/** Validates file after file; returns the report (results sorted by file, then index, findings located). */
export async function validateFiles(options: StreamOptions): Promise<Report> {
  const { selection, validator } = options;
  const transitionBefore = validator.cel.stats.transitionSkipped;
  const evaluatedBefore = validator.cel.stats.evaluated;
  // results as columns, found again by file, document and list item (cross-object findings below)
  const results = new ResultStore(options.spill);
  // facts for the cross-object checks, by fact: the row of each resource they see, and what its result does not
  // say (factExtra) as JSON text (in memory up to the store's budget, then in its spill), or as the object where
  // JSON would not give it back (-0, `__proto__` keys: rare, kept in memory)
  let facts: Int32Column | undefined = new Int32Column();
  let factCount = 0;
  let packedFacts: SpillColumn | undefined = new SpillColumn(results.spill, results.spillAfter);
  const objectFacts = new Map<number, Exclude<ReturnType<typeof packExtra>, string>>();
  const iam: IamDocument[] = [];
  const crossObject = options.crossObjectChecks !== undefined && selection.checks.has("cross-object");
  const iamLint = selection.checks.has("iam");
  const detacher = new Detacher();
  const heap = new HeapGuard();
  let documents = 0;
  let nextHeapCheck = 100;

  // Secrets' values, so that no finding of any document prints one (see redact.ts)
  const secrets: ParsedResource[] = [];
  for (const u of options.unreadable ?? []) results.add(detacher.result(resultOf(u, "error", [...u.findings])), u.pointer);
  const readAhead = options.readAhead ?? new ReadAhead(options.files, options.read, undefined);
  const warmAt = Math.min(WARM_FILES, options.files.length);
  let filesDone = 0;
  // the files in order, then the documents in memory; a file already here is taken without a turn of the event loop
  // (an async generator cost each file a few promises and microtask hops)
  const listedFiles = options.files.length;
  try {
    for (let fileIndex = 0; fileIndex <= listedFiles; fileIndex++) {
      let batch: { docs: LoadedDocuments; owned: boolean; native: readonly (NativeAhead | null)[] | undefined; text: string | undefined; listed: string | undefined };
      if (fileIndex < listedFiles) {
        const next = readAhead.next();
        const docs = next instanceof Promise ? await next : next;
        batch = { docs, owned: readAhead.lastFromWorker, native: readAhead.lastNative, text: readAhead.lastText, listed: options.files.at(fileIndex) };
      } else {
        readAhead.close();
        if (!options.documents) break;
        batch = { docs: options.documents, owned: false, native: undefined, text: undefined, listed: undefined };
      }
      const { docs, owned, native, text, listed } = batch;
      // a file shown as it was listed is kept as the list's string, not as a second copy of it (~70 B an object)
      const shown = docs.resources[0]?.file ?? docs.unreadable[0]?.file;
      if (listed !== undefined && shown === listed) results.preferString(listed);
      // facts keep strings once: copied out of the file's text (main-thread parsing) or kept as posted (worker)
      const keep = <T>(v: T): T => (owned ? detacher.adopt(v) : detacher.data(v));
      const fileResults: ResourceResult[] = [];
      const fileFacts: { readonly at: number; readonly extra: ReturnType<typeof factExtra>; readonly packed?: string | false }[] = [];
      // indexed loops here and below: this runs once per file, mostly before V8 optimises it, where an entries()
      // iterator and its destructuring cost more than the loop's body (~5 ms of block 5,000's main thread)
      for (let i = 0; i < docs.resources.length; i++) {
        const r = docs.resources[i] as ParsedResource;
        const ahead = native?.[i] ?? undefined;
        const pending = validateOne(r, options, ahead);
        const result = pending instanceof Promise ? await pending : pending;
        fileResults.push(result);
        // the fact the worker made of this very object (built-in objects: validation never changes them), else made here
        if (crossObject && result.status !== "skipped" && !result.findings.some((f) => f.rule.startsWith("reject:")))
          fileFacts.push(ahead?.fact !== undefined ? { at: i, extra: undefined, packed: ahead.fact } : { at: i, extra: factExtra(r) });
        const secret = secretFacts(r, detacher);
        if (secret) secrets.push(secret);
      }
      for (const u of docs.unreadable) fileResults.push(resultOf(u, "error", [...u.findings]));
      // IAM documents are small and linted together (a folder's index.json gives each file its context)
      iam.push(...docs.iam);
      const first = results.size;
      // located in the text the file was read from (one read per file); a file not read as text is asked for again.
      // Most files have no finding: nothing to locate
      const fileText = text === undefined ? options.readText : () => text;
      // a plain JSON file is known to be one only in the text its documents were read from
      const located = fileResults.some((r) => r.findings.length > 0) ? locateAll(fileResults, fileText, docs.json === true && text !== undefined) : fileResults;
      // results are found again by file, document and list item (cross-object findings below): the resources' results
      // come first, then the unreadable documents'
      const readable = docs.resources.length;
      for (let j = 0; j < located.length; j++) results.add(detacher.result(located[j] as ResourceResult), j < readable ? (docs.resources[j] as ParsedResource).pointer : (docs.unreadable[j - readable] as UnreadableDocument).pointer);
      for (const { at, extra, packed: made } of fileFacts) {
        const f = factCount++;
        facts.set(f, first + at);
        // the worker's fact (a string, or false for none) goes to the same column as one made here
        const packed = made !== undefined ? made || undefined : extra ? packExtra(extra) : undefined;
        packedFacts.push(typeof packed === "string" ? packed : undefined);
        if (packed !== undefined && typeof packed !== "string") objectFacts.set(f, keep(packed));
      }
      // asking V8 for heap statistics costs ~0.2 ms: every few hundred documents is often enough
      documents += docs.resources.length + docs.unreadable.length + docs.iam.length;
      if (documents >= nextHeapCheck) {
        nextHeapCheck = documents + 100;
        heap.check();
      }
      if (listed !== undefined && ++filesDone === warmAt) options.onWarm?.(warmAt);
    }
  } finally {
    readAhead.close();
  }

  const lint = iamLint ? lintIamDocuments(iam) : new Map();
  for (const d of iam) {
    const outcome = lint.get(d.file) ?? { status: "skipped" as const, findings: [] };
    results.add(resultOf({ file: d.file, index: 0, kind: `IAM:${d.iamKind}`, name: d.file.replace(/^.*\//, "").replace(/\.json$/, "") }, outcome.status, outcome.findings));
  }
  if (crossObject && options.crossObjectChecks) {
    const checks = options.crossObjectChecks;
    const context = options.crossObjectOnly?.resources.map(compactForCrossObject) ?? [];
    const n = factCount;
    const factRows = facts;
    const extraOf = (f: number) => {
      const packed = packedFacts?.at(f);
      return packed !== undefined ? unpackExtra(packed) : objectFacts.get(f);
    };
    // the resources the checks see: the run's (rows of the store, made objects only when a check needs them), then the context's
    const rows: CrossObjectRows = {
      size: n + context.length,
      apiVersion: (i) => (i < n ? results.apiVersionAt(factRows.get(i)) : (context[i - n] as ParsedResource).apiVersion),
      kind: (i) => (i < n ? results.kindAt(factRows.get(i)) : (context[i - n] as ParsedResource).kind),
      name: (i) => (i < n ? results.nameAt(factRows.get(i)) : (context[i - n] as ParsedResource).name),
      namespace: (i) => (i < n ? results.namespaceAt(factRows.get(i)) : (context[i - n] as ParsedResource).namespace),
      resource: (i) => {
        if (i >= n) return context[i - n] as ParsedResource;
        const row = factRows.get(i);
        const r = results.get(row);
        const identity = { file: r.file, index: r.index, pointer: results.pointer(row), apiVersion: r.apiVersion, kind: r.kind, name: r.name, namespace: r.namespace };
        if (i < results.spillAfter) return restoreFact(identity, extraOf(i));
        // past the budget a subject's object is made again from its packed fact each time a check reads it (each
        // is read a few times at most), instead of 52,000 objects of ~0.6 KB held at once at 200,000 objects
        return new LazyFact(identity, i, extraOf);
      },
    };
    const subjects = checks.subjects?.(rows) ?? Array.from({ length: rows.size }, (_, i) => i);
    // the subjects are made objects in the order written: the spilled facts are read back block by block; what is
    // in memory of the others is the budget's first facts at most (past it they are on disk)
    const seen = subjects.map((i) => rows.resource(i));
    // a finding on a context document has no result to go to: it is dropped
    // an item of a list: its findings point into the document (`/items/N/...`), as resultOf() does
    results.addFindings(checks(seen, { ...options.crossObjectContext, iam: options.crossObjectOnly ? [...iam, ...options.crossObjectOnly.iam] : iam }), (f) => ({
      severity: f.severity,
      path: f.pointer ? `${f.pointer}${f.path}` : f.path,
      message: f.message,
      rule: f.rule,
      ...(f.hint ? { hint: f.hint } : {}),
    }));
    packedFacts = undefined;
    objectFacts.clear();
    facts = undefined;
  }
  // what was read is garbage now: collected (when it grew by the slack) before the report is formatted
  heap.check(16 * 1024 * 1024);
  // only the results with findings become objects here (located, then redacted: no Secret value is ever printed,
  // in any format); the others are made from their rows one at a time as the report is written (SortedRows)
  const found = results.rowsWithFindings();
  const final = redactResults(secrets, locateAll(found.map((row) => results.get(row)), options.readText));
  const done = new Map(found.map((row, i) => [row, final[i] as ResourceResult]));
  return reportOfRows(new SortedRows(results, results.sortedRows(), done), {
    stats: { transitionRulesSkipped: validator.cel.stats.transitionSkipped - transitionBefore, celRulesEvaluated: validator.cel.stats.evaluated - evaluatedBefore },
  });
}
